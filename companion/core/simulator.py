"""Whole rounds played by simple bots, seeded, under any rule set (RULES.md §2, §3).

Every card a bot plays is asked of the referee first: `playable` lists the
cards of the hand `check_play` allows (the same decision), the bot picks one,
and `check_play` gives the verdict for it; the
table then applies exactly what the verdict says (`next_draws`, `next_turn`,
`penalty_pending`, `must_cover`, `clockwise`): the referee and the simulator
cannot disagree. What is not a single play lives here: dealing, drawing when
nothing fits, flipping the discard pile, the end of the round, redeals.

Every option of the rule set (`Options`, RULES.md §7) is followed: the table's
options come with the rule set (`RuleSet.configured`, or `options=`).

- Deal `hand_size` cards one at a time from the starter. With a table card
  (`PlayRules.table_card`) the dealer, on the starter's right, keeps one card
  fewer and turns the last one up; the starter plays on it. A table card has
  no effect (nobody played it); a queen turned up asks for its own suit.
  Without a table card the starter opens with any card, and a special opening
  card acts at once.
- Nothing fits: draw one and pass; the drawn card is played at once if it fits
  where `no_match` is draw-play. Where it is draw-until (and always when
  covering a nine in `nine_cover` sets) draw until a card fits, then play it.
- A pending penalty (or an ace that may be answered): pass it on where the
  referee allows, else draw it (only what exists) and skip the turn.
- Several cards at once (`several_at_once`): a bot lays every card of the
  chosen card's rank it holds; the last one laid acts.
- A last card a round may not end on that needs no cover (a queen where
  `finish_on_queen` is off): its player draws one; with nothing to draw,
  redeal.
- A six (nine, eight) its player cannot cover: they draw as above and pass;
  the next player plays on the uncovered card as on any card.
- The draw pile runs out: the discards under the top card are turned face
  down as the new pile, without shuffling (shuffled where `shuffle_pile`). Draws take only what exists; a
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.core.cards import Card, Rank, Suit, deck
from companion.core.referee import PlayVerdict, check_play, playable
from companion.core.rules import Options, RuleSet
from companion.core.scoring import card_points, score_hand

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
    penalty_pending: bool = False  # the question's penalty_pending
    also: tuple[Card, ...] = ()  # more cards of the same rank laid with it


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

    def __init__(self, players: int, cards: list[Card], shuffle: random.Random | None = None) -> None:
        self.shuffle = shuffle  # turn the pile over shuffled, with this generator
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
                if self.shuffle is not None:
                    self.shuffle.shuffle(self.draw_pile)
            if not self.draw_pile:
                break
            self.hands[player].append(self.draw_pile.pop())
            drawn += 1
        return drawn


Observer = Callable[[Table], None]


def simulate_round(
    ruleset: RuleSet, players: int, seed: int, starter: int = 0, observe: Observer | None = None,
    options: Options | None = None,
) -> RoundOutcome:
    """Play one round with `players` bots; the same seed gives the same round.
    `options`: the table's options (default: those in force in `ruleset`)."""
    if options is not None:
        ruleset = ruleset.configured(options)
    return _Round(ruleset, players, random.Random(seed), starter, observe).play()


