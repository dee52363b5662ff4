"""Whole rounds played by simple bots, seeded, under any rule set (RULES.md §2, §3).

Every card a bot plays is asked of the referee first: `playable` lists the
cards of the hand `check_play` allows (the same decision), the bot picks one,
and `check_play` gives the verdict for it; the
table then applies exactly what the verdict says (`next_draws`, `next_turn`,
`penalty_pending`, `must_cover`, `clockwise`): the referee and the simulator
cannot disagree. What is not a single play lives here: dealing, drawing when
nothing fits, flipping the discard pile, the end of the round, redeals.

- Deal `hand_size` cards one at a time from the starter. With a table card
  (`PlayRules.table_card`) the dealer, on the starter's right, keeps one card
  fewer and turns the last one up; the starter plays on it. A table card has
  no effect (nobody played it); a queen turned up asks for its own suit.
  Without a table card the starter opens with any card, and a special opening
  card acts at once.
- Nothing fits: draw one and pass; the drawn card is played at once if it fits
  where `drawn_card_playable`. Where `draw_until_fits` (and always when
  covering a nine in `nine_cover` sets) draw until a card fits, then play it.
- A six (nine, eight) its player cannot cover: they draw as above and pass;
  the next player plays on the uncovered card as on any card.
- The draw pile runs out: the discards under the top card are turned face
  down as the new pile, without shuffling. Draws take only what exists; a
  missing penalty card is not carried over.
- Redeal (no points): four of a kind dealt where `four_of_a_kind_redeal`;
  a full circle of turns in which nobody plays or draws; a last card that
  must be covered when there is nothing to draw.
- The round ends when a player's hand is empty after a card that needs no
  cover. A last seven or K♠ still makes the next player draw, and those cards
  count in their hand.

- Repetition (the simulator's agreement, beyond RULES.md): with the draw
  pile empty, play can go round for ever with everyone playing or drawing, e.g.
  two players passing two tens back and forth through the flipped pile while
  a third never gets a turn, or four queens going round under draw-until-fits.
  When the same position (hands, piles, top card, named suit, whose turn,
  direction, penalty, cover) comes back a third time the round is a deadlock:
  redeal.

Bots: pass a penalty on when they can; otherwise play the legal card worth
the most points, keeping queens for last; a queen names the suit the bot holds
most of (ties at random).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .cards import Card, Rank, Suit, deck
from .referee import PlayVerdict, check_play, playable
from .rules import Options, RuleSet
from .scoring import card_points, score_hand

MAX_TURNS = 20_000  # a round that goes on longer is a bug in the simulator
_QUEEN = Rank.QUEEN
_SUITS = tuple(Suit)


class SimulationStalled(RuntimeError):
    """A round did not end within MAX_TURNS turns."""


@dataclass(frozen=True, slots=True)
class Play:
    """One card a bot played: the question asked of the referee and its answer."""

    seat: int
    top: Card | None
    card: Card
    ordered_suit: Suit | None
    covering: bool
    pending_draw: int
    clockwise: bool
    verdict: PlayVerdict
    named_suit: Suit | None  # the suit named with a queen


@dataclass(frozen=True, slots=True)
class Draw:
    """Cards taken from the pile: for want of a play, or as a penalty (only what existed)."""

    seat: int
    count: int
    penalty: bool


@dataclass(frozen=True, slots=True)
class Pass:
    """A turn that ends without a card played (after drawing, or with nothing to draw)."""

    seat: int


Event = Play | Draw | Pass


@dataclass(frozen=True)
class RoundOutcome:
    players: tuple[str, ...]
    redeal: bool
    redeal_reason: str | None
    winner: str | None
    finishing_card: Card | None
    hands: Mapping[str, tuple[Card, ...]]  # every player's cards at the end (the winner's is empty)
    turns: int
    log: tuple[Event, ...] = field(repr=False)  # every action in order

    @property
    def plays(self) -> tuple[Play, ...]:
        return tuple(e for e in self.log if isinstance(e, Play))

    def to_round_json(self) -> dict[str, Any]:
        """The round as the series API takes it (`RoundInput.from_json`)."""
        if self.redeal:
            return {"redeal": True}
        return {
            "winner": self.winner,
            "finishing_card": str(self.finishing_card),
            "hands": {p: [str(c) for c in cards] for p, cards in self.hands.items() if p != self.winner},
        }

    def leftover_points(self, options: Options) -> dict[str, int]:
        """Points of each losing hand, by the same scorer as the series."""
        return {p: score_hand(cards, options).points for p, cards in self.hands.items() if p != self.winner}


class Table:
    """The cards of one round; `cards()` is everything on the table, for the conservation check."""

    def __init__(self, players: int, cards: list[Card]) -> None:
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.draw_pile = cards  # the top of the pile is the end of the list
        self.discard: list[Card] = []  # the top card is the end of the list

    def cards(self) -> list[Card]:
        return [c for hand in self.hands for c in hand] + self.draw_pile + self.discard

    def draw(self, player: int, count: int) -> int:
        """Draw up to `count` cards; turn the discards over when the pile is empty."""
        drawn = 0
        for _ in range(count):
            if not self.draw_pile and len(self.discard) > 1:
                # Turning the stack face down puts its bottom card on top: no shuffle.
                self.draw_pile = self.discard[-2::-1]
                del self.discard[:-1]
            if not self.draw_pile:
                break
            self.hands[player].append(self.draw_pile.pop())
            drawn += 1
        return drawn


Observer = Callable[[Table], None]


def simulate_round(
    ruleset: RuleSet, players: int, seed: int, starter: int = 0, observe: Observer | None = None,
) -> RoundOutcome:
    """Play one round with `players` bots; the same seed gives the same round."""
    return _Round(ruleset, players, random.Random(seed), starter, observe).play()


class _Round:
    def __init__(self, ruleset: RuleSet, players: int, rng: random.Random, starter: int, observe: Observer | None):
        self.ruleset, self.n, self.rng, self.observe = ruleset, players, rng, observe
        self.names = tuple(f"P{i + 1}" for i in range(players))
        cards = list(deck(ruleset.defaults.deck))
        # Each card is one object for the whole round: ids stand in for cards where hashing is slow.
        self.points = {id(c): card_points(c, ruleset.defaults) for c in cards}
        rng.shuffle(cards)
        self.table = Table(players, cards)
        self.cur = starter % players
        self.top: Card | None = None
        self.ordered: Suit | None = None
        self.covering = False
        self.pending = 0
        self.clockwise = True
        self.log: list[Event] = []
        self.turns = 0

    # -- the round ------------------------------------------------------------

    def play(self) -> RoundOutcome:
        if self._deal():
            return self._redeal("four-of-a-kind")
        idle = 0  # turns in a row in which nobody played or drew
        seen: Counter[tuple[Any, ...]] = Counter()  # positions with an empty draw pile
        while True:
            self.turns += 1
            if self.turns > MAX_TURNS:
                raise SimulationStalled(f"{self.ruleset.id}: no end after {MAX_TURNS} turns")
            if not self.table.draw_pile:
                position = self._position()
                seen[position] += 1
                if seen[position] >= 3:
                    return self._redeal("repetition")
            hand = self.table.hands[self.cur]
            choices = self._fits(*hand)
            if choices:
                idle = 0
                card = self._choose(choices)
                if self._play(card, self._ask(card)):
                    return self._finish()
                continue
            if self.pending:  # take the penalty and skip the turn
                drawn = self.table.draw(self.cur, self.pending)
                self.log.append(Draw(self.cur, drawn, penalty=True))
                self._seen()
                self.pending = 0
            else:
                drawn, played = self._draw_for_a_play()
                if played:
                    idle = 0
                    if self._play(*played):
                        return self._finish()
                    continue
                if self.covering and not hand and not drawn:
                    return self._redeal("last-card-uncovered")
                self.log.append(Pass(self.cur))
                self.covering = False
            idle = 0 if drawn else idle + 1
            if idle >= self.n:
                return self._redeal("deadlock")
            self.cur = self._seat(1)

    def _deal(self) -> bool:
        """Deal; True if the deal must be redone (four of a kind)."""
        play = self.ruleset.play
        dealer = (self.cur - 1) % self.n
        for _ in range(play.hand_size):
            for k in range(self.n):
                seat = (self.cur + k) % self.n
                if not (play.table_card and seat == dealer and len(self.table.hands[seat]) == play.hand_size - 1):
                    self.table.draw(seat, 1)
        if play.table_card:
            self.top = self.table.draw_pile.pop()
            self.table.discard.append(self.top)
            self.ordered = self.top.suit if self.top.rank is Rank.QUEEN else None
        self._seen()
        if play.four_of_a_kind_redeal:
            return any(max(Counter(c.rank for c in hand).values()) >= 4 for hand in self.table.hands)
        return False

    def _position(self) -> tuple[Any, ...]:
        return (self.cur, id(self.top), id(self.ordered), self.covering, self.pending, self.clockwise,
                tuple(map(id, self.table.discard)), tuple(tuple(sorted(map(id, hand))) for hand in self.table.hands))

    def _fits(self, *cards: Card) -> list[Card]:
        return playable(self.ruleset, self.n, self.top, cards, self.ordered, covering=self.covering,
                        pending_draw=self.pending, clockwise=self.clockwise)

    def _ask(self, card: Card) -> PlayVerdict:
        return check_play(
            self.ruleset, self.n, self.top, card, self.ordered,
            covering=self.covering, pending_draw=self.pending, clockwise=self.clockwise,
        )

    def _draw_for_a_play(self) -> tuple[int, tuple[Card, PlayVerdict] | None]:
        """Nothing fits: draw one (or until one fits); the card to play at once, if any."""
        play = self.ruleset.play
        until = play.draw_until_fits or (self.covering and self.top is not None and self.top.rank is Rank.NINE)
        hand = self.table.hands[self.cur]
        drawn = 0
        while self.table.draw(self.cur, 1):
            drawn += 1
            self._seen()
            if (until or play.drawn_card_playable) and self._fits(hand[-1]):
                self.log.append(Draw(self.cur, drawn, penalty=False))
                return drawn, (hand[-1], self._ask(hand[-1]))
            if not until:
                break
        if drawn:
            self.log.append(Draw(self.cur, drawn, penalty=False))
        return drawn, None

    def _choose(self, choices: list[Card]) -> Card:
        points, rand = self.points, self.rng.random
        return min(choices, key=lambda c: (c.rank is _QUEEN, -points[id(c)], rand()))

    def _name_suit(self, hand: list[Card], played: Card) -> Suit:
        counts = [sum(1 for c in hand if c.suit is suit and c.rank is not _QUEEN) for suit in _SUITS]
        most = max(counts)
        if not most:
            return played.suit
        return self.rng.choice([suit for suit, k in zip(_SUITS, counts) if k == most])

    def _play(self, card: Card, verdict: PlayVerdict) -> bool:
        """Play a card the referee allowed and apply its verdict; True if the round is over."""
        hand = self.table.hands[self.cur]
        del hand[next(i for i, c in enumerate(hand) if c is card)]  # by identity: Card.__eq__ is slow
        self.table.discard.append(card)
        named = self._name_suit(hand, card) if card.rank is _QUEEN else None
        self.log.append(Play(self.cur, self.top, card, self.ordered, self.covering, self.pending,
                             self.clockwise, verdict, named))
        self.top, self.ordered, self.clockwise = card, named, verdict.clockwise
        self.covering = verdict.must_cover
        finished = not hand and not verdict.must_cover
        if verdict.penalty_pending and not finished:
            self.pending = verdict.next_draws
        else:
            self.pending = 0
            if verdict.next_draws:
                victim = self._seat(1)
                self.log.append(Draw(victim, self.table.draw(victim, verdict.next_draws), penalty=True))
        self._seen()
        if not finished:
            self.cur = (self.cur + verdict.next_turn) % self.n
        return finished

    def _seat(self, seats: int) -> int:
        """The seat `seats` places after the current player in the direction of play."""
        return (self.cur + (seats if self.clockwise else -seats)) % self.n

    def _seen(self) -> None:
        if self.observe is not None:
            self.observe(self.table)

    # -- outcomes -------------------------------------------------------------

    def _hands(self) -> dict[str, tuple[Card, ...]]:
        return {name: tuple(hand) for name, hand in zip(self.names, self.table.hands)}

    def _finish(self) -> RoundOutcome:
        return RoundOutcome(self.names, False, None, self.names[self.cur], self.top, self._hands(),
                            self.turns, tuple(self.log))

    def _redeal(self, reason: str) -> RoundOutcome:
        return RoundOutcome(self.names, True, reason, None, None, self._hands(), self.turns, tuple(self.log))
