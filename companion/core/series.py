"""A series is its rounds replayed through the rule set (docs/rules.md §4, §6).

Nothing here stores a running total: `replay()` derives standings, events,
losers and the next starter from the setup and the rounds as entered, so an
edit to round 3 simply re-derives rounds 4..n.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

from companion.core.cards import Card, parse_card
from companion.core.errors import (
    N_,
    CardError,
    FormatError,
    RoundError,
    SeriesFinishedError,
    SeriesSetupError,
    player_field,
)
from companion.core.names import clean_name, name_key
from companion.core.rules import DEFAULT_RULESET, OnLoss, Options, RuleSet, StarterRule, get_ruleset
from companion.core.scoring import HandScore, player_round

MAX_NAME_LENGTH = 30


class PlayerStatus(StrEnum):
    PLAYING = "playing"
    LOST = "lost"
    ELIMINATED = "eliminated"
    WINNER = "winner"
    LEFT = "left"  # left the table between rounds: neither lost nor in play (docs/rules-decisions.md)
    WAITING = "waiting"  # joins the table later; only ever seen in the rounds before they join


@dataclass(frozen=True)
class RosterChange:
    """A player joining (at a total the table chose) or leaving, after `after` rounds were played."""

    after: int
    player: str
    joins: bool
    total: int = 0


@dataclass(frozen=True)
class SeriesSetup:
    players: tuple[str, ...]  # seating order: the first players, then those who joined, in the order they came
    ruleset: RuleSet
    options: Options
    starter: str
    roster: tuple[RosterChange, ...] = ()

    def with_roster(self, changes: Sequence[RosterChange]) -> SeriesSetup:
        """The setup with players joining and leaving between rounds; joiners sit after the last player."""
        joined = tuple(c.player for c in changes if c.joins and c.player not in self.players)
        return replace(self, players=self.players + joined, roster=tuple(changes))

    @property
    def first_players(self) -> tuple[str, ...]:
        joined = {c.player for c in self.roster if c.joins}
        return tuple(p for p in self.players if p not in joined)

    @classmethod
    def create(cls, players: Any, ruleset_id: Any = None, options: Any = None, starter: Any = None) -> SeriesSetup:
        """Check a new series: 2..max players, names non-empty, unique, ≤ 30 characters."""
        preset = get_ruleset(ruleset_id if ruleset_id is not None else DEFAULT_RULESET)
        opts = preset.options(options)
        ruleset = preset.configured(opts)  # the referee and the simulator read the options from it
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise FormatError(N_("“players” must be a list of names, e.g. [\"Аня\", \"Борис\"]."))
        names = tuple(clean_name(p) for p in players)
        for name in names:
            if not name:
                raise SeriesSetupError(N_("A player's name is empty. Give every player a name."))
            if len(name) > MAX_NAME_LENGTH:
                raise SeriesSetupError(
                    N_("The name “%(name)s” is longer than %(max)s characters; shorten it."),
                    name=name, max=MAX_NAME_LENGTH,
                )
        folded = [name_key(n) for n in names]
        for i, name in enumerate(folded):
            if name in folded[:i]:
                raise SeriesSetupError(
                    N_("The name “%(name)s” is used twice; give each player a different name."), name=names[i]
                )
        most = ruleset.max_players_for(opts)
        if not ruleset.min_players <= len(names) <= most:
            raise SeriesSetupError(  # no rule-set id in the message: the page names the set itself
                N_("This rule set is for exactly %(max)s players; you gave %(count)s.")
                if ruleset.min_players == most
                else N_("This rule set is for %(min)s to %(max)s players; you gave %(count)s."),
                min=ruleset.min_players,
                max=most,
                count=len(names),
            )
        starter_name = names[0] if starter is None else _find_player(names, starter, "starter")
        return cls(names, ruleset, opts, starter_name)


def _find_player(players: Sequence[str], name: Any, what: str) -> str:
    if name in players:
        return str(name)
    if not isinstance(name, str):
        raise FormatError(N_("“%(field)s” must be a player's name."), field=what)
    wanted = name_key(name)
    for player in players:
        if name_key(player) == wanted:
            return player
    raise RoundError(
        N_("There is no player “%(name)s” in this series. Players: %(players)s."),
        name=name, players=", ".join(players),
    )


@dataclass(frozen=True)
class RoundInput:
    """A round as the table entered it: a redeal, or a winner, their last card and the others' hands."""

    redeal: bool = False
    winner: str | None = None
    finishing_card: Card | None = None
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    typed_points: Mapping[str, int] = field(default_factory=dict)  # when the cards are not known

    @classmethod
    def from_json(cls, data: Any, setup: SeriesSetup) -> RoundInput:
        """Read a round body; wrong shapes raise FormatError, unreadable cards CardError."""
        if not isinstance(data, Mapping):
            raise FormatError(
                N_('A round must be a JSON object, e.g. {"winner": "Аня", "finishing_card": "Q♥", "hands": {…}}.')
            )
        unknown = set(data) - {"redeal", "winner", "finishing_card", "hands", "typed_points"}
        if unknown:
            raise FormatError(N_("Unknown field “%(field)s” in the round."), field=sorted(unknown)[0])
        redeal = data.get("redeal", False)
        if not isinstance(redeal, bool):
            raise FormatError(N_("“redeal” must be true or false."))
        if redeal:
            if any(data.get(k) for k in ("winner", "finishing_card", "hands", "typed_points")):
                raise RoundError(N_('A redeal has no winner, finishing card or hands: send only {"redeal": true}.'))
            return cls(redeal=True)
        winner = data.get("winner")
        if winner is None or winner == "":
            raise RoundError(N_("Say who went out: a round that is not a redeal needs a winner."), field="winner")
        if isinstance(winner, list):
            raise RoundError(N_("Only one player can go out in a round; give one winner."), field="winner")
        winner = _find_player(setup.players, winner, "winner")
        card_text = data.get("finishing_card")
        if card_text is None or card_text == "":
            raise RoundError(N_("Say which card %(winner)s went out with."), winner=winner, field="finishing_card")
        try:
            finishing = parse_card(card_text, setup.options.deck)
        except CardError as error:
            error.field = "finishing_card"
            raise
        hands_data = data.get("hands", {})
        typed_data = data.get("typed_points", {})
        if not isinstance(hands_data, Mapping):
            raise FormatError(N_("“hands” must be an object of player → list of cards."))
        if not isinstance(typed_data, Mapping):
            raise FormatError(N_("“typed_points” must be an object of player → whole number."))
        hands: dict[str, tuple[Card, ...]] = {}
        for name, cards in hands_data.items():
            player = _find_player(setup.players, name, "hands")
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise FormatError(
                    N_('The hand of %(player)s must be a list of cards, e.g. ["10♣", "Q♥"].'), player=player
                )
            if player in hands:
                raise RoundError(N_("%(player)s has two hands in this round."), player=player)
            try:
                hands[player] = tuple(parse_card(c, setup.options.deck) for c in cards)
            except CardError as error:
                error.field = player_field(player)
                raise
        typed: dict[str, int] = {}
        for name, points in typed_data.items():
            player = _find_player(setup.players, name, "typed_points")
            if isinstance(points, bool) or not isinstance(points, int):
                raise FormatError(N_("The points of %(player)s must be a whole number."), player=player)
            typed[player] = points
        return cls(False, winner, finishing, hands, typed)

    def to_json(self) -> dict[str, Any]:
        if self.redeal:
            return {"redeal": True}
        data: dict[str, Any] = {
            "winner": self.winner,
            "finishing_card": str(self.finishing_card) if self.finishing_card else None,
            "hands": {p: [str(c) for c in cards] for p, cards in self.hands.items()},
        }
        if self.typed_points:
            data["typed_points"] = dict(self.typed_points)
        return data