class _Round:
    def __init__(self, ruleset: RuleSet, players: int, rng: random.Random, starter: int, observe: Observer | None):
        self.ruleset, self.n, self.rng, self.observe = ruleset, players, rng, observe
        self.names = tuple(f"P{i + 1}" for i in range(players))
        self.opt = opt = ruleset.defaults
        cards = list(deck(opt.deck))
        # Each card is one object for the whole round: ids stand in for cards where hashing is slow.
        self.points = {id(c): card_points(c, opt) for c in cards}
        rng.shuffle(cards)
        self.table = Table(players, cards, rng if opt.shuffle_pile else None)
        self.cur = starter % players
        self.top: Card | None = None
        self.ordered: Suit | None = None
        self.covering = False
        self.pending = 0  # cards the pending penalty makes the current player draw
        self.pending_on = False  # a penalty (or an ace's skip) is pending on the current player
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
                also = self._also(hand, card)
                end = self._play(card, self._ask(card, also), also)
                if end:
                    return self._finish() if end == "finish" else self._redeal(end)
                continue
            if self.pending_on:  # take the penalty (or the ace's skip) and skip the turn
                drawn = self.table.draw(self.cur, self.pending)
                self.log.append(Draw(self.cur, drawn, penalty=True) if self.pending else Pass(self.cur))
                self._seen()
                self.pending, self.pending_on = 0, False
            else:
                drawn, played = self._draw_for_a_play()
                if played:
                    idle = 0
                    end = self._play(*played)
                    if end:
                        return self._finish() if end == "finish" else self._redeal(end)
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
        play, size = self.ruleset.play, self.opt.hand_size
        dealer = (self.cur - 1) % self.n
        for _ in range(size):
            for k in range(self.n):
                seat = (self.cur + k) % self.n
                if not (play.table_card and seat == dealer and len(self.table.hands[seat]) == size - 1):
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
        return (self.cur, id(self.top), id(self.ordered), self.covering, self.pending, self.pending_on, self.clockwise,
                tuple(map(id, self.table.discard)), tuple(tuple(sorted(map(id, hand))) for hand in self.table.hands))

    def _fits(self, *cards: Card) -> list[Card]:
        return playable(self.ruleset, self.n, self.top, cards, self.ordered, covering=self.covering,
                        pending_draw=self.pending, clockwise=self.clockwise, penalty_pending=self.pending_on)

    def _ask(self, card: Card, also: tuple[Card, ...] = ()) -> PlayVerdict:
        return check_play(
            self.ruleset, self.n, self.top, card, self.ordered,
            covering=self.covering, pending_draw=self.pending, clockwise=self.clockwise,
            penalty_pending=self.pending_on, also=also,
        )

    def _also(self, hand: list[Card], card: Card) -> tuple[Card, ...]:
        """With `several_at_once`: the other cards of the same rank, laid with it."""
        if not self.opt.several_at_once:
            return ()
        return tuple(c for c in hand if c.rank is card.rank and c is not card)

    def _draw_for_a_play(self) -> tuple[int, tuple[Card, PlayVerdict] | None]:
        """Nothing fits: draw one (or until one fits); the card to play at once, if any."""
        opt = self.opt
        until = opt.draw_until_fits or (self.covering and self.top is not None and self.top.rank is Rank.NINE)
        hand = self.table.hands[self.cur]
        drawn = 0
        while self.table.draw(self.cur, 1):
            drawn += 1
            self._seen()
            if (until or opt.drawn_card_playable) and self._fits(hand[-1]):
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
        return self.rng.choice([suit for suit, k in zip(_SUITS, counts, strict=True) if k == most])

    def _play(self, card: Card, verdict: PlayVerdict, also: tuple[Card, ...] = ()) -> str | None:
        """Play a card (and those laid with it) the referee allowed and apply its verdict;
        "finish" if the round is over, a redeal reason if it must be redealt, else None."""
        hand = self.table.hands[self.cur]
        for laid in (card, *also):
            del hand[next(i for i, c in enumerate(hand) if c is laid)]  # by identity: Card.__eq__ is slow
            self.table.discard.append(laid)
        last = also[-1] if also else card
        named = self._name_suit(hand, last) if last.rank is _QUEEN else None
        self.log.append(Play(self.cur, self.top, card, self.ordered, self.covering, self.pending,
                             self.clockwise, verdict, named, self.pending_on, also))
        self.top, self.ordered, self.clockwise = last, named, verdict.clockwise
        self.covering = verdict.must_cover
        last_card = not hand
        finished = last_card and last.rank._value_ not in self.ruleset.cannot_finish_on
        if finished:
            self.covering = False
        if verdict.penalty_pending and not finished:
            self.pending, self.pending_on = verdict.next_draws, True
        else:
            self.pending, self.pending_on = 0, False
            if verdict.next_draws:
                victim = self._seat(1)
                self.log.append(Draw(victim, self.table.draw(victim, verdict.next_draws), penalty=True))
        self._seen()
        if finished:
            return "finish"
        if last_card and not verdict.must_cover:  # a last card the round may not end on, nothing to cover
            drawn = self.table.draw(self.cur, 1)
            if not drawn:
                return "last-card-uncovered"
            self.log.append(Draw(self.cur, drawn, penalty=False))
            self._seen()
        self.cur = (self.cur + verdict.next_turn) % self.n
        return None

    def _seat(self, seats: int) -> int:
        """The seat `seats` places after the current player in the direction of play."""
        return (self.cur + (seats if self.clockwise else -seats)) % self.n

    def _seen(self) -> None:
        if self.observe is not None:
            self.observe(self.table)

    # -- outcomes -------------------------------------------------------------

    def _hands(self) -> dict[str, tuple[Card, ...]]:
        return {name: tuple(hand) for name, hand in zip(self.names, self.table.hands, strict=True)}

    def _finish(self) -> RoundOutcome:
        return RoundOutcome(self.names, False, None, self.names[self.cur], self.top, self._hands(),
                            self.turns, tuple(self.log))

    def _redeal(self, reason: str) -> RoundOutcome:
        return RoundOutcome(self.names, True, reason, None, None, self._hands(), self.turns, tuple(self.log))
