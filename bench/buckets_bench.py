"""Server-side time of ``/datavisual/scalar/buckets`` at several zoom levels, and RSS.

Two logs written with our ``SummaryWriter`` (``bench/gen.py``, cached under ``--data-dir``):

* the server bench's scalar log: 50 tags x 200,000 steps (10 M values, 200,000 points a tag);
* one tag of 10,000,000 steps (10 M points in one tag), about 400 MB on disk; the first run
  writes it (about 2 minutes).

Each log is loaded in this process by the server's own app (``create_app`` over a base dir
holding that one job, the data manager's ``load_all_now``); then every zoom level is asked
``--repeat`` times through the app's WSGI interface (routing, validation, the service, JSON
encoding: everything the server does but the socket), and the median and max of the CPU time
the request took on its thread (what it costs the server, whatever else the machine runs) and
of the wall time are printed; the CPU median is held against the target (<= 50 ms). RSS is
this process's, after the load and after the queries.
"""

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time

import psutil

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import gen  # noqa: E402

from mindinsight.backend.application import create_app  # noqa: E402
from mindinsight.backend.context import data_manager  # noqa: E402
from mindinsight.conf.settings import Settings  # noqa: E402

TARGET_MS = 50
WIDTH = 1000  # a chart's pixel columns
ZOOMS = (1, 10, 100, 1000, 10_000)  # the shown range is 1/zoom of the tag, around its middle


def _rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


def _base_with(job_dir: str) -> str:
    base = tempfile.mkdtemp(prefix="mi-buckets-")
    gen.linked_copy(job_dir, os.path.join(base, "job"))  # hard links: no copy of the log
    return base


def measure(job_dir: str, tag: str, steps: int, repeat: int) -> list[tuple]:
    """Rows ``(figure, measured, met)`` for one log."""
    base = _base_with(job_dir)
    workspace = tempfile.mkdtemp(prefix="mi-buckets-ws-")
    rss_before = _rss_mb()
    app = create_app(
        Settings(summary_base_dir=base, reload_interval=0, workspace=workspace).resolved(), start_loading=False
    )
    started, cpu_started = time.perf_counter(), time.process_time()
    data_manager(app).load_all_now()
    load_seconds, load_cpu = time.perf_counter() - started, time.process_time() - cpu_started
    gc.collect()
    rss_loaded = _rss_mb()
    client = app.test_client()
    name = os.path.basename(job_dir)
    rows = [
        (
            f"{name}: load (in-process)",
            f"{load_seconds:.2f} s ({load_cpu:.2f} s CPU); RSS {rss_before:.0f} -> {rss_loaded:.0f} MB",
            None,
        )
    ]
    for zoom in ZOOMS:
        span = max(1, steps // zoom)
        start = 1 + (steps - span) // 2
        query = {"train_id": "./job", "tag": tag, "start": start, "end": start + span - 1, "width": WIDTH}
        times, cpu_times = [], []
        for _ in range(repeat):
            began, cpu_began = time.perf_counter(), time.thread_time()
            response = client.get("/v1/mindinsight/datavisual/scalar/buckets", query_string=query)
            cpu_times.append((time.thread_time() - cpu_began) * 1000)
            times.append((time.perf_counter() - began) * 1000)
            assert response.status_code == 200, response.get_json()
        answer = response.get_json()
        cpu = statistics.median(cpu_times)
        rows.append(
            (
                f"{name}: buckets of {answer['count']:,} points, width {WIDTH} (1/{zoom} of the tag)",
                f"CPU median {cpu:.1f} / max {max(cpu_times):.1f} ms, wall median {statistics.median(times):.1f} "
                f"/ max {max(times):.1f} ms over {repeat}; {len(answer['buckets'])} buckets, "
                f"{len(response.data) / 1000:.0f} kB",
                cpu <= TARGET_MS,
            )
        )
    rows.append((f"{name}: RSS after the queries", f"{_rss_mb():.0f} MB", None))
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", default=os.path.join(HERE, ".data"), help="where logs are cached")
    parser.add_argument("--repeat", type=int, default=20, help="requests per zoom level (median shown)")
    parser.add_argument("--points", type=int, default=10_000_000, help="points of the one-tag log")
    parser.add_argument("--only", choices=("bench-log", "one-tag"), help="measure one log only")
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()}", flush=True)
    rows = []
    if args.only in (None, "bench-log"):
        rows += measure(gen.scalar_log(args.data_dir), "train/tag_25/scalar", 200_000, args.repeat)
    if args.only in (None, "one-tag"):
        started = time.perf_counter()
        job = gen.scalar_log(args.data_dir, steps=args.points, tags=1)
        print(f"one-tag log ready in {time.perf_counter() - started:.1f} s", flush=True)
        rows += measure(job, "train/tag_00/scalar", args.points, args.repeat)
    print(f"load average after: {os.getloadavg()}\n")
    print(f"| figure | measured | target <= {TARGET_MS} ms |\n|---|---|---|")
    for figure, measured, met in rows:
        print(f"| {figure} | {measured} | {'-' if met is None else ('yes' if met else 'NO')} |")
    return 0 if all(met is not False for _, _, met in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
