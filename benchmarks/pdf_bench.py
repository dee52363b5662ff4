"""PDF scoresheet figures for docs/benchmarks.md.

For 10, 100 and 300 rounds at the largest table a rule set allows:
1. the app's PDF (GET /series/<id>/scoresheet.pdf, cache cold: view-model,
   template, chart, QR code, WeasyPrint) as a ratio to a fair reference: WeasyPrint
   alone on the sheet's rounds table, bare — the same texts (cards, points, totals,
   events) in the same fixed layout, font and page (`fair_html`) — measured side by
   side in one run, three runs (goal ≤ 1.5×);
2. peak memory of one render (Python allocations, tracemalloc; and the
   process's peak RSS growth);
3. the cached repeat: the same request again (answered from the cache) and
   with the ETag it got (304).

Run: python benchmarks/pdf_bench.py [--repeat 3] [--runs 3] [--sizes 10,100,300]
     python benchmarks/pdf_bench.py --calls    # Python function calls of one render per side: a steady measure
     python benchmarks/pdf_bench.py --instructions [--sizes 10]  # instructions of one render per side (callgrind)
     python benchmarks/pdf_bench.py --depths   # why a render gets room on the stack (companion.pdf.with_stack_room)

`--instructions`: each side's render (the app's whole request, cache emptied; the reference's WeasyPrint
render) counted by valgrind's callgrind in a process of its own, after two warm renders: the same count to
about ±0.5 % from run to run on a loaded machine, where CPU time varies by ±15 %. Needs valgrind, its
headers (callgrind.h) and a C compiler: a two-function library marks the render for callgrind.

`--depths`: the same 10-round sheet's HTML rendered (WeasyPrint only) when entered at
several depths of the caller's stack, as it is (`pdf.pdf_bytes`) and with room on the
stack (`pdf.html_to_pdf`, see `pdf.with_stack_room`): CPython 3.11 frees its frame
stack in 16 KB chunks, and a deep recursion that keeps crossing a chunk's edge pays
for it at every crossing.
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402
from companion.core.rules import RULESETS  # noqa: E402

NAMES = ["Аня", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жора", "Зоя", "Инна", "Кира"]
SMALL = ["2♣", "3♦", "4♥", "5♠", "2♦", "3♥", "4♠", "5♣", "2♥", "3♠"]


def largest_table() -> tuple[str, int, dict[str, Any]]:
    """The rule set (and options) that seats the most players."""
    best = ("", 0, {})
    for rs in RULESETS.values():
        for options in ({}, {"deck": 52}):
            try:
                most = rs.max_players_for(rs.options(options))
            except Exception:  # a set that has no 52-card deck
                continue
            if most > best[1]:
                best = (rs.id, most, options)
    return best


def build_series(client: Any, ruleset: str, players: list[str], options: dict[str, Any], rounds: int) -> dict[str, Any]:
    """A series of `rounds` rounds that never ends: one low card per hand, the winner out on a queen (−20)."""
    created = client.post("/api/v1/series", json={
        "players": players, "ruleset": ruleset, "starter": players[0],
        "options": {**options, "loss_above": 1000, "resets": {}}}).get_json()
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    for i in range(rounds):
        winner = players[i % len(players)]
        others = [p for p in players if p != winner]
        body = {"winner": winner, "finishing_card": "Q♣", "hands": {p: [SMALL[k]] for k, p in enumerate(others)}}
        response = client.post(f"/api/v1/series/{created['id']}/rounds", json=body, headers=auth)
        assert response.status_code == 201, response.get_json()
    return created


def fair_html(client: Any, series_id: str) -> str:
    """The rounds table of the app's sheet, bare: the same texts in the same layout, nothing else.

    Every square's text as the app prints it (the cards left in hand, the round's points → the total:
    `export.sheet_rows`), the lines of events under their rounds, the header row of names on every page,
    the totals row; `table-layout: fixed` at the page's width, the same font and size, the same page
    size and orientation. No chart, QR code, standings, borders, colours, page footer or appendix: what
    the app's sheet adds to this is what the ratio measures. Styled by `FAIR_CSS`.
    """
    from html import escape

    from companion.service import series as series_service
    from companion.storage.database import get_db
    from companion.web.pages import export

    with client.application.test_request_context("/", headers={"Accept-Language": "ru"}):
        series = series_service.load(get_db(), series_id)
        view = export.series_view(series)
        rows = export.sheet_rows(view)
        landscape = len(view.players) > export.PORTRAIT_MAX_PLAYERS
    span = len(view.players)
    body = []
    for r in rows:
        if r["redeal"]:
            body.append(f"<tr><td>{r['n']}</td><td colspan='{span}'>redeal</td></tr>")
            continue
        body.append(f"<tr><td>{r['n']}</td>" + "".join(f"<td>{escape(t)}</td>" for t in r["cells"]) + "</tr>")
        if r["events"]:
            body.append(f"<tr><td></td><td colspan='{span}'>{escape(r['events'])}</td></tr>")
    body.append("<tr><td></td>" + "".join(f"<td>{p.total}</td>" for p in view.players) + "</tr>")
    head = "".join(f"<th>{escape(p.name)}</th>" for p in view.players)
    page = f"@page {{ size: A4 {'landscape' if landscape else 'portrait'}; }}"
    return ("<!doctype html><html><head><meta charset='utf-8'><style>" + page + "</style></head><body><table>"
            "<colgroup><col class='n'>" + "<col>" * span + "</colgroup>"
            "<thead><tr><th>#</th>" + head + "</tr></thead><tbody>" + "".join(body) + "</tbody></table></body></html>")


# The reference's stylesheet: the sheet's font, size, margins and the table's fixed layout, nothing else.
# Like the sheet's own (`static/scoresheet.css`), it is a file parsed once per process with its font
# (`pdf.PrintSheet`), so neither side pays for parsing CSS or registering fonts in every render.
FAIR_CSS = """@page { margin: 14mm 12mm 16mm; }
@font-face { font-family: "Sheet Sans"; src: url("fonts/dejavu-sans.woff2"); }
body { font: 8.5pt/1.3 "Sheet Sans"; margin: 0; }
table { width: 100%; table-layout: fixed; border-collapse: collapse; text-align: right; }
col.n { width: 8mm; }
"""
FAIR_CSS_NAME = "fair-reference.css"


def reference_static(static: str, folder: str) -> str:
    """A copy of the static folder with the reference's stylesheet in it (nothing written into the checkout)."""
    import shutil

    copy = f"{folder}/static"
    shutil.copytree(static, copy)
    Path(copy, FAIR_CSS_NAME).write_text(FAIR_CSS, encoding="utf-8")
    return copy


