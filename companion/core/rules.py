"""The five rule sets of RULES.md §3 as data, and the options a table may change.

A rule set is a `RuleSet`: how play works (`PlayRules`, used by the referee and
the simulator) and the default `Options` for scoring and the end of a series
(used by the scorer). Nothing here branches on a rule set's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum, StrEnum
from functools import cached_property
from typing import Any

from companion.core.cards import DECK_SIZES
from companion.core.errors import N_, Msg, OptionError


class OnLoss(StrEnum):
    SERIES_ENDS = "series-ends"  # the whole table stops after the round
    ELIMINATE = "eliminate"  # the loser leaves, the others go on


class SixRule(StrEnum):
    """What a six does when played (the `six` option)."""

    SELF_COVER = "self-cover"  # the player who played it must cover it
    NEXT_DRAWS_1 = "next-draws-1"  # the next player draws 1 and skips
    NEXT_DRAWS_2 = "next-draws-2"  # the next player draws 2 and skips

    @property
    def draw(self) -> int:
        return {"self-cover": 0, "next-draws-1": 1, "next-draws-2": 2}[self.value]


class SixCover(StrEnum):
    """What may cover one's own six (the `six_cover` option)."""

    SUIT_OR_QUEEN = "suit-or-queen"  # the same suit or a queen
    ANY_FIT = "any-fit"  # any card that fits: the same suit, another six, a queen
    ANY_CARD = "any-card"  # any card at all


class NoMatch(StrEnum):
    """A player with no matching card (the `no_match` option)."""

    DRAW_PASS = "draw-pass"  # draw one and pass, the drawn card is not played
    DRAW_PLAY = "draw-play"  # draw one and play it at once if it fits
    DRAW_UNTIL = "draw-until"  # draw until a card fits (or the pile is out), then play it


class EightRule(StrEnum):
    """What an eight does (the `eight` option)."""

    NORMAL = "normal"
    PLAY_AGAIN = "play-again"  # its player plays again on it; a round may end on it
    MUST_COVER = "must-cover"  # its player must cover it; a round may not end on it


class StarterRule(StrEnum):
    """Who starts the next round (a rule-set parameter, RULES.md §7)."""

    WINNER = "winner"  # the previous round's winner
    ROTATE = "rotate"  # the player after the previous round's starter: the deal rotates


SPADE_SEVEN = "spade-4"  # `seven_draw`: only the seven of spades makes the next draw 4, the others 2


@dataclass(frozen=True)
class PlayRules:
    """The fixed play rules of a preset (RULES.md §2 and §3); what a table may change is in `Options`."""

    ace_skips: bool = True
    nine_cover: bool = False  # a 9 must be covered (same suit, a nine or a queen) by its player
    table_card: bool = False  # classic deal: the dealer keeps one card fewer and turns one face up
    transfer_doubles: bool = False  # with penalty_transfer: passing on doubles the penalty (else it adds up)
    four_of_a_kind_redeal: bool = False  # four of a kind in a dealt hand: redeal
    next_starter: StarterRule = StarterRule.WINNER


@dataclass(frozen=True)
class Options:
    """Everything a table may change when it starts a series: play and scoring (RULES.md §7)."""

    deck: int = 36
    # play
    hand_size: int = 5
    six: SixRule = SixRule.SELF_COVER
    six_cover: SixCover = SixCover.SUIT_OR_QUEEN
    seven_draw: int | str = 2  # 2, 4 or SPADE_SEVEN
    spade_king_draw: int = 5
    no_match: NoMatch = NoMatch.DRAW_PASS
    shuffle_pile: bool = False  # the draw pile is out: shuffle the discards (else turn them over as they lie)
    several_at_once: bool = False  # several cards of one rank may be laid in one turn
    finish_on_queen: bool = True  # a round may end on a queen
    ace_answer: bool = False  # a player skipped by an ace may answer with an ace
    penalty_transfer: bool = False  # a 6/7 penalty can be passed on with the same rank
    eight: EightRule = EightRule.NORMAL
    ten_reverses: bool = False
    # scoring
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
        data = {f.name: _plain(getattr(self, f.name)) for f in fields(self)}
        data["resets"] = {str(old): new for old, new in self.resets}
        return data

    def changes_from(self, base: Options) -> dict[str, Any]:
        """The options that differ from `base` (a preset's defaults), as JSON values."""
        mine, theirs = self.to_json(), base.to_json()
        return {k: v for k, v in mine.items() if theirs[k] != v}

    # -- what the play rules imply -------------------------------------------

    def seven_draw_for(self, spade: bool) -> int:
        if self.seven_draw == SPADE_SEVEN:
            return 4 if spade else 2
        return int(self.seven_draw)

    @property
    def drawn_card_playable(self) -> bool:
        return self.no_match is not NoMatch.DRAW_PASS

    @property
    def draw_until_fits(self) -> bool:
        return self.no_match is NoMatch.DRAW_UNTIL


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


