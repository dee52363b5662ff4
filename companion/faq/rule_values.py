"""FAQ answers filled from the rule-set data: one source for every number an answer states.

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
from collections.abc import Callable
from typing import Any

from companion.core.rules import DEFAULT_RULESET, RULESETS, RuleSet, StarterRule

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
LANG_TEXTS = ("special_queen", "next_starter")  # names filled with the `_ru` or `_en` value


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
    }


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


Filler = Callable[[str], str]
