"""The load pass offers the GIL to request threads once per switch interval, not after every
chunk: on a busy machine each offer may give the core away to other processes for a while, and
thousands of small jobs made thousands of offers."""

import sys
import time

from mindinsight.cache import data_manager
from mindinsight.cache.data_manager import CacheStatus, DataManager
from tests.helpers.many_jobs import job_name, write_tiny_jobs

JOBS = 300


class CountingTime:
    """The ``time`` module as data_manager sees it, counting ``sleep(0)`` calls."""

    def __init__(self):
        self.offers = 0

    def __getattr__(self, name):
        return getattr(time, name)

    def sleep(self, seconds):
        self.offers += seconds == 0
        time.sleep(seconds)


def test_small_jobs_are_loaded_with_one_offer_per_switch_interval(tmp_path, monkeypatch):
    write_tiny_jobs(tmp_path, JOBS)
    counting = CountingTime()
    monkeypatch.setattr(data_manager, "time", counting)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.1)  # a long interval: the bound below stays far from one offer a job
    try:
        manager = DataManager(str(tmp_path), reload_interval=0, capacity=10 * JOBS)
        started = time.perf_counter()
        manager.load_all_now()
        elapsed = time.perf_counter() - started
    finally:
        sys.setswitchinterval(interval)
    assert len(manager.briefs()) == JOBS
    assert all(manager.cache_status(f"./{job_name(i)}") is CacheStatus.CACHED for i in range(JOBS))
    assert counting.offers <= elapsed / 0.1 + 1 < JOBS, counting.offers