@dataclass(frozen=True)
class OptionSpec:
    """How an option is written, what values it takes and what they are called (gettext message ids)."""

    key: str
    kind: str  # "choice" | "int" | "bool" | "resets"
    label: Msg
    choices: tuple[Any, ...] = ()
    choice_labels: tuple[Msg, ...] = ()  # one per choice (bool: for false, true)
    minimum: int = -1000
    maximum: int = 1000
    group: str = "scoring"  # "play" | "scoring"
    sources: tuple[str, ...] = ()  # the seeds that name the option

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"key": self.key, "type": self.kind, "label": self.label, "group": self.group}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.choice_labels:
            data["choice_labels"] = list(self.choice_labels)
        if self.kind == "int":
            data["min"], data["max"] = self.minimum, self.maximum
        return data

    def value_label(self, value: Any) -> Msg | None:
        """The message id naming this value, if the option has named values."""
        value = _plain(value)
        if self.kind == "bool" and self.choice_labels:
            return self.choice_labels[1 if value else 0]
        if self.choice_labels and value in self.choices:
            return self.choice_labels[self.choices.index(value)]
        return None


_NO, _YES = N_("no"), N_("yes")

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("deck", "choice", N_("Deck"), DECK_SIZES, (N_("36 cards"), N_("52 cards")),
               group="play", sources=("000",)),
    OptionSpec("hand_size", "choice", N_("Cards dealt to each player"), (4, 5, 6),
               (N_("4 cards"), N_("5 cards"), N_("6 cards")), group="play", sources=("000", "004")),
    OptionSpec("six", "choice", N_("A six played"), tuple(v.value for v in SixRule),
               (N_("its player covers it"), N_("the next player draws 1 and skips"),
                N_("the next player draws 2 and skips")), group="play", sources=("000", "002", "004")),
    OptionSpec("six_cover", "choice", N_("One's own six is covered by"), tuple(v.value for v in SixCover),
               (N_("the same suit or a queen"), N_("any card that fits (the same suit, a six, a queen)"),
                N_("any card")), group="play", sources=("000", "004")),
    OptionSpec("seven_draw", "choice", N_("A seven played: the next player draws"), (2, 4, SPADE_SEVEN),
               (N_("2 cards"), N_("4 cards"), N_("4 for the seven of spades, 2 for the others")),
               group="play", sources=("004",)),
    OptionSpec("spade_king_draw", "choice", N_("The king of spades played: the next player draws"), (4, 5),
               (N_("4 cards"), N_("5 cards")), group="play", sources=("000", "002", "004")),
    OptionSpec("no_match", "choice", N_("No card fits"), tuple(v.value for v in NoMatch),
               (N_("draw one and pass"), N_("draw one and play it if it fits"), N_("draw until a card fits")),
               group="play", sources=("000", "002", "004")),
    OptionSpec("shuffle_pile", "bool", N_("The draw pile runs out"), (),
               (N_("turn the discards over without shuffling"), N_("shuffle the discards")),
               group="play", sources=("000", "004")),
    OptionSpec("several_at_once", "bool", N_("Several cards of one rank in one turn"), (), (_NO, _YES),
               group="play", sources=("000",)),
    OptionSpec("finish_on_queen", "bool", N_("A round may end on a queen"), (), (_NO, _YES),
               group="play", sources=("000",)),
    OptionSpec("ace_answer", "bool", N_("An ace may be answered with an ace"), (), (_NO, _YES),
               group="play", sources=("004",)),
    OptionSpec("penalty_transfer", "bool", N_("A seven's penalty (and a six's) may be passed on"), (), (_NO, _YES),
               group="play", sources=("000", "004")),
    OptionSpec("eight", "choice", N_("An eight played"), tuple(v.value for v in EightRule),
               (N_("no effect"), N_("its player plays again; a round may end on it"),
                N_("its player must cover it; a round may not end on it")), group="play", sources=("000",)),
    OptionSpec("ten_reverses", "bool", N_("A ten played"), (), (N_("no effect"), N_("reverses the direction")),
               group="play", sources=("000", "004")),
    OptionSpec("nine_points", "choice", N_("A nine in hand is worth"), (9, 0), (N_("9 points"), N_("0 points")),
               sources=("000", "002", "004")),
    OptionSpec("spade_king_points", "choice", N_("The king of spades in hand is worth"), (4, 40),
               (N_("4 points"), N_("40 points")), sources=("000",)),
    OptionSpec("queens_only", "bool", N_("A hand of queens only scores extra"), (), (_NO, _YES),
               sources=("000", "002", "004")),
    OptionSpec("queens_only_points", "int", N_("Points per queen in a queens-only hand"), minimum=0, maximum=200),
    OptionSpec("special_queen", "choice", N_("The special queen"), ("♥", "♠"),
               (N_("the queen of hearts"), N_("the queen of spades"))),
    OptionSpec("queens_only_special_points", "int", N_("Points for the special queen in a queens-only hand"),
               minimum=0, maximum=200),
    OptionSpec("queen_finish_points", "int", N_("Deduction for going out on a queen"), minimum=0, maximum=200),
    OptionSpec("queen_finish_special_points", "int", N_("Deduction for going out on the special queen"),
               minimum=0, maximum=200),
    OptionSpec("resets", "resets", N_("Resets: total → new total")),
    OptionSpec("negative_to_zero", "bool", N_("A total below zero becomes zero"), (), (_NO, _YES)),
    OptionSpec("loss_above", "int", N_("A player loses when the total is over"), minimum=1, maximum=1000),
    OptionSpec("on_loss", "choice", N_("When someone loses"), tuple(v.value for v in OnLoss),
               (N_("the series ends for everyone"), N_("that player leaves, the others go on"))),
)
OPTION_KEYS = tuple(spec.key for spec in OPTION_SPECS)
SPECS_BY_KEY: dict[str, OptionSpec] = {spec.key: spec for spec in OPTION_SPECS}
PLAY_OPTION_KEYS = tuple(spec.key for spec in OPTION_SPECS if spec.group == "play")
_ENUMS: dict[str, type[Enum]] = {"six": SixRule, "six_cover": SixCover, "no_match": NoMatch, "eight": EightRule,
                                 "on_loss": OnLoss}


