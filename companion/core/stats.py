"""Statistics of a table: several series of the same players, derived by replay.

Nothing here is stored: the caller replays each series (`series.replay`) and
passes the standings, oldest series first, with the table's name merges
(«Боря» counted as «Борис»). A correction in an old series changes its
replay, so the statistics follow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
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


def counted_names(all_standings: Sequence[Standings], merges: Mapping[str, str] | None = None) -> list[dict[str, str]]:
    """Per series, each player's name as counted after the merges (one table: one set of merges)."""
    merges = merges or {}
    return [{p: canonical(p, merges) for p in standings.setup.players} for standings in all_standings]


def table_stats(all_standings: Sequence[Standings], merges: Mapping[str, str] | None = None,
                names_by_series: Sequence[Mapping[str, str]] | None = None) -> list[PlayerStats]:
    """Per player, in order of first appearance: what the table's series say about them.

    `names_by_series` (instead of `merges`): each series' own player → counted name, for series
    of several tables, each with its own merges (one person across tables).
    """
    if names_by_series is None:
        names_by_series = counted_names(all_standings, merges)
    players: dict[str, PlayerStats] = {}
    for k, standings in enumerate(all_standings):
        setup = standings.setup
        options = setup.options
        exact_resets = {old for old, _ in options.resets}
        names = names_by_series[k]
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


NEAR_LINE = 20  # a total this close below the loss line (or closer) is "near the line" for a queen finish
PERIODS = ("month", "year", "all")


@dataclass
class PairStats:
    """What one player did to one opponent, over the series both played."""

    pushed_over: int = 0  # rounds the player went out in while the opponent went over the loss line
    queen_finishes_near_line: int = 0  # the player went out on a queen, the opponent within NEAR_LINE of the line
    resets_caused: int = 0  # rounds the player went out in while the opponent's total landed on a reset (101 → 0)
    series_lost_together: int = 0  # series the player lost while the opponent played in it

    def to_json(self) -> dict[str, int]:
        """The fields of `head_to_head` in `GET /api/v1/tables/<id>`, in their documented order."""
        return {"pushed_over": self.pushed_over, "queen_finishes_near_line": self.queen_finishes_near_line,
                "series_lost_together": self.series_lost_together, "resets_caused": self.resets_caused}


HeadToHead = dict[str, dict[str, PairStats]]


def head_to_head(all_standings: Sequence[Standings], merges: Mapping[str, str] | None = None,
                 names_by_series: Sequence[Mapping[str, str]] | None = None) -> HeadToHead:
    """Player → opponent → what the player did to that opponent, for every pair that played a series together.

    Players and opponents are in order of first appearance. A round counts for a pair only when
    both were in play in it (a redeal counts for nobody); "before the round" is the total the
    opponent carried into it (0 in round 1).
    """
    if names_by_series is None:
        names_by_series = counted_names(all_standings, merges)
    pairs: HeadToHead = {}
    for k, standings in enumerate(all_standings):
        names = names_by_series[k]
        counted = [names[p] for p in standings.setup.players]
        for p in counted:
            row = pairs.setdefault(p, {})
            for o in counted:
                if o != p:
                    row.setdefault(o, PairStats())
        _count_rounds(standings, names, pairs)
        for loser in standings.losers:
            for o in counted:
                if o != names[loser]:
                    pairs[names[loser]][o].series_lost_together += 1
    return pairs


def _count_rounds(standings: Standings, names: Mapping[str, str], pairs: HeadToHead) -> None:
    options = standings.setup.options
    exact_resets = {old for old, _ in options.resets}
    before: Mapping[str, int] = dict.fromkeys(standings.setup.players, 0)
    for r in standings.rounds:
        winner = r.entry.winner
        if r.entry.redeal or winner is None:
            continue
        over = {e["player"] for e in r.events if e.get("type") in ("lost", "eliminated")}
        reset = {e["player"] for e in r.events if e.get("type") == "reset" and e.get("from") in exact_resets}
        queen = r.entry.finishing_card is not None and r.entry.finishing_card.rank is Rank.QUEEN
        row = pairs[names[winner]]
        for o in r.points:
            if o == winner:
                continue
            pair = row[names[o]]
            pair.pushed_over += o in over
            pair.resets_caused += o in reset
            pair.queen_finishes_near_line += queen and options.loss_above - before[o] <= NEAR_LINE
        before = r.totals


@dataclass(frozen=True)
class Rivals:
    """A player's rival card: who pushed them over 101 most often, and whom they pushed most often."""

    name: str
    pushed_by: str | None  # the opponent who most often went out while this player went over the line
    pushed_by_count: int
    pushed: str | None  # the opponent this player most often pushed over the line
    pushed_count: int


def rivals(pairs: HeadToHead, name: str) -> Rivals:
    """The rival card of one player; ties go to the opponent met first; nobody when the count is 0."""
    opponents = list(pairs.get(name, {}))
    by = max(opponents, key=lambda o: pairs[o][name].pushed_over, default=None)
    of = max(opponents, key=lambda o: pairs[name][o].pushed_over, default=None)
    by_count = pairs[by][name].pushed_over if by is not None else 0
    of_count = pairs[name][of].pushed_over if of is not None else 0
    return Rivals(name, by if by_count else None, by_count, of if of_count else None, of_count)


def in_period(started_at: str, period: str, today: date) -> bool:
    """Whether a series started at `started_at` (ISO date or timestamp) falls in the current `period`
    (one of PERIODS: this calendar month, this calendar year, or all time)."""
    if period == "month":
        return started_at[:7] == today.isoformat()[:7]
    if period == "year":
        return started_at[:4] == today.isoformat()[:4]
    return True


def lost_by_month(all_standings: Sequence[Standings], started: Sequence[str],
                  names_by_series: Sequence[Mapping[str, str]]) -> list[tuple[str, dict[str, int]]]:
    """(month "YYYY-MM", counted name → series lost that month), every month from the first series'
    to the last's, months without a series too; series counted in the month they started."""
    lost: dict[str, dict[str, int]] = {}
    for standings, at, names in zip(all_standings, started, names_by_series, strict=True):
        month = lost.setdefault(at[:7], {})
        for loser in standings.losers:
            month[names[loser]] = month.get(names[loser], 0) + 1
    if not lost:
        return []
    first, last = min(lost), max(lost)
    year, month_no = int(first[:4]), int(first[5:7])
    months = []
    while f"{year:04d}-{month_no:02d}" <= last:
        key = f"{year:04d}-{month_no:02d}"
        months.append((key, lost.get(key, {})))
        year, month_no = (year + 1, 1) if month_no == 12 else (year, month_no + 1)
    return months


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