def median_time(fn: Callable[[], Any], repeat: int, clock: Callable[[], float] = time.perf_counter) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def peak_memory(fn: Callable[[], Any]) -> tuple[float, float]:
    """(tracemalloc peak MB, growth of the process's peak RSS in MB) of one call."""
    gc.collect()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20, (rss_after - rss_before) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="renders of each side per run (the median is kept)")
    parser.add_argument("--runs", type=int, default=3, help="runs (their min and median are shown)")
    parser.add_argument("--depths", action="store_true", help="render time by the caller's stack depth")
    parser.add_argument("--sizes", default="10,100,300", help="series lengths, in rounds")
    parser.add_argument("--calls", action="store_true",
                        help="Python function calls of one render per side (steady on a loaded machine)")
    parser.add_argument("--instructions", action="store_true",
                        help="instructions of one render per side, counted by callgrind (steady on a loaded machine)")
    parser.add_argument("--count-one", nargs=3, metavar=("SIDE", "ROUNDS", "LIBRARY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.instructions:
        instructions([int(n) for n in args.sizes.split(",")])
        return

    from companion.ops.pdf import html_to_pdf

    ruleset, most, options = largest_table()
    players = NAMES[:most]
    sizes = [int(n) for n in args.sizes.split(",")]
    print(f"Largest table: {most} players ({ruleset}, options {options or 'as set'}); {args.runs} runs, "
          f"each the median of {args.repeat} renders per side, interleaved; min / median of the runs.")
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": f"{folder}/bench.sqlite3", "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                          "PDF_CACHE_FOLDER": f"{folder}/pdf-cache"})
        client = app.test_client()
        renderer = app.extensions["companion.pdf"]
        static = app.static_folder or "static"
        fair_static = reference_static(static, folder)
        client.get("/api/v1/health")
        html_to_pdf("<p>101</p>", static)  # WeasyPrint imported and warm
        if args.depths:
            depths(client, static, build_series(client, ruleset, players, options, 10), args.repeat)
            return
        if args.count_one:
            side, rounds, library = args.count_one
            count_one(client, renderer, fair_static, build_series(client, ruleset, players, options, int(rounds)),
                      side, library)
            return
        series = {n: build_series(client, ruleset, players, options, n) for n in sizes}
        if args.calls:
            calls(client, renderer, fair_static, series)
            return
        runs = [{n: timings(client, renderer, fair_static, series[n], args.repeat) for n in sizes}
                for _ in range(args.runs)]
        print("| rounds | app PDF s | fair reference s | ratio | app CPU s | reference CPU s | CPU ratio |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for n in sizes:
            t = [run[n] for run in runs]
            wall, cpu = [r["app"] / r["fair"] for r in t], [r["app_cpu"] / r["fair_cpu"] for r in t]
            app_cpu, fair_cpu = spread([r["app_cpu"] for r in t]), spread([r["fair_cpu"] for r in t])
            print(f"| {n} | {spread([r['app'] for r in t])} | {spread([r['fair'] for r in t])} | {spread(wall, '×')} "
                  f"| {app_cpu} | {fair_cpu} | {spread(cpu, '×')} |")
        print()
        print("| rounds | pages (reference) | PDF KB | peak Python MB | peak RSS growth MB | cached ms | 304 ms |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for n in sizes:
            print(extras(client, renderer, static, fair_static, series[n], n))


def spread(values: list[float], unit: str = "") -> str:
    return f"{min(values):.2f}{unit} / {statistics.median(values):.2f}{unit}"


def nested(depth: int, fn: Callable[[], Any]) -> Any:
    """`fn()` called `depth` frames deeper than here."""
    return fn() if depth == 0 else nested(depth - 1, fn)


def depths(client: Any, static: str, created: dict[str, Any], repeat: int) -> None:
    """CPU ms of one render of the sheet's HTML, entered at each depth: as it is, and with room on the stack."""
    from companion.ops import pdf
    from companion.service import series as series_service
    from companion.storage.database import get_db
    from companion.web.pages import export

    with client.application.test_request_context("/?lang=ru"):
        html, images = export.sheet_document(series_service.load(get_db(), created["id"]))

    def as_it_is() -> bytes:
        return pdf.pdf_bytes(html, static, export.SHEET_CSS, images)

    def with_room() -> bytes:
        return pdf.html_to_pdf(html, static, export.SHEET_CSS, images)

    levels = list(range(0, 64, 4))
    print("| entered at depth | " + " | ".join(str(d) for d in levels) + " |")
    print("|---|" + "---:|" * len(levels))
    for name, fn in (("as it is, ms", as_it_is), ("with room on the stack, ms", with_room)):
        times = {d: [] for d in levels}
        for _ in range(max(repeat, 5)):  # interleaved, so every depth sees the same machine load
            for d in levels:
                times[d].append(median_time(lambda d=d, fn=fn: nested(d, fn), 1, time.process_time))
        print(f"| {name} | " + " | ".join(f"{statistics.median(times[d]) * 1000:.0f}" for d in levels) + " |")


def timings(client: Any, renderer: Any, fair_static: str, created: dict[str, Any], repeat: int) -> dict[str, float]:
    """Medians of `repeat` renders of the app's PDF (the whole request, cache emptied) and of the fair reference."""
    from companion.ops.pdf import html_to_pdf

    url = f"/series/{created['id']}/scoresheet.pdf"
    fair = fair_html(client, created["id"])

    def app_pdf() -> bytes:
        renderer.cache.clear()
        response = client.get(url, headers={"Accept-Language": "ru"})
        assert response.status_code == 200
        return bytes(response.data)

    def fair_pdf() -> bytes:
        return html_to_pdf(fair, fair_static, FAIR_CSS_NAME)

    app_times, fair_times, app_cpu, fair_cpu = [], [], [], []
    for _ in range(repeat):  # interleaved, so both see the same machine load
        app_times.append(median_time(app_pdf, 1))
        fair_times.append(median_time(fair_pdf, 1))
        app_cpu.append(median_time(app_pdf, 1, time.process_time))
        fair_cpu.append(median_time(fair_pdf, 1, time.process_time))
    return {"app": statistics.median(app_times), "fair": statistics.median(fair_times),
            "app_cpu": statistics.median(app_cpu), "fair_cpu": statistics.median(fair_cpu)}


def calls(client: Any, renderer: Any, fair_static: str, series: dict[int, dict[str, Any]]) -> None:
    """Python function calls (cProfile) of one app PDF (the whole request, cache emptied) and one fair reference.

    Unlike CPU time on a shared machine, the count is the same from run to run; it weighs every Python call
    alike (C work, such as pango shaping or zlib, is not counted), so it tracks the render's cost, not equals it."""
    import cProfile
    import pstats

    from companion.ops.pdf import html_to_pdf

    def counted(fn: Callable[[], Any]) -> int:
        fn()  # warm: the stylesheet parsed, the fonts loaded
        profile = cProfile.Profile()
        profile.runcall(fn)
        return int(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]

    print("| rounds | app PDF calls | fair reference calls | ratio |")
    print("|---:|---:|---:|---:|")
    for n, created in series.items():
        url, fair = f"/series/{created['id']}/scoresheet.pdf", fair_html(client, created["id"])

        def app_pdf(url: str = url) -> None:
            renderer.cache.clear()
            assert client.get(url, headers={"Accept-Language": "ru"}).status_code == 200

        app_calls = counted(app_pdf)
        fair_calls = counted(lambda fair=fair: html_to_pdf(fair, fair_static, FAIR_CSS_NAME))
        print(f"| {n} | {app_calls:,} | {fair_calls:,} | {app_calls / fair_calls:.2f}× |")


MARKS_C = """#include <valgrind/callgrind.h>
void start(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; CALLGRIND_TOGGLE_COLLECT; }
void stop(void) { CALLGRIND_TOGGLE_COLLECT; CALLGRIND_DUMP_STATS; CALLGRIND_STOP_INSTRUMENTATION; }
"""


def instructions(sizes: list[int]) -> None:
    """Instructions of one render per side and size: this script again under callgrind (`count_one`)."""
    import subprocess

    print("| rounds | app PDF instructions | fair reference instructions | ratio |")
    print("|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        library = f"{folder}/marks.so"
        Path(f"{folder}/marks.c").write_text(MARKS_C)
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", library, f"{folder}/marks.c"], check=True)
        for n in sizes:
            counts = {}
            for side in ("app", "fair"):
                out = f"{folder}/{side}-{n}"
                valgrind = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no",
                            f"--callgrind-out-file={out}.%p"]
                subprocess.run([*valgrind, sys.executable, __file__, "--count-one", side, str(n), library],
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                dump = next(Path(folder).glob(f"{side}-{n}.*.1"))  # the first dump: the marked render
                counts[side] = int(next(line for line in dump.read_text().splitlines()
                                        if line.startswith("totals:")).split()[1])
            print(f"| {n} | {counts['app'] / 1e6:,.1f} M | {counts['fair'] / 1e6:,.1f} M "
                  f"| {counts['app'] / counts['fair']:.3f}× |")


def count_one(client: Any, renderer: Any, fair_static: str, created: dict[str, Any], side: str, library: str) -> None:
    """One render of `side` between the marks of `library` (run under callgrind by `instructions`)."""
    import ctypes

    from companion.ops.pdf import html_to_pdf

    url, fair = f"/series/{created['id']}/scoresheet.pdf", fair_html(client, created["id"])

    def app_pdf() -> None:
        renderer.cache.clear()
        assert client.get(url, headers={"Accept-Language": "ru"}).status_code == 200

    def fair_pdf() -> None:
        html_to_pdf(fair, fair_static, FAIR_CSS_NAME)

    render = app_pdf if side == "app" else fair_pdf
    render()
    render()  # warm: the stylesheet parsed, the fonts loaded, the QR code kept
    marks = ctypes.CDLL(library)
    marks.start()
    render()
    marks.stop()


def extras(client: Any, renderer: Any, static: str, fair_static: str, created: dict[str, Any], rounds: int) -> str:
    """Pages, size, memory of one render, and the cached repeat (from the cache; with the ETag, 304)."""
    from companion.ops import pdf

    url = f"/series/{created['id']}/scoresheet.pdf"

    def app_pdf() -> bytes:
        renderer.cache.clear()
        return bytes(client.get(url, headers={"Accept-Language": "ru"}).data)

    data = app_pdf()
    pages = page_count(client.application, created["id"], static)
    with pdf.document(fair_html(client, created["id"]), fair_static, FAIR_CSS_NAME) as laid_out:
        fair_pages = len(laid_out.pages)
    py_peak, rss_growth = peak_memory(app_pdf)
    etag = client.get(url, headers={"Accept-Language": "ru"}).headers["ETag"]
    cached_s = median_time(lambda: client.get(url, headers={"Accept-Language": "ru"}), 20)
    not_modified_s = median_time(lambda: client.get(url, headers={"Accept-Language": "ru", "If-None-Match": etag}), 20)
    return (f"| {rounds} | {pages} ({fair_pages}) | {len(data) / 1024:.0f} | {py_peak:.1f} | {rss_growth:.1f} "
            f"| {cached_s * 1000:.1f} | {not_modified_s * 1000:.1f} |")


def page_count(app: Any, series_id: str, static: str) -> int:
    from companion.ops import pdf
    from companion.service import series as series_service
    from companion.storage.database import get_db
    from companion.web.pages import export

    with app.test_request_context("/?lang=ru"):
        html, images = export.sheet_document(series_service.load(get_db(), series_id))
    with pdf.document(html, static, export.SHEET_CSS, images) as laid_out:
        return len(laid_out.pages)


if __name__ == "__main__":
    main()
