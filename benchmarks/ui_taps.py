"""Taps to record a typical 4-player round: 12 leftover cards, a winner and a finishing card.

Goal (issue 3): at most leftover cards + players + 2 = 12 + 4 + 2 = 18 taps.
Counted from the standings page (the tap on "Enter round" included) to the
saved round, in a 390×844 Chromium with the UI in Russian.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from playwright.sync_api import sync_playwright  # noqa: E402
from ui_server import ARGS, CHROMIUM, PHONE, create_series, serve  # noqa: E402

PLAYERS = ["Аня", "Борис", "Вера", "Глеб"]
WINNER, FINISH = "Борис", "восьмёрка треф"
HANDS = {
    "Аня": ["туз пик", "король червей", "десятка бубен", "семёрка треф"],
    "Вера": ["дама пик", "валет червей", "девятка бубен", "шестёрка пик"],
    "Глеб": ["туз червей", "король пик", "восьмёрка бубен", "десятка треф"],
}
EXPECTED = {"Аня": 32, "Борис": 0, "Вера": 20, "Глеб": 33}


def main() -> int:
    base, _log, _app = serve()
    series_id, token = create_series(base, PLAYERS)
    taps = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport=PHONE, locale="ru-RU")
        page = context.new_page()
        page.goto(f"{base}/series/{series_id}/edit?token={token}")  # the edit link: not a tap at the table

        def tap(locator: object) -> None:
            nonlocal taps
            locator.click()  # type: ignore[attr-defined]
            taps += 1

        tap(page.get_by_role("link", name="Записать раунд 1"))
        page.wait_for_url("**/round")
        tap(page.locator("label.pill", has_text=WINNER))
        tap(page.locator(f"[data-panel=finish] input[aria-label='{FINISH}'] + span"))
        for player, cards in HANDS.items():
            if page.locator(".tab[aria-selected=true]").inner_text().split()[0] != player:
                tap(page.locator(".tab", has_text=player))
            for card in cards:
                tap(page.locator(f".panel.active input[aria-label='{card}'] + span"))
        tap(page.get_by_role("button", name="Сохранить раунд"))
        page.wait_for_url(f"**/series/{series_id}")
        got = {
            name: int(page.locator(".totals .player", has_text=name).locator(".total").inner_text()) for name in PLAYERS
        }
        browser.close()
    leftover, players = sum(len(c) for c in HANDS.values()), len(PLAYERS)
    goal = leftover + players + 2
    print(f"typical 4-player round: {leftover} leftover cards, a winner, a finishing card")
    print(f"taps: {taps} (goal ≤ {goal} = leftover {leftover} + players {players} + 2)")
    print(
        f"  of which: 1 open round entry, 1 winner, 1 finishing card, {taps - leftover - 4} player tabs, "
        f"{leftover} cards, 1 save"
    )
    print(f"totals after saving: {got} (expected {EXPECTED})")
    ok = taps <= goal and got == EXPECTED
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