@dataclass(frozen=True)
class RoundResult:
    n: int
    entry: RoundInput
    hand_scores: Mapping[str, HandScore]
    points: Mapping[str, int]  # what each player's total changed by, before resets
    totals: Mapping[str, int]
    events: tuple[dict[str, Any], ...]
    starter: str

    @cached_property
    def json(self) -> dict[str, Any]:
        """The round as the API shows it (computed once: a result never changes)."""
        entry = self.entry
        return {
            "n": self.n,
            "redeal": entry.redeal,
            "winner": entry.winner,
            "finishing_card": str(entry.finishing_card) if entry.finishing_card else None,
            "hands": {p: [str(c) for c in cards] for p, cards in entry.hands.items()},
            "typed_points": dict(entry.typed_points),
            "points": dict(self.points),
            "totals": dict(self.totals),
            "events": list(self.events),
            "starter": self.starter,
        }


@dataclass(frozen=True)
class Standings:
    setup: SeriesSetup
    rounds: tuple[RoundResult, ...]
    totals: Mapping[str, int]
    statuses: Mapping[str, PlayerStatus]
    losers: tuple[str, ...]
    winner: str | None
    next_starter: str

    @property
    def finished(self) -> bool:
        if self.setup.options.on_loss is OnLoss.SERIES_ENDS:
            return bool(self.losers)
        return len(self.in_play) <= 1

    @property
    def in_play(self) -> tuple[str, ...]:
        return _in_play(self.setup.players, self.statuses)


