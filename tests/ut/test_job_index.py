"""The persistent index (cache/job_index.py): a restarted data manager serves from it exactly
what a cold one reads from the logs, reads only new bytes, and never trusts what does not fit."""

import os
import shutil
import sqlite3
import stat
import tracemalloc

import numpy as np
import pytest

from mindinsight.cache import job_index
from mindinsight.cache.data_manager import DataManager
from mindinsight.cache.provider import DataProvider, ScalarPoints
from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.summary import SummaryWriter
from tests.helpers import kinds_not_kept

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures")


def write_scalars(job_dir: str, steps: range, tags: int = 3, timestamp: int = 1700000000) -> None:
    """Append one scalar event per step to the job's summary file of ``timestamp``."""
    rng = np.random.default_rng(steps.start)
    with SummaryWriter(job_dir, timestamp=timestamp) as writer:
        for step in steps:
            event = summary_pb.Event(wall_time=1.7e9 + step, step=step)
            for index in range(tags):
                event.summary.value.add(tag=f"loss_{index}", scalar_value=float(rng.standard_normal()))
            writer.write_event(event)


def append_scalars(job_dir: str, steps: range) -> None:
    """Append records to the job's existing summary file (the writer at work)."""
    other = job_dir + "_more"
    write_scalars(other, steps)
    (name,) = [n for n in os.listdir(other) if "summary" in n]
    (target,) = [n for n in os.listdir(job_dir) if "summary" in n and "lineage" not in n]
    with open(os.path.join(other, name), "rb") as source, open(os.path.join(job_dir, target), "ab") as sink:
        sink.write(source.read())
    shutil.rmtree(other)


def manager(base: str, index: str | None) -> DataManager:
    dm = DataManager(base, reload_interval=0, index_path=index)
    dm.load_all_now()
    return dm


def answers(dm: DataManager) -> dict:
    """Everything a view can see of every cached job: tags, samples, full points, lineage."""
    out = {}
    for info in dm.briefs():
        data = dm.job_data(info.train_id)
        if data is None:
            continue
        job = {
            "tags": data.all_tags(),
            "skipped": dm.skipped_records(info.train_id),
            "not_kept": dm.values_not_kept(info.train_id),
        }
        for plugin in PluginName:
            for tag in data.tags(plugin):
                samples = data.samples(plugin, tag)
                job[(plugin.value, tag)] = {
                    name: [repr(v) for v in column.tolist()] for name, column in samples.items()
                }
        for tag in data.tags(PluginName.SCALAR):
            view = data.scalar_points(tag)
            steps, values = view.points(0, view.total)
            job[("full", tag)] = (steps.tolist(), values.tolist(), {k: v.tolist() for k, v in view.blocks.items()})
        lineage = data.lineage
        job["lineage"] = (str(lineage.train_lineage), str(lineage.evaluation_lineage), lineage.user_defined)
        out[info.train_id] = job
    return out


def restarted(base: str, index: str) -> tuple[DataManager, dict]:
    """A second manager over the same index, and the bytes each job's first load read."""
    dm = DataManager(base, reload_interval=0, index_path=index)
    dm.refresh_briefs()
    read = {}
    for train_id, job in dm._jobs.items():
        restored = dm._restore(train_id, job)
        read[train_id] = job.loader.load().bytes_read if restored else None
    dm.load_pass()
    return dm, read


@pytest.fixture
def base(tmp_path):
    base = tmp_path / "logs"
    shutil.copytree(os.path.join(FIXTURES, "mindspore-2.10", "c_multi_runs"), base / "multi")
    shutil.copytree(os.path.join(FIXTURES, "mindspore-2.10", "a_lenet_collector"), base / "lenet")
    shutil.copytree(os.path.join(FIXTURES, "tensorboard", "torch"), base / "torch")
    kinds_not_kept.write_run(str(base / "not_kept"))  # values not shown or refused, reported
    write_scalars(str(base / "scalars"), range(1, 5001))
    write_scalars(str(base / "steady"), range(1, 2001))
    return str(base)


def build_index(base: str, index: str) -> dict:
    dm = manager(base, index)
    assert dm.index.wait_written()
    return answers(dm)


