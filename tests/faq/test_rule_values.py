"""Every number and every rule an FAQ answer states is the one of the rules it is shown for (issues 8, 23).

FAQ texts name rule-set values as placeholders (`{spade_king_draw:cards}`, companion/faq/rule_values.py),
filled from the set in force, and choose their verdict and notes by rule values (`[[case]]`, `[[note]]`).
These tests render every entry for every preset and every value of each option it depends on, in both
languages, and check two things: each claim about a number (a draw, a deal, the loss line) is that
rule set's number, and each kind of rule the answer depends on (a six the next player draws for or a
six one covers oneself; passing penalties on or not; …) is stated as the rules have it, with no
sentence stating another kind of that rule.
"""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from companion.core.errors import RuleError
from companion.core.rules import RULESETS, SPECS_BY_KEY, RuleSet, StarterRule
from companion.faq import entries as faq
from companion.faq.rule_values import FACT_OPTIONS, condition_holds, facts

WORDS = {
    "один": 1, "одна": 1, "одну": 1, "одной": 1, "два": 2, "две": 2, "двух": 2, "три": 3, "трёх": 3,
    "четыре": 4, "четырёх": 4, "пять": 5, "пяти": 5, "шесть": 6, "шести": 6, "восемь": 8,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "eight": 8,
}
NUMBER = r"(\d+|" + "|".join(WORDS) + r")"
CARD_COUNT = [
    re.compile(NUMBER + r"\s+(?:штрафн\w+\s+|лишн\w+\s+)?карт", re.I),
    re.compile(r"\b" + NUMBER + r"\s+(?:penalty\s+|more\s+)?cards?\b", re.I),
    re.compile(r"(?:берёт|берёте|брать|взять|возьм\w+|тян\w+|добира\w+|добер\w+)\s+(?:ещё\s+|по\s+|сразу\s+)?"
               + NUMBER + r"\b", re.I),
    re.compile(r"\b(?:draws?|drawing|takes?|picks? up)\s+(?:up\s+|another\s+)?" + NUMBER + r"\b", re.I),
    re.compile(NUMBER + r"\s+(?:—\s+)?за\s+(?:пиков|сем[её]рк|шест[её]рк)", re.I),
    re.compile(r"\b" + NUMBER + r"\s+for\s+(?:the\s+king|a\s+seven|the\s+seven|a\s+six)", re.I),
]
LOSS = re.compile(r"(?:больше|более|свыше|over|above|past|от|reach(?:es)?|at)\s+(\d{2,3})"
                  r"|(\d{2,3})\s+(?:или больше|и больше|or more)", re.I)
SUBJECTS = {
    "king": re.compile(r"пиков\w* корол|корол\w* пик|king of spades|[KК]♠", re.I),
    "seven": re.compile(r"сем[её]рк|\bsevens?\b", re.I),
    "six": re.compile(r"шест[её]рк|\bsix(?:es)?\b", re.I),
    "deal": re.compile(r"сда[ёюв]|сдаю|сдач|раздат|раздают|раздач|\bdealt\b|\bdeals?\b|to start", re.I),
}
PRESETS = {  # a sentence about one preset by name states that preset's numbers
    "classic": re.compile(r"классик|\bclassic\b", re.I),
    "elimination": re.compile(r"на вылет|\belimination\b", re.I),
    "elvista": re.compile(r"elvista|элвист", re.I),
    "pharaoh": re.compile(r"фараон|\bpharaoh\b", re.I),
    "igrafan": re.compile(r"играфан|igrafan", re.I),
}
ABOUT_OTHER_GAMES = {"uno-and-mau-mau"}  # compares with Uno and Mau-Mau: its numbers are those games'
LOSING = re.compile(r"проигр|выбыва|вылета|\blos[et]|\bloses\b|\bout\b", re.I)


def number(text: str) -> int:
    return int(text) if text.isdigit() else WORDS[text.lower()]


