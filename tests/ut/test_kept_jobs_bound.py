"""Jobs kept beyond the newest MAX_CACHED_TRAIN_JOBS stay only while all kept jobs' samples fit
MAX_KEPT_SAMPLE_BYTES: a comparison asking for many large jobs keeps memory bounded."""

from mindinsight.cache.data_manager import DataManager
from mindinsight.conf import limits
from tests.helpers.fixtures import copy_job

JOBS = 8


def _held(manager: DataManager) -> int:
    return sum(
        manager.job_data(train_id).payload_bytes(kind) for train_id in manager._jobs for kind in limits.BYTES_PER_JOB
    )


def _manager(tmp_path, monkeypatch, bound: int) -> DataManager:
    for index in range(JOBS):
        copy_job("b_summary_ops", tmp_path / f"job{index}")
    monkeypatch.setattr(limits, "MAX_CACHED_TRAIN_JOBS", 2)
    monkeypatch.setattr(limits, "MAX_KEPT_TRAIN_JOBS", 100)
    monkeypatch.setattr(limits, "MAX_KEPT_SAMPLE_BYTES", bound)
    manager = DataManager(str(tmp_path), reload_interval=0)
    manager.refresh_briefs()
    for index in range(JOBS):  # a comparison asks for every job
        manager.cache_train_job(f"./job{index}")
    manager.load_pass()
    return manager


def test_jobs_beyond_the_newest_go_when_their_samples_pass_the_bound(tmp_path, monkeypatch):
    one_job = _held(_manager(tmp_path / "probe", monkeypatch, bound=2**62)) // JOBS
    manager = _manager(tmp_path / "bounded", monkeypatch, bound=3 * one_job)
    assert limits.MAX_CACHED_TRAIN_JOBS <= len(manager._jobs) <= 4
    assert _held(manager) <= 3 * one_job + one_job  # at most the job being read on top


def test_within_the_bound_every_asked_job_stays(tmp_path, monkeypatch):
    manager = _manager(tmp_path, monkeypatch, bound=2**62)
    assert len(manager._jobs) == JOBS
