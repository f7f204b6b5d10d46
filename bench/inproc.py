"""In-process figures, run in a fresh child process each (``python bench/inproc.py MODE ...``).

Everything goes through the server's own code: a ``DataManager`` over a summary base dir,
listing it and loading it pass by pass exactly as its background thread does.

Modes (each prints one JSON object on stdout):

* ``cold BASE_DIR``: list + load every job of BASE_DIR to "fully loaded"; seconds, bytes,
  peak and settled RSS of this process.
* ``tick BASE_DIR [TICKS]``: load everything, then time TICKS idle reload ticks (the
  ``refresh_briefs()`` + ``load_pass()`` the reload loop runs every interval).
"""

import gc
import json
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import psutil  # noqa: E402

from mindinsight.cache.data_manager import DataManager  # noqa: E402


def _rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


def _log_bytes(base_dir: str) -> int:
    total = 0
    for root, _dirs, files in os.walk(base_dir):
        total += sum(os.path.getsize(os.path.join(root, name)) for name in files if ".summary." in name)
    return total


def cold(base_dir: str) -> dict:
    rss_before = _rss_mb()
    manager = DataManager(base_dir, reload_interval=0)
    start = time.perf_counter()
    manager.refresh_briefs()
    manager.load_pass()
    seconds = time.perf_counter() - start
    gc.collect()
    tags = {
        train_id: sum(len(v) for v in manager.job_data(train_id).all_tags().values())
        for train_id in [info.train_id for info in manager.briefs()]
    }
    return {
        "seconds": seconds,
        "bytes": _log_bytes(base_dir),
        "tags": tags,
        "rss_before_mb": rss_before,
        "rss_settled_mb": _rss_mb(),
        "rss_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def tick(base_dir: str, ticks: int = 20) -> dict:
    manager = DataManager(base_dir, reload_interval=0)
    start = time.perf_counter()
    manager.refresh_briefs()
    manager.load_pass()
    load_seconds = time.perf_counter() - start
    times = []
    for _ in range(ticks):
        start = time.perf_counter()
        manager.refresh_briefs()
        manager.load_pass()
        times.append(time.perf_counter() - start)
    times.sort()
    return {
        "load_seconds": load_seconds,
        "bytes": _log_bytes(base_dir),
        "jobs": len(manager.briefs()),
        "tick_median_ms": times[len(times) // 2] * 1e3,
        "tick_max_ms": times[-1] * 1e3,
        "rss_settled_mb": _rss_mb(),
    }


if __name__ == "__main__":
    mode, base = sys.argv[1], sys.argv[2]
    if mode == "cold":
        print(json.dumps(cold(base)))
    elif mode == "tick":
        print(json.dumps(tick(base, int(sys.argv[3]) if len(sys.argv) > 3 else 20)))
    else:
        sys.exit(f"unknown mode {mode}")
