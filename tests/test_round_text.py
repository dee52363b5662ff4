"""The round-from-text parser: core behaviour, properties, and POST /api/v1/round-from-text."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.cards import Card, Rank, Suit, deck, parse_card
from companion.core.round_text import parse_round_text
from companion.core.rules import get_ruleset
from companion.round_text import lemmas, parse

PLAYERS = ["Аня", "Борис", "Вера"]
IGRAFAN = get_ruleset("igrafan").defaults


def test_the_issue_example_reads_every_hand() -> None:
    r = parse(
        "Аня вышла дамой червей. У Бориса туз, король пик и семёрка. У Веры две десятки и валет.", PLAYERS, IGRAFAN
    )
    assert r.winner == "Аня" and r.finishing_card == "Q♥"
    assert [s.rank for s in r.hands["Борис"]] == [Rank.ACE, Rank.KING, Rank.SEVEN]
    assert r.hands["Борис"][1].text == "K♠" and not r.hands["Борис"][1].assumed
    assert [s.rank for s in r.hands["Вера"]] == [Rank.TEN, Rank.TEN, Rank.JACK]
    assert r.unrecognised == [] and r.exact
    # the suits that were not said are reported, per player, as assumed
    assumed = [q for q in r.questions if q.kind == "suit-assumed"]
    assert [q.params["player"] for q in assumed] == ["Борис", "Вера"]
    assert len(assumed[1].params["cards"]) == 3


def test_shorthand_and_english() -> None:
    r = parse("Борис: Т К♠ 7; Вера: 10 10 В", PLAYERS, IGRAFAN)
    assert r.winner is None and [s.rank.value for s in r.hands["Вера"]] == ["10", "10", "J"]
    assert any(q.kind == "no-winner" for q in r.questions)
    r = parse("Boris ace king of spades seven", ["Anna", "Boris"], IGRAFAN)
    assert [s.rank.value for s in r.hands["Boris"]] == ["A", "K", "7"] and r.hands["Boris"][1].suit is Suit.SPADES


def test_the_suit_is_asked_only_where_it_changes_the_points() -> None:
    # igrafan: the queen of hearts is special, so a finishing queen must be asked
    r = parse("Аня вышла дамой. У Бориса дама и туз. У Веры дама", PLAYERS, IGRAFAN)
    assert r.finishing_card == "Q?"
    assert r.hands["Борис"][0].assumed and r.hands["Борис"][0].suit is not Suit.HEARTS  # a mixed hand: 3 either way
    assert r.hands["Вера"][0].text == "Q?"  # a lone queen: queens-only, the special one counts more
    assert not r.exact
    # Pharaoh: every queen counts the same, nothing to ask
    r = parse("Аня вышла дамой. У Бориса дама", ["Аня", "Борис"], get_ruleset("pharaoh").defaults)
    assert r.finishing.assumed and r.hands["Борис"][0].assumed
    assert r.finishing.card != r.hands["Борис"][0].card
    # the king of spades option: a king without a suit is asked, unless the king of spades is elsewhere
    forty = get_ruleset("igrafan").options({"spade_king_points": 40})
    assert parse("у Бориса король", PLAYERS, forty).hands["Борис"][0].text == "K?"
    r = parse("у Бориса король у Веры король пик", PLAYERS, forty)
    assert r.hands["Борис"][0].assumed and r.hands["Борис"][0].suit is not Suit.SPADES


def test_word_forms_names_and_numbers() -> None:
    r = parse("у федора семерочку и тузов нет, маша вышла на восьмерке бубен", ["Фёдор", "Маша"], IGRAFAN)
    assert r.winner == "Маша" and r.finishing_card == "8♦"
    assert [s.rank for s in r.hands["Фёдор"]] == [Rank.SEVEN, Rank.ACE]
    # names whose stem changes only a dictionary knows: «у Льва», «у Любови»
    r = parse("Павел вышел на тузе пик у Льва король у Любови дама", ["Павел", "Лев", "Любовь"], IGRAFAN)
    assert set(r.hands) == {"Лев", "Любовь"}
    assert "лев" in lemmas("Льва")
    # «две десятки», «2 туза», «три валета»
    r = parse("у Бориса 2 туза у Веры три валета у Ани две десятки", PLAYERS, IGRAFAN)
    assert {p: len(s) for p, s in r.hands.items()} == {"Борис": 2, "Вера": 3, "Аня": 2}


def test_unrecognised_words_are_named_and_nothing_is_guessed() -> None:
    r = parse("Аня вышла на десятке пик у Бориса джокер и туз у Веры дома", PLAYERS, IGRAFAN)
    assert r.unrecognised == ["джокер", "дома"]
    assert [s.rank for s in r.hands["Борис"]] == [Rank.ACE] and "Вера" not in r.hands
    assert not r.exact


def test_impossible_counts_and_twice_named_cards_are_questions() -> None:
    r = parse("у Бориса три туза у Веры два туза", PLAYERS, IGRAFAN)
    assert any(q.kind == "too-many" for q in r.questions)
    r = parse("у Бориса К♠ у Веры король пик", PLAYERS, IGRAFAN)
    assert any(q.kind == "twice" for q in r.questions)


def test_a_card_outside_the_deck_is_not_taken() -> None:
    r = parse("у Бориса двойка и туз", PLAYERS, IGRAFAN)  # a 36-card deck has no twos
    assert r.unrecognised == ["двойка"] and [s.rank for s in r.hands["Борис"]] == [Rank.ACE]
    r = parse("у Бориса двойка и туз", PLAYERS, get_ruleset("igrafan").options({"deck": 52}))
    assert [s.rank for s in r.hands["Борис"]] == [Rank.TWO, Rank.ACE]


def test_core_parser_works_without_a_morphology_library() -> None:
    r = parse_round_text("Вера вышла королём пик. У Бориса семерка.", PLAYERS, IGRAFAN)
    assert r.winner == "Вера" and r.finishing_card == "K♠" and r.hands["Борис"][0].rank is Rank.SEVEN


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "Аня",
                "Бориса",
                "у",
                "Веры",
                "вышла",
                "дамой",
                "червей",
                "туз",
                "король",
                "пик",
                "7",
                "10",
                "две",
                "три",
                "десятки",
                "В",
                "Д",
                "♠",
                "♥",
                ",",
                ".",
                ";",
                ":",
                "и",
                "джокер",
                "Q?",
                "out",
                "queen",
                "of",
                "hearts",
                "Kп",
                "пиковая",
                "шестерка",
                "бубен",
            ]
        ),
        max_size=30,
    ),
    st.text(max_size=20),
)
def test_any_text_gives_a_consistent_parse(words: list[str], noise: str) -> None:
    r = parse(" ".join(words) + noise, PLAYERS, IGRAFAN)
    cards = [s.card for s in ([r.finishing] if r.finishing else []) + [s for ss in r.hands.values() for s in ss]]
    known = [c for c in cards if c is not None]
    assert set(r.hands) <= set(PLAYERS) and (r.winner is None or r.winner in PLAYERS)
    if not any(q.kind == "twice" for q in r.questions):
        assert len(known) == len(set(known))  # a card said once is placed once, assumed suits never collide
    for text in [t for hand in r.hand_texts().values() for t in hand] + [r.finishing_card or "Q♥"]:
        assert text.endswith("?") or isinstance(parse_card(text), Card)


# -- the API ---------------------------------------------------------------------


def post(client: FlaskClient, body: Any, lang: str = "ru") -> Any:
    return client.post("/api/v1/round-from-text", json=body, headers={"Accept-Language": lang})


def test_api_contract(client: FlaskClient) -> None:
    r = post(
        client,
        {
            "text": "Аня вышла дамой червей. У Бориса туз, король пик и семёрка. У Веры две десятки и валет.",
            "players": PLAYERS,
        },
    )
    assert r.status_code == 200
    body = r.get_json()
    assert list(body)[:5] == ["winner", "finishing_card", "hands", "unrecognised", "questions"]
    assert body["winner"] == "Аня" and body["finishing_card"] == "Q♥" and body["unrecognised"] == []
    assert body["hands"]["Борис"][1] == "K♠" and len(body["hands"]["Вера"]) == 3
    # assumed suits are named in the questions, in Russian notation for a Russian table
    assert any("Масть не названа" in q and "Т♠" in q for q in body["questions"])
    assert body["ready"] is True


def test_api_rank_and_question_mark_where_the_suit_matters(client: FlaskClient) -> None:
    body = post(
        client,
        {
            "text": "Anna went out with a queen, Boris has a king",
            "players": ["Anna", "Boris"],
            "ruleset": "elvista",
            "options": {"spade_king_points": 40},
        },
        "en",
    ).get_json()
    assert body["finishing_card"] == "Q?" and body["hands"] == {"Boris": ["K?"]}
    assert any("queen" in q for q in body["questions"]) and any("king of spades" in q for q in body["questions"])
    assert body["ready"] is False


def test_the_parsed_body_posts_as_a_round(client: FlaskClient, series: dict[str, Any]) -> None:
    body = post(
        client, {"text": "Аня вышла на десятке пик. У Бориса туз, король пик. У Веры две десятки", "players": PLAYERS}
    ).get_json()
    assert body["ready"]
    r = client.post(
        f"/api/v1/series/{series['id']}/rounds",
        headers={"Authorization": f"Bearer {series['edit_token']}"},
        json={k: body[k] for k in ("winner", "finishing_card", "hands")},
    )
    assert r.status_code == 201
    assert r.get_json()["players"][1]["total"] == 15 and r.get_json()["players"][2]["total"] == 20


def test_api_refusals_say_how(client: FlaskClient) -> None:
    cases = [
        ({"players": PLAYERS}, 400, "text"),
        ({"text": 5, "players": PLAYERS}, 400, "text"),
        ({"text": "x" * 3000, "players": PLAYERS}, 400, "2000"),
        ({"text": "x"}, 400, "players"),
        ({"text": "x", "players": ["Аня", "аня"]}, 400, "повторяться"),
        ({"text": "x", "players": [""]}, 400, "players"),
        ({"text": "x", "players": PLAYERS, "ruleset": "nope"}, 422, "nope"),
        ({"text": "x", "players": PLAYERS, "options": {"deck": 5}}, 422, "deck"),
        ([1, 2], 400, "JSON"),
    ]
    for body, status, word in cases:
        r = post(client, body)
        assert r.status_code == status, body
        assert word in r.get_json()["error"]["message"], (body, r.get_json())
    assert client.post("/api/v1/round-from-text", data="{", content_type="application/json").status_code == 400


# -- the round page's text field without JavaScript ---------------------------------


def test_round_page_fills_the_grid_from_text_and_saves_only_what_was_shown(app: Any, client: FlaskClient) -> None:
    from tests.web.pages.test_play import create, load

    series_id = create(client)
    url = f"/series/{series_id}/round"
    v = str(load(app, series_id).version)
    text = "Аня вышла на десятке пик. У Бориса туз и король пик. У Веры джокер и две десятки. У Глеба дама и туз червей"
    page = client.post(url, data={"version": v, "say": text, "op": "say"})
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and len(load(app, series_id).entries) == 0  # shown, not stored
    assert re.search(r'name="winner" value="0"[^>]*checked', html)
    assert re.search(r'name="finishing_card" value="10S"[^>]*checked', html)
    assert re.search(r'name="hand-1" value="KS"[^>]*checked', html)
    assert "«джокер»" in html and "Не понято" in html
    assert f'name="said" value="{text}"' in html
    # «Save as said» with the grid showing that text saves it as it stands
    data = {
        "version": v,
        "say": text,
        "said": text,
        "op": "say-save",
        "winner": "0",
        "finishing_card": "10S",
        "hand-1": ["AS", "KS"],
        "hand-2": ["10H", "10C"],
        "hand-3": ["QD", "AH"],
    }
    saved = client.post(url, data=data)
    assert saved.status_code == 303 and dict(load(app, series_id).standings.totals)["Вера"] == 20
    # «Save as said» with a text the grid does not show yet fills the grid first and stores nothing
    text2 = "Борис вышел на семёрке пик. У Ани туз. У Веры король. У Глеба девятка"
    v = str(load(app, series_id).version)
    again = client.post(url, data={"version": v, "say": text2, "op": "say-save"})
    assert again.status_code == 200 and len(load(app, series_id).entries) == 1
    assert re.search(r'name="winner" value="1"[^>]*checked', again.get_data(as_text=True))
    # an empty text says what to write, next to the field
    empty = client.post(url, data={"version": v, "say": " ", "op": "say"})
    assert empty.status_code == 422 and "Сначала скажите или напишите раунд" in empty.get_data(as_text=True)


# -- round trip: any round, said in any of the usual ways, reads back exactly ------------------------

_RU_RANK = {
    "6": "шестёрка",
    "7": "семёрка",
    "8": "восьмёрка",
    "9": "девятка",
    "10": "десятка",
    "J": "валет",
    "Q": "дама",
    "K": "король",
    "A": "туз",
}
_RU_SUIT = {"♠": "пик", "♥": "червей", "♦": "бубен", "♣": "треф"}
_EN_RANK = {
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "10": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "A": "ace",
}
_EN_SUIT = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}
_GENITIVE = {"Аня": "Ани", "Борис": "Бориса", "Вера": "Веры", "Глеб": "Глеба"}


def _say_card(c: Card, style: str, lang: str) -> str:
    rank, suit = c.rank.value, c.suit.value
    if style == "symbol":
        return f"{c.rank.ru if lang == 'ru' else rank}{suit}"
    if style == "letters" and lang == "ru":
        return c.rank.ru + {"♠": "п", "♥": "ч", "♦": "б", "♣": "т"}[suit]
    if lang == "ru":
        return f"{_RU_RANK[rank]} {_RU_SUIT[suit]}"
    return f"{_EN_RANK[rank]} of {_EN_SUIT[suit]}"


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_a_round_said_with_every_suit_reads_back_exactly(data: Any) -> None:
    lang = data.draw(st.sampled_from(["ru", "en"]))
    players = list(_GENITIVE) if lang == "ru" else ["Anna", "Boris", "Vera", "Gleb"]
    players = players[: data.draw(st.integers(2, 4))]
    cards = data.draw(st.permutations(list(deck(36))))
    winner = data.draw(st.sampled_from(players))
    finishing, rest = cards[0], list(cards[1:])
    hands: dict[str, list[Card]] = {}
    for p in players:
        if p != winner:
            n = data.draw(st.integers(1, 4))
            hands[p], rest = rest[:n], rest[n:]
    style = data.draw(st.sampled_from(["words", "symbol", "letters"]))
    sep = data.draw(st.sampled_from([". ", "; ", " "]))
    lower = data.draw(st.booleans())

    def name(p: str, genitive: bool = False) -> str:
        text = _GENITIVE[p] if genitive and lang == "ru" else p
        return text.lower() if lower else text

    if lang == "ru":
        parts = [
            f"{name(winner)} вышла на {_say_card(finishing, style, lang)}"
            if data.draw(st.booleans())
            else f"Выход: {name(winner)}, {_say_card(finishing, style, lang)}"
        ]
        parts += [f"у {name(p, True)} " + " и ".join(_say_card(c, style, lang) for c in cs) for p, cs in hands.items()]
    else:
        parts = [f"{name(winner)} went out on the {_say_card(finishing, style, lang)}"]
        parts += [f"{name(p)} has " + ", ".join(_say_card(c, style, lang) for c in cs) for p, cs in hands.items()]
    order = data.draw(st.permutations(parts))
    text = sep.join(order)
    r = parse(text, players, IGRAFAN)
    assert r.unrecognised == [], text
    assert r.winner == winner and r.finishing_card == str(finishing), text
    assert r.hand_texts() == {p: [str(c) for c in cs] for p, cs in hands.items()}, text
    assert r.exact and not r.questions, text
