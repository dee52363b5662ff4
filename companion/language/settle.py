"""What the reader settles and what it asks, once the cards of a round are read (issues 10 and 21).

A card whose suit was not said gets a free suit only where the suit cannot change
the points, and that is reported (`suit-assumed`); where it can (a queen, the king
of spades option) the card stays rank + "?" and the table is asked once per group
(«две дамы: каких мастей?»). A card named twice, more cards of a rank than the deck
has, no winner, no finishing card, a player whose hand was not said: each is a
question, and a round with any of them is not ready.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.core.cards import Card, Rank, Suit, deck
from companion.core.errors import N_, Msg
from companion.core.rules import Options
from companion.core.scoring import card_points, is_special_queen

# Where a suit does not change the points, the free suit taken is the first in this order.
ASSUME_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


@dataclass(frozen=True)
class Question:
    """Something the table must answer or check; `template` is a message id, `params` fill it."""

    # "which-suit" | "suit-assumed" | "no-finishing-card" | "no-winner" | "too-many" | "twice" | "no-hand"
    # | "unknown-player" | "which-player" | "winner-holds" | "unclear-correction" | "name-guessed" | "which-card"
    # | "hand-size" | "how-many"
    kind: str
    template: Msg
    params: Mapping[str, Any]


@dataclass
class Slot:
    """One card as said: its rank, its suit if said or taken, whose it is, which words said it."""

    rank: Rank
    suit: Suit | None
    owner: str
    finishing: bool = False
    assumed: bool = False
    word: str = ""
    within: tuple[Suit, ...] = ()  # said by its colour («дама красная»): the suits it may have; () any

    @property
    def card(self) -> Card | None:
        return Card(self.rank, self.suit) if self.suit is not None else None

    @property
    def text(self) -> str:
        """Canonical card ("Q♥"), or rank + "?" while the suit is open."""
        card = self.card
        return str(card) if card is not None else f"{self.rank.value}?"


@dataclass
class ParsedRound:
    winner: str | None = None
    finishing: Slot | None = None
    hands: dict[str, list[Slot]] = field(default_factory=dict)
    unrecognised: list[str] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    players: list[str] = field(default_factory=list)  # the players in play the text was read for

    @property
    def finishing_card(self) -> str | None:
        return self.finishing.text if self.finishing is not None else None

    def hand_texts(self) -> dict[str, list[str]]:
        return {player: [s.text for s in slots] for player, slots in self.hands.items()}

    def live(self) -> list[Slot]:
        """Every card read: the finishing card first, then the hands."""
        return ([self.finishing] if self.finishing else []) + [s for ss in self.hands.values() for s in ss]

    @property
    def assumed(self) -> list[Slot]:
        return [s for s in self.live() if s.assumed]

    @property
    def exact(self) -> bool:
        """Ready to save: a winner and finishing card, every other hand said, every word read, nothing to ask
        but suits that change no points."""
        return (
            self.winner is not None
            and self.finishing is not None
            and not self.unrecognised
            and all(self.hands.get(p) for p in self.players if p != self.winner)
            and all(q.kind == "suit-assumed" for q in self.questions)
        )

    def to_json(self) -> dict[str, Any]:
        """The round body as far as it is known (questions and words are the web layer's to word)."""
        return {"winner": self.winner, "finishing_card": self.finishing_card, "hands": self.hand_texts()}


def settle(result: ParsedRound, options: Options) -> None:
    """Check every card against the deck, take free suits where they change nothing, ask the rest."""
    free = _place(result, options)
    _assume_suits(result, options, free)
    _too_many(result, free)
    _who_and_what(result)
    _ask_suits(result)


def _place(result: ParsedRound, options: Options) -> set[Card]:
    """Cards outside the deck are dropped (and named), a card said twice asked; what is left of the deck."""
    in_deck = set(deck(options.deck))
    free = set(in_deck)
    for slot in result.live():
        card = slot.card
        if Card(slot.rank, card.suit if card else Suit.SPADES) not in in_deck:
            result.unrecognised.append(slot.word)
            _drop(result, slot)
        elif card is None:
            continue
        elif card not in free:
            result.questions.append(
                Question("twice", N_("%(card)s is named twice; a deck has one of each card."), {"card": card})
            )
        else:
            free.discard(card)
    return free


def _assume_suits(result: ParsedRound, options: Options, free: set[Card]) -> None:
    for slot in result.live():
        if slot.suit is not None or _suit_matters(slot, result, options, free):
            continue
        choices = [s for s in ASSUME_ORDER if Card(slot.rank, s) in free and s in (slot.within or Suit)]
        # prefer a suit that changes nothing: not the special queen, not the king of spades
        plain = [
            s
            for s in choices
            if not (slot.rank is Rank.QUEEN and s.value == options.special_queen)
            and not (slot.rank is Rank.KING and s is Suit.SPADES)
        ]
        if choices:
            slot.suit, slot.assumed = (plain or choices)[0], True
            free.discard(Card(slot.rank, slot.suit))


def _suit_matters(slot: Slot, result: ParsedRound, options: Options, free: set[Card]) -> bool:
    """Would the suit of this card change the points (and is a suit that does so still free)?"""
    candidates = [Card(slot.rank, s) for s in slot.within or Suit if Card(slot.rank, s) in free]
    if len(candidates) <= 1:
        return False
    if slot.rank is Rank.QUEEN:
        if not any(is_special_queen(c, options) for c in candidates):
            return False
        if slot.finishing:
            return options.queen_finish_points != options.queen_finish_special_points
        hand = result.hands.get(slot.owner, [])
        all_queens = bool(hand) and all(s.rank is Rank.QUEEN for s in hand)
        return options.queens_only and all_queens and options.queens_only_points != options.queens_only_special_points
    return len({card_points(c, options) for c in candidates}) > 1


def _too_many(result: ParsedRound, free: set[Card]) -> None:
    open_ranks: dict[Rank, int] = {}
    for slot in result.live():
        if slot.suit is None:
            open_ranks[slot.rank] = open_ranks.get(slot.rank, 0) + 1
    for rank, n in open_ranks.items():
        if n > sum(1 for s in Suit if Card(rank, s) in free):
            result.questions.append(
                Question(
                    "too-many",
                    N_("More cards of rank %(rank)s are named than the deck has left; check who holds which."),
                    {"rank": rank},
                )
            )


def _who_and_what(result: ParsedRound) -> None:
    if result.winner is None:
        result.questions.append(Question("no-winner", N_("The text does not say who went out: tap the winner."), {}))
    elif result.finishing is None:
        result.questions.append(
            Question(
                "no-finishing-card",
                N_("The last card of %(player)s is not named: tap it in the grid."),
                {"player": result.winner},
            )
        )
    if result.winner is not None and result.hands.get(result.winner):
        result.questions.append(
            Question("winner-holds", N_("%(player)s went out, but cards are said for this player too: whose are "
                                        "they?"), {"player": result.winner})
        )
    missing = [p for p in result.players if p != result.winner and not result.hands.get(p)]
    if missing and (result.hands or result.winner):
        result.questions.append(
            Question("no-hand", N_("The cards of %(players)s are not said: tap them in the grid."),
                     {"players": ", ".join(missing)})
        )


_WHICH_SUIT: dict[tuple[Rank, bool, bool], Msg] = {
    (Rank.QUEEN, True, False): N_("The last card of %(player)s is a queen: which one? The suit changes the points."),
    (Rank.QUEEN, False, False): N_("%(player)s holds a queen: which one? The suit changes the points."),
    (Rank.QUEEN, False, True): N_("%(player)s holds %(count)s queens: of which suits? The suit changes the points."),
    (Rank.KING, False, False): N_("%(player)s holds a king: is it the king of spades? It scores differently."),
    (Rank.KING, False, True): N_("%(player)s holds %(count)s kings: is one the king of spades? It scores differently."),
}


def _ask_suits(result: ParsedRound) -> None:
    """One question per group of cards whose suit must be said; the suits assumed, per player."""
    if any(q.kind == "too-many" for q in result.questions):
        asked_ranks = {q.params["rank"] for q in result.questions if q.kind == "too-many"}
    else:
        asked_ranks = set()
    groups: dict[tuple[str, Rank, bool], int] = {}
    assumed: dict[str, list[Card]] = {}
    for slot in result.live():
        if slot.suit is None and slot.rank not in asked_ranks:
            key = (slot.owner, slot.rank, slot.finishing)
            groups[key] = groups.get(key, 0) + 1
        elif slot.assumed and slot.card is not None:
            assumed.setdefault(slot.owner, []).append(slot.card)
    for (player, rank, finishing), count in groups.items():
        template = _WHICH_SUIT.get((rank, finishing, count > 1)) or _WHICH_SUIT[(Rank.QUEEN, False, count > 1)]
        result.questions.append(Question("which-suit", template, {"player": player, "rank": rank, "count": count}))
    for player, cards in assumed.items():
        result.questions.append(
            Question(
                "suit-assumed",
                N_(
                    "Suit not said, so assumed for %(player)s: %(cards)s (it does not change the points; "
                    "fix it in the grid if it is wrong)."
                ),
                {"player": player, "cards": tuple(cards)},
            )
        )


def name_question(name: str, players: tuple[str, ...], cards: tuple[Card | Rank, ...]) -> Question:
    """A name said that is no player here (`players` empty) or could be several: whose are its cards?"""
    if players:
        params: dict[str, Any] = {"name": name, "players": ", ".join(players), "cards": cards}
        if cards:
            return Question("which-player", N_("«%(name)s» could be %(players)s: whose are %(cards)s? Tap them in "
                                               "the grid."), params)
        return Question("which-player", N_("«%(name)s» could be %(players)s: say the name in full."), params)
    params = {"name": name, "cards": cards}
    if cards:
        return Question("unknown-player", N_("«%(name)s» is not a player at this table: whose are %(cards)s? Tap "
                                             "them in the grid."), params)
    return Question("unknown-player", N_("«%(name)s» is not a player at this table."), params)


def correction_question(words: str) -> Question:
    return Question("unclear-correction", N_("It is not clear what «%(words)s» corrects: check the grid."),
                    {"words": words})


def guess_question(word: str, player: str) -> Question:
    return Question("name-guessed", N_("«%(word)s» was read as %(player)s: check their cards in the grid."),
                    {"word": word, "player": player})


def size_question(player: str, said: int, named: int) -> Question:
    return Question("hand-size", N_("%(player)s: %(said)s cards were said, but %(named)s are named: check the grid."),
                    {"player": player, "said": said, "named": named})


def plural_question(word: str) -> Question:
    return Question("how-many", N_("«%(word)s»: how many? Say the number or tap them in the grid."), {"word": word})


def placement_question(word: str) -> Question:
    return Question("which-card", N_("It is not clear which card «%(word)s» is the suit of: check the grid."),
                    {"word": word})


def _drop(result: ParsedRound, slot: Slot) -> None:
    if result.finishing is slot:
        result.finishing = None
    else:
        hand = result.hands.get(slot.owner, [])
        if slot in hand:
            hand.remove(slot)
        if not hand:
            result.hands.pop(slot.owner, None)
