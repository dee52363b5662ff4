"""Head to head, periods and months, counted by hand from series written out round by round."""

from __future__ import annotations

from datetime import date
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.cards import Rank
from companion.core.errors import RuleError
from companion.core.series import RoundInput, SeriesSetup, Standings, play_round, replay
from companion.core.stats import (
    counted_names,
    head_to_head,
    in_period,
    lost_by_month,
    rivals,
    table_stats,
)


def typed(s: SeriesSetup, winner: str, finish: str, **points: int) -> RoundInput:
    return RoundInput.from_json({"winner": winner, "finishing_card": finish, "typed_points": points}, s)


def series_one() -> Standings:
    """«Игрофан», Аня, Борис, Вера; loss over 101, exactly 101 resets to 0.

    round 1: Аня out on 8♥;  Борис +60, Вера +85        → 0, 60, 85
    round 2: Борис out on Q♠ (queen); Аня +30, Вера +16 → Вера lands on 101 → 0 (a reset Борис caused);
             Вера carried 85 into the round: 101 − 85 = 16 ≤ 20, a queen finish near her line; Аня carried 0: not near
    round 3: Вера out on A♠; Аня +80 → 110, over the line: Вера pushed Аня over; Борис +10. Аня lost the series.
    """
    s = SeriesSetup.create(["Аня", "Борис", "Вера"], "igrafan")
    return replay(s, [typed(s, "Аня", "8♥", Борис=60, Вера=85),
                      typed(s, "Борис", "Q♠", Аня=30, Вера=16),
                      typed(s, "Вера", "A♠", Аня=80, Борис=10)])


def series_two() -> Standings:
    """Аня and Борис only.

    round 1: Борис out on Q♥ (−40); Аня +90 (she carried 0: not near)
    round 2: Борис out on Q♣ (−20); Аня carried 90: 101 − 90 = 11 ≤ 20, near; Аня +5 → 95
    round 3: Аня out on Q♦ (−20 → 75); Борис carried −60: far from the line; Борис +20 → −40
    round 4: Борис out on 7♠; Аня +30 → 105, over: Борис pushed Аня over. Аня lost.
    """
    s = SeriesSetup.create(["Аня", "Борис"], "igrafan")
    return replay(s, [typed(s, "Борис", "Q♥", Аня=90), typed(s, "Борис", "Q♣", Аня=5),
                      typed(s, "Аня", "Q♦", Борис=20), typed(s, "Борис", "7♠", Аня=30)])


def counts(pairs: Any, player: str, opponent: str) -> dict[str, int]:
    return pairs[player][opponent].to_json()


def test_head_to_head_matches_the_hand_count() -> None:
    one, two = series_one(), series_two()
    assert one.losers == ("Аня",) and two.losers == ("Аня",)  # the replay agrees with the story told above
    pairs = head_to_head([one, two])
    # By hand, from the two docstrings:
    # Аня: lost both series, with Борис in both (2) and with Вера in the first (1); pushed nobody, no queen near.
    assert counts(pairs, "Аня", "Борис") == {"pushed_over": 0, "queen_finishes_near_line": 0,
                                              "series_lost_together": 2, "resets_caused": 0}
    assert counts(pairs, "Аня", "Вера") == {"pushed_over": 0, "queen_finishes_near_line": 0,
                                             "series_lost_together": 1, "resets_caused": 0}
    # Борис: pushed Аня over once (series 2 round 4); queen near Аня's line once (series 2 round 2);
    # queen near Вера's line once and her reset in the same round (series 1 round 2).
    assert counts(pairs, "Борис", "Аня") == {"pushed_over": 1, "queen_finishes_near_line": 1,
                                              "series_lost_together": 0, "resets_caused": 0}
    assert counts(pairs, "Борис", "Вера") == {"pushed_over": 0, "queen_finishes_near_line": 1,
                                               "series_lost_together": 0, "resets_caused": 1}
    # Вера: pushed Аня over once (series 1 round 3).
    assert counts(pairs, "Вера", "Аня") == {"pushed_over": 1, "queen_finishes_near_line": 0,
                                             "series_lost_together": 0, "resets_caused": 0}
    assert counts(pairs, "Вера", "Борис") == {"pushed_over": 0, "queen_finishes_near_line": 0,
                                               "series_lost_together": 0, "resets_caused": 0}
    assert list(pairs) == ["Аня", "Борис", "Вера"] and list(pairs["Аня"]) == ["Борис", "Вера"]


