"""Reading a base dir on a real S3 protocol server (moto, on loopback) through the storage
gateway (format/files.py, format/object_store.py), in-process: what each reload asks of the
store, incremental reads of a re-uploaded log, a replaced object, containment, a store that
goes away and comes back."""

import os

import pytest

from mindinsight.cache.data_manager import DataManager
from mindinsight.conf.plugins import PluginName
from mindinsight.format import files, object_store
from mindinsight.summary.writer import SummaryWriter
from tests.helpers.s3_server import running_s3_server

BUCKET = "logs"
TAG = "loss"


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    with running_s3_server(tmp_path_factory.mktemp("moto")) as server:
        saved = {name: os.environ.get(name) for name in server.env()}
        os.environ.update(server.env())
        server.create_bucket(BUCKET)
        try:
            yield server
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def _log_bytes(tmp_path, steps: range, offset: float = 0.0) -> bytes:
    """A summary log written by our writer with one scalar per step: value = step + offset."""
    path = tmp_path / f"log{steps.start}_{steps.stop}_{offset}"
    path.mkdir()
    with SummaryWriter(path, file_name="events.out.events.summary.1700000000.host_MS") as writer:
        for step in steps:
            writer.add_scalar(TAG, step + offset, step)
    return (path / "events.out.events.summary.1700000000.host_MS").read_bytes()


def _steps(manager: DataManager, train_id: str) -> list[tuple[int, float]]:
    columns = manager.job_data(train_id).samples(PluginName.SCALAR, f"{TAG}/scalar")
    return list(zip(columns["step"].tolist(), [round(value, 4) for value in columns["value"].tolist()]))


def _manager(prefix: str) -> DataManager:
    manager = DataManager(f"s3://{BUCKET}/{prefix}", reload_interval=0)
    manager.load_all_now()
    return manager


def test_a_reload_lists_once_and_fetches_only_new_bytes(s3, tmp_path):
    first = _log_bytes(tmp_path, range(1, 201))
    key = "append/job/events.out.events.summary.1700000000.host_MS"
    s3.put(BUCKET, key, first[: len(first) // 2 + 7])  # a writer caught mid-record
    s3.put(BUCKET, "append/other/notes.txt", b"not a log")
    manager = _manager("append")
    assert [info.train_id for info in manager.briefs()] == ["./job"]
    half = _steps(manager, "./job")
    assert 0 < len(half) < 200

    with s3.recording() as recording:
        manager.load_all_now()  # nothing changed: one listing, no object fetched
    idle = recording.counts()
    assert (idle.lists, idle.gets, idle.heads) == (1, 0, 0)

    s3.put(BUCKET, key, first)  # S3 has no append: the same log uploaded again, bigger
    with s3.recording() as recording:
        manager.load_all_now()
    grown = recording.counts()
    assert _steps(manager, "./job") == [(step, float(step)) for step in range(1, 201)]
    assert grown.lists == 1 and grown.heads == 0
    new_bytes = len(first) - (len(first) // 2 + 7)
    # The bytes before the offset that are checked, the unfinished record read again, and the rest.
    assert new_bytes <= grown.get_bytes <= new_bytes + 4096


def test_a_log_read_from_its_start_comes_in_one_streamed_get(s3, tmp_path):
    log = _log_bytes(tmp_path, range(1, 20001))  # about 20 of the loader's chunks below
    s3.put(BUCKET, "stream/job/events.out.events.summary.1700000000.host_MS", log)
    manager = DataManager(
        f"s3://{BUCKET}/stream", reload_interval=0, chunk_bytes=len(log) // 20, first_chunk_bytes=4096
    )
    with s3.recording() as recording:
        manager.load_all_now()
    counts = recording.counts()
    view = manager.job_data("./job").scalar_points(f"{TAG}/scalar")
    steps, values = view.points(0, view.total)
    assert steps.tolist() == list(range(1, 20001)) and values.tolist() == [float(step) for step in range(1, 20001)]
    assert (counts.gets, counts.ranged_gets, counts.heads) == (1, 0, 0)
    assert counts.get_bytes == len(log)


def test_an_object_replaced_by_other_bytes_is_read_again(s3, tmp_path):
    key = "replace/job/events.out.events.summary.1700000000.host_MS"
    s3.put(BUCKET, key, _log_bytes(tmp_path, range(1, 51)))
    manager = _manager("replace")
    assert _steps(manager, "./job")[-1] == (50, 50.0)
    s3.put(BUCKET, key, _log_bytes(tmp_path, range(1, 61), offset=0.5))  # other values, bigger
    manager.load_all_now()
    manager.load_all_now()  # the first pass notices the change and starts over
    assert _steps(manager, "./job") == [(step, step + 0.5) for step in range(1, 61)]


def test_nothing_outside_the_prefix_is_listed_or_opened(s3, tmp_path):
    log = _log_bytes(tmp_path, range(1, 4))
    s3.put(BUCKET, "inside/job/events.out.events.summary.1700000000.host_MS", log)
    s3.put(BUCKET, "inside2/secret/events.out.events.summary.1700000000.host_MS", log)  # same key prefix
    manager = _manager("inside")
    assert [info.train_id for info in manager.briefs()] == ["./job"]
    root = files.real_root(f"s3://{BUCKET}/inside")
    for escape in (f"{root}/../inside2/secret", f"{root}2/secret", f"{root}/job/../../inside2/secret"):
        assert files.resolve_inside(escape + "/events.out.events.summary.1700000000.host_MS", root) is None
        with pytest.raises(files.OutsideBaseDir):
            files.open_inside(escape + "/events.out.events.summary.1700000000.host_MS", root)
    assert files.resolve_inside(f"{root}/job/./x/../events", root) == f"{root}/job/events"


def test_a_store_that_goes_away_keeps_what_was_read_and_resumes(s3, tmp_path):
    key = "outage/job/events.out.events.summary.1700000000.host_MS"
    whole = _log_bytes(tmp_path, range(1, 101))
    s3.put(BUCKET, key, whole[: len(whole) // 2])
    manager = _manager("outage")
    before = _steps(manager, "./job")
    s3.stop()
    try:
        manager.load_all_now()
        assert manager.storage_problem and "cannot list" in manager.storage_problem
        assert [info.train_id for info in manager.briefs()] == ["./job"]
        assert _steps(manager, "./job") == before
    finally:
        s3.start()
        s3.restore()
    s3.put(BUCKET, key, whole)
    manager.load_all_now()
    assert manager.storage_problem is None
    assert _steps(manager, "./job") == [(step, float(step)) for step in range(1, 101)]


def test_a_missing_bucket_is_a_storage_problem_not_an_empty_list(s3):
    manager = DataManager("s3://no-such-bucket/x", reload_interval=0)
    manager.load_all_now()
    assert manager.briefs() == []
    assert "does not exist" in manager.storage_problem


def test_a_protocol_without_its_package_names_the_extra():
    with pytest.raises(object_store.MissingExtra, match=r"pip install 'mindinsight\[azure\]'"):
        object_store.file_system_class("abfs://container/logs")