@dataclass(frozen=True)
class RuleSet:
    """A preset; `defaults` are the options in force (the preset's, or a table's after `configured`)."""

    id: str
    name: Msg  # gettext message ids (English), Russian in rules.po
    description: Msg
    differences: tuple[Msg, ...]  # two short lines: how it differs from igrafan
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

    @property
    def most_players(self) -> int:
        """The most players with the options in force."""
        return self.max_players_for(self.defaults)

    def options(self, overrides: Mapping[str, Any] | None = None) -> Options:
        """The preset's options with the table's changes, each checked."""
        if overrides is None:
            return self.defaults
        if not isinstance(overrides, Mapping):
            raise OptionError(N_("Options must be an object of name → value, e.g. {\"deck\": 52}."))
        changes = {}
        for key, value in overrides.items():
            spec = SPECS_BY_KEY.get(key) if isinstance(key, str) else None
            if spec is None:
                raise OptionError(
                    N_("Unknown option “%(key)s”. Known options: %(known)s."),
                    key=str(key), known=", ".join(OPTION_KEYS),
                )
            changes[key] = _check_option(spec, value)
        return replace(self.defaults, **changes)

    def configured(self, options: Options) -> RuleSet:
        """This rule set with a table's options in force (the same id: it is still this preset)."""
        return self if options == self.defaults else replace(self, defaults=options)

    def with_options(self, overrides: Mapping[str, Any] | None) -> RuleSet:
        return self.configured(self.options(overrides))

    @cached_property
    def must_be_covered(self) -> frozenset[str]:
        """Ranks its player must play again on at once (cover or follow up)."""
        opt = self.defaults
        ranks = set()
        if opt.six is SixRule.SELF_COVER:
            ranks.add("6")
        if self.play.nine_cover:
            ranks.add("9")
        if opt.eight is not EightRule.NORMAL:
            ranks.add("8")
        return frozenset(ranks)

    @cached_property
    def cannot_finish_on(self) -> frozenset[str]:
        """Ranks that can never be the last card of a round."""
        ranks = set(self.must_be_covered)
        if self.defaults.eight is EightRule.PLAY_AGAIN:
            ranks.discard("8")
        if not self.defaults.finish_on_queen:
            ranks.add("Q")
        return frozenset(ranks)

    @property
    def transfer(self) -> bool:
        return self.defaults.penalty_transfer


def _check_option(spec: OptionSpec, value: Any) -> Any:
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise OptionError(N_("Option “%(key)s” takes true or false."), key=spec.key)
        return value
    if spec.kind == "choice":
        if isinstance(value, (bool, float)) or value not in spec.choices:
            raise OptionError(
                N_("Option “%(key)s” takes one of: %(choices)s."),
                key=spec.key, choices=", ".join(str(c) for c in spec.choices),
            )
        enum = _ENUMS.get(spec.key)
        return enum(value) if enum is not None else value
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
            raise OptionError(
                N_("Option “resets” takes an object of total → new total, e.g. {\"101\": 0, \"100\": 50}.")
            )
        pairs.append((old_total, new))
    return tuple(sorted(pairs, reverse=True))