def series_winner(standings: Standings) -> str | None:
    """Who won the series, as its end screen and scoresheets name it (the API's `winner` is the core's alone).

    The core's winner is the last player left where losers leave the series. In a finished series of
    two players where the series ends at the first loss (`pharaoh`, or any set played by two) the
    other player is named winner too, since nobody else is left; if both went over in the same round,
    nobody is.
    """
    if standings.winner is not None or not standings.finished or len(standings.setup.players) != 2:
        return standings.winner
    survivors = [p for p in standings.setup.players if p not in standings.losers]
    return survivors[0] if len(survivors) == 1 else None


def _in_play(players: Sequence[str], statuses: Mapping[str, PlayerStatus]) -> tuple[str, ...]:
    return tuple(p for p in players if statuses[p] is PlayerStatus.PLAYING or statuses[p] is PlayerStatus.WINNER)


def round_problems(
    standings: Standings, entry: RoundInput, in_play: tuple[str, ...] | None = None
) -> Iterator[RoundError]:
    """Everything docs/rules.md §6 refuses in this round, given the series so far."""
    if standings.finished:
        yield SeriesFinishedError(N_("The series is over; no more rounds can be added. Start a new series."))
        return
    if entry.redeal:
        return
    if in_play is None:
        in_play = standings.in_play
    winner = entry.winner
    assert winner is not None and entry.finishing_card is not None
    if winner not in in_play:
        yield RoundError(N_("%(player)s is out of the series and cannot win a round."), player=winner)
    if entry.hands.get(winner) or winner in entry.typed_points:
        yield RoundError(N_("%(player)s went out, so they have no cards left; remove their hand."), player=winner)
    for player in list(entry.hands) + list(entry.typed_points):
        if player not in in_play:
            yield RoundError(
                N_("%(player)s is already out of the series; they have no hand this round."), player=player
            )
        elif player in entry.hands and player in entry.typed_points:
            yield RoundError(N_("%(player)s has both cards and typed points; keep one of them."), player=player)
    for player in in_play:
        if player == winner:
            continue
        if player in entry.typed_points:
            if entry.typed_points[player] < 0:
                yield RoundError(N_("The points of %(player)s cannot be negative."), player=player)
            continue
        if player not in entry.hands:
            yield RoundError(
                N_("The hand of %(player)s is missing: enter their leftover cards or their points."), player=player
            )
        elif not entry.hands[player]:
            yield RoundError(
                N_(
                    "%(player)s has no cards left, but only %(winner)s went out. Only one player can go out in a round."
                ),
                player=player,
                winner=winner,
            )
    seen: dict[Card, str] = {entry.finishing_card: "finish"}
    for player, cards in entry.hands.items():
        for card in cards:
            if card in seen:
                other = seen[card]
                if other == "finish":
                    yield RoundError(
                        N_("%(card)s is the finishing card, so it cannot also be in the hand of %(player)s."),
                        card=str(card),
                        player=player,
                        field="finishing_card",
                    )
                elif other == player:
                    yield RoundError(
                        N_("%(card)s is twice in the hand of %(player)s; a deck has one of each card."),
                        card=str(card),
                        player=player,
                    )
                else:
                    yield RoundError(
                        N_("%(card)s is in the hands of both %(first)s and %(second)s; a deck has one of each card."),
                        card=str(card),
                        first=other,
                        second=player,
                        field=player_field(player),
                    )
            seen[card] = player
    # No separate "too many cards" check is needed: with every card unique and the
    # finishing card on the discard pile, the hands can hold at most deck − 1 cards.
    rank = entry.finishing_card.rank.value
    if rank in standings.setup.ruleset.cannot_finish_on:
        yield RoundError(
            N_(
                "A round cannot end on %(card)s in this rule set: its player must "
                "play another card on it. Enter the last card actually played."
            ),
            card=str(entry.finishing_card),
            field="finishing_card",
        )


