"""Points per second of ``/datavisual/scalars/export`` to CSV through the real server, and the
server's RSS growth while it streams.

The log: one scalar tag of 10,000,000 steps written with our ``SummaryWriter`` (``bench/gen.py``,
cached under ``--data-dir``; about 2 minutes the first time). The server is ``mindinsight start``
of this checkout (``tests/helpers/server.py``) over a base dir holding that one job. Once the job
is loaded, the whole tag is exported ``--repeat`` times over one HTTP connection, read in 1 MiB
blocks and its lines counted (every point must be there); the median rate is held against the
target (>= 5 M points/s); the server's CPU time per export (user + system, every thread) says
what it costs whatever else the machine runs. RSS is the server's (gunicorn master and worker, sampled every 50 ms):
after the load, and its peak during the exports.
"""

import argparse
import http.client
import os
import statistics
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import gen  # noqa: E402
from server_bench import RssSampler  # noqa: E402

from tests.helpers.server import running_server  # noqa: E402

TARGET_POINTS_PER_SECOND = 5_000_000
TAG = "train/tag_00/scalar"
PATH = "/v1/mindinsight/datavisual/scalars/export"


def _get(port: int, query: dict, read_block: int = 1 << 20) -> tuple[int, int, int, bytes]:
    """``(status, bytes, lines, first bytes)`` of one GET, the body read and dropped block by block."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    connection.request("GET", PATH + "?" + urllib.parse.urlencode(query, doseq=True))
    response = connection.getresponse()
    size = lines = 0
    head = b""
    while block := response.read(read_block):
        if not head:
            head = block[:300]
        size += len(block)
        lines += block.count(b"\n")
    connection.close()
    return response.status, size, lines, head


def _cpu_seconds(processes) -> float:
    return sum(sum(process.cpu_times()[:2]) for process in processes)


def _wait_loaded(port: int, query: dict, timeout: float = 900) -> float:
    """Seconds until the export stops answering 'data is loading' (it also asks for the job)."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        status, _, _, head = _get(port, {**query, "format": "csv", "tag": "no such tag"})
        if b"50545007" not in head:
            return time.perf_counter() - started
        time.sleep(0.5)
    raise RuntimeError("the job did not load in time")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", default=os.path.join(HERE, ".data"), help="where logs are cached")
    parser.add_argument("--points", type=int, default=10_000_000, help="points of the one tag")
    parser.add_argument("--repeat", type=int, default=5, help="exports measured (median shown)")
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()}", flush=True)
    job = gen.scalar_log(args.data_dir, steps=args.points, tags=1)
    base = tempfile.mkdtemp(prefix="mi-export-")
    gen.linked_copy(job, os.path.join(base, "job"))
    query = {"train_id": "./job", "tag": TAG, "format": "csv"}
    with running_server(base, tempfile.mkdtemp(prefix="mi-export-ws-"), reload_interval=0) as server:
        load_seconds = _wait_loaded(server.port, query)
        rss = RssSampler(server.port)
        loaded_mb = rss.sample()
        rss.start()
        processes = [rss.master, *rss.master.children(recursive=True)]
        rates, seconds, cpu_rates = [], [], []
        for _ in range(args.repeat):
            cpu_before = _cpu_seconds(processes)
            started = time.perf_counter()
            status, size, lines, head = _get(server.port, query)
            elapsed = time.perf_counter() - started
            cpu_rates.append(args.points / (_cpu_seconds(processes) - cpu_before))
            if status != 200 or lines != args.points + 1:
                raise RuntimeError(f"export answered {status} with {lines} lines: {head!r}")
            seconds.append(elapsed)
            rates.append(args.points / elapsed)
        rss.halt.set()
        rss.join()
    rate = statistics.median(rates)
    growth = rss.peak - loaded_mb
    rows = [
        ("load of the 10 M-point job (server)", f"{load_seconds:.1f} s", None),
        (
            f"export {args.points:,} points to CSV ({size / 2**20:.0f} MiB), median of {args.repeat}",
            f"{statistics.median(seconds):.2f} s = {rate / 1e6:.2f} M points/s"
            f" (runs: {', '.join(f'{r / 1e6:.2f}' for r in rates)})",
            rate >= TARGET_POINTS_PER_SECOND,
        ),
        (
            "server CPU per export (user + system, all threads), median",
            f"{args.points / statistics.median(cpu_rates):.2f} s = {statistics.median(cpu_rates) / 1e6:.2f} M points"
            " per CPU-second",
            None,
        ),
        (
            "server RSS after load -> peak while exporting",
            f"{loaded_mb:.0f} -> {rss.peak:.0f} MB (+{growth:.0f} MB)",
            None,
        ),
    ]
    print(f"load average after: {os.getloadavg()}\n")
    print("| figure | measured | target >= 5 M points/s |\n|---|---|---|")
    for figure, measured, met in rows:
        print(f"| {figure} | {measured} | {'-' if met is None else ('yes' if met else 'NO')} |")
    return 0 if all(met is not False for _, _, met in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
