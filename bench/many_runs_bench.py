"""Ten thousand train jobs on a real server: ``python bench/many_runs_bench.py [--jobs 10000]``.

Writes ``--jobs`` tiny jobs (one scalar each, our SummaryWriter, tests/helpers/many_jobs.py) into
a temporary base dir, starts the real server (``mindinsight start``, reload every 3 s) and prints:
the time from start until every job is listed, the ``train-jobs`` first page (``limit=20``: the
first answer after a reload's scan, then the median of 20 pages at distinct offsets, which are
not served again from memory), a name search (``query=name ~ ...``, what the comparison run
picker sends), the RSS of all server processes, and the CPU the idle server spends per reload.
Targets (issue #21): first page <= 300 ms, RSS <= 500 MB.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mindinsight.scripts.processes import server_processes  # noqa: E402
from tests.helpers.many_jobs import write_tiny_jobs  # noqa: E402
from tests.helpers.server import running_server  # noqa: E402

RELOAD_INTERVAL = 3


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
            processes = server_processes(server.port)
            rss = sum(process.memory_info().rss for process in processes) / 2**20
            before = cpu_seconds(processes)
            time.sleep(args.idle_seconds)
            idle = cpu_seconds(processes) - before
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


if __name__ == "__main__":
    main()
