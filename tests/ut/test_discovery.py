"""Discovery of train jobs and file-name rules."""
import os

import pytest

from mindinsight.format import naming
from mindinsight.ingest.discovery import is_valid_train_id, list_summary_dirs
from mindinsight.summary import SummaryWriter


@pytest.mark.parametrize("name", ["aaasummary.5678", "summary.0012", "hellosummary.98786", "mysummary.123abce"])
def test_summary_names_that_match(name):
    assert naming.is_summary_file(name)


@pytest.mark.parametrize("name", ["abc.summary", "summary1234", "summay.4567"])
def test_summary_names_that_do_not_match(name):
    assert not naming.is_summary_file(name)


def test_file_kinds():
    assert naming.is_lineage_file("x.summary.1_lineage") and not naming.is_datavisual_file("x.summary.1_lineage")
    assert naming.is_explain_file("x.summary.1_explain")
    assert naming.is_graph_pb_file("ms_output_optimize.pb") and not naming.is_graph_pb_file("memory_usage_0.pb")


def test_sort_order_is_timestamp_then_name_descending():
    names = ["b.summary.2", "a.summary.1", "c.summary.1", "c.summary.10"]
    assert naming.sort_summary_files(names) == ["c.summary.1", "a.summary.1", "b.summary.2", "c.summary.10"]


def make_job(path, timestamp, mtime):
    with SummaryWriter(path, timestamp=timestamp) as writer:
        writer.add_scalar("loss", 1.0, 1)
    os.utime(writer.path, (mtime, mtime))


def test_depth_one_train_ids_and_order(tmp_path):
    make_job(tmp_path, 100, 1000)                       # files in the base dir itself -> ./
    make_job(tmp_path / "run1", 200, 3000)
    make_job(tmp_path / "run2", 300, 2000)
    make_job(tmp_path / "run2" / "nested", 400, 4000)   # too deep: ignored
    (tmp_path / "empty").mkdir()
    (tmp_path / "lineage_only").mkdir()
    (tmp_path / "lineage_only" / "x.summary.5_lineage").write_bytes(b"")
    os.utime(tmp_path / "lineage_only" / "x.summary.5_lineage", (500, 500))
    os.symlink(tmp_path / "run1", tmp_path / "link")   # symlinks are skipped
    infos = list_summary_dirs(str(tmp_path))
    assert [i.train_id for i in infos] == ["./run1", "./run2", "./", "./lineage_only"]
    lineage_only = infos[-1]
    assert (lineage_only.lineage_files, lineage_only.summary_files, lineage_only.has_loadable_files) == (1, 0, False)
    assert infos[0].create_time == 200 and infos[0].update_time == 3000


def test_job_count_limit(tmp_path, monkeypatch):
    monkeypatch.setattr("mindinsight.conf.limits.MAX_SUMMARY_DIR_COUNT", 3)
    for index in range(5):
        make_job(tmp_path / f"run{index}", 100 + index, 1000 + index)
    assert len(list_summary_dirs(str(tmp_path))) == 3


@pytest.mark.parametrize("train_id,valid", [
    ("./", True), ("./run1", True), ("../", False), ("./../etc", False), ("/etc", False),
    ("run1", False), ("./a/b", False), ("./..", False), ("./run\x00", False)])
def test_train_id_validation(train_id, valid):
    assert is_valid_train_id(train_id) is valid
