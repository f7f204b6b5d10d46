"""The CPU an idle server spends rescanning a base dir that holds many empty directories.

    python bench/idle_scan.py [--dirs 40000] [--seconds 10] [--reload-interval 3]

Starts the real server (``mindinsight start``, as the system tests do; set
``MINDINSIGHT_TEST_COMMAND`` to measure an installed one) over a base dir with one job and
``--dirs`` empty sub-directories, waits until it has listed them, then samples the CPU time
of its processes over ``--seconds`` and prints it as a share of one core.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mindinsight.scripts.processes import server_processes  # noqa: E402
from tests.helpers.fixtures import copy_job  # noqa: E402
from tests.helpers.server import running_server  # noqa: E402


def cpu_seconds(processes) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dirs", type=int, default=40_000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--reload-interval", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch) / "base"
        copy_job("b_summary_ops", base / "job")
        for index in range(args.dirs):
            (base / f"empty_{index:06d}").mkdir()
        with running_server(base, Path(scratch) / "ws", reload_interval=args.reload_interval) as server:
            deadline = time.monotonic() + 120
            while server.get("/datavisual/train-jobs").json().get("load_status") != "loaded":
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not list the base dir within 120 s")
                time.sleep(0.5)
            time.sleep(2 * args.reload_interval)  # past the first scans
            processes = server_processes(server.port)
            before = cpu_seconds(processes)
            time.sleep(args.seconds)
            used = cpu_seconds(processes) - before
            answer = server.get("/datavisual/train-jobs").json()
    print(
        f"{args.dirs} empty directories, reload every {args.reload_interval} s: "
        f"{100 * used / args.seconds:.1f} % of a core idle "
        f"(scan_stopped_at: {answer.get('scan_stopped_at')}, jobs listed: {answer['total']})"
    )


if __name__ == "__main__":
    main()
