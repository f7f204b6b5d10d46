"""DataManager.generation moves exactly when something a query can see has changed."""

import shutil

from mindinsight.cache.data_manager import DataManager
from mindinsight.summary import SummaryWriter


def write_steps(job_dir, steps, timestamp=100) -> None:
    with SummaryWriter(job_dir, timestamp=timestamp) as writer:
        for step in steps:
            writer.add_values(step, {"loss": step * 0.5})


def loaded_manager(base) -> DataManager:
    manager = DataManager(str(base), reload_interval=0)
    manager.load_all_now()
    return manager


def test_idle_reload_keeps_the_generation(tmp_path):
    write_steps(tmp_path / "a", range(1, 50))
    manager = loaded_manager(tmp_path)
    before = manager.generation
    manager.load_all_now()
    manager.load_all_now()
    assert manager.generation == before


def test_appended_records_move_the_generation(tmp_path):
    write_steps(tmp_path / "a", range(1, 50))
    manager = loaded_manager(tmp_path)
    before = manager.generation
    write_steps(tmp_path / "a", range(50, 60))  # same file name: appended
    manager.load_pass()
    assert manager.generation > before


def test_new_and_removed_jobs_move_the_generation(tmp_path):
    write_steps(tmp_path / "a", range(1, 5))
    manager = loaded_manager(tmp_path)
    before = manager.generation
    write_steps(tmp_path / "b", range(1, 5))
    manager.refresh_briefs()
    after_new = manager.generation
    assert after_new > before
    shutil.rmtree(tmp_path / "b")
    manager.refresh_briefs()
    assert manager.generation > after_new


def test_loading_status_changes_move_the_generation(tmp_path):
    write_steps(tmp_path / "a", range(1, 5))
    manager = DataManager(str(tmp_path), reload_interval=0)
    seen = [manager.generation]
    manager.refresh_briefs()  # listed: a job becomes CACHING
    seen.append(manager.generation)
    manager.load_pass()  # data arrives and the job becomes CACHED
    seen.append(manager.generation)
    assert seen == sorted(set(seen)), seen


def test_a_user_caching_an_evicted_job_moves_the_generation(tmp_path):
    for name in ("a", "b"):
        write_steps(tmp_path / name, range(1, 5))
    manager = DataManager(str(tmp_path), reload_interval=0, capacity=1)
    manager.load_all_now()
    absent = next(t for t in ("./a", "./b") if manager.job_data(t) is None)
    before = manager.generation
    manager.cache_train_job(absent)
    assert manager.generation > before


def test_a_vanished_file_resets_and_moves_the_generation(tmp_path):
    write_steps(tmp_path / "a", range(1, 5), timestamp=100)
    write_steps(tmp_path / "a", range(5, 9), timestamp=200)
    manager = loaded_manager(tmp_path)
    before = manager.generation
    (tmp_path / "a").joinpath(next(p.name for p in (tmp_path / "a").iterdir() if ".100." in p.name)).unlink()
    manager.load_all_now()
    assert manager.generation > before
