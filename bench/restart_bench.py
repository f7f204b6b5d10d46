"""Restart with the persistent index (issue #23): ``python3 bench/restart_bench.py [--data-dir D]``.

Three base dirs (``--only`` picks one): the 10 M-value scalar log (``gen.scalar_log``, 50 tags x
200,000 steps), 1,000 small jobs and the image + histogram log (``gen.image_histogram_log``).
Each is served by ``mindinsight start`` cold (the index is empty: every log is read), then
``--restarts`` times (default 5) restarted, each on a copy of the index the cold run wrote; the
restarts' medians are printed last. Printed: seconds from
``mindinsight start`` to the first 200 and to the first chart (scalar metadata of a tag of the big
job; for the 1,000 jobs the listing plus one job's scalars; for the image log the first image
tag's metadata), and the server's RSS once every cached job is loaded.

``--ingest-overhead N``: instead, N interleaved in-process cold loads of the 10 M-value log with
the index off and on (a fresh one each time), in child processes: load seconds, settled RSS, and
(on) the seconds the index's entry then takes to write, as medians.
"""

import argparse
import gc
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import gen  # noqa: E402
from gen import linked_copy  # noqa: E402
from server_bench import API, ROOT, SCALAR_TAG, RssSampler, cli, free_port, get  # noqa: E402

from mindinsight.cache.job_index import index_path  # noqa: E402
from tests.helpers.many_jobs import job_name, write_tiny_jobs  # noqa: E402


def wait_indexed(workspace: str, base: str, jobs: int, timeout: float = 300) -> float:
    """Seconds until the index holds ``jobs`` entries."""
    path = index_path(workspace, os.path.realpath(base))
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
                if connection.execute("SELECT count(*) FROM jobs").fetchone()[0] >= jobs:
                    return time.perf_counter() - started
        except sqlite3.Error:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the index {path} did not get {jobs} entries")


def start_and_poll(base: str, port: int, workspace: str, env: dict, chart_path: str) -> dict:
    """``mindinsight start``, then poll: first 200 of train-jobs, first chart (``chart_path``
    answered with points), every job in the detail cache loaded (none still CACHING)."""
    figures = {}
    started = time.perf_counter()
    command = [sys.executable, "-m", "mindinsight.cli", "start", "--summary-base-dir", base]
    command += ["--port", str(port), "--workspace", workspace, "--reload-interval", "3"]
    starter = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = started + 600
    while time.perf_counter() < deadline and "loaded" not in figures:
        if "first_200" not in figures:
            if get(port, f"{API}/train-jobs", timeout=1)[0] == 200:
                figures["first_200"] = time.perf_counter() - started
        elif "first_chart" not in figures:
            status, body = get(port, chart_path)
            if status == 200 and body and body.get("metadatas"):
                figures["first_chart"] = time.perf_counter() - started
        else:
            status, body = get(port, f"{API}/train-jobs?limit=999")
            if status == 200 and all(job["cache_status"] != "CACHING" for job in body["train_jobs"]):
                figures["loaded"] = time.perf_counter() - started
        time.sleep(0.005)
    starter.wait(timeout=60)
    if "loaded" not in figures:
        raise RuntimeError(f"the server did not answer as expected: {starter.stdout.read()[-2000:]}")
    return figures


def serve(base: str, workspace: str, chart_path: str, settle: float = 1.0) -> dict:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": ROOT}
    sampler = RssSampler(port)
    try:
        figures = start_and_poll(base, port, workspace, env, chart_path)
        time.sleep(settle)
        figures["rss_mb"] = sampler.sample()
        return figures
    finally:
        cli("stop", "--port", str(port), "--workspace", workspace, env=env)


def scenario(label: str, base: str, chart_path: str, jobs: int, restarts: int) -> None:
    """Cold, then ``restarts`` restarts, each on a copy of the workspace the cold server left
    (the same index every time); prints each row as it is measured, then the restarts' medians."""
    with tempfile.TemporaryDirectory() as scratch:
        workspace = os.path.join(scratch, "cold")
        report(label, "cold", serve(base, workspace, chart_path))
        written = wait_indexed(workspace, base, jobs)
        print(f"{label:<22} index of {jobs} job(s) complete {written:.1f} s after the cold server's load", flush=True)
        rows = []
        for run in range(restarts):
            copy = os.path.join(scratch, f"restart{run}")
            shutil.copytree(workspace, copy)
            rows.append(serve(base, copy, chart_path))
            report(label, f"restart {run + 1}", rows[-1])
            shutil.rmtree(copy)
    median = {key: statistics.median(row[key] for row in rows) for key in rows[0]}
    charts = sorted(row["first_chart"] for row in rows)
    report(label, "restarted", median, f" (median of {restarts}; first chart {charts[0]:.2f}..{charts[-1]:.2f} s)")


def report(label: str, name: str, figures: dict, note: str = "") -> None:
    first_200, first_chart = figures["first_200"], figures["first_chart"]
    print(
        f"{label:<22} {name:<10} first 200 {first_200:5.2f} s  first chart {first_chart:5.2f} s"
        f"  (chart - 200: {first_chart - first_200:4.2f} s)  all loaded {figures['loaded']:6.2f} s"
        f"  RSS {figures['rss_mb']:6.1f} MB{note}",
        flush=True,
    )


def cold_child(base: str, with_index: bool) -> None:
    """One cold load in this process; prints its figures as JSON."""
    import psutil

    from mindinsight.cache.data_manager import DataManager

    with tempfile.TemporaryDirectory() as workspace:
        path = index_path(workspace, base) if with_index else None
        manager = DataManager(base, reload_interval=0, index_path=path)
        started = time.perf_counter()
        manager.refresh_briefs()
        manager.load_pass()
        seconds = time.perf_counter() - started
        written = 0.0
        if with_index:
            started = time.perf_counter()
            manager.index.wait_written(600)
            written = time.perf_counter() - started
        gc.collect()
        rss = psutil.Process().memory_info().rss / 2**20
    print(json.dumps({"seconds": seconds, "rss_mb": rss, "written": written}))