def allowed_draws(rs: RuleSet, subjects: set[str]) -> set[int]:
    opt = rs.defaults
    allowed = {1}  # "draw one" (nothing fits, or a six one cannot cover) is in every set
    if "king" in subjects:
        allowed.add(opt.spade_king_draw)
    if "seven" in subjects:
        for draw in {opt.seven_draw_for(False), opt.seven_draw_for(True)}:
            allowed |= {draw * 2 ** k for k in range(4)} if opt.penalty_transfer else {draw}
    if "six" in subjects:
        allowed |= {opt.six.draw, opt.six.draw * 2} if opt.penalty_transfer else {opt.six.draw}
    if "deal" in subjects:
        allowed |= {opt.hand_size, opt.hand_size - 1 if rs.play.table_card else opt.hand_size}
    return allowed


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]


def claims(text: str, rs: RuleSet) -> list[str]:
    """What a text states that the rule set `rs` does not have."""
    wrong = []
    shown_for = rs
    for sentence in sentences(text):
        named = [rid for rid, pattern in PRESETS.items() if pattern.search(sentence)]
        rs = RULESETS[named[0]] if len(named) == 1 else shown_for
        loss_values = {rs.defaults.loss_above, rs.defaults.loss_above + 1} | {old for old, _ in rs.defaults.resets}
        subjects = {name for name, pattern in SUBJECTS.items() if pattern.search(sentence)}
        if subjects:
            allowed = allowed_draws(rs, subjects)
            for pattern in CARD_COUNT:
                for match in pattern.finditer(sentence):
                    if number(match.group(1)) not in allowed and number(match.group(1)) not in (36, 52):
                        about = "/".join(sorted(subjects))
                        wrong.append(f"{match.group(0)!r} ({about}: {sorted(allowed)}) in {sentence!r}")
        if LOSING.search(sentence):
            for match in LOSS.finditer(sentence):
                value = int(match.group(1) or match.group(2))
                if value >= 90 and value not in loss_values:
                    wrong.append(f"{match.group(0)!r} (loss line {sorted(loss_values)}) in {sentence!r}")
    return wrong


def shown(entry: faq.FaqEntry) -> list[str]:
    return list(entry.rulesets) or list(RULESETS)


def test_numbers_follow_a_tables_options() -> None:
    """A series' own options fill the same answers: K♠ drawing 4 in igrafan says 4."""
    entry = faq.get_entry("spade-king")
    assert entry is not None
    house = RULESETS["igrafan"].with_options({"spade_king_draw": 4})
    assert not claims(entry.text("ru", house).answer, house)
    assert claims(entry.text("ru", RULESETS["igrafan"]).answer, house)  # the preset's 5 is wrong for this table


def test_the_checker_catches_the_old_mistakes() -> None:
    """The claims the issue found wrong are caught (so the test above is not empty)."""
    classic = RULESETS["classic"]
    assert claims("Сыгранный пиковый король заставляет соседа тянуть пять карт.", classic)
    assert claims("Played, the king of spades makes the next player draw five.", classic)
    assert not claims("Played, the king of spades makes the next player draw 4 cards.", classic)
    assert claims("If someone goes over 101, they lose.", RULESETS["pharaoh"])
    assert not claims("With 100 or more a player loses.", RULESETS["pharaoh"])


STARTER_WORDS = {  # what the verdict says of the rounds after the first, per the set's starter rule
    StarterRule.WINNER: {"ru": re.compile(r"победител"), "en": re.compile(r"\bwinner\b")},
    StarterRule.ROTATE: {"ru": re.compile(r"по кругу"), "en": re.compile(r"\brotates\b")},
}


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_who_starts_follows_the_sets_starter_rule(ruleset_id: str) -> None:
    """«Кто ходит первым?» says who starts the next round as the rule set has it (classic: the deal rotates)."""
    entry = faq.get_entry("who-starts")
    assert entry is not None
    rs = RULESETS[ruleset_id]
    rule = rs.play.next_starter
    for lang in faq.LANGS:
        text = entry.text(lang, rs)
        for part in (text.verdict, text.answer):
            assert "{" not in part
            assert STARTER_WORDS[rule][lang].search(part), (ruleset_id, lang, part)
            for other, words in STARTER_WORDS.items():
                if other is not rule:
                    assert not words[lang].search(part), (ruleset_id, lang, part)


