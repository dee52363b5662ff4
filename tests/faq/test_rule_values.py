"""Every number an FAQ answer states is the number of the rule set it is shown for (issue 8).

FAQ texts name rule-set values as placeholders (`{spade_king_draw:cards}`, companion/faq_rules.py),
filled from the set in force. This test renders every entry for every set it is shown for, in both
languages, reads each claim the text makes about a draw, a deal or the loss line ("the next player
draws 5", «сдают по 4 карты», "over 101 loses") and checks the number against that set's data.
"""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from companion.core.rules import RULESETS, RuleSet, StarterRule
from companion.faq import entries as faq
from companion.faq.rule_values import unknown_placeholders

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


CASES = [(e.slug, rid) for e in faq.all_entries() if e.slug not in ABOUT_OTHER_GAMES for rid in shown(e)]


@pytest.mark.parametrize(("slug", "ruleset_id"), CASES)
def test_every_stated_number_is_the_sets_own(slug: str, ruleset_id: str) -> None:
    entry = faq.get_entry(slug)
    assert entry is not None
    rs = RULESETS[ruleset_id]
    wrong = []
    for lang in faq.LANGS:
        text = entry.text(lang, rs)
        body = "\n".join([text.verdict, text.answer, text.by_ruleset.get(ruleset_id, "")])
        wrong += claims(body, rs)
    assert not wrong, f"{slug} shown for {ruleset_id}:\n" + "\n".join(wrong)


def test_numbers_follow_a_tables_options() -> None:
    """A series' own options fill the same answers: K♠ drawing 4 in igrafan says 4."""
    entry = faq.get_entry("spade-king")
    assert entry is not None
    house = RULESETS["igrafan"].with_options({"spade_king_draw": 4})
    assert not claims(entry.text("ru", house).answer, house)
    assert claims(entry.text("ru", RULESETS["igrafan"]).answer, house)  # the preset's 5 is wrong for this table


@pytest.mark.parametrize("slug", [e.slug for e in faq.all_entries()])
def test_placeholders_are_known(slug: str) -> None:
    entry = faq.get_entry(slug)
    assert entry is not None
    for raw in (entry.ru, entry.en):
        for part in (raw.question, raw.verdict, raw.answer, *raw.by_ruleset.values()):
            assert not unknown_placeholders(part), (slug, unknown_placeholders(part))


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
    assert says in page and not_says not in page
    default = client.get("/faq/who-starts", query_string={"ruleset": "igrafan", "lang": lang}).get_data(as_text=True)
    assert not_says in default
