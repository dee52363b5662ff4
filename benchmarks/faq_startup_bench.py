"""The FAQ search at start-up (issue 24): `companion serve` until /api/v1/health answers, the first
FAQ query after that, and each process's memory when idle; the search learns before serving.

    python benchmarks/faq_startup_bench.py            # waitress (one process) and --workers 2, three runs each

Per run: a fresh instance folder, the server started as `python -m companion.ops.cli serve`; the
time from the start of the process to the first 200 of /api/v1/health (polled every 10 ms); then
the first `GET /api/v1/faq?q=…` (wall clock at the client); then the resident memory (VmRSS) of
every process of the server after 1 s idle. The machine's load moves the wall clock a lot; the
CPU time the first process used until health answered moves less. Also the search's learning
alone, in this process (CPU).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
QUERY = "можно ли дамой отбить семёрку"


def get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=5) as answer:
        answer.read()
        return int(answer.status)


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    """User + system CPU seconds the process has used (its own, not its children's)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def one_run(workers: int, port: int) -> tuple[float, float, float, list[float]]:
    with tempfile.TemporaryDirectory() as instance:
        (Path(instance) / "config.py").write_text("RATELIMIT_ENABLED = False\nREQUEST_LOG = False\n")
        command = [sys.executable, "-m", "companion.ops.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                   "--workers", str(workers)]
        start = time.perf_counter()
        server = subprocess.Popen(command, cwd=ROOT, env={**os.environ, "COMPANION_INSTANCE": instance},
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while True:
                try:
                    if get(f"http://127.0.0.1:{port}/api/v1/health") == 200:
                        break
                except OSError:
                    time.sleep(0.01)
                if time.perf_counter() - start > 60:
                    raise SystemExit("the server did not start")
            up = time.perf_counter() - start
            cpu = cpu_s(server.pid)  # the master's: the app, the search, then the fork
            t0 = time.perf_counter()
            get(f"http://127.0.0.1:{port}/api/v1/faq?" + urllib.parse.urlencode({"q": QUERY}))
            first = (time.perf_counter() - t0) * 1000
            time.sleep(1)
            memory = [rss_mib(p) for p in [server.pid, *children(server.pid)]]
            return up, cpu, first, memory
        finally:
            server.terminate()
            server.wait(10)


def main() -> None:
    from companion.faq import entries, search

    entries.all_entries()
    c0 = time.process_time()
    search.FaqSearch(entries.all_entries())
    print(f"the search learns in {(time.process_time() - c0) * 1000:.0f} ms CPU (this process, entries loaded)")
    for workers in (1, 2):
        ups, cpus, firsts = [], [], []
        for run in range(3):
            up, cpu, first, memory = one_run(workers, 18700 + 10 * workers + run)
            ups.append(up)
            cpus.append(cpu)
            firsts.append(first)
            print(f"--workers {workers} run {run + 1}: health after {up:.2f} s ({cpu:.2f} s CPU in the first process), "
                  f"first FAQ query {first:.1f} ms, "
                  f"RSS per process {', '.join(f'{m:.0f}' for m in memory)} MiB")
        print(f"--workers {workers}: start-up min {min(ups):.2f} s, median {sorted(ups)[1]:.2f} s "
              f"(CPU min {min(cpus):.2f} s, median {sorted(cpus)[1]:.2f} s); "
              f"first query min {min(firsts):.1f} ms, median {sorted(firsts)[1]:.1f} ms")
    print(f"load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
