"""Limits on the real server: every one of 10,000 train directories listed (the original stops
at 999), 300 tags kept per job, 20,000 base-dir entries read per scan.

The original lists at most 999 summary directories; we list every job up to
``MAX_SUMMARY_DIR_COUNT`` (20,000), and a page of ``train-jobs`` keeps the original's 1..999
``limit``. With 10,000 job directories the server's processes stay within 500 MB (how long
the first page takes is measured by bench/many_runs_bench.py). A job keeps at most 300
tags: when one more arrives, the oldest-added tag is dropped and remembered, and a dropped
tag is not taken back while the job is at its limit. Both must hold without the server's
memory growing with what it leaves out (the worker's peak RSS is checked).

One scan of the base dir reads at most 20,000 of its entries (``MAX_SCAN_COUNT``), so an idle
server's reloads cost the same however many the base dir holds; the listing says when the scan
stopped there (``scan_stopped_at``), and the jobs among the entries it did not read are not listed.
"""

import itertools
import os
import time
from pathlib import Path

from mindinsight.conf.limits import MAX_SCAN_COUNT, MAX_TAGS_PER_JOB, MAX_TRAIN_JOBS_PAGE_LIMIT
from mindinsight.errors import ScalarNotExistError, error_code
from mindinsight.scripts.processes import server_processes
from mindinsight.summary.writer import SummaryWriter
from tests.helpers.many_jobs import FIRST_MTIME, job_name, write_tiny_jobs
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

JOB_DIRS = 10_000
MAX_SERVER_RSS = 500 * 1024 * 1024  # all server processes
TAGS_WRITTEN = MAX_TAGS_PER_JOB + 20
# The worker holds every loaded job; with one tiny cached job it stays far below.
MAX_WORKER_PEAK_RSS = 256 * 1024 * 1024  # measured: about 60 MiB


