"""DataManager loading: a small first read per job, then full chunks; every job gets data early;
requests answer while a large job is still loading."""

import numpy as np

from mindinsight.backend.application import create_app
from mindinsight.backend.context import data_manager
from mindinsight.cache.data_manager import CacheStatus, DataManager
from mindinsight.conf.plugins import PluginName
from mindinsight.conf.settings import Settings
from mindinsight.ingest import loader as loader_module
from mindinsight.summary import SummaryWriter
from mindinsight.summary.writer import histogram_proto


def make_job(path, steps: int) -> None:
    with SummaryWriter(path, timestamp=100) as writer:
        for step in range(1, steps + 1):
            writer.add_values(step, {f"tag{index}": step * 0.5 for index in range(20)})


def test_first_read_is_small_then_full_chunks(tmp_path, monkeypatch):
    make_job(tmp_path / "a", 3000)
    make_job(tmp_path / "b", 3000)
    calls = []
    real_load = loader_module.JobLoader.load

    def spy(self, max_bytes, files=None):
        calls.append((self.job_dir.rsplit("/", 1)[-1], max_bytes))
        return real_load(self, max_bytes, files)

    monkeypatch.setattr(loader_module.JobLoader, "load", spy)
    manager = DataManager(str(tmp_path), reload_interval=0, chunk_bytes=200_000, first_chunk_bytes=10_000)
    manager.refresh_briefs()
    manager.load_pass()
    assert {job for job, size in calls[:2]} == {"a", "b"} and {size for _, size in calls[:2]} == {10_000}
    assert {size for _, size in calls[2:]} == {200_000}
    for train_id in ("./a", "./b"):
        assert manager.cache_status(train_id) is CacheStatus.CACHED
        assert manager.job_data(train_id).samples(PluginName.SCALAR, "tag0/scalar")["step"][-1] == 3000


def test_first_chunk_never_exceeds_the_chunk(tmp_path):
    assert DataManager(str(tmp_path), chunk_bytes=1000, first_chunk_bytes=5000).first_chunk_bytes == 1000


def write_large_job(path, steps: int = 4400) -> int:
    """About 50 MB: each step one scalar and 16 histograms of 30 buckets (quick to write)."""
    histograms = {f"h{index}": histogram_proto(np.arange(1000.0) * (index + 1), bins=30) for index in range(16)}
    with SummaryWriter(path, timestamp=100) as writer:
        for step in range(1, steps + 1):
            writer.add_values(step, {"loss": 1.0 / step, **histograms}, wall_time=1700000000.0 + step)
    return steps


def test_requests_answer_while_a_large_job_loads(tmp_path):
    steps = write_large_job(tmp_path / "big")
    settings = Settings(summary_base_dir=str(tmp_path), reload_interval=0).resolved()
    app = create_app(settings, start_loading=False)
    manager = data_manager(app)
    manager.chunk_bytes = 512 * 1024  # ~100 chunks: the loading thread yields between each
    client = app.test_client()
    api = "/v1/mindinsight/datavisual"
    observed = []
    manager.start()
    try:
        for _ in range(1_000_000):  # bounded; ends when the job is fully loaded
            listing = client.get(f"{api}/train-jobs", query_string={"train_id": "./big"})
            status = listing.get_json()["train_jobs"][0]["cache_status"] if listing.status_code == 200 else None
            answer = client.get(f"{api}/scalar/metadata", query_string={"train_id": "./big", "tag": "loss/scalar"})
            points = len(answer.get_json()["metadatas"]) if answer.status_code == 200 else 0
            observed.append((listing.status_code, status, answer.status_code, points))
            if status == "CACHED":
                break
    finally:
        manager.stop()
    assert all(code == 200 for code, _, _, _ in observed)
    # Answers with data came while the job was still loading, with part of it.
    assert any(status == "CACHING" and code == 200 and 0 < points for _, status, code, points in observed)
    assert observed[-1][1:] == ("CACHED", 200, 1000) and steps > 1000