@pytest.mark.parametrize(("lang", "says", "not_says"), [
    ("ru", "следующий по кругу", "победитель прошлого раунда"),
    ("en", "the deal rotates", "the winner of the last round starts"),
])
def test_who_starts_page_for_classic_says_the_deal_rotates(
        client: FlaskClient, lang: str, says: str, not_says: str) -> None:
    page = client.get("/faq/who-starts", query_string={"ruleset": "classic", "lang": lang}).get_data(as_text=True)
    page = page[:page.index('class="sources"')]  # the answer, not what each written source says
    assert says in page and not_says not in page
    default = client.get("/faq/who-starts", query_string={"ruleset": "igrafan", "lang": lang}).get_data(as_text=True)
    assert not_says in default


# -- the kinds of rules a verdict states (issue 23) ------------------------------------------------

KINDS: dict[str, dict[object, dict[str, str]]] = {
    # the rule value → (per language) what a sentence stating that rule says
    "six_draws": {
        True: {"ru": r"(?:берёт|взять|тянет) \d+ карт|шест[её]рк\w*[^.]*штраф|штрафует|крыть (?:её )?самому не нужно"
                     r"|не требует покрытия|шестёрку — шестёркой",
               "en": r"draws? \d+ cards?|a six is a penalty|don't cover (?:it|your own six)|needs no cover"
                     r"|a six with a six"},
        False: {"ru": r"кройте её сами|кроет сам|кроют сами|кроете её вы сами|тут же кладёт сверху|кроют её"
                      r"|кроют шестёрку|надо покрыть|требует продолжения|ход не уходит",
                "en": r"(?<!don't )cover it yourself|covered by the starter|covered by its own player"
                      r"|immediately puts another|it's covered with|what covers a six|has to be covered"
                      r"|demands a follow-up|doesn't hand the turn on"},
    },
    "penalty_transfer": {
        True: {"ru": r"можно перевести|переводят своей|перевести обратно|можно переводить",
               "en": r"passes on with|can be passed on with|does pass the penalty on|pass a seven's penalty back"
                     r"|passes it on|may throw on their own"},
        False: {"ru": r"не переводят|перевести этот штраф нельзя|не спихнёшь|включить в домашних",
                "en": r"doesn't allow passing|can't be blocked or passed on|doesn't pass the penalty on"
                      r"|can be switched on"},
    },
    "ten_reverses": {
        True: {"ru": r"меняет направление|разворачивает ход",
               "en": r"reverses the direction|turns it round|turns round"},
        False: {"ru": r"обычная карта|направление не меняется|направление она не меняет",
                "en": r"ordinary card|direction never changes"},
    },
    "shuffle_pile": {
        True: {"ru": r"перетасуйте|тасуют", "en": r"shuffle the rest|(?<!don't )shuffle it\b"},
        False: {"ru": r"без тасовки|перемешивать её не нужно", "en": r"no shuffling|don't shuffle"},
    },
    "no_match": {
        "draw-pass": {"ru": r"ждёт вашего следующего хода|передаёте ход|сразу её не кладут",
                      "en": r"waits for your next turn|pass the turn|you don't play it now"},
        "draw-play": {"ru": r"подошла — (?:сразу )?кладёте|подходит, (?:сразу )?кладёте|кладите её сразу",
                      "en": r"if it fits, play it|if it fits, you play it"},
        "draw-until": {"ru": r"пока не придёт", "en": r"until (?:a card|one) fits|keep drawing until"},
    },
    "eight": {
        "normal": {"ru": r"обычная карта|больше ничего не происходит", "en": r"ordinary card|nothing else happens"},
        "play-again": {"ru": r"ходите ещё раз|сразу ходит снова", "en": r"play again|goes again"},
        "must-cover": {"ru": r"должны покрыть|кроете её следующей|надо покрыть", "en": r"must cover|covers it at once"
                       r"|must be covered"},
    },
    "four_of_a_kind_redeal": {
        True: {"ru": r"сдают заново|раздачу повторяют|ещё пересдают", "en": r"dealt again|also redeal"},
        False: {"ru": r"ничего не меняют|играем дальше", "en": r"change nothing|play on"},
    },
    "negative_to_zero": {
        True: {"ru": r"становится нулём|не опускается", "en": r"becomes zero|doesn't go below zero"},
        False: {"ru": r"может уйти в минус|ушёл в минус|нулём это не ограничивается|^Да\.$",
                "en": r"can drop below zero|below zero\. Zero isn't a floor|^Yes\.$"},
    },
    "on_loss": {
        "series-ends": {"ru": r"останавливается весь стол|заканчивается для всего стола|Оба\.",
                        "en": r"whole table stops|ends the series for the whole table|Both of you\."},
        "eliminate": {"ru": r"выбывает|выбываете|выбывают", "en": r"drops? out"},
    },
    "queens_only": {
        True: {"ru": r"нет ничего, кроме дам|одних дам: тогда|дам\w* и больше ничего",
               "en": r"nothing but queens|queens and nothing else"},
        False: {"ru": r"отдельного счёта|всё равно стоит 3|всегда стоит 3", "en": r"no special score|still 3|always 3"},
    },
    "ace_answer": {
        True: {"ru": r"ответить своим тузом", "en": r"answered with an ace"},
    },
    "several_at_once": {
        True: {"ru": r"сразу несколько карт", "en": r"several cards of one rank at once"},
        False: {"ru": r"одну карту|ровно одну", "en": r"one card per turn|exactly one card"},
    },
    "finish_on_queen": {
        False: {"ru": r"Выйти дамой нельзя|ею не кончается", "en": r"can't go out on a queen|doesn't end on it"},
        True: {"ru": r"спишут|вычитают", "en": r"come off|knock"},
    },
    "table_card": {
        True: {"ru": r"открывает на стол|кладёт открытой на стол|открытая сдатчиком|открывает сдатчик",
               "en": r"turns (?:the last one |a card )?up|face up on the table|the dealer turns"},
        False: {"ru": r"любую карту с руки|любой картой со своей руки", "en": r"any card from (?:their|your) hand"},
    },
}
# A kind about one card is read in the sentences that name that card ("draws 2 cards" about a seven
# says nothing of the six); the other kinds in the whole answer.
SUBJECT_OF = {
    "six_draws": r"шест[её]р|\bsix", "eight": r"восьм|\beight", "ten_reverses": r"десят|\bten|direction|направлен",
}