def _set(**kwargs: Any) -> RuleSet:
    return RuleSet(**kwargs)


IGRAFAN = _set(
    id="igrafan",
    name=N_("IgraFan (default)"),
    description=N_(
        "You cover your own six, a queen goes on anything, exactly 101 resets to 0, over 101 ends the series."
    ),
    differences=(
        N_("The app's main rule set."),
        N_("The other sets are described by how they differ from it."),
    ),
    sources=("000", "001"),
)

CLASSIC = _set(
    id="classic",
    name=N_("Classic"),
    description=N_(
        "The dealer turns up a table card, a six makes the next draw, a nine must be covered and scores nothing."
    ),
    differences=(
        N_("The dealer keeps 4 and turns one up; a six makes the next draw 1, the king of spades 4."),
        N_("A nine must be covered and scores 0; no queens-only bonus; the special queen is the queen of spades."),
    ),
    sources=("002", "003"),
    play=PlayRules(nine_cover=True, table_card=True, next_starter=StarterRule.ROTATE),
    defaults=Options(
        six=SixRule.NEXT_DRAWS_1,
        spade_king_draw=4,
        no_match=NoMatch.DRAW_PLAY,
        nine_points=0,
        queens_only=False,
        special_queen="♠",
    ),
)

ELIMINATION = _set(
    id="elimination",
    name=N_("Elimination"),
    description=N_(
        "Four cards each, a ten reverses play, 100 resets, whoever goes over 101 leaves, the last one left wins."
    ),
    differences=(
        N_("Four cards each; a ten reverses; sixes and sevens can be passed on, doubling the penalty."),
        N_(
            "Exactly 100 resets; over 101 only that player leaves; "
            "a nine is 0, the special queen is the queen of spades."
        ),
    ),
    sources=("004",),
    max_players=6,
    play=PlayRules(transfer_doubles=True, four_of_a_kind_redeal=True),
    defaults=Options(
        hand_size=4,
        six_cover=SixCover.ANY_FIT,
        spade_king_draw=4,
        ten_reverses=True,
        penalty_transfer=True,
        no_match=NoMatch.DRAW_UNTIL,
        nine_points=0,
        special_queen="♠",
        resets=((100, 0),),
        on_loss=OnLoss.ELIMINATE,
    ),
)

ELVISTA = _set(
    id="elvista",
    name=N_("Elvista"),
    description=N_(
        "A six makes the next draw, after an eight you play again, a ten reverses, 100 becomes 50."
    ),
    differences=(
        N_("A six makes the next draw 1, the king of spades 4; an eight must be followed up; a ten reverses."),
        N_("Exactly 100 → 50 and exactly 101 → 0; the king of spades in hand may count 40."),
    ),
    sources=("000",),
    defaults=Options(
        six=SixRule.NEXT_DRAWS_1,
        spade_king_draw=4,
        ten_reverses=True,
        eight=EightRule.PLAY_AGAIN,
        penalty_transfer=True,
        resets=((101, 0), (100, 50)),
    ),
)

PHARAOH = _set(
    id="pharaoh",
    name=N_("Pharaoh"),
    description=N_(
        "The two-player forerunner of 101: four cards each, a lone queen in hand is 30, 100 points loses."
    ),
    differences=(
        N_("Two players only, four cards each; a drawn card may be played at once."),
        N_("A lone queen in hand is 30, going out on a queen is −30; 100 or more loses."),
    ),
    sources=("003",),
    max_players=2,
    defaults=Options(
        hand_size=4,
        no_match=NoMatch.DRAW_PLAY,
        queens_only_points=30,
        queens_only_special_points=30,
        queen_finish_points=30,
        queen_finish_special_points=30,
        resets=(),
        loss_above=99,
    ),
)

RULESETS: dict[str, RuleSet] = {rs.id: rs for rs in (IGRAFAN, CLASSIC, ELIMINATION, ELVISTA, PHARAOH)}
DEFAULT_RULESET = IGRAFAN.id


def get_ruleset(ruleset_id: Any) -> RuleSet:
    if isinstance(ruleset_id, str) and ruleset_id in RULESETS:
        return RULESETS[ruleset_id]
    raise OptionError(
        N_("Unknown rule set “%(ruleset)s”. Choose one of: %(known)s."),
        ruleset=str(ruleset_id),
        known=", ".join(RULESETS),
    )
