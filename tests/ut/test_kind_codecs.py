"""Each kind's codec (``ingest/kinds``): object payloads to the persistent index's plain columns
and back, equal to what was read; what does not describe the samples is refused, and a job whose
entry does not decode is read from its logs."""

import os
import shutil
import sqlite3
import zlib

import numpy as np
import pytest

from mindinsight.cache.data_manager import DataManager
from mindinsight.conf.plugins import PluginName
from mindinsight.ingest.kinds import KINDS
from mindinsight.ingest.loader import JobLoader

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures")
# Real logs holding every kind with object columns: MindSpore's (images, histograms, tensors,
# graph events, .pb graphs, loss landscapes) and torch's TensorBoard runs (text, graphs, images,
# histograms from TensorBoard's forms).
JOBS = {
    "b_summary_ops": os.path.join(FIXTURES, "mindspore-2.10", "b_summary_ops"),
    "d_landscape_epoch": os.path.join(FIXTURES, "mindspore-2.10", "d_landscape_epoch"),
    "f_save_graphs": os.path.join(FIXTURES, "mindspore-2.10", "f_save_graphs"),
    "torch": os.path.join(FIXTURES, "tensorboard", "torch", "model"),
    "torch_seed1": os.path.join(FIXTURES, "tensorboard", "torch", "exp", "seed1"),
}
OBJECT_KINDS = [plugin for plugin, kind in KINDS.items() if any(np.dtype(t) == object for t in kind.payload.values())]


def test_every_kind_holding_objects_has_a_codec():
    assert OBJECT_KINDS and all(KINDS[plugin].codec is not None for plugin in OBJECT_KINDS)


@pytest.fixture(scope="module")
def samples() -> dict:
    """``plugin -> [(job, tag, sorted sample columns)]`` of every fixture job."""
    found: dict = {}
    for job, path in JOBS.items():
        loader = JobLoader(path)
        while not loader.load().done:
            pass
        for plugin in OBJECT_KINDS:
            for tag in loader.data.tags(plugin):
                found.setdefault(plugin, []).append((job, tag, loader.data.samples(plugin, tag)))
    return found


def as_stored(encoded: dict) -> dict:
    """What the index gives back: each column one array (it joins a column's chunks)."""
    return {name: np.concatenate(value) if isinstance(value, list) else value for name, value in encoded.items()}


def objects(kind, columns: dict) -> dict:
    return {name: columns[name] for name, dtype in kind.payload.items() if np.dtype(dtype) == object}


@pytest.mark.parametrize("plugin", OBJECT_KINDS, ids=lambda p: p.value)
def test_a_codec_gives_back_what_was_read(samples, plugin):
    kind = KINDS[plugin]
    assert samples.get(plugin), f"no fixture holds {plugin.value}"
    for job, tag, columns in samples[plugin]:
        encoded = kind.codec.encode(objects(kind, columns))
        for name, value in as_stored(encoded).items():
            assert value.dtype != object and value.ndim == 1, (name, value.dtype)
        count = columns["step"].size
        decoded = kind.codec.decode(as_stored(encoded), count, {})
        for name, column in objects(kind, columns).items():
            assert decoded[name].dtype == object and decoded[name].shape == (count,)
            assert [repr(v) for v in decoded[name]] == [repr(v) for v in column], (job, tag, name)


def test_histograms_of_both_forms_and_tensor_values_round_trip(samples):
    """Histograms read as messages stay lazy; those from TensorBoard's forms keep their buckets;
    tensors give the same values."""
    forms = set()
    for _job, _tag, columns in samples[PluginName.HISTOGRAM]:
        codec = KINDS[PluginName.HISTOGRAM].codec
        back = codec.decode(
            as_stored(codec.encode(objects(KINDS[PluginName.HISTOGRAM], columns))), len(columns["step"]), {}
        )
        for before, after in zip(columns["histogram"], back["histogram"], strict=True):
            forms.add(before._serialized is None)
            assert after._serialized == before._serialized
            assert np.array_equal(after.buckets, before.buckets) and (after.min, after.max) == (before.min, before.max)
    assert forms == {True, False}
    for _job, _tag, columns in samples[PluginName.TENSOR]:
        codec = KINDS[PluginName.TENSOR].codec
        back = codec.decode(as_stored(codec.encode({"tensor": columns["tensor"]})), len(columns["step"]), {})
        for before, after in zip(columns["tensor"], back["tensor"], strict=True):
            assert np.array_equal(after.array(), before.array(), equal_nan=True)
            assert (after.dims, after.data_type, after.too_large) == (before.dims, before.data_type, before.too_large)


