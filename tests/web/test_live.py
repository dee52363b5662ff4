"""Issues 22 and 24: the app's side of pushed changes (`web/http/live.py`): each stored write to a series is
named to the events server in a datagram, and the pages say where to listen."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.ops.security import CSP


@pytest.fixture
def events() -> Iterator[socket.socket]:
    """Where the events server would listen for the app's datagrams (UDP on loopback)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.settimeout(0.2)
        yield sock


@pytest.fixture
def pushing(app: Flask, events: socket.socket) -> Flask:
    app.config["EVENTS_PORT"] = events.getsockname()[1]
    return app


def heard(sock: socket.socket) -> list[str]:
    said = []
    while True:
        try:
            said.append(sock.recv(256).decode())
        except TimeoutError:
            return said


def test_each_stored_write_names_its_series_and_nothing_else_does(pushing: Flask, events: socket.socket) -> None:
    client = pushing.test_client()
    created = client.post("/api/v1/series", json={"players": ["Аня", "Борис"], "starter": "Аня"}).get_json()
    sid, auth = created["id"], {"Authorization": f"Bearer {created['edit_token']}"}
    assert heard(events) == []  # a new series: nobody follows it yet
    client.get(f"/series/{sid}")
    client.get(f"/api/v1/series/{sid}/draft")
    client.post(f"/series/{sid}/round/preview", data={"version": "1"})  # the live preview stores nothing
    refused = client.post(f"/api/v1/series/{sid}/rounds", json={"winner": "Вася"}, headers=auth)
    assert refused.status_code == 422 and heard(events) == []
    saved = client.post(f"/api/v1/series/{sid}/rounds", headers=auth,
                        json={"winner": "Аня", "finishing_card": "9h", "typed_points": {"Борис": 3}})
    assert saved.status_code == 201 and heard(events) == [sid]
    assert client.put(f"/api/v1/series/{sid}/draft/Борис", json={"cards": ["AS"]}, headers=auth).status_code == 200
    assert client.delete(f"/api/v1/series/{sid}/draft/Борис", headers=auth).status_code == 204
    assert heard(events) == [sid, sid]


def test_without_an_events_server_nothing_is_sent_and_pages_poll(client: FlaskClient, series: dict[str, Any]) -> None:
    page = client.get(f"/series/{series['id']}")
    assert "data-events" not in page.get_data(as_text=True) and page.headers["Content-Security-Policy"] == CSP


def test_pages_that_follow_a_series_name_its_stream_without_a_host(pushing: Flask, events: socket.socket) -> None:
    client = pushing.test_client()
    made = client.post("/new", data={"name": ["Аня", "Борис"], "ruleset": "igrafan", "starter": "0"})
    sid, port = made.headers["Location"].split("/")[2], events.getsockname()[1]
    stream = f'data-events=":{port}/events/{sid}"'
    page = client.get(f"/series/{sid}", base_url="http://192.168.1.5:8101")  # another host: a reader's
    assert f'data-events=":{port}/events/{sid}?live=ru"' in page.get_data(as_text=True)  # the standings
    assert stream in client.get(f"/series/{sid}").get_data(as_text=True)  # the editor's: it asks for its own
    assert f"connect-src 'self' http://192.168.1.5:{port};" in page.headers["Content-Security-Policy"]
    reader = pushing.test_client()
    fragment = reader.get(f"/series/{sid}", headers={"HX-Request": "true"})  # kept for every phone
    # a reader's standings (no edit buttons) are pushed whole, in the page's language
    assert f'data-events=":{port}/events/{sid}?live=ru"' in fragment.get_data(as_text=True)
    assert "192.168" not in fragment.get_data(as_text=True)
    english = reader.get(f"/series/{sid}?lang=en").get_data(as_text=True)
    assert f'data-events=":{port}/events/{sid}?live=en"' in english
    drafted = f'data-events=":{port}/events/{sid}?draft=1"'  # the draft is pushed whole to these pages
    assert drafted in client.get(f"/series/{sid}/round").get_data(as_text=True)  # the round page's draft follower
    share = client.get(f"/series/{sid}/share").get_data(as_text=True)
    seat_link = re.search(r'href="(?:https?://[^/"]+)?(/series/[^"]+/seat/open\?token=[^"]+)"', share)
    assert seat_link is not None
    seat = pushing.test_client().get(seat_link.group(1).replace("&amp;", "&"), follow_redirects=True)
    assert seat.status_code == 200 and drafted in seat.get_data(as_text=True)  # a seat
    ipv6 = client.get(f"/series/{sid}", base_url="http://[::1]:8101")
    assert f"connect-src 'self' http://[::1]:{port};" in ipv6.headers["Content-Security-Policy"]


def test_a_page_revalidated_with_a_304_keeps_leave_to_connect_to_its_stream(pushing: Flask,
                                                                           events: socket.socket) -> None:
    """A browser keeps the headers of the latest answer: a 304 without the events origin in its policy would
    block the stream of a page opened again (the idle-poll layer answers it before Flask)."""
    client = pushing.test_client()
    made = client.post("/new", data={"name": ["Аня", "Борис"], "ruleset": "igrafan", "starter": "0"})
    sid, port = made.headers["Location"].split("/")[2], events.getsockname()[1]
    for who in (client, pushing.test_client()):  # the editor, a reader
        page = who.get(f"/series/{sid}", base_url="http://192.168.1.5:8101")
        again = who.get(f"/series/{sid}", base_url="http://192.168.1.5:8101",
                        headers={"If-None-Match": page.headers["ETag"]})
        assert again.status_code == 304
        assert f"connect-src 'self' http://192.168.1.5:{port};" in again.headers["Content-Security-Policy"]
    assert pushing.extensions["companion.fast_poll"].answered >= 2


def test_behind_a_proxy_the_stream_is_offered_only_where_the_proxy_routes_it(app: Flask,
                                                                             series: dict[str, Any]) -> None:
    app.config.update(EVENTS_PORT=8102, PROXY_FIX=1)
    client = app.test_client()
    assert "data-events" not in client.get(f"/series/{series['id']}").get_data(as_text=True)
    app.config["EVENTS_URL"] = "/events"
    page = client.get(f"/series/{series['id']}")
    assert f'data-events="/events/{series["id"]}?live=ru"' in page.get_data(as_text=True)
    assert page.headers["Content-Security-Policy"] == CSP  # the page's own origin: 'self' covers it
    app.config["EVENTS_URL"] = "https://live.example.org/events/"
    page = client.get(f"/series/{series['id']}")
    assert f'data-events="https://live.example.org/events/{series["id"]}?live=ru"' in page.get_data(as_text=True)
    assert "connect-src 'self' https://live.example.org;" in page.headers["Content-Security-Policy"]
