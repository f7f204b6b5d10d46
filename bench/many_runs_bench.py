"""Ten thousand train jobs on a real server: ``python bench/many_runs_bench.py [--jobs 10000]``.

Writes ``--jobs`` tiny jobs (one scalar each, our SummaryWriter, tests/helpers/many_jobs.py) into
a temporary base dir, starts the real server (``mindinsight start``, reload every 3 s) and prints:
the time from start until every job is listed, the ``train-jobs`` first page (``limit=20``: the
first answer after a reload's scan, then the median of 20 pages at distinct offsets, which are
not served again from memory), a name search (``query=name ~ ...``, what the comparison run
picker sends), the RSS of all server processes, and the CPU the idle server spends per reload.
Targets (issue #21): first page <= 300 ms, RSS <= 500 MB.

Then the runs table (``datavisual/runs``) on the same server: its first page, a page sorted by
name and one by ``loss.last``, each the median of five asks differing in ``limit`` (computed
anew, not reused), <= 300 ms; a query over every run, median of five, <= 200 ms (issue #22).
And the lineage search over ``--jobs`` jobs holding the real lineage files of h_lineage_30_runs
(tests/helpers/many_lineage_jobs.py) on a second server: the first answer (every job parsed),
then pages as the lineage pages ask for them, each the quickest of five, <= 300 ms.
The tests check what these pages hold (tests/st/test_runs_table_limits.py,
tests/st/test_lineage_many_jobs.py); their time is measured here, not asserted there.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mindinsight.scripts.processes import server_processes  # noqa: E402
from tests.helpers.many_jobs import write_tiny_jobs  # noqa: E402
from tests.helpers.many_lineage_jobs import link_lineage_jobs  # noqa: E402
from tests.helpers.server import running_server  # noqa: E402

RELOAD_INTERVAL = 3
PAGE_TARGET_MS = 300
QUERY_TARGET_MS = 200
LINEAGE_FIRST_ANSWER_TIMEOUT = 600
MODEL = {"lineage_type": {"in": ["model"]}}


def cpu_seconds(processes) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def timed(server, **params) -> tuple[float, dict]:
    response = server.get("/datavisual/train-jobs", params=params)
    assert response.status_code == 200, response.text
    return response.elapsed.total_seconds(), response.json()


def runs_table(server, **params) -> tuple[float, dict]:
    response = server.get("/datavisual/runs", params=params)
    assert response.status_code == 200, response.text
    return response.elapsed.total_seconds(), response.json()


def runs_table_median(server, **params) -> float:
    """The median of five asks differing in ``limit`` only, so each answer is computed anew."""
    limit = params.pop("limit", 50)
    return statistics.median(runs_table(server, **params, limit=limit + extra)[0] for extra in range(5))


def runs_table_figures(server) -> dict[str, tuple[float, int]]:
    """Milliseconds and target of each runs-table figure."""
    queries = [f'name ~ "job_0{digit}99[0-9]" and not name ~ "debug"' for digit in range(5)]
    query = statistics.median(runs_table(server, query=text, limit=50)[0] for text in queries)
    return {
        "first page (limit 50)": (runs_table_median(server), PAGE_TARGET_MS),
        "sorted by name, last page": (
            runs_table_median(server, sort="name", order="asc", offset=9_990, limit=10),
            PAGE_TARGET_MS,
        ),
        "sorted by loss.last": (
            runs_table_median(server, sort="loss.last", order="asc", columns=["loss.last"], limit=16),
            PAGE_TARGET_MS,
        ),
        "query (a pattern on the name and not)": (query, QUERY_TARGET_MS),
    }


def lineage_search(server, body: dict, timeout: float = 30) -> float:
    response = requests.post(server.api + "/lineagemgr/lineages", json=body, timeout=timeout)
    assert response.status_code == 200, response.text
    return response.elapsed.total_seconds()


def lineage_figures(scratch: Path, jobs: int) -> tuple[float, dict[str, float]]:
    """Seconds to the first lineage answer over ``jobs`` lineage jobs, and each page's quickest of five."""
    base = scratch / "lineage_base"
    link_lineage_jobs(base, jobs)
    pages = {
        "first page (10)": {**MODEL, "limit": 10, "offset": 0},
        "the chart's 100": {**MODEL, "limit": 100, "offset": 0},
        "sorted by a metric, page 38 of 50": {
            **MODEL,
            "limit": 50,
            "offset": 37,
            "sorted_name": "metric/Loss",
            "sorted_type": "descending",
        },
        "queried page 4": {**MODEL, "limit": 20, "offset": 3, "query": 'optimizer == "Adam"'},
    }
    with running_server(base, scratch / "lineage_ws", reload_interval=RELOAD_INTERVAL) as server:
        started = time.monotonic()
        lineage_search(server, MODEL, timeout=LINEAGE_FIRST_ANSWER_TIMEOUT)
        first_answer = time.monotonic() - started
        return first_answer, {name: min(lineage_search(server, body) for _ in range(5)) for name, body in pages.items()}