def peak_rss_bytes(pid: int) -> int:
    """The process's high-water resident set size (Linux ``VmHWM``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmHWM for {pid}")


def worker_peak_rss(server) -> int:
    """Peak RSS of the gunicorn worker (the process that holds the data)."""
    processes = server_processes(server.port)
    pids = {proc.pid for proc in processes}
    workers = [proc for proc in processes if proc.ppid() in pids]
    assert len(workers) == 1, processes
    return peak_rss_bytes(workers[0].pid)


def train_jobs(server, **params) -> dict:
    response = server.get("/datavisual/train-jobs", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_every_one_of_10_000_train_directories_is_listed(tmp_path):
    base = tmp_path / "base"
    started = time.monotonic()
    write_tiny_jobs(base, JOB_DIRS)
    print(f"\nwrote {JOB_DIRS} job dirs in {time.monotonic() - started:.1f} s")
    newest_first = [f"./{job_name(i)}" for i in reversed(range(JOB_DIRS))]
    with running_server(base, tmp_path / "ws", reload_interval=3) as server:
        wait_for(lambda: train_jobs(server)["load_status"] == "loaded", timeout=120)
        time.sleep(4)  # past a reload's scan: the answer is computed again, not reused

        # How long the first page takes is measured by bench/many_runs_bench.py (target 300 ms).
        body = train_jobs(server, offset=0, limit=20)
        assert body["total"] == JOB_DIRS and body["scan_stopped_at"] is None
        assert [job["train_id"] for job in body["train_jobs"]] == newest_first[:20]

        last_page = train_jobs(server, offset=JOB_DIRS // 10 - 1, limit=10)
        assert [job["train_id"] for job in last_page["train_jobs"]] == newest_first[-10:]
        widest = train_jobs(server, offset=10, limit=MAX_TRAIN_JOBS_PAGE_LIMIT)  # rows 9,990..9,999
        assert [job["train_id"] for job in widest["train_jobs"]] == newest_first[9_990:]
        too_wide = server.get("/datavisual/train-jobs", params={"limit": MAX_TRAIN_JOBS_PAGE_LIMIT + 1})
        assert too_wide.status_code == 400 and "error_code" in too_wide.json()

        # The comparison run picker's search runs on the server.
        found = train_jobs(server, query='name ~ "job_0999[0-9]"', limit=5)
        assert found["total"] == 10 and [j["train_id"] for j in found["train_jobs"]] == newest_first[:5]
        oldest = f"./{job_name(0)}"
        assert train_jobs(server, train_id=oldest)["train_jobs"][0]["train_id"] == oldest

        rss = sum(proc.memory_info().rss for proc in server_processes(server.port) if proc.is_running())
        print(f"server RSS (all processes) {rss / 2**20:.0f} MiB")
        assert rss <= MAX_SERVER_RSS


def scalar_tags(server, train_id: str) -> list[str]:
    response = server.get("/datavisual/plugins", params={"train_id": train_id})
    assert response.status_code == 200, response.text
    return response.json()["plugins"]["scalar"]


def steps_of(server, train_id: str, tag: str):
    return server.get("/datavisual/scalar/metadata", params={"train_id": train_id, "tag": tag})


def test_a_job_keeps_300_tags_dropping_the_oldest_added(tmp_path):
    base = tmp_path / "base"
    names = [f"tag_{index:03d}" for index in range(TAGS_WRITTEN)]
    with SummaryWriter(base / "many_tags", timestamp=FIRST_MTIME) as writer:
        # One event per step carrying every tag in this order: tag_000 arrives first.
        writer.add_values(1, {name: 1.0 for name in names})
        writer.add_values(2, {name: 2.0 for name in names})
    train_id = "./many_tags"
    expected = [f"{name}/scalar" for name in names[TAGS_WRITTEN - MAX_TAGS_PER_JOB :]]
    with running_server(base, tmp_path / "ws", reload_interval=0) as server:
        wait_for(lambda: scalar_tags(server, train_id) == expected, timeout=60)

        # The kept tags have both steps: the dropped ones did not come back at step 2.
        kept = steps_of(server, train_id, expected[0])
        assert [point["step"] for point in kept.json()["metadatas"]] == [1, 2]
        dropped = steps_of(server, train_id, f"{names[0]}/scalar")
        assert dropped.status_code == 400
        assert dropped.json()["error_code"] == error_code(ScalarNotExistError.module, ScalarNotExistError.value)

        peak = worker_peak_rss(server)
        print(f"\nworker peak RSS with one {TAGS_WRITTEN}-tag job: {peak / 2**20:.1f} MiB")
        assert peak < MAX_WORKER_PEAK_RSS


EMPTY_DIRS = 40_000
JOB_EVERY = 2_000  # one in this many of the directories holds a train job


def worker_cpu_percent(server, seconds: float = 10) -> float:
    """The worker's CPU use over ``seconds`` (percent of one core)."""
    processes = server_processes(server.port)
    pids = {proc.pid for proc in processes}
    (worker,) = [proc for proc in processes if proc.ppid() in pids]
    worker.cpu_percent(None)
    time.sleep(seconds)
    return worker.cpu_percent(None)


def test_a_scan_reads_at_most_max_scan_count_entries_of_the_base_dir(tmp_path):
    base = tmp_path / "base"
    base.mkdir()
    names = [f"dir_{index:05d}" for index in range(EMPTY_DIRS)]
    for name in names:
        (base / name).mkdir()
    with_jobs = names[::JOB_EVERY]
    for name in with_jobs:
        with SummaryWriter(base / name, timestamp=FIRST_MTIME) as writer:
            writer.add_scalar("loss", 1.0, 1)
    # The server reads the directory in the same order: the jobs among its first entries are listed.
    read = {entry.name for entry in itertools.islice(os.scandir(base), MAX_SCAN_COUNT)}
    expected = sorted(f"./{name}" for name in with_jobs if name in read)
    assert 0 < len(expected) < len(with_jobs)

    with running_server(base, tmp_path / "ws", reload_interval=3) as server:
        wait_for(lambda: train_jobs(server)["load_status"] == "loaded", timeout=60)
        listing = train_jobs(server, limit=999)
        assert listing["scan_stopped_at"] == MAX_SCAN_COUNT
        assert sorted(job["train_id"] for job in listing["train_jobs"]) == expected
        assert listing["total"] == len(expected)

        cpu = worker_cpu_percent(server)
        print(f"\nidle worker CPU with {EMPTY_DIRS} sub-directories (reload every 3 s): {cpu:.1f} % of a core")
        # The next scans (one every 3 s meanwhile) still stop there and list the same jobs.
        again = train_jobs(server, limit=999)
        assert again["scan_stopped_at"] == MAX_SCAN_COUNT
        assert sorted(job["train_id"] for job in again["train_jobs"]) == expected