def _start(setup: SeriesSetup) -> Standings:
    first = setup.first_players
    return Standings(
        setup,
        (),
        dict.fromkeys(setup.players, 0),
        {p: PlayerStatus.PLAYING if p in first else PlayerStatus.WAITING for p in setup.players},
        (),
        None,
        setup.starter,
    )


def change_roster(standings: Standings, change: RosterChange) -> tuple[Standings, dict[str, Any] | None]:
    """The standings with a player joining or leaving, and the event that says so (None: nothing changed).

    A player who has already lost or been eliminated by then (a corrected round) stays as they are."""
    statuses = dict(standings.statuses)
    totals = dict(standings.totals)
    if change.joins:
        if statuses.get(change.player) is not PlayerStatus.WAITING:
            return standings, None
        statuses[change.player], totals[change.player] = PlayerStatus.PLAYING, change.total
        event = {"type": "joined", "player": change.player, "total": change.total}
    else:
        if statuses.get(change.player) is not PlayerStatus.PLAYING:
            return standings, None
        statuses[change.player] = PlayerStatus.LEFT
        event = {"type": "left", "player": change.player, "total": totals[change.player]}
    starter = _next_in_play(standings.setup.players, statuses, standings.next_starter)
    return replace(standings, totals=totals, statuses=statuses, next_starter=starter), event


def _next_in_play(players: Sequence[str], statuses: Mapping[str, PlayerStatus], after: str) -> str:
    """The player itself if still in play, else the next one clockwise who is."""
    i = players.index(after) if after in players else 0
    for k in range(len(players)):
        candidate = players[(i + k) % len(players)]
        if statuses[candidate] in (PlayerStatus.PLAYING, PlayerStatus.WINNER):
            return candidate
    return after


def next_round_starter(setup: SeriesSetup, statuses: Mapping[str, PlayerStatus], starter: str, winner: str) -> str:
    """Who starts after a round that `starter` started and `winner` won (docs/rules.md §3, §7):
    the winner, or where the deal rotates (`classic`) the next player after the starter;
    skipping anyone who has left the series. A redeal does not call this: the starter stays."""
    if setup.ruleset.play.next_starter is StarterRule.ROTATE:
        players = setup.players
        after = players[(players.index(starter) + 1) % len(players)]
        return _next_in_play(players, statuses, after)
    return _next_in_play(setup.players, statuses, winner)