def test_restart_serves_what_a_cold_start_reads_and_reads_nothing_again(base, tmp_path):
    index = str(tmp_path / "ws" / "index.sqlite")
    cold = build_index(base, index)
    assert cold == answers(manager(base, None))
    dm, read = restarted(base, index)
    assert answers(dm) == cold
    assert read["./scalars"] == 0  # served from the index: not one byte of the log read again
    assert read["./not_kept"] == 0 and cold["./not_kept"]["not_kept"] == (
        kinds_not_kept.UNSHOWN,
        kinds_not_kept.DROPPED,
    )
    assert [t for t, n in read.items() if n == 0], read


def test_a_grown_file_shows_only_its_new_steps_read(base, tmp_path):
    index = str(tmp_path / "index.sqlite")
    build_index(base, index)
    job_dir = os.path.join(base, "scalars")
    size = sum(os.path.getsize(os.path.join(job_dir, n)) for n in os.listdir(job_dir))
    append_scalars(job_dir, range(5001, 6001))
    grown = sum(os.path.getsize(os.path.join(job_dir, n)) for n in os.listdir(job_dir))
    dm, read = restarted(base, index)
    assert read["./scalars"] == grown - size
    assert answers(dm)["./scalars"] == answers(manager(base, None))["./scalars"]
    data = dm.job_data("./scalars")
    assert data.scalar_points(data.tags(PluginName.SCALAR)[0]).total == 6000


def test_a_replaced_file_is_read_again(base, tmp_path):
    index = str(tmp_path / "index.sqlite")
    build_index(base, index)
    job_dir = os.path.join(base, "scalars")
    for name in os.listdir(job_dir):
        os.remove(os.path.join(job_dir, name))
    write_scalars(job_dir, range(1, 3001))  # same name, other content, shorter
    dm, read = restarted(base, index)
    assert read["./scalars"] is None and read["./steady"] == 0  # the untouched job still resumes
    assert answers(dm)["./scalars"] == answers(manager(base, None))["./scalars"]