def option_values(key: str) -> list[object]:
    """The values to try for an option: all its choices, or those the presets use."""
    spec = SPECS_BY_KEY[key]
    if spec.kind == "bool":
        return [False, True]
    if spec.kind == "choice":
        return list(spec.choices)
    values = []
    for rs in RULESETS.values():
        value = rs.defaults.to_json()[key]
        if value not in values:
            values.append(value)
    return values


def variants(entry: faq.FaqEntry) -> list[tuple[str, RuleSet]]:
    """Every preset the entry is shown for, as it is and with each value of each option it depends on."""
    out = []
    for rid in shown(entry):
        out.append((rid, RULESETS[rid]))
        for fact in entry.depends_on():
            option = FACT_OPTIONS.get(fact)
            if option is None:
                continue
            for value in option_values(option):
                try:
                    out.append((f"{rid}+{option}={value}", RULESETS[rid].with_options({option: value})))
                except RuleError:
                    continue
    return out


def wrong_kinds(entry: faq.FaqEntry, rs: RuleSet) -> list[str]:
    """The kinds of rule the entry's answer for `rs` gets wrong: the rule in force not stated,
    or another value of it stated."""
    have = facts(rs)
    kinds_used = [fact for fact in entry.depends_on() if fact in KINDS]
    case = next((c for c in entry.cases if condition_holds(c.when, have)), None)
    chosen = [case.when] if case else []
    chosen += [n.when for n in entry.notes if condition_holds(n.when, have)]
    said = {key for when in chosen for key, _ in when}  # a text chosen for this value must say it
    if case is None:  # the entry's own text is chosen where no case holds: it says what the cases' first rule is
        said |= {c.when[0][0] for c in entry.cases}
    wrong = []
    for lang in faq.LANGS:
        text = entry.text(lang, rs)
        for fact in kinds_used:
            subject = SUBJECT_OF.get(fact)
            body = " ".join(s for s in sentences(text.full_answer()) if not subject or re.search(subject, s, re.I))
            mine = KINDS[fact].get(have[fact])
            if mine and fact in said and not re.search(mine[lang], body, re.I):
                wrong.append(f"{lang}: {fact}={have[fact]} not stated in {body!r}")
            for value, other in KINDS[fact].items():
                found = re.search(other[lang], body, re.I)
                if value != have[fact] and found:
                    wrong.append(f"{lang}: {fact}={have[fact]} but {found.group(0)!r} states {fact}={value}")
    return wrong


