"""FAQ answers filled from the rule-set data: one source for every number and every rule an answer states.

`facts()` are the rule values an entry's cases and notes are chosen by (`when = {six =
"self-cover"}`): every option of the table (`Options`), the preset's fixed play rules
(`PlayRules`) and a few values read from them (what exactly 101 and 100 become, how many
players sit). `FACT_OPTIONS` names the option each one follows, so a test can try every value.

An FAQ text may name a value of the rule set in braces, `{spade_king_draw}`, or with
its unit, `{spade_king_draw:cards}` (ru «4 карты» / «5 карт», en "4 cards") or
`{queens_only_points:points}`. `fill()` writes the values of the rule set the
answer is shown for (a preset, or a series' own with its house rules); without
one, the default set's. A text about another preset names it:
`{classic.spade_king_draw:cards}`. The names are those of `values()`; a name
with a text per language (`{next_starter}`: who starts the next round, worded for the
set's `next_starter` rule) is filled in the answer's language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import fields
from enum import Enum
from typing import Any

from companion.core.rules import DEFAULT_RULESET, OPTION_KEYS, RULESETS, PlayRules, RuleSet, SixRule, StarterRule

PLACEHOLDER = re.compile(r"\{(?:([a-z]+)\.)?([a-z_0-9]+)(?::([a-z]+))?\}")

# Russian noun forms for 1, 2–4, 5+ (and English singular, plural).
_UNITS = {
    "cards": (("карта", "карты", "карт"), ("card", "cards")),
    "points": (("очко", "очка", "очков"), ("point", "points")),
    "players": (("игрок", "игрока", "игроков"), ("player", "players")),
}
# The accusative after "берёт/возьмите": «одну карту» (only 1 differs from the nominative).
_ACCUSATIVE = {"карта": "карту"}
# Who starts every round after the first, per `PlayRules.next_starter`; it reads after
# «потом —» / «первым ходит» and "after that" / "in every later round".
_NEXT_STARTER = {
    StarterRule.WINNER: ("победитель прошлого раунда", "the winner of the last round starts"),
    StarterRule.ROTATE: ("следующий по кругу после прошлого начинающего, кто бы ни выиграл",
                         "the deal rotates and the player after the last starter begins, whoever won"),
}
# Rules said in words, filled in the answer's language: what one's own six is covered by (ru in the
# instrumental: «кройте её …»), what a player does who cannot play or cover (after «нечем —» / "if you
# can't,"), and what passing a penalty on does to it.
_SIX_COVER = {
    "suit-or-queen": ("картой той же масти или дамой", "a card of the same suit or a queen"),
    "any-fit": ("любой подходящей картой (той же масти, другой шестёркой или дамой)",
                "any card that fits (the same suit, another six or a queen)"),
    "any-card": ("любой картой", "any card at all"),
}
_UNCOVERED = {
    "draw-pass": ("берёте одну карту из добора и передаёте ход", "draw one card from the pile and pass the turn"),
    "draw-play": ("берёте одну карту из добора: подошла — сразу кладёте её, нет — ход переходит дальше",
                  "draw one card from the pile: if it fits, play it at once, if not, the turn passes"),
    "draw-until": ("тянете из добора, пока не придёт подходящая карта, и кладёте её",
                   "keep drawing from the pile until a card fits, and play it"),
}
_TRANSFER = {
    True: ("и штраф для следующего удваивается", "and the penalty doubles for the next player"),
    False: ("и штрафы складываются", "and the penalties add up"),
}
_SUIT_OF = {"♥": ("червей", "hearts"), "♠": ("пик", "spades")}  # «дама червей» / "the queen of hearts"
# names filled with the `_ru` or `_en` value
LANG_TEXTS = ("special_queen", "next_starter", "special_suit", "six_cover_with", "uncovered", "transfer_how")


def values(rs: RuleSet) -> dict[str, int | str]:
    """The numbers an FAQ answer may state, from the rule set's data (options in force)."""
    opt, play = rs.defaults, rs.play
    special = "♥" if opt.special_queen == "♥" else "♠"
    resets = dict(opt.resets)
    return {
        "hand_size": opt.hand_size,
        "dealer_hand": opt.hand_size - 1 if play.table_card else opt.hand_size,
        "deck": opt.deck,
        "min_players": rs.min_players,
        "max_players": rs.most_players,
        "max_players_36": rs.max_players_for(rs.options({"deck": 36})),
        "max_players_52": rs.max_players_for(rs.options({"deck": 52})),
        "seven_draw": opt.seven_draw_for(False),
        "spade_seven_draw": opt.seven_draw_for(True),
        "spade_king_draw": opt.spade_king_draw,
        "six_draw": opt.six.draw,
        "nine_points": opt.nine_points,
        "spade_king_points": opt.spade_king_points,
        "queens_only_points": opt.queens_only_points,
        "queens_only_special_points": opt.queens_only_special_points,
        "queen_finish_points": opt.queen_finish_points,
        "queen_finish_special_points": opt.queen_finish_special_points,
        "special_queen_ru": "Д" + special,
        "special_queen_en": "Q" + special,
        "loss_above": opt.loss_above,
        "loss_at": opt.loss_above + 1,  # the first total that loses
        "reset_101": resets.get(101, 101),  # what a total of exactly 101 becomes
        "reset_100": resets.get(100, 100),
        "next_starter_ru": _NEXT_STARTER[play.next_starter][0],
        "next_starter_en": _NEXT_STARTER[play.next_starter][1],
        "special_suit_ru": _SUIT_OF[special][0],
        "special_suit_en": _SUIT_OF[special][1],
        "six_cover_with_ru": _SIX_COVER[opt.six_cover.value][0],
        "six_cover_with_en": _SIX_COVER[opt.six_cover.value][1],
        "uncovered_ru": _UNCOVERED[opt.no_match.value][0],
        "uncovered_en": _UNCOVERED[opt.no_match.value][1],
        "transfer_how_ru": _TRANSFER[play.transfer_doubles][0],
        "transfer_how_en": _TRANSFER[play.transfer_doubles][1],
        "queens_only_double": 2 * opt.queens_only_points,  # two queens, neither the special one
    }