@pytest.mark.parametrize("damage", ["garbage", "truncated", "last page cut", "version", "foreign"])
def test_a_damaged_or_foreign_index_is_rebuilt(base, tmp_path, damage):
    index = str(tmp_path / "index.sqlite")
    cold = build_index(base, index)
    if damage == "garbage":
        with open(index, "r+b") as file:
            file.seek(0)
            file.write(os.urandom(4096))
    elif damage in ("truncated", "last page cut"):
        with sqlite3.connect(index) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        size = os.path.getsize(index)
        with open(index, "r+b") as file:
            file.truncate(size // 2 if damage == "truncated" else size - page_size)
    else:
        with sqlite3.connect(index) as connection:
            pragma = "user_version=99" if damage == "version" else "application_id=7"
            connection.execute(f"PRAGMA {pragma}")
    dm, read = restarted(base, index)
    assert set(read.values()) == {None}  # nothing trusted
    assert answers(dm) == cold
    assert dm.index.wait_written()
    assert set(restarted(base, index)[1].values()) != {None}  # and built again


def _page_of(index: str, sql: str) -> int:
    """The file offset of the page ``sql`` (one value: a page number) names, after folding the
    write-ahead log back into the file."""
    with sqlite3.connect(index) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        number = connection.execute(sql).fetchone()[0]
    return (number - 1) * page_size


def test_a_damaged_table_of_entries_is_rebuilt_and_nothing_trusted(base, tmp_path):
    # The start-up check walks the small tables' b-trees (not the columns, see the next test).
    index = str(tmp_path / "index.sqlite")
    cold = build_index(base, index)
    offset = _page_of(index, "SELECT rootpage FROM sqlite_master WHERE name='jobs'")
    with open(index, "r+b") as file:
        file.seek(offset)
        file.write(b"\x0d" + os.urandom(4095))  # still a leaf page by its type, the rest garbage
    dm, read = restarted(base, index)
    assert set(read.values()) == {None}
    assert answers(dm) == cold
    assert dm.index.wait_written()
    assert set(restarted(base, index)[1].values()) != {None}


def test_a_damaged_page_of_columns_fails_only_its_entry(base, tmp_path):
    # Not walked at start (that would read the whole file on every restart): a column whose
    # bytes changed fails its CRC, so its entry is read from the logs; the others resume.
    index = str(tmp_path / "index.sqlite")
    cold = build_index(base, index)
    with sqlite3.connect(index) as connection:
        connection.execute("VACUUM")  # no page an earlier entry left free holds the same bytes
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        # The largest part of the values (steps are alike in several columns and jobs).
        (blob,) = connection.execute(
            "SELECT data FROM columns WHERE train_id='./scalars' AND name LIKE 'full.v%' "
            "ORDER BY length(data) DESC LIMIT 1"
        ).fetchone()
    with open(index, "r+b") as file:
        content = file.read()
        # Bytes of the column found once in the file (the start of its values are another job's too).
        stretches = (blob[start : start + 64] for start in range(len(blob) // 2, len(blob) - 64, 64))
        stretch = next(stretch for stretch in stretches if content.count(stretch) == 1)
        file.seek(content.index(stretch))
        file.write(bytes(255 - byte for byte in stretch))
    dm, read = restarted(base, index)
    assert read["./scalars"] is None and read["./steady"] == 0
    assert answers(dm) == cold


def test_a_column_is_kept_in_parts_and_a_missing_part_fails_its_entry(base, tmp_path, monkeypatch):
    """Columns are written and read in parts of at most INDEX_PART_BYTES (a large column is
    never held twice); a part gone fails the entry, not the others."""
    monkeypatch.setattr(limits, "INDEX_PART_BYTES", 1000)
    index = str(tmp_path / "index.sqlite")
    cold = build_index(base, index)
    with sqlite3.connect(index) as connection:
        sizes = connection.execute("SELECT max(length(data)) FROM columns").fetchone()[0]
        name, parts = connection.execute(
            "SELECT name, count(*) FROM columns WHERE train_id='./scalars' GROUP BY name ORDER BY count(*) DESC LIMIT 1"
        ).fetchone()
    assert sizes <= 1000 and parts > 2
    dm, read = restarted(base, index)
    assert read["./scalars"] == 0 and answers(dm) == cold
    with sqlite3.connect(index) as connection:
        connection.execute("DELETE FROM columns WHERE train_id='./scalars' AND name=? AND part=1", (name,))
    dm, read = restarted(base, index)
    assert read["./scalars"] is None and read["./steady"] == 0
    assert answers(dm) == cold


def test_the_samples_are_served_before_the_full_points_are_read(base, tmp_path):
    """A restart takes a job's samples (what the first charts show) before its full scalar
    points, nearly all of a large scalar job's bytes: meanwhile the job is served."""
    index = str(tmp_path / "index.sqlite")
    cold = build_index(base, index)
    dm = DataManager(base, reload_interval=0, index_path=index)
    dm.refresh_briefs()
    dm_provider = DataProvider(dm, lineage=None)  # read_scalar_points needs no lineage
    seen_meanwhile = {}
    read_later = dm.index.read_later

    def reading_the_full_points(train_id, entry, prefix):
        data = dm.job_data(train_id)
        tags = data.tags(PluginName.SCALAR)
        seen_meanwhile[train_id] = (
            {tag: data.samples(PluginName.SCALAR, tag)["step"].size for tag in tags},
            {dm_provider.read_scalar_points(train_id, data, tag) for tag in tags},
        )
        assert not any(name.startswith(prefix) for name in entry.arrays)
        return read_later(train_id, entry, prefix)

    dm.index.read_later = reading_the_full_points
    dm.load_pass()
    samples, points = seen_meanwhile["./scalars"]
    assert samples == {f"loss_{index}/scalar": 1000 for index in range(3)}  # the reservoirs, whole
    # Asked for meanwhile, the points are "not held yet" (the zoom's "ask again"), not "no such tag".
    assert points == {ScalarPoints(None, True, False)}
    assert not dm.job_data("./scalars").full_scalars.reread_wanted
    assert answers(dm) == cold


def test_an_entry_written_anew_between_its_two_reads_is_not_mixed(base, tmp_path):
    index = str(tmp_path / "index.sqlite")
    build_index(base, index)
    kept = job_index.JobIndex(index)
    entry = kept.read("./scalars", os.path.join(base, "scalars"), later="full.")
    assert entry is not None and entry.arrays and not any(name.startswith("full.") for name in entry.arrays)
    assert kept.read_later("./scalars", entry, "full.")  # the same entry: its full points
    with sqlite3.connect(index) as connection:
        connection.execute("UPDATE jobs SET written = written + 1 WHERE train_id='./scalars'")
    assert kept.read_later("./scalars", entry, "full.") is None
    assert kept.read("./scalars", os.path.join(base, "scalars")) is None  # dropped, read from the logs


def test_an_entry_that_does_not_decode_is_not_trusted(base, tmp_path):
    index = str(tmp_path / "index.sqlite")
    cold = build_index(base, index)
    with sqlite3.connect(index) as connection:
        connection.execute("UPDATE columns SET data=x'00' WHERE train_id='./scalars'")
        connection.execute("UPDATE jobs SET meta='[1' WHERE train_id='./multi'")
    dm, read = restarted(base, index)
    assert read["./scalars"] is None and read.get("./multi") is None and read["./steady"] == 0
    assert answers(dm) == cold


def test_read_only_logs(base, tmp_path):
    index = str(tmp_path / "index.sqlite")
    for root, dirs, files in os.walk(base):
        for name in dirs + files:
            path = os.path.join(root, name)
            os.chmod(path, os.stat(path).st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    os.chmod(base, 0o555)
    before = sorted(os.walk(base))
    cold = build_index(base, index)
    dm, read = restarted(base, index)
    assert answers(dm) == cold and read["./scalars"] == 0
    assert sorted(os.walk(base)) == before  # nothing written beside the logs


def test_the_index_lives_in_the_workspace_per_base_dir(tmp_path):
    one = job_index.index_path(str(tmp_path), "/logs/a")
    assert one.startswith(os.path.join(str(tmp_path), "index") + os.sep)
    assert one != job_index.index_path(str(tmp_path), "/logs/b")


def test_a_restored_job_holds_its_points_once(tmp_path):
    """Restoring takes every point in one batch: nothing may keep that whole batch alive beside
    the points kept (a view of it did, tripling a big job's memory after a restart)."""
    base = str(tmp_path / "logs")
    write_scalars(os.path.join(base, "big"), range(1, 40_001), tags=10)
    index = str(tmp_path / "ws" / "index.sqlite")
    build_index(base, index)
    with sqlite3.connect(index) as connection:
        entry_bytes = connection.execute("SELECT bytes FROM jobs").fetchone()[0]
    tracemalloc.start()
    try:
        dm, read = restarted(base, index)
        assert read == {"./big": 0}
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert dm.job_data("./big").scalar_points("loss_3/scalar").total == 40_000
    assert held < 1.5 * entry_bytes, (held, entry_bytes)


def test_lineage_rows_round_trip_and_a_row_that_does_not_decode_is_skipped(tmp_path):
    index = job_index.JobIndex(str(tmp_path / "index.sqlite"))
    files = (("a_lineage", 120, 1_700_000_000_000_000_000),)
    dicts = {"model": {"loss": float("nan"), "user_defined": {"lr": 0.1}}, "dataset_graph": {}, "landscape": {}}
    index.submit_lineage({"./a": (files, dicts), "./b": (files, {"model": {}, "dataset_graph": {}, "landscape": {}})})
    assert index.wait_written()
    rows = index.read_lineage()
    assert set(rows) == {"./a", "./b"} and rows["./a"][0] == files
    assert rows["./a"][1]["model"]["user_defined"] == {"lr": 0.1} and np.isnan(rows["./a"][1]["model"]["loss"])

    index.submit_lineage({"./b": None})
    assert index.wait_written() and set(index.read_lineage()) == {"./a"}
    with sqlite3.connect(index.path) as connection:
        connection.execute("UPDATE lineage SET dicts='{not json' WHERE train_id='./a'")
    assert index.read_lineage() == {}
