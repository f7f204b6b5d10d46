"""One scan of the base dir: bounded by MAX_SCAN_COUNT entries, and empty directories skipped
while unchanged without ever hiding a job that appears in one."""

import os

from mindinsight.ingest.discovery import scan_summary_dirs
from mindinsight.ingest.quiet_dirs import QuietDirs
from mindinsight.summary import SummaryWriter

LONG_AGO = 1_600_000_000


def settle(path) -> None:
    """Give ``path`` an old modification time, as a directory nobody touched for a while has."""
    os.utime(path, (LONG_AGO, LONG_AGO))


def write_job(path) -> None:
    with SummaryWriter(path, timestamp=100) as writer:
        writer.add_scalar("loss", 1.0, 1)


def test_a_scan_stops_after_max_scan_count_entries_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr("mindinsight.conf.limits.MAX_SCAN_COUNT", 10)
    for index in range(25):
        write_job(tmp_path / f"run{index:02d}")
    read = sorted(entry.name for entry in list(os.scandir(tmp_path))[:10])
    scan = scan_summary_dirs(str(tmp_path))
    assert scan.stopped_at == 10
    assert sorted(info.train_id for info in scan.jobs) == [f"./{name}" for name in read]


def test_a_scan_of_everything_says_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr("mindinsight.conf.limits.MAX_SCAN_COUNT", 10)
    for index in range(10):
        write_job(tmp_path / f"run{index:02d}")
    scan = scan_summary_dirs(str(tmp_path))
    assert scan.stopped_at is None and len(scan.jobs) == 10


def test_a_job_written_into_a_remembered_empty_directory_is_listed(tmp_path):
    quiet = QuietDirs()
    empty = tmp_path / "later"
    empty.mkdir()
    settle(empty)
    assert scan_summary_dirs(str(tmp_path), quiet).jobs == []
    assert scan_summary_dirs(str(tmp_path), quiet).jobs == []
    quiet.begin()
    assert quiet.unchanged(str(empty), os.stat(empty))  # remembered: a scan now skips it

    write_job(empty)
    assert [info.train_id for info in scan_summary_dirs(str(tmp_path), quiet).jobs] == ["./later"]


def test_a_directory_with_a_sub_directory_is_always_looked_into(tmp_path):
    # Profiler files written into an existing sub-directory leave the job dir's time as it was.
    quiet = QuietDirs()
    job = tmp_path / "profiled"
    (job / "profiler").mkdir(parents=True)
    settle(job)
    assert scan_summary_dirs(str(tmp_path), quiet).jobs == []

    (job / "profiler" / "cpu_op_type_info_0.csv").write_text("op_type,total_time\n")
    settle(job)
    assert [info.train_id for info in scan_summary_dirs(str(tmp_path), quiet).jobs] == ["./profiled"]


def test_a_directory_changed_just_now_is_not_remembered(tmp_path):
    quiet = QuietDirs()
    (tmp_path / "fresh").mkdir()
    scan_summary_dirs(str(tmp_path), quiet)
    quiet.begin()
    assert not quiet.unchanged(str(tmp_path / "fresh"), os.stat(tmp_path / "fresh"))
