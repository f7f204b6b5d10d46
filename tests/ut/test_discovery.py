"""Discovery of train jobs and file-name rules."""

import os
import shutil
import sys

import pytest

from mindinsight.cache.data_manager import DataManager
from mindinsight.conf.plugins import PluginName
from mindinsight.format import naming
from mindinsight.ingest.discovery import is_valid_train_id, list_summary_dirs, scan_summary_dirs
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
    make_job(tmp_path, 100, 1000)  # files in the base dir itself -> ./
    make_job(tmp_path / "run1", 200, 3000)
    make_job(tmp_path / "run2", 300, 2000)
    make_job(tmp_path / "run2" / "nested", 400, 4000)  # too deep: ignored
    (tmp_path / "empty").mkdir()
    (tmp_path / "lineage_only").mkdir()
    (tmp_path / "lineage_only" / "x.summary.5_lineage").write_bytes(b"")
    os.utime(tmp_path / "lineage_only" / "x.summary.5_lineage", (500, 500))
    infos = list_summary_dirs(str(tmp_path))
    assert [i.train_id for i in infos] == ["./run1", "./run2", "./", "./lineage_only"]
    lineage_only = infos[-1]
    assert (lineage_only.lineage_files, lineage_only.summary_files, lineage_only.has_loadable_files) == (1, 0, False)
    assert infos[0].create_time == 200 and infos[0].update_time == 3000


def test_job_count_limit(tmp_path, monkeypatch):
    monkeypatch.setattr("mindinsight.conf.limits.MAX_SUMMARY_DIR_COUNT", 3)
    for index in range(5):
        make_job(tmp_path / f"run{index}", 100 + index, 1000 + index)
    scan = scan_summary_dirs(str(tmp_path))
    assert len(scan.jobs) == 3
    assert scan.stopped_at == 5  # the listing says it stopped at the job bound


def test_every_job_is_listed_far_past_the_originals_999(tmp_path):
    count = 1_500
    for index in range(count):
        (tmp_path / f"run{index:04d}").mkdir()
        (tmp_path / f"run{index:04d}" / f"x.summary.{100 + index}").write_bytes(b"")
    scan = scan_summary_dirs(str(tmp_path))
    assert len(scan.jobs) == count and scan.stopped_at is None


@pytest.mark.parametrize(
    "train_id,valid",
    [
        ("./", True),
        ("./run1", True),
        ("../", False),
        ("./../etc", False),
        ("/etc", False),
        ("run1", False),
        ("./a/b", True),  # a TensorBoard run below a child of the base dir (docs/FORMATS.md §8)
        ("./a/", False),
        ("./..", False),
        ("./run\x00", False),
    ],
)
def test_train_id_validation(train_id, valid):
    assert is_valid_train_id(train_id) is valid


# -- files deleted while listed, symlinks (issue #12) -----------------------------------------


def scandir_deleting(monkeypatch, listed, victims):
    """``os.scandir`` that, once it has listed ``listed``, deletes ``victims`` before the caller stats them."""
    real_scandir = os.scandir

    def scandir(path):
        if not victims or os.path.realpath(path) != os.path.realpath(listed):
            return real_scandir(path)
        entries = list(real_scandir(path))
        while victims:
            victim = victims.pop()
            if os.path.isdir(victim):
                shutil.rmtree(victim)
            else:
                os.remove(victim)
        return iter(entries)

    monkeypatch.setattr(os, "scandir", scandir)


def test_file_deleted_while_listed_is_skipped(tmp_path, monkeypatch):
    make_job(tmp_path / "run1", 100, 1000)
    make_job(tmp_path / "run2", 200, 2000)
    doomed = next((tmp_path / "run1").glob("*summary*"))
    scandir_deleting(monkeypatch, tmp_path / "run1", [doomed])
    assert [info.train_id for info in list_summary_dirs(str(tmp_path))] == ["./run2"]


