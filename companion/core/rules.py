"""The five rule sets of RULES.md §3 as data, and the options a table may change.

A rule set is a `RuleSet`: how play works (`PlayRules`, used by the referee and
the simulator) and the default `Options` for scoring and the end of a series
(used by the scorer). Nothing here branches on a rule set's name.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from enum import Enum
from typing import Any, Mapping

from .cards import DECK_SIZES
from .errors import N_, OptionError


class OnLoss(str, Enum):
    SERIES_ENDS = "series-ends"  # the whole table stops after the round
    ELIMINATE = "eliminate"  # the loser leaves, the others go on


class SixRule(str, Enum):
    SELF_COVER = "self-cover"  # the player who played it must cover it
    NEXT_DRAWS = "next-draws"  # the next player draws and skips


@dataclass(frozen=True)
class PlayRules:
    """How cards act when played (RULES.md §2 and §3)."""

    hand_size: int = 5
    six: SixRule = SixRule.SELF_COVER
    six_draw: int = 1  # with NEXT_DRAWS: how many the next player draws
    seven_draw: int = 2
    spade_king_draw: int = 5
    ace_skips: bool = True
    ten_reverses: bool = False
    eight_continue: bool = False  # the player who played an 8 must play again
    nine_cover: bool = False  # a 9 must be covered (same suit or a nine) by its player
    drawn_card_playable: bool = False  # may play the card just drawn if it fits
    penalty_transfer: bool = False  # a 6/7 penalty can be passed on with the same rank
    table_card: bool = False  # classic deal: the dealer's 5th card lies face up
    transfer_doubles: bool = False  # with penalty_transfer: passing on doubles the penalty (else it adds up)
    draw_until_fits: bool = False  # no matching card (or no cover): draw until one fits, then play it
    four_of_a_kind_redeal: bool = False  # four of a kind in a dealt hand: redeal

    @cached_property
    def must_be_covered(self) -> frozenset[str]:
        """Ranks that can never be the last card of a round."""
        ranks = set()
        if self.six is SixRule.SELF_COVER:
            ranks.add("6")
        if self.nine_cover:
            ranks.add("9")
        if self.eight_continue:
            ranks.add("8")
        return frozenset(ranks)


@dataclass(frozen=True)
class Options:
    """What the scorer needs; every field is an option a table may change."""

    deck: int = 36
    nine_points: int = 9
    spade_king_points: int = 4
    queens_only: bool = True
    queens_only_points: int = 20
    special_queen: str = "♥"
    queens_only_special_points: int = 40
    queen_finish_points: int = 20
    queen_finish_special_points: int = 40
    resets: tuple[tuple[int, int], ...] = ((101, 0),)
    negative_to_zero: bool = False
    loss_above: int = 101
    on_loss: OnLoss = OnLoss.SERIES_ENDS

    def to_json(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["resets"] = {str(old): new for old, new in self.resets}
        data["on_loss"] = self.on_loss.value
        return data


@dataclass(frozen=True)
class OptionSpec:
    """How an option is written and what values it takes, for the API and the form."""

    key: str
    kind: str  # "choice" | "int" | "bool" | "resets"
    label: Mapping[str, str]
    choices: tuple[Any, ...] = ()
    minimum: int = -1000
    maximum: int = 1000

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"key": self.key, "type": self.kind, "label": dict(self.label)}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.kind == "int":
            data["min"], data["max"] = self.minimum, self.maximum
        return data


OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("deck", "choice", {"ru": "Колода", "en": "Deck"}, DECK_SIZES),
    OptionSpec("nine_points", "choice", {"ru": "Девятка в руке стоит", "en": "A nine in hand is worth"}, (9, 0)),
    OptionSpec("spade_king_points", "choice", {"ru": "Пиковый король в руке стоит", "en": "The king of spades in hand is worth"}, (4, 40)),
    OptionSpec("queens_only", "bool", {"ru": "Рука из одних дам считается особо", "en": "A hand of queens only scores extra"}),
    OptionSpec("queens_only_points", "int", {"ru": "Очки за даму в руке из одних дам", "en": "Points per queen in a queens-only hand"}, minimum=0, maximum=200),
    OptionSpec("special_queen", "choice", {"ru": "Особая дама", "en": "The special queen"}, ("♥", "♠")),
    OptionSpec("queens_only_special_points", "int", {"ru": "Очки за особую даму в руке из одних дам", "en": "Points for the special queen in a queens-only hand"}, minimum=0, maximum=200),
    OptionSpec("queen_finish_points", "int", {"ru": "Вычет за выход на даму", "en": "Deduction for going out on a queen"}, minimum=0, maximum=200),
    OptionSpec("queen_finish_special_points", "int", {"ru": "Вычет за выход на особую даму", "en": "Deduction for going out on the special queen"}, minimum=0, maximum=200),
    OptionSpec("resets", "resets", {"ru": "Обнуления: счёт → новый счёт", "en": "Resets: total → new total"}),
    OptionSpec("negative_to_zero", "bool", {"ru": "Счёт ниже нуля становится нулём", "en": "A total below zero becomes zero"}),
    OptionSpec("loss_above", "int", {"ru": "Проигрыш, когда счёт больше", "en": "A player loses when the total is over"}, minimum=1, maximum=1000),
    OptionSpec("on_loss", "choice", {"ru": "Когда кто-то проиграл", "en": "When someone loses"}, tuple(v.value for v in OnLoss)),
)
OPTION_KEYS = tuple(spec.key for spec in OPTION_SPECS)


@dataclass(frozen=True)
class RuleSet:
    id: str
    name: Mapping[str, str]
    description: Mapping[str, str]
    differences: Mapping[str, tuple[str, ...]]  # two short lines: how it differs from igrafan
    sources: tuple[str, ...]
    min_players: int = 2
    max_players: int = 4
    play: PlayRules = field(default_factory=PlayRules)
    defaults: Options = field(default_factory=Options)

    def max_players_for(self, options: Options) -> int:
        """A 52-card deck seats two more players (Magic Board deals from 36 or 52)."""
        if self.max_players > 2 and options.deck == 52:
            return self.max_players + 2
        return self.max_players

    def options(self, overrides: Mapping[str, Any] | None = None) -> Options:
        """The preset's options with the table's changes, each checked."""
        if overrides is None:
            return self.defaults
        if not isinstance(overrides, Mapping):
            raise OptionError(N_("Options must be an object of name → value, e.g. {\"deck\": 52}."))
        changes = {}
        for key, value in overrides.items():
            spec = next((s for s in OPTION_SPECS if s.key == key), None)
            if spec is None:
                raise OptionError(
                    N_("Unknown option “%(key)s”. Known options: %(known)s."),
                    key=key, known=", ".join(OPTION_KEYS),
                )
            changes[key] = _check_option(spec, value)
        return replace(self.defaults, **changes)


def _check_option(spec: OptionSpec, value: Any) -> Any:
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise OptionError(N_("Option “%(key)s” takes true or false."), key=spec.key)
        return value
    if spec.kind == "choice":
        if isinstance(value, bool) or value not in spec.choices:
            raise OptionError(
                N_("Option “%(key)s” takes one of: %(choices)s."),
                key=spec.key, choices=", ".join(str(c) for c in spec.choices),
            )
        return OnLoss(value) if spec.key == "on_loss" else value
    if spec.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int) or not spec.minimum <= value <= spec.maximum:
            raise OptionError(
                N_("Option “%(key)s” takes a whole number from %(min)s to %(max)s."),
                key=spec.key, min=spec.minimum, max=spec.maximum,
            )
        return value
    # resets: {"101": 0, "100": 50}
    if not isinstance(value, Mapping):
        raise OptionError(N_("Option “resets” takes an object of total → new total, e.g. {\"101\": 0, \"100\": 50}."))
    pairs = []
    for old, new in value.items():
        try:
            old_total = int(old)
        except (TypeError, ValueError):
            old_total = None
        if old_total is None or isinstance(new, bool) or not isinstance(new, int):
            raise OptionError(N_("Option “resets” takes an object of total → new total, e.g. {\"101\": 0, \"100\": 50}."))
        pairs.append((old_total, new))
    return tuple(sorted(pairs, reverse=True))


def _set(**kwargs: Any) -> RuleSet:
    return RuleSet(**kwargs)


IGRAFAN = _set(
    id="igrafan",
    name={"ru": "ИграФан (по умолчанию)", "en": "IgraFan (default)"},
    description={
        "ru": "Шестёрку кроет сам игрок, дама — на любую карту, ровно 101 обнуляет, больше 101 — проигрыш всего стола.",
        "en": "You cover your own six, a queen goes on anything, exactly 101 resets to 0, over 101 ends the series.",
    },
    differences={"ru": ("Основной набор этого приложения.", "Остальные наборы описаны как отличия от него."),
                 "en": ("The app's main rule set.", "The other sets are described by how they differ from it.")},
    sources=("000", "001"),
)

CLASSIC = _set(
    id="classic",
    name={"ru": "Классика", "en": "Classic"},
    description={
        "ru": "Сдатчик открывает карту на стол, на шестёрку берёт следующий, девятку надо покрыть, и она ничего не стоит.",
        "en": "The dealer turns up a table card, a six makes the next draw, a nine must be covered and scores nothing.",
    },
    differences={
        "ru": ("Сдатчику 4 карты и одна на стол; на шестёрку следующий берёт 1, на пикового короля — 4.",
               "Девятку кроют до победного, она стоит 0; нет бонуса за одни дамы; особая дама — пиковая."),
        "en": ("The dealer keeps 4 and turns one up; a six makes the next draw 1, the king of spades 4.",
               "A nine must be covered and scores 0; no queens-only bonus; the special queen is the queen of spades."),
    },
    sources=("002", "003"),
    play=PlayRules(six=SixRule.NEXT_DRAWS, six_draw=1, spade_king_draw=4, nine_cover=True,
                   drawn_card_playable=True, table_card=True),
    defaults=Options(nine_points=0, queens_only=False, special_queen="♠"),
)

ELIMINATION = _set(
    id="elimination",
    name={"ru": "На вылет", "en": "Elimination"},
    description={
        "ru": "По 4 карты, десятка меняет направление, 100 обнуляет, перебравший выбывает, побеждает последний.",
        "en": "Four cards each, a ten reverses play, 100 resets, whoever goes over 101 leaves, the last one left wins.",
    },
    differences={
        "ru": ("По 4 карты; десятка разворачивает ход; шестёрки и семёрки можно перевести, штраф удваивается.",
               "Ровно 100 обнуляет; за 101 выбывает только перебравший; девятка — 0, особая дама — пиковая."),
        "en": ("Four cards each; a ten reverses; sixes and sevens can be passed on, doubling the penalty.",
               "Exactly 100 resets; over 101 only that player leaves; a nine is 0, the special queen is the queen of spades."),
    },
    sources=("004",),
    max_players=6,
    play=PlayRules(hand_size=4, spade_king_draw=4, ten_reverses=True, penalty_transfer=True,
                   transfer_doubles=True, draw_until_fits=True, four_of_a_kind_redeal=True),
    defaults=Options(nine_points=0, special_queen="♠", resets=((100, 0),), on_loss=OnLoss.ELIMINATE),
)

ELVISTA = _set(
    id="elvista",
    name={"ru": "Элвиста", "en": "Elvista"},
    description={
        "ru": "На шестёрку берёт следующий, после восьмёрки ходишь ещё, десятка разворачивает, 100 превращается в 50.",
        "en": "A six makes the next draw, after an eight you play again, a ten reverses, 100 becomes 50.",
    },
    differences={
        "ru": ("На шестёрку следующий берёт 1, на пикового короля — 4; восьмёрку надо покрыть; десятка разворачивает.",
               "Ровно 100 → 50, ровно 101 → 0; пикового короля в руке можно считать за 40."),
        "en": ("A six makes the next draw 1, the king of spades 4; an eight must be followed up; a ten reverses.",
               "Exactly 100 → 50 and exactly 101 → 0; the king of spades in hand may count 40."),
    },
    sources=("000",),
    play=PlayRules(six=SixRule.NEXT_DRAWS, six_draw=1, spade_king_draw=4, ten_reverses=True,
                   eight_continue=True, penalty_transfer=True),
    defaults=Options(resets=((101, 0), (100, 50))),
)

PHARAOH = _set(
    id="pharaoh",
    name={"ru": "Фараон", "en": "Pharaoh"},
    description={
        "ru": "Предшественник «101» на двоих: по 4 карты, одинокая дама в руке — 30, проигрыш со 100 очков.",
        "en": "The two-player forerunner of 101: four cards each, a lone queen in hand is 30, 100 points loses.",
    },
    differences={
        "ru": ("Только двое, по 4 карты; взятую карту можно сразу сыграть.",
               "Дама в руке одна — 30, выход на даму −30; 100 очков и больше — проигрыш."),
        "en": ("Two players only, four cards each; a drawn card may be played at once.",
               "A lone queen in hand is 30, going out on a queen is −30; 100 or more loses."),
    },
    sources=("003",),
    max_players=2,
    play=PlayRules(hand_size=4, drawn_card_playable=True),
    defaults=Options(queens_only_points=30, queens_only_special_points=30, queen_finish_points=30,
                     queen_finish_special_points=30, resets=(), loss_above=99),
)

RULESETS: dict[str, RuleSet] = {rs.id: rs for rs in (IGRAFAN, CLASSIC, ELIMINATION, ELVISTA, PHARAOH)}
DEFAULT_RULESET = IGRAFAN.id


def get_ruleset(ruleset_id: Any) -> RuleSet:
    if isinstance(ruleset_id, str) and ruleset_id in RULESETS:
        return RULESETS[ruleset_id]
    raise OptionError(
        N_("Unknown rule set “%(ruleset)s”. Choose one of: %(known)s."),
        ruleset=str(ruleset_id), known=", ".join(RULESETS),
    )
