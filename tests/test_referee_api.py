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

    from companion.i18n import CATALOGS

    ids = set()
    for po in (CATALOGS / "ru" / "LC_MESSAGES").glob("*.po"):
        with po.open("rb") as f:
            ids |= {m.id for m in read_po(f) if m.id and m.string}
    import ast
    from pathlib import Path

    import companion.core.referee as referee
    import companion.web.cards as web_cards
    import companion.web.referee_api as referee_api

    for module in (referee, referee_api, web_cards):
        tree = ast.parse(Path(module.__file__ or "").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_":
                template = node.args[0].value  # type: ignore[attr-defined]
                assert template in ids, template