def test_directory_deleted_while_listed_is_skipped_and_the_tick_survives(tmp_path, monkeypatch):
    make_job(tmp_path / "run1", 100, 1000)
    make_job(tmp_path / "run2", 200, 2000)
    manager = DataManager(str(tmp_path), reload_interval=0)
    manager.load_all_now()
    scandir_deleting(monkeypatch, tmp_path, [tmp_path / "run1"])
    manager.refresh_briefs()
    manager.load_pass()
    assert [info.train_id for info in manager.briefs()] == ["./run2"]
    assert manager.job_data("./run1") is None


def test_symlinks_inside_the_base_dir_are_followed(tmp_path):
    base = tmp_path / "base"
    make_job(base / "real", 100, 1000)
    os.symlink(base / "real", base / "linked_dir")
    (base / "files").mkdir()
    target = next((base / "real").glob("*summary*"))
    os.symlink(target, base / "files" / target.name)
    infos = {info.train_id: info for info in list_summary_dirs(str(base))}
    assert set(infos) == {"./real", "./linked_dir", "./files"}
    assert infos["./linked_dir"].summary_files == infos["./files"].summary_files == 1
    manager = DataManager(str(base), reload_interval=0)
    manager.load_all_now()
    for train_id in infos:
        assert manager.job_data(train_id).samples(PluginName.SCALAR, "loss/scalar")["step"].tolist() == [1]


def test_nothing_outside_the_base_dir_is_ever_opened(tmp_path):
    outside = tmp_path / "outside"
    make_job(outside / "job", 100, 1000)
    base = tmp_path / "base"
    make_job(base / "own", 200, 2000)
    os.symlink(outside / "job", base / "linked_dir")  # a job dir pointing out
    (base / "mixed").mkdir()
    stolen = next((outside / "job").glob("*summary*"))
    os.symlink(stolen, base / "mixed" / stolen.name)  # a file pointing out
    os.symlink(stolen, base / stolen.name)  # one in the base dir itself
    opened = []

    def audit(event, args):
        if event in ("open", "os.scandir", "os.listdir"):
            opened.append(args[0])

    AUDIT_SINKS.append(audit)
    try:
        manager = DataManager(str(base), reload_interval=0)
        manager.load_all_now()
        for train_id in ("./linked_dir", "./mixed", "./"):
            manager.cache_train_job(train_id)
        manager.load_all_now()
    finally:
        AUDIT_SINKS.remove(audit)
    assert [info.train_id for info in manager.briefs()] == ["./own"]
    opened = [os.path.realpath(os.fsdecode(path)) for path in opened if isinstance(path, (str, bytes, os.PathLike))]
    assert any(path.startswith(str(base.resolve())) for path in opened)
    assert not [path for path in opened if path.startswith(str(outside.resolve()))]


AUDIT_SINKS = []
sys.addaudithook(lambda event, args: [sink(event, args) for sink in AUDIT_SINKS])


def test_each_directory_is_listed_once_per_reload_pass(tmp_path, monkeypatch):
    """A pass lists every job dir once: for its files, its profiler folder, the runs below it
    and its loader alike (three or four listings each made an idle pass over many jobs slow)."""
    from tensorboardX import SummaryWriter as TensorBoardWriter

    make_job(str(tmp_path / "ms_job"), 1_700_000_000, 1_700_000_000)
    for run in ("exp/seed1", "exp/seed2", "baseline"):
        writer = TensorBoardWriter(str(tmp_path / run))
        writer.add_scalar("loss", 1.0, 1)
        writer.close()
    manager = DataManager(str(tmp_path), reload_interval=1)
    manager.load_all_now()
    assert {info.train_id for info in manager.briefs()} == {"./ms_job", "./exp/seed1", "./exp/seed2", "./baseline"}
    listed = []
    real_scandir = os.scandir

    def counting_scandir(path="."):
        listed.append(os.path.relpath(os.fspath(path), tmp_path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", counting_scandir)
    manager.load_all_now()
    assert sorted(listed) == sorted([".", "ms_job", "exp", "exp/seed1", "exp/seed2", "baseline"])
