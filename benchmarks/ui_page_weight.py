"""First load of the round-entry page on a phone with an empty cache: bytes transferred and requests.

Goals (issue 3): at most 60 KB transferred (compressed) and at most 6 requests.
Measured two ways: what Chromium reports per request (headers + encoded body),
and what the server sent (gzip bodies, without headers).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from playwright.sync_api import sync_playwright  # noqa: E402
from ui_server import ARGS, CHROMIUM, PHONE, create_series, serve  # noqa: E402

GOAL_BYTES, GOAL_REQUESTS = 60 * 1024, 6


def main() -> int:
    base, log, _app = serve()
    ok = True
    for players, ruleset in (
        (["Аня", "Борис", "Вера", "Глеб"], "igrafan"),
        (["А", "Б", "В", "Г", "Д", "Е"], "elimination"),
    ):
        series_id, token = create_series(base, players, ruleset)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context = browser.new_context(viewport=PHONE, locale="ru-RU")
            context.add_cookies([{"name": f"e_{series_id}", "value": token, "url": f"{base}/series/{series_id}"}])
            page = context.new_page()
            finished = []
            page.on("requestfinished", finished.append)
            log.entries.clear()
            page.goto(f"{base}/series/{series_id}/round", wait_until="networkidle")
            page.wait_for_timeout(500)
            rows = []
            for r in finished:
                sizes = r.sizes()
                rows.append((r.url.replace(base, ""), sizes["responseHeadersSize"] + sizes["responseBodySize"]))
            browser.close()
        total = sum(size for _, size in rows)
        server_total = sum(e.body_bytes for e in log.entries)
        print(f"round entry, {len(players)} players ({ruleset}), cold cache:")
        for url, size in rows:
            print(f"  {size:7d} B  {url}")
        print(f"  browser: {len(rows)} requests, {total} B = {total / 1024:.1f} KB transferred (headers + gzip bodies)")
        print("  server saw: " + ", ".join(f"{e.path} {e.status}" for e in log.entries))
        print(f"  server:  {len(log.entries)} requests, {server_total} B = {server_total / 1024:.1f} KB of bodies sent")
        ok = ok and total <= GOAL_BYTES and len(rows) <= GOAL_REQUESTS and len(log.entries) <= GOAL_REQUESTS
    print(f"goal: ≤ {GOAL_BYTES // 1024} KB and ≤ {GOAL_REQUESTS} requests → {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
