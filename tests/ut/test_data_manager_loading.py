"""DataManager loading: a small first read per job, then full chunks; every job gets data early."""
from mindinsight.cache.data_manager import CacheStatus, DataManager
from mindinsight.conf.plugins import PluginName
from mindinsight.ingest import loader as loader_module
from mindinsight.summary import SummaryWriter


def make_job(path, steps: int) -> None:
    with SummaryWriter(path, timestamp=100) as writer:
        for step in range(1, steps + 1):
            writer.add_values(step, {f"tag{index}": step * 0.5 for index in range(20)})


def test_first_read_is_small_then_full_chunks(tmp_path, monkeypatch):
    make_job(tmp_path / "a", 3000)
    make_job(tmp_path / "b", 3000)
    calls = []
    real_load = loader_module.JobLoader.load

    def spy(self, max_bytes):
        calls.append((self.job_dir.rsplit("/", 1)[-1], max_bytes))
        return real_load(self, max_bytes)

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