def play_round(standings: Standings, entry: RoundInput) -> Standings:
    """Apply one more round in the order of docs/rules.md §4; refuse it if anything is wrong.

    `standings` already hold every join and leave before this round (see `replay`)."""
    after, result = _advance(standings, entry, len(standings.rounds) + 1)
    return replace(after, rounds=standings.rounds + (result,))


def _advance(standings: Standings, entry: RoundInput, n: int,
             before: Sequence[dict[str, Any]] = ()) -> tuple[Standings, RoundResult]:
    """The standings after round n (their `rounds` left as they were) and the round's result.

    `before`: events of the players who joined or left since the last round, told with this round."""
    in_play = standings.in_play
    for problem in round_problems(standings, entry, in_play):
        problem.round_no = n
        raise problem
    setup, options = standings.setup, standings.setup.options
    if entry.redeal:
        redeal = RoundResult(n, entry, {}, dict.fromkeys(in_play, 0), standings.totals,
                             (*before, {"type": "redeal"}), standings.next_starter)
        return standings, redeal
    totals = dict(standings.totals)
    changed: dict[str, PlayerStatus] | None = None  # statuses, copied only when one changes
    events: list[dict[str, Any]] = list(before)
    hand_scores: dict[str, HandScore] = {}
    points: dict[str, int] = {}
    round_losers = []
    for player in in_play:
        part = player_round(
            options,
            totals[player],
            winner=player == entry.winner,
            finishing_card=entry.finishing_card,
            hand=entry.hands.get(player, ()),
            typed=entry.typed_points.get(player),
        )
        change = part.change
        if part.kind == "winner":
            if change:
                events.append(
                    {"type": "queen-finish", "player": player, "card": str(entry.finishing_card), "points": change}
                )
        elif part.kind == "typed":
            events.append({"type": "typed-points", "player": player, "points": change})
        else:
            assert part.hand is not None
            hand_scores[player] = part.hand
            if part.hand.rule:
                events.append({"type": part.hand.rule, "player": player, "points": change})
        points[player] = change
        for old, new in part.resets:
            events.append({"type": "reset", "player": player, "from": old, "to": new})
        total = totals[player] = part.final
        if part.lost:
            round_losers.append(player)
            eliminated = options.on_loss is OnLoss.ELIMINATE
            changed = changed if changed is not None else dict(standings.statuses)
            changed[player] = PlayerStatus.ELIMINATED if eliminated else PlayerStatus.LOST
            events.append({"type": "eliminated" if eliminated else "lost", "player": player, "total": total})
    losers = standings.losers + tuple(round_losers)
    winner = standings.winner
    if changed is not None:
        left = [p for p in setup.players if changed[p] is PlayerStatus.PLAYING]
        if options.on_loss is OnLoss.SERIES_ENDS:
            events.append({"type": "series-end", "losers": list(round_losers), "winner": None})
        elif len(left) <= 1:
            winner = left[0] if left else None
            if winner:
                changed[winner] = PlayerStatus.WINNER
            events.append({"type": "series-end", "losers": list(losers), "winner": winner})
    assert entry.winner is not None
    statuses = changed if changed is not None else standings.statuses
    next_starter = next_round_starter(setup, statuses, standings.next_starter, entry.winner)
    result = RoundResult(n, entry, hand_scores, points, totals, tuple(events), standings.next_starter)
    return Standings(setup, standings.rounds, totals, statuses, losers, winner, next_starter), result


def replay(setup: SeriesSetup, rounds: Sequence[RoundInput]) -> Standings:
    """Standings after the given rounds, in order, with the players who joined or left between them
    (`setup.roster`); RoundError names the first bad round."""
    standings = _start(setup)
    results = []
    pending: list[dict[str, Any]] = []
    for n in range(len(rounds) + 1):
        for change in setup.roster:
            if change.after == n:
                standings, event = change_roster(standings, change)
                if event is not None:
                    pending.append(event)
        if n == len(rounds):
            break
        standings, result = _advance(standings, rounds[n], n + 1, pending)
        pending = []
        results.append(result)
    return replace(standings, rounds=tuple(results))
