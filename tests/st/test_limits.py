"""Limits on the real server: 999 train directories listed, 300 tags kept per job, 20,000
base-dir entries read per scan.

The original lists at most 999 summary directories: it visits the base dir's children
oldest modification time first and stops once 999 hold summary files, so the newest ones
beyond are not listed at all (``total`` counts the listed ones). A job keeps at most 300
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

from mindinsight.conf.limits import MAX_SCAN_COUNT, MAX_SUMMARY_DIR_COUNT, MAX_TAGS_PER_JOB
from mindinsight.errors import ScalarNotExistError, error_code
from mindinsight.scripts.processes import server_processes
from mindinsight.summary.writer import SummaryWriter
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

JOB_DIRS = MAX_SUMMARY_DIR_COUNT + 6
TAGS_WRITTEN = MAX_TAGS_PER_JOB + 20
FIRST_MTIME = 1_700_000_000
# The worker holds every loaded job; with 999 briefs and 15 tiny cached jobs it stays far below.
MAX_WORKER_PEAK_RSS = 256 * 1024 * 1024  # measured: about 60 MiB for either test


def job_name(index: int) -> str:
    return f"job_{index:04d}"


def write_tiny_jobs(base: Path, count: int) -> None:
    """``count`` one-scalar jobs; job i is older (directory and file mtime) than job i+1."""
    for index in range(count):
        job = base / job_name(index)
        with SummaryWriter(job, timestamp=FIRST_MTIME + index) as writer:
            writer.add_scalar("loss", 1.0 / (index + 1), 1)
        mtime = FIRST_MTIME + index
        os.utime(writer.path, (mtime, mtime))
        os.utime(job, (mtime, mtime))


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


def test_listing_stops_at_999_train_directories(tmp_path):
    base = tmp_path / "base"
    write_tiny_jobs(base, JOB_DIRS)
    with running_server(base, tmp_path / "ws", reload_interval=0) as server:
        wait_for(lambda: train_jobs(server)["load_status"] == "loaded", timeout=60)

        everything = train_jobs(server, offset=0, limit=999)
        assert everything["total"] == MAX_SUMMARY_DIR_COUNT
        assert everything["scan_stopped_at"] is None  # 1,005 entries: all read
        listed = [job["train_id"] for job in everything["train_jobs"]]
        # The oldest 999 directories, newest update first; the 6 newest are left out.
        assert listed == [f"./{job_name(i)}" for i in reversed(range(MAX_SUMMARY_DIR_COUNT))]

        assert train_jobs(server, offset=1, limit=999)["train_jobs"] == []
        last_page = train_jobs(server, offset=99, limit=10)
        assert last_page["total"] == MAX_SUMMARY_DIR_COUNT
        assert [job["train_id"] for job in last_page["train_jobs"]] == listed[990:]
        assert train_jobs(server, offset=100, limit=10)["train_jobs"] == []

        left_out = f"./{job_name(JOB_DIRS - 1)}"
        assert train_jobs(server, train_id=left_out)["total"] == 0
        assert train_jobs(server, train_id=listed[0])["total"] == 1

        peak = worker_peak_rss(server)
        print(f"\nworker peak RSS with {JOB_DIRS} job dirs: {peak / 2**20:.1f} MiB")
        assert peak < MAX_WORKER_PEAK_RSS


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
