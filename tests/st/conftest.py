"""System tests: the real server, started by the ``mindinsight`` CLI, over HTTP."""

import time

import pytest

from tests.helpers.fixtures import MULTI_RUNS, copy_job
from tests.helpers.server import running_server

JOBS = ("a_lenet_collector", "b_summary_ops") + tuple(f"c_multi_runs/{run}" for run in MULTI_RUNS)


def wait_for(predicate, timeout: float = 30, interval: float = 0.1):
    """Poll ``predicate`` until it returns something truthy; fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        time.sleep(interval)


def all_cached(server) -> bool:
    body = server.get("/datavisual/train-jobs", params={"limit": 999}).json()
    return body["load_status"] == "loaded" and all(j["cache_status"] == "CACHED" for j in body["train_jobs"])


@pytest.fixture(scope="session")
def fixture_base(tmp_path_factory):
    """A summary base dir with the five fixture jobs as direct subdirectories."""
    base = tmp_path_factory.mktemp("summary_base")
    for name in JOBS:
        copy_job(name, base / name.split("/")[-1])
    return base


@pytest.fixture(scope="session")
def fixture_server(fixture_base, tmp_path_factory):
    """One server over ``fixture_base`` for the read-only tests, fully loaded."""
    with running_server(fixture_base, tmp_path_factory.mktemp("workspace"), reload_interval=1) as server:
        wait_for(lambda: all_cached(server))
        yield server
