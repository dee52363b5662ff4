"""What the worker processes of one server share: two apps over the same instance folder stand for two workers.

`companion serve --workers N` forks N processes of the same app; whatever one of them
keeps only in its memory, the others do not see. The PDF cache, the rate-limit counters
and the idempotency keys live beside the database (files, SQLite), so they are shared.
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

from flask import Flask

from companion import create_app
from companion.ops.rate_limits import SQLiteStorage, storage_uri


def worker(instance: Path, **config: Any) -> Flask:
    """One worker's app: the instance folder (COMPANION_INSTANCE, set per test) and database of the others."""
    return create_app({"TESTING": True, "DATABASE": str(instance / "companion.sqlite3"), "SECRET_KEY": "t",
                       **config})


def new_series(app: Flask) -> dict[str, Any]:
    response = app.test_client().post("/api/v1/series", json={"players": ["Аня", "Борис"], "starter": "Аня"})
    assert response.status_code == 201
    return response.get_json()


def test_a_pdf_rendered_by_one_worker_is_answered_by_the_other_from_the_cache(instance_in_tmp: Path) -> None:
    one, two = worker(instance_in_tmp), worker(instance_in_tmp)
    series = new_series(one)
    url = f"/series/{series['id']}/scoresheet.pdf"
    first = one.test_client().get(url, headers={"Accept-Language": "ru"})
    again = two.test_client().get(url, headers={"Accept-Language": "ru"})
    assert first.status_code == again.status_code == 200 and again.data == first.data
    assert one.extensions["companion.pdf"].cache.renders == 1
    assert two.extensions["companion.pdf"].cache.renders == 0  # not rendered again


def test_an_idempotency_key_stored_by_one_worker_is_known_to_the_other(instance_in_tmp: Path) -> None:
    one, two = worker(instance_in_tmp), worker(instance_in_tmp)
    series = new_series(one)
    headers = {"Authorization": f"Bearer {series['edit_token']}", "Idempotency-Key": "round-1-from-the-phone"}
    body = {"winner": "Аня", "finishing_card": "9♣", "hands": {"Борис": ["K♠"]}}
    url = f"/api/v1/series/{series['id']}/rounds"
    first = one.test_client().post(url, json=body, headers=headers)
    retried = two.test_client().post(url, json=body, headers=headers)  # the retry lands on the other worker
    assert first.status_code == retried.status_code == 201
    assert retried.headers["Idempotent-Replayed"] == "true" and retried.data == first.data
    assert len(two.test_client().get(f"/api/v1/series/{series['id']}").get_json()["rounds"]) == 1


def test_rate_limit_counts_add_up_across_workers(instance_in_tmp: Path) -> None:
    limited = {"RATELIMIT_ENABLED": True, "RATELIMIT_WRITES": "3 per minute"}
    one, two = worker(instance_in_tmp, **limited), worker(instance_in_tmp, **limited)
    series = new_series(one)
    headers = {"Authorization": f"Bearer {series['edit_token']}"}
    url = f"/api/v1/series/{series['id']}/rounds"
    codes = [app.test_client().post(url, json={"redeal": True}, headers=headers).status_code
             for app in (one, two, one, two)]
    assert codes == [201, 201, 201, 429]  # one limit for the client, not one per worker


def _count(uri: str, times: int) -> None:
    storage = SQLiteStorage(uri)
    for _ in range(times):
        storage.incr("LIMITER/127.0.0.1/writes", 60)


def test_forked_processes_counting_at_once_lose_no_count(tmp_path: Path) -> None:
    uri = storage_uri(str(tmp_path / "ratelimits.sqlite3"))
    storage = SQLiteStorage(uri)
    storage.incr("LIMITER/127.0.0.1/writes", 60)  # opened before the fork, as a preloaded app would
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_count, args=(uri, 200)) for _ in range(3)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
        assert process.exitcode == 0
    assert storage.get("LIMITER/127.0.0.1/writes") == 601
    assert storage.get_expiry("LIMITER/127.0.0.1/writes") > 0 and storage.check()
    storage.clear("LIMITER/127.0.0.1/writes")
    assert storage.get("LIMITER/127.0.0.1/writes") == 0


def test_an_expired_window_starts_counting_afresh(tmp_path: Path) -> None:
    storage = SQLiteStorage(storage_uri(str(tmp_path / "ratelimits.sqlite3")))
    assert [storage.incr("k", 0) for _ in range(3)] == [1, 1, 1]  # a window of 0 s is over at once
    assert [storage.incr("k", 60) for _ in range(3)] == [1, 2, 3]
    assert storage.reset() == 1 and storage.get("k") == 0


def test_kept_pdfs_belong_to_one_build_of_the_app(instance_in_tmp: Path, tmp_path: Path) -> None:
    from companion.ops.pdf import build_stamp

    (tmp_path / "scoresheet.html").write_text("<p>101</p>")
    before = build_stamp([tmp_path])
    (tmp_path / "scoresheet.html").write_text("<p>101, edited</p>")
    assert build_stamp([tmp_path]) != before  # an edited template: PDFs kept before are not reused
    old_build = instance_in_tmp / "pdf-cache" / "0123456789abcdef"
    old_build.mkdir(parents=True)
    (old_build / "kept.pdf").write_bytes(b"%PDF- of another build")
    folder = worker(instance_in_tmp).extensions["companion.pdf"].cache.folder
    assert folder.parent == instance_in_tmp / "pdf-cache" and folder.is_dir() and not old_build.exists()
