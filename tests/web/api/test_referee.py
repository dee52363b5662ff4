"""POST /api/v1/referee/play: verdicts, translations and the usual error JSON."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion import create_app

URL = "/api/v1/referee/play"


@pytest.fixture
def client(tmp_path: Any) -> FlaskClient:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.db")}).test_client()


def ask(client: FlaskClient, lang: str = "en", **body: Any) -> Any:
    return client.post(f"{URL}?lang={lang}", json=body)


def test_queen_on_anything(client: FlaskClient) -> None:
    r = ask(client, ruleset="igrafan", players=3, top="9♥", card="Q♣")
    assert r.status_code == 200
    data = r.get_json()
    assert data["legal"] is True
    assert (data["next_draws"], data["next_turn"]) == (0, 1)
    assert data["faq"] == "queen-wild" and data["faq_url"] == "/faq/queen-wild"
    assert "queen" in data["reason"]


def test_ordered_suit_and_its_notations(client: FlaskClient) -> None:
    for suit in ("♦", "D", "d", "Б", "♦\ufe0f"):
        data = ask(client, players=3, top="Q♥", ordered_suit=suit, card="9♦").get_json()
        assert data["legal"] is True, suit
    data = ask(client, players=3, top="Q♥", ordered_suit="♦", card="9♥").get_json()
    assert data["legal"] is False and data["faq"] == "queen-wild"
    assert (data["next_draws"], data["next_turn"]) == (0, 0)


def test_same_colour_refused_in_russian(client: FlaskClient) -> None:
    data = ask(client, lang="ru", players=2, top="9♥", card="J♦").get_json()
    assert data["legal"] is False
    assert data["faq"] == "same-colour"
    assert "одного цвета мало" in data["reason"]


def test_seven_with_two_and_three_players(client: FlaskClient) -> None:
    three = ask(client, ruleset="igrafan", players=3, top="9♥", card="7♥").get_json()
    assert (three["next_draws"], three["next_turn"], three["faq"]) == (2, 2, "seven")
    two = ask(client, ruleset="igrafan", players=2, top="9♥", card="7♥").get_json()
    assert (two["next_draws"], two["next_turn"], two["faq"]) == (2, 0, "two-players")
    assert "Соперник" in ask(client, lang="ru", players=2, top="9♥", card="7♥").get_json()["effect"]


def test_optional_fields(client: FlaskClient) -> None:
    data = ask(client, ruleset="elimination", players=4, top="7♥", card="7♣", pending_draw=2).get_json()
    assert data["legal"] is True and data["penalty_pending"] is True
    assert (data["next_draws"], data["next_turn"]) == (4, 1)
    data = ask(client, ruleset="elimination", players=4, top="9♥", card="10♥", clockwise=False).get_json()
    assert (data["next_turn"], data["clockwise"]) == (1, True)
    data = ask(client, players=3, top="6♥", card="6♣", covering=False).get_json()
    assert data["legal"] is True
    data = ask(client, players=3, top=None, card="7♠").get_json()
    assert (data["legal"], data["next_draws"], data["faq"]) == (True, 2, "first-card-special")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"ruleset": "nope", "players": 3, "top": "9♥", "card": "Q♣"}, 422, "invalid-option"),
        ({"players": 5, "top": "9♥", "card": "Q♣"}, 422, "invalid-play"),
        ({"players": 1, "top": "9♥", "card": "Q♣"}, 422, "invalid-play"),
        ({"ruleset": "pharaoh", "players": 3, "top": "9♥", "card": "Q♣"}, 422, "invalid-play"),
        ({"players": "3", "top": "9♥", "card": "Q♣"}, 400, "bad-request"),
        ({"players": 3, "top": "9♥", "card": "T♣"}, 422, "invalid-card"),
        ({"players": 3, "top": "5♥", "card": "Q♣"}, 422, "invalid-card"),
        ({"players": 3, "top": "9♥"}, 400, "bad-request"),
        ({"players": 3, "top": "9♥", "card": "Q♣", "extra": 1}, 400, "bad-request"),
        ({"players": 3, "top": "Q♥", "card": "9♣"}, 422, "invalid-play"),
        ({"players": 3, "top": "9♥", "ordered_suit": "♦", "card": "9♣"}, 422, "invalid-play"),
        ({"players": 3, "top": "Q♥", "ordered_suit": "X", "card": "9♣"}, 422, "invalid-play"),
        ({"players": 3, "top": "9♥", "card": "9♥"}, 422, "invalid-play"),
        ({"players": 3, "top": "9♥", "card": "8♥", "pending_draw": 2}, 422, "invalid-play"),
        ({"players": 3, "top": "9♥", "card": "8♥", "covering": "yes"}, 400, "bad-request"),
    ],
)
def test_refused_requests(client: FlaskClient, body: dict[str, Any], status: int, code: str) -> None:
    r = client.post(URL, json=body)
    assert r.status_code == status
    error = r.get_json()["error"]
    assert error["code"] == code and error["message"]


def test_not_json_and_not_an_object(client: FlaskClient) -> None:
    assert client.post(URL, data="x", content_type="application/json").status_code == 400
    assert client.post(URL, json=[1, 2]).status_code == 400


def test_every_message_is_translated(client: FlaskClient) -> None:
    """Each template the referee can answer with has a Russian text in referee.po (or another catalog)."""
    from babel.messages.pofile import read_po

    from companion.i18n.catalogs import CATALOGS

    ids = set()
    for po in (CATALOGS / "ru" / "LC_MESSAGES").glob("*.po"):
        with po.open("rb") as f:
            ids |= {m.id for m in read_po(f) if m.id and m.string}
    import ast
    from pathlib import Path

    import companion.core.referee as referee
    import companion.web.api.referee as referee_api
    import companion.web.present.cards as web_cards

    for module in (referee, referee_api, web_cards):
        tree = ast.parse(Path(module.__file__ or "").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_":
                template = node.args[0].value  # type: ignore[attr-defined]
                assert template in ids, template


def test_a_pending_penalty_is_never_answered_yes(client: FlaskClient) -> None:
    """RULES.md §2, §7: right after 7♣ (or K♠) a queen or another king does not cancel the penalty; the
    answer is to draw first («сначала возьмите 2 и пропустите ход»). `penalty_pending` defaults to true."""
    data = ask(client, lang="ru", players=3, top="7♣", card="Q♥").get_json()
    assert data["legal"] is False and data["faq"] == "queen-cancels-penalty"
    assert "сначала возьмите 2 и пропустите ход" in data["reason"]
    data = ask(client, lang="ru", players=3, top="K♠", card="K♥").get_json()
    assert data["legal"] is False and "сначала возьмите 5 и пропустите ход" in data["reason"]
    # The penalty was taken: the next player plays on the card as on any other.
    assert ask(client, players=3, top="7♣", card="Q♥", penalty_pending=False).get_json()["legal"] is True
    assert ask(client, players=3, top="K♠", card="K♥", penalty_pending=False).get_json()["legal"] is True
    r = ask(client, players=3, top="7♣", card="Q♥", penalty_pending="yes")
    assert r.status_code == 400 and "penalty_pending" in r.get_json()["error"]["message"]


def test_options_reach_the_checker(client: FlaskClient) -> None:
    """The checker takes the same rule set + options as a series (RULES.md §7)."""
    data = ask(client, players=3, top="9♠", card="K♠", options={"spade_king_draw": 4}).get_json()
    assert data["next_draws"] == 4
    data = ask(client, ruleset="elimination", players=3, top="6♣", card="6♥").get_json()
    assert data["legal"] is True  # seed 004: another six covers one's own six
    data = ask(client, players=5, top="9♥", card="2♥", options={"deck": 52}).get_json()
    assert data["legal"] is True  # a 52-card table: 2–5 exist and five players fit
    r = ask(client, players=3, top="9♥", card="J♥", options={"spade_king_draw": 6})
    assert r.status_code == 422 and "spade_king_draw" in r.get_json()["error"]["message"]
    data = ask(client, players=3, top="9♥", card="8♥", also=["8♣"], options={"several_at_once": True}).get_json()
    assert data["legal"] is True
    assert ask(client, players=3, top="9♥", card="8♥", also=["8♣"]).status_code == 422
    assert ask(client, players=3, top="9♥", card="8♥", also="8♣").status_code == 400


def test_a_series_answers_with_its_own_options_and_deck(client: FlaskClient) -> None:
    body = {"players": ["А", "Б", "В", "Г", "Д"], "ruleset": "igrafan",
            "options": {"deck": 52, "spade_king_draw": 4}, "starter": "А"}
    series = client.post("/api/v1/series", json=body).get_json()
    data = ask(client, series=series["id"], top="9♠", card="K♠").get_json()
    assert data["next_draws"] == 4 and data["legal"] is True  # five players seated, from the series
    assert ask(client, series=series["id"], top="5♠", card="5♥", penalty_pending=False).get_json()["legal"]
    assert ask(client, series="nope", top="9♠", card="K♠").status_code == 404
    assert ask(client, series=series["id"], ruleset="classic", top="9♠", card="K♠").status_code == 400
