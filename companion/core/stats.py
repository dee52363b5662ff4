"""Statistics of a table: several series of the same players, derived by replay.

Nothing here is stored: the caller replays each series (`series.replay`) and
passes the standings, oldest series first, with the table's name merges
(«Боря» counted as «Борис»). A correction in an old series changes its
replay, so the statistics follow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.core.cards import Rank
from companion.core.series import Standings, series_winner


@dataclass
class PlayerStats:
    name: str
    series_played: int = 0
    series_lost: int = 0
    series_won: int = 0
    rounds_played: int = 0  # rounds dealt to the player (redeals not counted)
    rounds_won: int = 0
    points_taken: int = 0  # the sum of the player's round changes (a queen finish counts negative)
    resets_101: int = 0  # exact-total resets (101 → 0 and the like), not negative → 0
    queen_finishes: int = 0
    highest_total_survived: int | None = None
    most_expensive_hand: int | None = None
    most_expensive_hand_cards: tuple[str, ...] = ()
    lost_by_series: list[int] = field(default_factory=list)  # cumulative series lost after each series of the table

    @property
    def average_points(self) -> float | None:
        """Average points taken per round played, one decimal; None before any round."""
        if not self.rounds_played:
            return None
        return round(self.points_taken / self.rounds_played, 1)

    def to_json(self) -> dict[str, Any]:
        """The fields `GET /api/v1/tables/<id>` shows, in its documented order."""
        return {
            "name": self.name,
            "series_played": self.series_played,
            "series_lost": self.series_lost,
            "series_won": self.series_won,
            "rounds_won": self.rounds_won,
            "average_points": self.average_points,
            "resets_101": self.resets_101,
            "queen_finishes": self.queen_finishes,
            "highest_total_survived": self.highest_total_survived,
        }


def canonical(name: str, merges: Mapping[str, str]) -> str:
    """The name a player is counted under after the merges (followed to the end, loops ignored)."""
    seen = {name}
    while name in merges and merges[name] not in seen:
        name = merges[name]
        seen.add(name)
    return name


def table_stats(all_standings: Sequence[Standings], merges: Mapping[str, str] | None = None) -> list[PlayerStats]:
    """Per player, in order of first appearance: what the table's series say about them."""
    merges = merges or {}
    players: dict[str, PlayerStats] = {}
    for k, standings in enumerate(all_standings):
        setup = standings.setup
        options = setup.options
        exact_resets = {old for old, _ in options.resets}
        names = {p: canonical(p, merges) for p in setup.players}
        winner_of_series = series_winner(standings)  # the scoresheet's winner, two-player series too
        for p in setup.players:
            stats = players.setdefault(names[p], PlayerStats(names[p], lost_by_series=[0] * k))
            stats.series_played += 1
            if p in standings.losers:  # a loss is final once named, even while the others play on
                stats.series_lost += 1
            if winner_of_series == p:
                stats.series_won += 1
        for r in standings.rounds:
            if r.entry.redeal:
                continue
            for p, change in r.points.items():
                stats = players[names[p]]
                stats.rounds_played += 1
                stats.points_taken += change
                total = r.totals[p]
                if total <= options.loss_above and (stats.highest_total_survived is None
                                                    or total > stats.highest_total_survived):
                    stats.highest_total_survived = total
            winner = r.entry.winner
            if winner is not None:
                players[names[winner]].rounds_won += 1
                if r.entry.finishing_card is not None and r.entry.finishing_card.rank is Rank.QUEEN:
                    players[names[winner]].queen_finishes += 1
            for p, score in r.hand_scores.items():
                stats = players[names[p]]
                if stats.most_expensive_hand is None or score.points > stats.most_expensive_hand:
                    stats.most_expensive_hand = score.points
                    stats.most_expensive_hand_cards = tuple(str(c) for c in r.entry.hands[p])
            for event in r.events:
                if event.get("type") == "reset" and event.get("from") in exact_resets:
                    players[names[event["player"]]].resets_101 += 1
        for stats in players.values():
            stats.lost_by_series.append(stats.series_lost)
    return list(players.values())


def ranked(stats: Sequence[PlayerStats]) -> list[PlayerStats]:
    """Who loses most at the table first: more series lost, then a higher share lost, then name."""
    return sorted(stats, key=lambda s: (-s.series_lost, -(s.series_lost / s.series_played if s.series_played else 0),
                                        s.name.casefold()))


@dataclass(frozen=True)
class Place:
    name: str
    total: int
    status: str  # a PlayerStatus value
    out_round: int | None = None  # the round the player went over the line in


@dataclass(frozen=True)
class FinalStandings:
    """How a series ended, for the scoresheet: who won, who lost, and who left in which order."""

    finished: bool
    winner: str | None
    losers: tuple[str, ...]
    out: tuple[Place, ...]  # the players who went over the line, in the order they did
    places: tuple[Place, ...]  # everyone, best first


def final_standings(standings: Standings) -> FinalStandings:
    """The end of a series in words a scoresheet can print.

    The winner is `series_winner`'s. Everyone else is ranked by total, lower
    first, and the players who went over the line come last, the last to leave first.
    """
    setup = standings.setup
    out: list[Place] = []
    for r in standings.rounds:
        for event in r.events:
            if event.get("type") in ("lost", "eliminated"):
                out.append(Place(event["player"], event["total"], standings.statuses[event["player"]].value, r.n))
    winner = series_winner(standings)
    survivors = [p for p in setup.players if p not in standings.losers]
    staying = sorted((p for p in survivors if p != winner), key=lambda p: (standings.totals[p], setup.players.index(p)))
    places = [Place(winner, standings.totals[winner], "winner")] if winner else []
    places += [Place(p, standings.totals[p], standings.statuses[p].value) for p in staying]
    places += list(reversed(out))
    return FinalStandings(standings.finished, winner, standings.losers, tuple(out), tuple(places))