def test_a_graph_and_its_optimized_view_are_restored_as_one_object(samples):
    shared: dict = {}
    restored = []
    for plugin in (PluginName.GRAPH, PluginName.OPTIMIZED_GRAPH):
        codec = KINDS[plugin].codec
        job, tag, columns = samples[plugin][0]
        restored.append(codec.decode(as_stored(codec.encode({"graph": columns["graph"]})), 1, shared)["graph"][0])
    assert restored[0] is restored[1]


def damaged(plugin: PluginName, encoded: dict) -> list[dict]:
    """Ways the stored columns may not describe the samples."""
    stored = as_stored(encoded)
    out = []
    for name, value in stored.items():
        if value.size:
            out.append({**stored, name: value[:-1]})  # one item short
            out.append({**stored, name: value.astype(np.float32 if value.dtype != np.float32 else np.int64)})
    for name in [n for n in stored if n.endswith(".ends")]:
        shuffled = stored[name].copy()
        if shuffled.size > 1:
            shuffled[0] = shuffled[-1] + 1  # out of order and past the end
            out.append({**stored, name: shuffled})
    out.append({name: value for name, value in list(stored.items())[1:]})  # a column missing
    return out


@pytest.mark.parametrize("plugin", OBJECT_KINDS, ids=lambda p: p.value)
def test_columns_that_do_not_describe_the_samples_are_refused(samples, plugin):
    kind = KINDS[plugin]
    _job, _tag, columns = samples[plugin][0]
    count = columns["step"].size
    for arrays in damaged(plugin, kind.codec.encode(objects(kind, columns))):
        with pytest.raises((ValueError, KeyError)):
            kind.codec.decode(arrays, count, {})
    with pytest.raises(ValueError):
        kind.codec.decode(as_stored(kind.codec.encode(objects(kind, columns))), count + 1, {})


@pytest.mark.parametrize(
    "plugin", [PluginName.HISTOGRAM, PluginName.TENSOR, PluginName.GRAPH, PluginName.LOSS_LANDSCAPE]
)
def test_messages_that_do_not_parse_are_refused(samples, plugin):
    kind = KINDS[plugin]
    _job, _tag, columns = next(item for item in samples[plugin] if not item[0].startswith("torch"))
    stored = as_stored(kind.codec.encode(objects(kind, columns)))
    name = "message" if "message" in stored else next(iter(kind.payload))  # the message bytes
    garbage = {**stored, name: np.full(stored[name].size, 0xFF, dtype=np.uint8)}  # wire type 7: never valid
    with pytest.raises(ValueError):
        kind.codec.decode(garbage, columns["step"].size, {})


def first_load(base: str, index: str) -> dict:
    """``train_id -> bytes`` a restarted manager's first load of each job read (None: not restored)."""
    dm = DataManager(base, reload_interval=0, index_path=index)
    dm.refresh_briefs()
    return {t: (j.loader.load().bytes_read if dm._restore(t, j) else None) for t, j in dm._jobs.items()}


@pytest.mark.parametrize(
    "column, keep_crc",
    [(":image", False), (":message.ends", True), (":message", True), (":graph", True)],
)
def test_a_job_whose_blob_is_damaged_is_read_from_its_logs(tmp_path, column, keep_crc):
    """A damaged blob of an image, histogram, tensor or graph column (its CRC mismatching, or
    matching but the codec refusing the content) drops the entry: the job is read again."""
    base, index = str(tmp_path / "logs"), str(tmp_path / "ws" / "index.sqlite")
    shutil.copytree(JOBS["b_summary_ops"], os.path.join(base, "ops"))
    dm = DataManager(base, reload_interval=0, index_path=index)
    dm.load_all_now()
    assert dm.index.wait_written()
    assert first_load(base, index) == {"./ops": 0}  # undamaged: taken from the index
    with sqlite3.connect(index) as connection:
        rows = connection.execute("SELECT rowid, data FROM columns WHERE name LIKE ?", (f"%{column}",)).fetchall()
        assert rows
        for rowid, data in rows:
            garbage = (
                b"\xff" * len(data) if column != ":message.ends" else np.full(len(data) // 8, 7, np.int64).tobytes()
            )
            crc = zlib.crc32(garbage) if keep_crc else zlib.crc32(data)
            connection.execute("UPDATE columns SET data=?, crc=? WHERE rowid=?", (garbage, crc, rowid))
    assert first_load(base, index) == {"./ops": None}
