"""Files that change under a running server (issue #12): after the next reload, what is served
equals what is on disk: truncated, rewritten (smaller, same size, larger), replaced and
deleted files, deleted job dirs, restarted trainings."""

import os
import shutil

import numpy as np
import pytest

from mindinsight.backend.context import data_manager
from mindinsight.cache.data_manager import DataManager
from mindinsight.conf.plugins import PluginName
from mindinsight.summary import SummaryWriter
from tests.helpers.apps import make_app
from tests.helpers.fixtures import scalar_series

API = "/v1/mindinsight/datavisual"


def write(job_dir, steps, timestamp=100, tag="loss", scale=1.0, file_name=None) -> str:
    with SummaryWriter(job_dir, timestamp=timestamp, file_name=file_name) as writer:
        for step in steps:
            writer.add_scalar(tag, step * scale, step, wall_time=1700000000.0 + step)
    return writer.path


def served(manager: DataManager, train_id: str) -> dict:
    data = manager.job_data(train_id)
    return {
        tag: list(
            zip(
                data.samples(PluginName.SCALAR, tag)["step"].tolist(),
                data.samples(PluginName.SCALAR, tag)["value"].astype(np.float32).tolist(),
            )
        )
        for tag in data.tags(PluginName.SCALAR)
    }


def on_disk(job_dir) -> dict:
    return {
        tag: [(step, float(np.float32(value))) for step, value in points]
        for tag, points in scalar_series(job_dir).items()
    }


@pytest.fixture
def job(tmp_path):
    path = tmp_path / "run"
    write(path, range(1, 51))
    manager = DataManager(str(tmp_path), reload_interval=0)
    manager.load_all_now()
    assert served(manager, "./run") == on_disk(path)
    return manager, path, next(path.glob("*_MS"))


def reload_and_compare(manager, path):
    manager.load_all_now()
    assert served(manager, "./run") == on_disk(path)
    assert manager.is_integrity("./run")


def record_ends(log) -> list[int]:
    data, pos, ends = log.read_bytes(), 0, []
    while pos < len(data):
        pos += 16 + int.from_bytes(data[pos : pos + 8], "little")
        ends.append(pos)
    return ends


def test_truncated_file(job):
    manager, path, log = job
    ends = record_ends(log)  # the first record is the writer's version event
    os.truncate(log, ends[20])
    reload_and_compare(manager, path)
    assert [step for step, _ in served(manager, "./run")["loss/scalar"]] == list(range(1, 21))
    os.truncate(log, ends[10] + 7)  # cut inside a record: the complete ones are served
    manager.load_all_now()
    assert [step for step, _ in served(manager, "./run")["loss/scalar"]] == list(range(1, 11))


def test_rewritten_smaller(job):
    manager, path, log = job
    os.remove(log)
    write(path, range(1, 11), scale=-1.0, file_name=log.name)  # same name, new content
    reload_and_compare(manager, path)


def test_rewritten_in_place_with_the_same_size(job):
    manager, path, log = job
    before = log.stat()
    other = path.parent / "other"
    write(other, range(1, 51), scale=2.0, file_name=log.name)
    rewritten = (other / log.name).read_bytes()
    assert len(rewritten) == before.st_size
    with open(log, "r+b") as stream:  # same inode, same size, new bytes
        stream.write(rewritten)
    os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns + 5_000_000))
    shutil.rmtree(other)
    reload_and_compare(manager, path)


def test_rewritten_in_place_larger(job):
    manager, path, log = job
    staging = path.parent / "staging"
    write(staging, range(1, 81), scale=3.0, file_name=log.name)
    with open(log, "r+b") as stream:  # same inode, longer, different from the start
        stream.write((staging / log.name).read_bytes())
    shutil.rmtree(staging)
    reload_and_compare(manager, path)


def test_replaced_by_rename(job):
    manager, path, log = job
    staging = path.parent / "staging"
    write(staging, range(1, 71), scale=5.0, file_name=log.name)
    os.replace(staging / log.name, log)
    shutil.rmtree(staging)
    reload_and_compare(manager, path)


def test_older_file_rewritten_after_it_was_read(tmp_path):
    path = tmp_path / "run"
    older = write(path, range(1, 21), timestamp=100)
    write(path, range(21, 31), timestamp=200)
    manager = DataManager(str(tmp_path), reload_interval=0)
    manager.load_all_now()
    staging = tmp_path / "staging"
    write(staging, range(1, 21), scale=7.0, file_name=os.path.basename(older))
    with open(older, "r+b") as stream:
        stream.write((staging / os.path.basename(older)).read_bytes())
    os.utime(older, ns=(0, os.stat(older).st_mtime_ns + 5_000_000))
    shutil.rmtree(staging)
    reload_and_compare(manager, path)


def test_deleted_file(tmp_path):
    path = tmp_path / "run"
    older = write(path, range(1, 21), timestamp=100, tag="old")
    write(path, range(1, 11), timestamp=200, tag="new")
    manager = DataManager(str(tmp_path), reload_interval=0)
    manager.load_all_now()
    os.remove(older)
    reload_and_compare(manager, path)
    assert list(served(manager, "./run")) == ["new/scalar"]


def test_late_older_file_is_read(tmp_path):
    path = tmp_path / "run"
    write(path, range(11, 21), timestamp=200)
    manager = DataManager(str(tmp_path), reload_interval=0)
    manager.load_all_now()
    write(path, range(1, 11), timestamp=100)  # copied in afterwards, sorts before
    manager.load_all_now()
    assert [step for step, _ in served(manager, "./run")["loss/scalar"]] == list(range(1, 21))


def test_deleted_job_dir_answers_train_job_not_exist(tmp_path):
    write(tmp_path / "run", range(1, 6))
    write(tmp_path / "other", range(1, 6))
    app = make_app(tmp_path)
    client = app.test_client()
    query = {"train_id": "./run", "tag": "loss/scalar"}
    assert client.get(f"{API}/scalar/metadata", query_string=query).status_code == 200
    shutil.rmtree(tmp_path / "run")
    data_manager(app).load_all_now()
    for url in ("/scalar/metadata", "/single-job"):
        answer = client.get(API + url, query_string={**query, "plugin_name": "scalar"})
        assert answer.status_code == 400 and answer.get_json()["error_code"] == "50545005"
    jobs = client.get(f"{API}/train-jobs").get_json()["train_jobs"]
    assert [item["train_id"] for item in jobs] == ["./other"]


def test_restarted_training_in_a_recreated_dir(job):
    manager, path, log = job
    shutil.rmtree(path)
    write(path, range(1, 6), timestamp=100, scale=9.0)  # same dir, same file name, new run
    reload_and_compare(manager, path)
    write(path, range(6, 9), timestamp=300, scale=9.0)  # and it rolls over to a new file
    reload_and_compare(manager, path)