def ingest_overhead(base: str, runs: int) -> None:
    """Interleaved cold loads with the index off and on; prints medians."""
    results = {"off": [], "on": []}
    for _ in range(runs):
        for mode in ("off", "on"):
            command = [sys.executable, os.path.abspath(__file__), "--cold-child", mode, "--base", base]
            done = subprocess.run(command, env={**os.environ, "PYTHONPATH": ROOT}, capture_output=True, text=True)
            results[mode].append(json.loads(done.stdout.strip().splitlines()[-1]))
    for mode, rows in results.items():
        median = {key: sorted(row[key] for row in rows)[len(rows) // 2] for key in rows[0]}
        seconds = sorted(row["seconds"] for row in rows)
        print(
            f"index {mode:<3}: cold load {median['seconds']:.2f} s ({seconds[0]:.2f}..{seconds[-1]:.2f})"
            f"  settled RSS {median['rss_mb']:.0f} MB"
            + (f"  entry written {median['written']:.2f} s later" if mode == "on" else "")
            + f"  (median of {len(rows)})",
            flush=True,
        )


def server_overhead(base: str, chart_path: str, runs: int) -> None:
    """Interleaved cold starts of the real server with the index off (a plain file where its
    folder would go: the server runs without one) and on; prints the medians."""
    results = {"off": [], "on": []}
    for _ in range(runs):
        for mode in ("off", "on"):
            with tempfile.TemporaryDirectory() as workspace:
                if mode == "off":
                    Path(workspace, "index").write_text("")
                figures = serve(base, workspace, chart_path, settle=3.0)  # on: the entries are written by then
                if mode == "on":
                    figures["entries"] = len(indexed_ids(workspace, base))
                results[mode].append(figures)
    for mode, rows in results.items():
        rss = sorted(row["rss_mb"] for row in rows)
        loaded = sorted(row["loaded"] for row in rows)
        print(
            f"server, index {mode:<3}: all loaded {loaded[len(rows) // 2]:.2f} s ({loaded[0]:.2f}..{loaded[-1]:.2f})"
            f"  settled RSS {rss[len(rows) // 2]:.0f} MB ({rss[0]:.0f}..{rss[-1]:.0f})"
            + (f"  entries {[row['entries'] for row in rows]}" if mode == "on" else "")
            + f"  (median of {len(rows)})",
            flush=True,
        )


def indexed_ids(workspace: str, base: str) -> list:
    try:
        with sqlite3.connect(f"file:{index_path(workspace, base)}?mode=ro", uri=True) as connection:
            return [row[0] for row in connection.execute("SELECT train_id FROM jobs")]
    except sqlite3.Error:
        return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".data"))
    parser.add_argument("--ingest-overhead", type=int, default=0, metavar="N")
    parser.add_argument("--server-overhead", metavar="BASE_DIR", help="interleaved server cold starts, index off/on")
    parser.add_argument("--only", choices=("scalars", "small", "images"), help="one base dir only")
    parser.add_argument("--restarts", type=int, default=5, help="restarts measured per base dir (medians printed)")
    parser.add_argument("--cold-child", choices=("on", "off"), help=argparse.SUPPRESS)
    parser.add_argument("--base", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_child:
        cold_child(args.base, args.cold_child == "on")
        return
    big = gen.scalar_log(args.data_dir, 200_000, 50)
    big_base = os.path.join(args.data_dir, "restart_big")
    os.makedirs(big_base, exist_ok=True)
    job = os.path.join(big_base, "scalars")
    os.makedirs(job, exist_ok=True)
    for name in os.listdir(big):
        if "summary" in name and not os.path.exists(os.path.join(job, name)):
            os.link(os.path.join(big, name), os.path.join(job, name))  # the same bytes, no copy
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    if args.server_overhead:
        path = f"{API}/scalar/metadata?" + urllib.parse.urlencode({"train_id": "./scalars", "tag": SCALAR_TAG})
        server_overhead(os.path.realpath(args.server_overhead), path, max(args.ingest_overhead, 1))
        return
    if args.ingest_overhead:
        ingest_overhead(os.path.realpath(big_base), args.ingest_overhead)
        print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
        return
    if args.only in (None, "scalars"):
        path = f"{API}/scalar/metadata?" + urllib.parse.urlencode({"train_id": "./scalars", "tag": SCALAR_TAG})
        scenario("10 M values (50x200k)", big_base, path, 1, args.restarts)
    if args.only in (None, "small"):
        small = os.path.join(args.data_dir, "restart_1000")
        if not os.path.exists(os.path.join(small, ".complete")):
            write_tiny_jobs(Path(small), 1000)
            Path(small, ".complete").write_text("1\n")
        newest = job_name(999)
        path = f"{API}/scalar/metadata?" + urllib.parse.urlencode({"train_id": f"./{newest}", "tag": "loss/scalar"})
        scenario("1,000 small jobs", small, path, 15, args.restarts)
    if args.only in (None, "images"):
        images_base = os.path.join(args.data_dir, "restart_imghist")
        linked_copy(gen.image_histogram_log(args.data_dir), os.path.join(images_base, "imghist"))
        query = {"train_id": "./imghist", "tag": "input/image_0/image"}
        scenario(
            "images + histograms",
            images_base,
            f"{API}/image/metadata?" + urllib.parse.urlencode(query),
            1,
            args.restarts,
        )
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)


if __name__ == "__main__":
    main()