def target_line(name: str, seconds: float, target_ms: int) -> str:
    met = "met" if seconds * 1000 <= target_ms else "NOT met"
    return f"  {name}: {seconds * 1000:.1f} ms (target <= {target_ms} ms: {met})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=10_000)
    parser.add_argument("--idle-seconds", type=float, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch) / "base"
        started = time.monotonic()
        write_tiny_jobs(base, args.jobs)
        print(f"wrote {args.jobs:,} job dirs in {time.monotonic() - started:.1f} s")
        started = time.monotonic()
        with running_server(base, Path(scratch) / "ws", reload_interval=RELOAD_INTERVAL) as server:
            while True:
                _, body = timed(server, limit=1)
                if body["load_status"] == "loaded" and body["total"] == args.jobs:
                    break
                if time.monotonic() - started > 300:
                    raise SystemExit(f"the server listed {body['total']} of {args.jobs} jobs within 300 s")
                time.sleep(0.05)
            listed = time.monotonic() - started
            time.sleep(RELOAD_INTERVAL + 1)  # past a reload's scan
            first, body = timed(server, offset=0, limit=20)
            pages = [timed(server, offset=page, limit=20)[0] for page in range(1, 21)]
            widest = timed(server, offset=1, limit=999)[0]
            searches = [timed(server, query=f'name ~ "(?i)JOB_0{index}"', limit=100)[0] for index in range(10)]
            table = runs_table_figures(server)
            processes = server_processes(server.port)
            rss = sum(process.memory_info().rss for process in processes) / 2**20
            before = cpu_seconds(processes)
            time.sleep(args.idle_seconds)
            idle = cpu_seconds(processes) - before
        lineage_first, lineage_pages = lineage_figures(Path(scratch), args.jobs)
    stopped = body["scan_stopped_at"]
    print(f"every job listed {listed:.2f} s after start (total {body['total']:,}, scan_stopped_at {stopped})")
    print(
        f"train-jobs first page (limit 20): {first * 1000:.1f} ms after a reload; "
        f"median of 20 other pages {statistics.median(pages) * 1000:.1f} ms (max {max(pages) * 1000:.1f}); "
        f"limit 999: {widest * 1000:.1f} ms (target <= 300 ms)"
    )
    print(f"name search (query=name ~ ..., limit 100): median {statistics.median(searches) * 1000:.1f} ms of 10")
    print(f"server RSS, all processes: {rss:.0f} MB (target <= 500 MB)")
    per_reload = idle / (args.idle_seconds / RELOAD_INTERVAL)
    print(f"idle: {100 * idle / args.idle_seconds:.1f} % of a core, about {per_reload:.2f} s CPU per reload")
    print(f"runs table over {args.jobs:,} runs (median of five):")
    for name, (seconds, target_ms) in table.items():
        print(target_line(name, seconds, target_ms))
    print(
        f"lineage search over {args.jobs:,} jobs: first answer (every job parsed) {lineage_first:.1f} s; "
        "pages, the quickest of five:"
    )
    for name, seconds in lineage_pages.items():
        print(target_line(name, seconds, PAGE_TARGET_MS))


if __name__ == "__main__":
    main()
