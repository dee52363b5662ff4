"""Who won a series: one rule in the core (`series_winner`), read by the end screen, the CSV, the PDF and the stats."""

from __future__ import annotations

from flask import Flask

from companion.core.cards import parse_card
from companion.core.series import RoundInput, SeriesSetup, replay, series_winner
from companion.core.stats import final_standings, table_stats


def went_out(winner: str, **hands: str) -> RoundInput:
    return RoundInput(False, winner, parse_card("9♣"), {p: tuple(parse_card(c) for c in cards.split())
                                                        for p, cards in hands.items()})


def typed(winner: str, **points: int) -> RoundInput:
    return RoundInput(False, winner, parse_card("9♣"), {}, points)


def test_two_players_the_one_left_when_the_other_loses_has_won() -> None:
    setup = SeriesSetup.create(["Аня", "Борис"], "pharaoh", None, "Аня")
    standings = replay(setup, [typed("Аня", Борис=60), typed("Аня", Борис=50)])
    assert standings.finished and standings.losers == ("Борис",)
    assert standings.winner is None  # the core's (and the API's) winner: the last one left where losers leave
    assert series_winner(standings) == "Аня"
    assert final_standings(standings).winner == "Аня"
    assert [s.series_won for s in table_stats([standings])] == [1, 0]


def test_no_winner_while_the_series_goes_on_or_with_more_than_two_players() -> None:
    two = SeriesSetup.create(["Аня", "Борис"], "igrafan", None, "Аня")
    assert series_winner(replay(two, [typed("Аня", Борис=60)])) is None
    three = SeriesSetup.create(["Аня", "Борис", "Вера"], "igrafan", None, "Аня")
    standings = replay(three, [typed("Аня", Борис=60, Вера=5), typed("Аня", Борис=60, Вера=5)])
    assert standings.finished and standings.losers == ("Борис",)
    assert series_winner(standings) is None and final_standings(standings).winner is None


def test_in_elimination_the_last_one_left_is_the_cores_winner() -> None:
    setup = SeriesSetup.create(["Аня", "Борис", "Вера"], "elimination", None, "Аня")
    standings = replay(setup, [typed("Аня", Борис=102, Вера=5), typed("Аня", Вера=100)])
    assert standings.finished and standings.winner == "Аня" == series_winner(standings)


def test_the_end_screen_and_the_scoresheets_name_the_same_winner(app: Flask) -> None:
    from companion.service.series import Series
    from companion.storage.database import SeriesRow
    from companion.web.present.scoresheet import result_text
    from companion.web.present.series_view import series_view

    setup = SeriesSetup.create(["Аня", "Борис"], "pharaoh", None, "Аня")
    entries = (typed("Аня", Борис=60), went_out("Аня", Борис="A♠ K♠ 10♠ 10♦ 10♥"))
    standings = replay(setup, entries)
    row = SeriesRow(id="s", ruleset="pharaoh", options=setup.options.to_json(), players=["Аня", "Борис"],
                    starter="Аня", starter_drawn=False, edit_token_hash="", version=2,
                    created_at="2026-11-29T19:00:00+00:00", updated_at="2026-11-29T19:00:00+00:00",
                    rounds=[e.to_json() for e in entries])
    with app.test_request_context("/?lang=en"):
        view = series_view(Series(row, setup, entries, standings))
        assert view.outcome["winner"] == "Аня"
        assert result_text(view) == "Winner: Аня"
