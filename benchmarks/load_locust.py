"""`load.py --generator locust`: the phones of `load_phones.py` as Locust users (FastHttpUser, gevent).

Every phone is one user with its own HTTP connection; a user takes the next phone in spawn order, so the
first n tables' phones are the first users. Imported only when chosen: Locust patches the standard library
(gevent) as it is imported.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import gevent
from load_phones import Answer, Figures, Phone, Request
from locust import FastHttpUser, events, task
from locust.env import Environment


class LocustDriver:
    """Locust's local runner behind the lean driver's interface: `start`, `sleep`, `reset`, `summary`, `quit`."""

    def __init__(self, port: int) -> None:
        pool: list[Phone] = []
        self.pool = pool
        statuses: Counter[tuple[str, str, int]] = Counter()  # (method, kind, status) → answers
        self.statuses = statuses
        taken = [0]

        class LocustPhone(FastHttpUser):
            host = f"http://127.0.0.1:{port}"

            def on_start(self) -> None:
                self.phone = pool[taken[0]]
                taken[0] += 1
                self.phone.start()

            def wait_time(self) -> float:
                return self.phone.wait()

            @task
            def turn(self) -> None:
                acts = self.phone.act()
                try:
                    request = next(acts)
                    while True:
                        request = acts.send(self.send(request))
                except StopIteration:
                    pass

            def send(self, request: Request) -> Answer:
                with self.client.request(request.method, request.path, data=request.body or None,
                                         headers=dict(request.headers), name=request.kind,
                                         catch_response=True) as response:
                    status = response.status_code or 0
                    statuses[request.method, request.kind, status] += 1
                    if status in request.ok:
                        response.success()
                    else:
                        response.failure(f"status {status}")
                    headers = {k.lower(): v for k, v in response.headers.items()} if response.headers else {}
                    body = (response.content or b"") if request.read and status == 200 else b""
                return Answer(status, headers, body)

        self.env = Environment(user_classes=[LocustPhone], events=events)
        self.runner = self.env.create_local_runner()

    def start(self, phones: list[Phone], rate: float) -> None:
        self.pool[len(self.pool):] = phones[len(self.pool):]
        self.runner.start(len(phones), spawn_rate=rate)

    def sleep(self, seconds: float) -> None:
        gevent.sleep(seconds)

    def reset(self) -> None:
        self.env.stats.reset_all()
        self.statuses.clear()

    def summary(self) -> tuple[dict[tuple[str, str], Figures], Figures, list[tuple[int, str, str, str]]]:
        def figures(entry: Any) -> Figures:
            if not entry.num_requests:
                return Figures(0, entry.num_failures, 0.0, 0.0, 0.0)
            p50, p95, p99 = (float(entry.get_response_time_percentile(q)) for q in (0.5, 0.95, 0.99))
            return Figures(entry.num_requests, entry.num_failures, p50, p95, p99)

        stats = self.env.stats
        kinds = {(method, name): figures(entry) for (name, method), entry in stats.entries.items()}
        errors = [(e.occurrences, e.method, e.name, str(e.error)) for e in stats.errors.values()]
        return kinds, figures(stats.total), errors

    def quit(self) -> None:
        self.runner.quit()
