"""Points of a leftover hand and of a queen finish (RULES.md §2, §4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.core.cards import Card, Rank, Suit
from companion.core.rules import Options

QUEENS_ONLY = "queens-only"

_BASE_POINTS = {rank: rank.face_value for rank in Rank} | {Rank.JACK: 2, Rank.QUEEN: 3, Rank.KING: 4, Rank.ACE: 11}


@dataclass(frozen=True)
class HandScore:
    cards: tuple[Card, ...]
    points: int
    breakdown: tuple[tuple[Card, int], ...]
    rule: str | None  # the special rule applied to the whole hand, e.g. "queens-only"

    def to_json(self) -> dict[str, object]:
        return {
            "points": self.points,
            "cards": [str(c) for c in self.cards],
            "breakdown": [{"card": str(c), "points": p} for c, p in self.breakdown],
            "rule": self.rule,
        }


def max_hand(options: Options) -> int:
    """The most cards one hand can hold: the deck less the card on the discard pile (RULES.md §6)."""
    return options.deck - 1


def card_points(card: Card, options: Options) -> int:
    """Points of one card left among others."""
    if card.rank is Rank.NINE:
        return options.nine_points
    if card.rank is Rank.KING and card.suit is Suit.SPADES:
        return options.spade_king_points
    return _BASE_POINTS[card.rank]


def is_special_queen(card: Card, options: Options) -> bool:
    return card.rank is Rank.QUEEN and card.suit.value == options.special_queen


def score_hand(cards: Sequence[Card], options: Options) -> HandScore:
    """Points of a leftover hand; the queens-only rule is checked on the whole hand."""
    cards = tuple(cards)
    rule: str | None = None
    if options.queens_only and cards and all(c.rank is Rank.QUEEN for c in cards):
        rule = QUEENS_ONLY
        values = [options.queens_only_special_points if is_special_queen(c, options) else options.queens_only_points
                  for c in cards]
    else:
        values = [card_points(c, options) for c in cards]
    return HandScore(cards, sum(values), tuple(zip(cards, values, strict=True)), rule)


def queen_finish_deduction(card: Card | None, options: Options) -> int:
    """What the winner subtracts for going out on this card (0 unless a queen)."""
    if card is None or card.rank is not Rank.QUEEN:
        return 0
    if is_special_queen(card, options):
        return options.queen_finish_special_points
    return options.queen_finish_points


def _reset_for(total: int, options: Options) -> int | None:
    """The new total if a reset applies to this exact total, else None."""
    for old, new in options.resets:
        if total == old:
            return new
    return None


@dataclass(frozen=True)
class PlayerRound:
    """One player's part of a round (RULES.md §4 steps 1–5), as the replay and the round preview compute it."""

    kind: str  # "winner" | "typed" | "hand"
    change: int  # what the total changes by before resets (the winner: minus a queen finish)
    hand: HandScore | None  # the scored leftover hand (kind "hand")
    previous: int
    final: int  # the new total after resets
    resets: tuple[tuple[int, int], ...]
    lost: bool  # past the loss line

    @property
    def total(self) -> int:
        """previous + change, before any reset."""
        return self.previous + self.change


def player_round(options: Options, previous: int, *, winner: bool = False, finishing_card: Card | None = None,
                 hand: Sequence[Card] = (), typed: int | None = None) -> PlayerRound:
    """The round of one player: the winner's queen deduction, typed points, or the leftover hand's points;
    then the resets and the loss line. The one arithmetic of a round (the replay uses it, the preview too)."""
    score: HandScore | None = None
    if winner:
        kind, change = "winner", -queen_finish_deduction(finishing_card, options)
    elif typed is not None:
        kind, change = "typed", typed
    else:
        score = score_hand(hand, options)
        kind, change = "hand", score.points
    final, resets = settle_total(previous, change, options)
    return PlayerRound(kind, change, score, previous, final, resets, final > options.loss_above)


def settle_total(previous: int, change: int, options: Options) -> tuple[int, tuple[tuple[int, int], ...]]:
    """A player's new total after a round (RULES.md §4 steps 3–4): the exact-total
    resets, then negative → 0 where the options say so. Returns the new total and
    the resets applied, as (from, to) pairs."""
    total = previous + change
    applied = []
    reset = _reset_for(total, options)
    if reset is not None:
        applied.append((total, reset))
        total = reset
    if total < 0 and options.negative_to_zero:
        applied.append((total, 0))
        total = 0
    return total, tuple(applied)