KIND_SLUGS = [e.slug for e in faq.all_entries() if set(e.depends_on()) & set(KINDS)]


@pytest.mark.parametrize("slug", KIND_SLUGS)
def test_the_answer_states_the_rule_in_force_and_no_other(slug: str) -> None:
    """For every preset and every value of each option the entry depends on: all that is wrong, at once."""
    entry = faq.get_entry(slug)
    assert entry is not None
    wrong = [f"for {label}: {w}" for label, rs in variants(entry) for w in wrong_kinds(entry, rs)]
    assert not wrong, f"{slug}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("slug", [e.slug for e in faq.all_entries() if e.slug not in ABOUT_OTHER_GAMES])
def test_every_stated_number_follows_the_options(slug: str) -> None:
    entry = faq.get_entry(slug)
    assert entry is not None
    wrong = [f"for {label}: {claim}" for label, rs in variants(entry) for lang in faq.LANGS
             for claim in claims(entry.text(lang, rs).full_answer(), rs)]
    assert not wrong, f"{slug}:\n" + "\n".join(wrong)


def test_the_kinds_catch_the_answers_the_issue_found_wrong() -> None:
    """«Кройте её сами» for a six the next player draws for, «штрафы не переводят» where they pass on."""
    entry = faq.get_entry("six")
    assert entry is not None
    classic = RULESETS["classic"]
    wrong_six = faq.FaqEntry(entry.slug, entry.group, entry.sources, entry.related, entry.rulesets, entry.ru,
                             entry.en, entry.cites, (), entry.notes)  # the entry without its cases: igrafan's text
    assert any("six_draws=True" in w for w in wrong_kinds(wrong_six, classic))
    assert not wrong_kinds(entry, classic)
    table = RULESETS["igrafan"].with_options({"six": "next-draws-1"})  # a table's house option, not a preset
    assert "Следующий берёт 1 карту" in entry.text("ru", table).verdict


EXACT_TOTALS = {
    "ru": {"101→0": r"101 обнуляет|101 становится 0", "100→0": r"100 обнуляет|100 становится 0|100 — 0\b",
           "100→50": r"100 превращается в 50|100 — 50", "100 loses": r"проигрыш|проигрывает"},
    "en": {"101→0": r"101 resets|101 becomes 0", "100→0": r"100 resets|100 becomes 0",
           "100→50": r"100 drops to 50|100 becomes 50", "100 loses": r"lose"},
}


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
@pytest.mark.parametrize("resets", [{"101": 0}, {"101": 0, "100": 50}, {"100": 0}, {}])
def test_exactly_100_or_101_says_what_the_totals_become(ruleset_id: str, resets: dict[str, int]) -> None:
    """The issue's third kind of mistake: 100 kept where it resets, 101 reset where it does not."""
    entry = faq.get_entry("exactly-100-or-101")
    assert entry is not None
    rs = RULESETS[ruleset_id].with_options({"resets": resets})
    opt = rs.defaults
    expected = {"101→0": resets.get("101") == 0, "100→0": resets.get("100") == 0,
                "100→50": resets.get("100") == 50}
    for lang in faq.LANGS:
        verdict = entry.text(lang, rs).verdict
        for claim, holds in expected.items():
            assert bool(re.search(EXACT_TOTALS[lang][claim], verdict)) == holds, (ruleset_id, resets, lang, verdict)
        if opt.loss_above < 100 and "100" not in resets:
            assert re.search(EXACT_TOTALS[lang]["100 loses"], verdict), (ruleset_id, resets, lang, verdict)