Condition = tuple[tuple[str, tuple[Any, ...]], ...]
"""A case's or a note's `when`: every named rule value is one of the listed values."""

# The fact → the option it follows (facts that are not options follow the preset alone).
FACT_OPTIONS: dict[str, str] = {
    **{key: key for key in OPTION_KEYS if key != "resets"},
    "reset_101": "resets", "reset_100": "resets", "resets_any": "resets", "max_players": "deck",
    "queens_only_same": "queens_only_special_points", "queen_finish_same": "queen_finish_special_points",
    "six_draws": "six",
}
PLAY_FACTS = tuple(f.name for f in fields(PlayRules))


def facts(rs: RuleSet) -> dict[str, Any]:
    """The rule values of `rs` a case or note may test, as plain values (the options' JSON values)."""
    data = {key: value for key, value in rs.defaults.to_json().items() if key != "resets"}
    for name in PLAY_FACTS:
        value = getattr(rs.play, name)
        data[name] = value.value if isinstance(value, Enum) else value
    resets = dict(rs.defaults.resets)
    data["reset_101"] = resets.get(101, 101)
    data["reset_100"] = resets.get(100, 100)
    data["resets_any"] = bool(resets)
    data["max_players"] = rs.most_players
    opt = rs.defaults
    data["queens_only_same"] = opt.queens_only_points == opt.queens_only_special_points  # no special queen
    data["queen_finish_same"] = opt.queen_finish_points == opt.queen_finish_special_points
    data["six_draws"] = opt.six is not SixRule.SELF_COVER  # a six makes the next player draw
    return data


def condition_holds(when: Condition, have: Mapping[str, Any]) -> bool:
    return all(key in have and have[key] in allowed for key, allowed in when)


def unknown_facts(when: Condition) -> list[str]:
    """Names in a condition that are no rule value (for the content tests)."""
    known = facts(RULESETS[DEFAULT_RULESET])
    return [key for key, _ in when if key not in known]


def russian_form(n: int, forms: tuple[str, str, str]) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return forms[1]
    return forms[2]


def with_unit(n: int, unit: str, lang: str) -> str:
    ru, en = _UNITS[unit]
    if lang == "ru":
        word = russian_form(n, ru)
        return f"{n} {_ACCUSATIVE.get(word, word)}"
    return f"{n} {en[0] if n == 1 else en[1]}"


def fill(text: str, rs: RuleSet | None, lang: str) -> str:
    """The text with every `{name}` / `{name:unit}` replaced by this rule set's value."""
    if "{" not in text:
        return text
    table = values(rs if rs is not None else RULESETS[DEFAULT_RULESET])

    def one(match: re.Match[str]) -> str:
        preset, name, unit = match.group(1), match.group(2), match.group(3)
        source = values(RULESETS[preset]) if preset is not None else table
        if name in LANG_TEXTS:
            return str(source[f"{name}_{'ru' if lang == 'ru' else 'en'}"])
        value: Any = source[name]
        return with_unit(int(value), unit, lang) if unit else str(value)

    return PLACEHOLDER.sub(one, text)


def unknown_placeholders(text: str) -> list[str]:
    """Placeholders no rule set can fill (for the content tests)."""
    known = set(values(RULESETS[DEFAULT_RULESET])) | set(LANG_TEXTS)
    return [m.group(0) for m in PLACEHOLDER.finditer(text)
            if (m.group(1) is not None and m.group(1) not in RULESETS) or m.group(2) not in known
            or (m.group(3) is not None and m.group(3) not in _UNITS)]


