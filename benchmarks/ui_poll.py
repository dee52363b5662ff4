"""An idle view page polls with a conditional GET: the server answers 304 with no body.

A viewer phone opens /series/<id> and sits there; htmx asks every 4 s. The
script records every poll the server answers, then saves a round through the
API (one poll must then get 200 with the new standings) and idles again.
"""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from playwright.sync_api import sync_playwright  # noqa: E402
from ui_server import ARGS, CHROMIUM, PHONE, create_series, serve  # noqa: E402

IDLE_SECONDS = 13


def add_round(base: str, series_id: str, token: str) -> None:
    body = json.dumps({"winner": "Аня", "finishing_card": "8♣", "hands": {"Борис": ["A♥", "K♠"]}}).encode()
    request = urllib.request.Request(f"{base}/api/v1/series/{series_id}/rounds", body,
                                     {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    urllib.request.urlopen(request).read()


def main() -> int:
    base, log, _app = serve()
    series_id, token = create_series(base, ["Аня", "Борис"])
    path = f"/series/{series_id}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_context(viewport=PHONE, locale="ru-RU").new_page()
        page.goto(base + path)
        page.wait_for_timeout(IDLE_SECONDS * 1000)
        idle = [e for e in log.entries if e.path == path and e.headers.get("Hx-Request")]
        add_round(base, series_id, token)
        page.locator(".totals .player", has_text="Борис").locator(".total").filter(has_text="15").wait_for(timeout=9000)
        page.wait_for_timeout(IDLE_SECONDS * 1000)
        polls = [e for e in log.entries if e.path == path and e.headers.get("Hx-Request")]
        browser.close()
    after = polls[len(idle):]
    statuses = [e.status for e in polls]
    print(f"view page polls every 4 s; {len(polls)} polls answered: {statuses}")
    idle_304 = [e for e in idle if e.status == 304]
    print(f"idle before the change: {len(idle_304)} of {len(idle)} polls answered 304, "
          f"bodies {sum(e.body_bytes for e in idle_304)} B")
    changed = [e for e in after if e.status == 200]
    print(f"after a round was saved elsewhere: {len(changed)} poll(s) 200 "
          f"({sum(e.body_bytes for e in changed)} B gzip), then {sum(e.status == 304 for e in after)} × 304")
    ok = bool(idle) and len(idle_304) >= len(idle) - 1 and len(changed) == 1
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