def test_rival_cards() -> None:
    pairs = head_to_head([series_one(), series_two()])
    anya = rivals(pairs, "Аня")
    # Борис and Вера each pushed Аня over once: the tie goes to the opponent met first (Борис).
    assert (anya.pushed_by, anya.pushed_by_count, anya.pushed, anya.pushed_count) == ("Борис", 1, None, 0)
    vera = rivals(pairs, "Вера")
    assert (vera.pushed_by, vera.pushed, vera.pushed_count) == (None, "Аня", 1)


def test_a_merge_counts_two_spellings_as_one_pair() -> None:
    s = SeriesSetup.create(["Аня", "Боря"], "igrafan")
    # Боря out on 7♠ twice: Аня +60 +50 → 110, over. Counted as Борис: pushed_over 1 more (1 + 1 = 2).
    third = replay(s, [typed(s, "Боря", "7♠", Аня=60), typed(s, "Боря", "7♠", Аня=50)])
    pairs = head_to_head([series_one(), series_two(), third], {"Боря": "Борис"})
    assert "Боря" not in pairs
    assert pairs["Борис"]["Аня"].pushed_over == 2 and pairs["Аня"]["Борис"].series_lost_together == 3


def test_names_by_series_join_tables_with_their_own_merges() -> None:
    one, two = series_one(), series_two()
    names = counted_names([one], {}) + counted_names([two], {"Борис": "Боря"})
    stats = {s.name: s for s in table_stats([one, two], names_by_series=names)}
    assert stats["Аня"].series_lost == 2 and stats["Борис"].series_played == 1 and stats["Боря"].series_played == 1


def test_periods_are_calendar_month_and_year() -> None:
    today = date(2026, 12, 2)
    assert in_period("2026-12-01T10:00:00+00:00", "month", today)
    assert not in_period("2026-11-30T23:59:59+00:00", "month", today)
    assert in_period("2026-01-05T00:00:00+00:00", "year", today)
    assert not in_period("2025-12-31T23:00:00+00:00", "year", today)
    assert in_period("2019-05-05T00:00:00+00:00", "all", today)


def test_lost_by_month_fills_the_months_between() -> None:
    one, two = series_one(), series_two()
    months = lost_by_month([one, two], ["2026-10-03T20:00:00+00:00", "2026-12-01T19:00:00+00:00"],
                           counted_names([one, two]))
    # Аня lost in October and in December; November had no series.
    assert months == [("2026-10", {"Аня": 1}), ("2026-11", {}), ("2026-12", {"Аня": 1})]
    assert lost_by_month([], [], []) == []


@st.composite
def played_series(draw: st.DrawFn) -> Standings:
    """A series of typed rounds (random winners, finishing cards and points), played until it ends or 12 rounds."""
    names = ["Аня", "Борис", "Вера", "Глеб"][: draw(st.integers(2, 4))]
    s = SeriesSetup.create(names, draw(st.sampled_from(["igrafan", "classic"])))
    standings = replay(s, [])
    for _ in range(draw(st.integers(1, 12))):
        if standings.finished:
            break
        in_play = standings.in_play
        winner = draw(st.sampled_from(in_play))
        finish = draw(st.sampled_from(["Q♠", "Q♥", "8♣", "A♦", "7♥"]))
        points = {p: draw(st.integers(0, 70)) for p in in_play if p != winner}
        try:
            standings = play_round(standings, typed(s, winner, finish, **points))
        except RuleError:  # a finishing card the rule set refuses: that round is not played
            continue
    return standings


@settings(max_examples=60, deadline=None)
@given(played_series())
def test_head_to_head_adds_up_to_the_series_events(standings: Standings) -> None:
    pairs = head_to_head([standings])
    players = standings.setup.players
    over = [(r.entry.winner, e["player"]) for r in standings.rounds for e in r.events
            if e.get("type") in ("lost", "eliminated")]
    for o in players:
        # Everyone who went over the line was pushed by that round's winner, and by nobody else.
        assert sum(pairs[p][o].pushed_over for p in players if p != o) == sum(1 for _, x in over if x == o)
    for p in players:
        lost = 1 if p in standings.losers else 0
        assert all(pairs[p][o].series_lost_together == lost for o in players if o != p)
        queens = sum(1 for r in standings.rounds if r.entry.winner == p and r.entry.finishing_card is not None
                     and r.entry.finishing_card.rank is Rank.QUEEN)
        assert all(pairs[p][o].queen_finishes_near_line <= queens for o in players if o != p)
