"""TensorBoard event files (docs/FORMATS.md §8): logs of the real writers read into the kinds the
pages show, the restart and rotation rules, half-written and damaged records, the tensor forms.

The fixtures in tests/fixtures/tensorboard/torch were written by ``torch.utils.tensorboard``
(make_torch_logs.py there; expected.json is what the writer was given); live logs here are
written by ``tensorboardX``.
"""

import json
import shutil
import struct
import time
from pathlib import Path

import numpy as np
import pytest
from tensorboardX import SummaryWriter

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format import naming
from mindinsight.format.proto import tensorboard_event_pb2 as tb_pb
from mindinsight.format.records import frame
from mindinsight.ingest.discovery import is_valid_train_id, list_summary_dirs
from mindinsight.ingest.kinds import KINDS
from mindinsight.ingest.loader import JobLoader
from mindinsight.ingest.tb_decoder import TensorBoardDecoder
from mindinsight.ingest.train_ids import TrainIdProblem, train_id_problem

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tensorboard"
TORCH = FIXTURES / "torch"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())


def load(path, root=None) -> JobLoader:
    loader = JobLoader(str(path), root=str(root or path))
    while not loader.load().done:
        pass
    return loader


def scalars(loader: JobLoader, tag: str) -> list:
    samples = loader.data.samples(PluginName.SCALAR, tag)
    return [[int(step), float(value)] for step, value in zip(samples["step"], samples["value"])]


# -- the runs written by torch.utils.tensorboard ------------------------------------------------


@pytest.mark.parametrize("train_id", sorted(EXPECTED))
def test_torch_scalars_equal_what_the_writer_was_given(train_id):
    loader = load(TORCH / train_id[2:], TORCH)
    for tag, points in EXPECTED[train_id]["scalars"].items():
        assert scalars(loader, tag) == points, tag
    assert loader.is_integrity


def test_torch_histograms_both_forms():
    loader = load(TORCH / "exp" / "seed1", TORCH)
    for tag, per_step in EXPECTED["./exp/seed1"]["histograms"].items():
        samples = loader.data.samples(PluginName.HISTOGRAM, tag)
        assert [str(step) for step in samples["step"]] == list(per_step)
        for sample, (count, low, high) in zip(samples["histogram"], per_step.values()):
            assert sample.count == count
            assert sample.min == pytest.approx(low) and sample.max == pytest.approx(high)
            buckets = sample.buckets
            assert buckets[0, 0] == pytest.approx(low)
            assert buckets[-1, 0] + buckets[-1, 1] == pytest.approx(high)


def test_torch_images_both_forms():
    from io import BytesIO

    from PIL import Image

    loader = load(TORCH / "exp" / "seed1", TORCH)
    for tag, given in EXPECTED["./exp/seed1"]["images"].items():
        samples = loader.data.samples(PluginName.IMAGE, tag)
        assert samples["step"].tolist() == [given["step"]]
        pixels = np.asarray(given["pixels"], dtype=np.uint8)
        assert (samples["height"][0], samples["width"][0]) == pixels.shape[:2]
        decoded = np.asarray(Image.open(BytesIO(samples["image"][0])).convert("RGB"))
        assert np.array_equal(decoded, pixels)


def test_tags_keep_the_written_names():
    loader = load(TORCH / "exp" / "seed1", TORCH)
    assert loader.data.tags(PluginName.SCALAR) == ["train/loss", "train/lr"]
    assert loader.data.tags(PluginName.HISTOGRAM) == ["fc1/weight", "fc2/bias"]
    assert loader.data.tags(PluginName.IMAGE) == ["input/sample", "input/tensor_image"]


# -- runs at any depth ----------------------------------------------------------------------------


def test_runs_at_any_depth_are_listed_by_relative_path(tmp_path):
    shutil.copytree(TORCH, tmp_path / "base")
    deep = tmp_path / "base" / "a" / "b" / "c"
    with SummaryWriter(str(deep)) as writer:
        writer.add_scalar("x", 1.0, 0)
    (tmp_path / "base" / "a" / "nested_ms").mkdir()
    (tmp_path / "base" / "a" / "nested_ms" / "x.summary.1_MS").write_bytes(b"")  # MindSpore: depth 1 only
    ids = sorted(info.train_id for info in list_summary_dirs(str(tmp_path / "base")))
    assert ids == ["./a/b/c", "./exp/seed1", "./exp/seed2", "./model", "./restarted", "./session_start"]
    info = {i.train_id: i for i in list_summary_dirs(str(tmp_path / "base"))}["./restarted"]
    assert (info.summary_files, info.tfevents_files, info.has_loadable_files) == (2, 2, True)
    assert all(is_valid_train_id(train_id) for train_id in ids)


def test_nested_ids_stay_refused_where_the_original_takes_one_level():
    assert is_valid_train_id("./exp/seed1")
    assert train_id_problem("./exp/seed1") is TrainIdProblem.NESTED  # lineage, profiler: as before
    for bad in ("./exp/", "./exp//x", "./exp/..", "./exp/./x", "./a/b\\c", "./a/b\x00"):
        assert not is_valid_train_id(bad), bad


def test_one_directory_holds_both_kinds(tmp_path):
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore-2.10" / "b_summary_ops"
    run = tmp_path / "mixed"
    shutil.copytree(fixture, run)
    with SummaryWriter(str(run)) as writer:
        for step in range(3):
            writer.add_scalar("torch/loss", float(step), step)
    ms_only = load(fixture)
    loader = load(run)
    assert scalars(loader, "torch/loss") == [[0, 0.0], [1, 1.0], [2, 2.0]]
    for tag in ms_only.data.tags(PluginName.SCALAR):
        mixed, alone = loader.data.samples(PluginName.SCALAR, tag), ms_only.data.samples(PluginName.SCALAR, tag)
        assert np.array_equal(mixed["step"], alone["step"])
        assert np.array_equal(mixed["value"], alone["value"], equal_nan=True)


# -- restarts, rotation -------------------------------------------------------------------------


def test_a_resumed_run_in_a_new_file_purges_the_old_steps_from_there(tmp_path):
    run = tmp_path / "run"
    with SummaryWriter(str(run), filename_suffix=".a") as writer:
        for step in range(10):
            writer.add_scalar("loss", float(step), step)
    with SummaryWriter(str(run), filename_suffix=".b") as writer:
        for step in range(5, 8):
            writer.add_scalar("loss", 100.0 + step, step)
    assert scalars(load(run), "loss") == [[s, float(s)] for s in range(5)] + [[s, 100.0 + s] for s in range(5, 8)]


def test_steps_going_back_within_one_file_keep_the_later_steps(tmp_path):
    with SummaryWriter(str(tmp_path)) as writer:
        for step in (0, 1, 2, 3, 1):
            writer.add_scalar("loss", float(step) + (10 if step == 1 and writer else 0), step)
    assert [step for step, _ in scalars(load(tmp_path), "loss")] == [0, 1, 2, 3]


def test_session_start_purges_at_its_step_stored_samples_too(tmp_path):
    """The START arrives in a later load than the samples it purges."""
    path = tmp_path / "events.out.tfevents.1.host"

    def event(**fields) -> bytes:
        return frame(tb_pb.Event(wall_time=1.0, **fields).SerializeToString())

    def scalar(step: int, value: float) -> bytes:
        summary = tb_pb.Summary(value=[tb_pb.Summary.Value(tag="loss", simple_value=value)])
        return event(step=step, summary=summary)

    path.write_bytes(event(file_version="brain.Event:2") + b"".join(scalar(s, s) for s in range(6)))
    loader = load(tmp_path)
    assert [s for s, _ in scalars(loader, "loss")] == list(range(6))
    start = event(step=3, session_log=tb_pb.SessionLog(status=tb_pb.SessionLog.START))
    with path.open("ab") as stream:
        stream.write(start + scalar(4, 40.0))
    loader.load()
    assert scalars(loader, "loss") == [[0, 0.0], [1, 1.0], [2, 2.0], [4, 40.0]]


def test_rotated_files_are_read_in_name_order(tmp_path):
    for index, suffix in enumerate((".2", ".1", ".3")):  # written out of name order
        with SummaryWriter(str(tmp_path), filename_suffix=suffix) as writer:
            writer.add_scalar("loss", float(index), int(suffix[1:]))
    # One creation second in every name (a slow machine may cross a second between the writers),
    # so the names differ only in their suffix.
    for path in list(tmp_path.iterdir()):
        path.rename(tmp_path / f"events.out.tfevents.1700000000.host{path.name[-2:]}")
    names = naming.sort_tfevents_files(p.name for p in tmp_path.iterdir())
    assert [name[-2:] for name in names] == [".1", ".2", ".3"]
    assert scalars(load(tmp_path), "loss") == [[1, 1.0], [2, 0.0], [3, 2.0]]


def test_a_live_run_is_read_as_it_grows(tmp_path):
    writer = SummaryWriter(str(tmp_path), flush_secs=0.05)
    loader = JobLoader(str(tmp_path))
    for step in range(3):
        writer.add_scalar("loss", float(step), step)
        # tensorboardX writes from a thread of its own, flushing every flush_secs: the bytes come later
        deadline = time.monotonic() + 10
        while loader.data.samples(PluginName.SCALAR, "loss") is None or len(scalars(loader, "loss")) <= step:
            assert time.monotonic() < deadline, "the written step never came"
            time.sleep(0.02)
            loader.load()
        assert scalars(loader, "loss") == [[s, float(s)] for s in range(step + 1)]
        assert loader.is_integrity
    writer.close()


# -- half-written and damaged records ---------------------------------------------------------------


def test_a_half_written_last_record_waits_for_its_bytes(tmp_path):
    source = next((TORCH / "exp" / "seed2").iterdir())
    data = source.read_bytes()
    target = tmp_path / source.name
    target.write_bytes(data[:-7])
    loader = load(tmp_path)
    assert loader.is_integrity and loader.corrupt_records == 0
    before = scalars(loader, "train/loss")
    assert before == EXPECTED["./exp/seed2"]["scalars"]["train/loss"][:-1]
    with target.open("ab") as stream:
        stream.write(data[-7:])
    loader.load()
    assert scalars(loader, "train/loss") == EXPECTED["./exp/seed2"]["scalars"]["train/loss"]
    assert loader.is_integrity


def test_damaged_records_are_skipped_and_counted(tmp_path):
    source = next((TORCH / "exp" / "seed2").iterdir())
    data = bytearray(source.read_bytes())
    offsets, pos = [], 0
    while pos < len(data):
        offsets.append(pos)
        pos += 16 + struct.unpack_from("<Q", data, pos)[0]
    data[offsets[3] + 14] ^= 0xFF  # a payload byte of the third scalar record (the first is file_version)
    (tmp_path / source.name).write_bytes(bytes(data))
    loader = load(tmp_path)
    expected = EXPECTED["./exp/seed2"]["scalars"]["train/loss"]
    assert scalars(loader, "train/loss") == expected[:2] + expected[3:]
    assert loader.corrupt_records == 1 and not loader.is_integrity


def test_undecodable_payload_is_dropped_and_counted(tmp_path):
    good = tb_pb.Event(step=1, summary=tb_pb.Summary(value=[tb_pb.Summary.Value(tag="x", simple_value=2.0)]))
    (tmp_path / "events.out.tfevents.5.h").write_bytes(frame(b"\xff\xff\xff") + frame(good.SerializeToString()))
    loader = load(tmp_path)
    assert scalars(loader, "x") == [[1, 2.0]]
    # its checksum holds, but it is no event: skipped as damaged, and said so
    assert loader.corrupt_records == 1 and not loader.is_integrity


# -- the tensor forms and the metadata a tag's first value carries ------------------------------------


def tensor_value(tag: str, plugin: str, array: np.ndarray, dtype: int, packed: bool = True):
    tensor = tb_pb.TensorProto(dtype=dtype)
    for size in array.shape:
        tensor.tensor_shape.dim.add(size=size)
    if packed:
        tensor.tensor_content = array.astype("<" + array.dtype.str[1:]).tobytes()
    elif dtype == tb_pb.DT_FLOAT:
        tensor.float_val.extend(array.reshape(-1).tolist())
    else:
        tensor.double_val.extend(array.reshape(-1).tolist())
    value = tb_pb.Summary.Value(tag=tag, tensor=tensor)
    if plugin:
        value.metadata.plugin_data.plugin_name = plugin
    return value


def decode(*values_per_step):
    decoder = TensorBoardDecoder()
    payloads = [
        tb_pb.Event(step=step, summary=tb_pb.Summary(value=values)).SerializeToString()
        for step, values in enumerate(values_per_step)
    ]
    from mindinsight.ingest.event_decoder import DecodedBatch

    return decoder.decode_payloads(payloads, DecodedBatch()).finish().series


def test_tensor_scalars_remember_the_plugin_of_the_first_value():
    """TF2 writes the metadata with a tag's first value only."""
    series = decode(
        [tensor_value("acc", "scalars", np.array(0.5, np.float32), tb_pb.DT_FLOAT)],
        [tensor_value("acc", "", np.array(0.75, np.float64), tb_pb.DT_DOUBLE)],
        [tensor_value("acc", "", np.array([0.875], np.float32), tb_pb.DT_FLOAT, packed=False)],
    )
    columns = series[(PluginName.SCALAR, "acc")]
    assert columns["step"].tolist() == [0, 1, 2] and columns["value"].tolist() == [0.5, 0.75, 0.875]


def test_tensor_histogram_k_by_3():
    table = np.array([[-1.0, 0.0, 3.0], [0.0, 2.0, 5.0]])
    series = decode([tensor_value("w", "histograms", table, tb_pb.DT_DOUBLE)])
    sample = series[(PluginName.HISTOGRAM, "w")]["histogram"][0]
    assert sample.buckets.tolist() == [[-1.0, 1.0, 3.0], [0.0, 2.0, 5.0]]
    assert (sample.min, sample.max, sample.count) == (-1.0, 2.0, 8)


def test_histogram_proto_edges_and_many_buckets_merge_keeping_counts():
    count = limits.MAX_HISTOGRAM_INPUT_BUCKETS * 3 + 1
    histo = tb_pb.HistogramProto(
        min=0.0, max=float(count), bucket_limit=np.arange(1.0, count + 1), bucket=[1.0] * count
    )
    series = decode([tb_pb.Summary.Value(tag="h", histo=histo)])
    sample = series[(PluginName.HISTOGRAM, "h")]["histogram"][0]
    assert len(sample.buckets) <= limits.MAX_HISTOGRAM_INPUT_BUCKETS and sample.count == count
    assert sample.buckets[0, 0] == 0.0 and sample.buckets[-1, 0] + sample.buckets[-1, 1] == count


def test_a_histogram_proto_is_decoded_on_first_use():
    """Kept as its bytes at ingest (most samples never survive the reservoir), with the size its
    buckets will have; read, it gives the buckets the writer's histogram holds."""
    from tensorboardX.summary import histogram as tensorboardx_histogram

    values = np.random.default_rng(1).normal(size=1000)
    value = tb_pb.Summary.FromString(tensorboardx_histogram("h", values, "auto").SerializeToString()).value[0]
    series = decode([value])
    sample = series[(PluginName.HISTOGRAM, "h")]["histogram"][0]
    size = series[(PluginName.HISTOGRAM, "h")]["nbytes"][0]
    assert sample._buckets is None  # not decoded yet
    assert sample.count == 1000 and (sample.min, sample.max) == (values.min(), values.max())
    assert size == sample.buckets.nbytes + 16
    rights = sample.buckets[:, 0] + sample.buckets[:, 1]
    assert rights[:-1].tolist() == list(value.histo.bucket_limit)[:-1]
    # A second request thread may decode it meanwhile (both saw no buckets): the same answer.
    buckets = sample.buckets
    sample._decode()
    assert np.array_equal(sample.buckets, buckets)
    mismatched = tb_pb.HistogramProto(min=0.0, max=1.0, bucket_limit=[0.5, 1.0], bucket=[3.0])
    assert decode([tb_pb.Summary.Value(tag="bad", histo=mismatched)]) == {}


def test_tensor_forms_that_do_not_fit_are_dropped_not_served():
    series = decode(
        [
            tensor_value("s", "scalars", np.zeros(0, np.float32), tb_pb.DT_FLOAT),  # empty
            tensor_value("h", "histograms", np.zeros((2, 2)), tb_pb.DT_DOUBLE),  # not [k, 3]
            tensor_value("t", "text", np.zeros(1), tb_pb.DT_DOUBLE),  # a plugin not shown (yet)
        ]
    )
    assert series == {}


def test_every_tensorboard_decode_belongs_to_a_registered_kind():
    from mindinsight.ingest.kinds import TB_BY_EVENT_FIELD, TB_BY_TENSOR_PLUGIN, TB_BY_VALUE_FIELD

    assert set(TB_BY_VALUE_FIELD) == {"simple_value", "histo", "image"}
    assert set(TB_BY_TENSOR_PLUGIN) == {"scalars", "histograms", "images", "text"}
    assert set(TB_BY_EVENT_FIELD) == {"graph_def"}
    found = (*TB_BY_VALUE_FIELD.values(), *TB_BY_TENSOR_PLUGIN.values(), *TB_BY_EVENT_FIELD.values())
    assert all(KINDS[kind.plugin] is kind for kind, _ in found)


# -- the scalar fast path gives what the full parse gives ---------------------------------------------


def segments_of(path: Path):
    from mindinsight.format.records import RecordReader

    return RecordReader(str(path)).read(final=True).segments


def same_batches(fast, full) -> bool:
    if list(fast.series) != list(full.series) or fast.purge_from != full.purge_from:
        return False
    for key, columns in full.series.items():
        if sorted(columns) != sorted(fast.series[key]):
            return False
        for name, column in columns.items():
            if name == "value" or column.dtype != object:
                if not np.array_equal(np.asarray(column), np.asarray(fast.series[key][name]), equal_nan=True):
                    return False
            elif list(column) != list(fast.series[key][name]):
                return False
    return True


def many_scalars_with(*middle: bytes) -> bytes:
    def scalar(step: int, value: float, tag: str = "loss") -> bytes:
        summary = tb_pb.Summary(value=[tb_pb.Summary.Value(tag=tag, simple_value=value)])
        return frame(tb_pb.Event(wall_time=1.0 + step, step=step, summary=summary).SerializeToString())

    head = frame(tb_pb.Event(file_version="brain.Event:2").SerializeToString())
    first = b"".join(scalar(step, step / 3) for step in range(1, 40))
    last = b"".join(scalar(step, -step) for step in range(20, 60)) + scalar(70, 1.0, tag="")
    return head + first + b"".join(middle) + last


@pytest.mark.parametrize(
    "middle",
    [
        (),
        (frame(tb_pb.Event(file_version="brain.Event:2").SerializeToString()),),  # a second session
        (frame(tb_pb.Event(step=30, session_log=tb_pb.SessionLog(status=tb_pb.SessionLog.START)).SerializeToString()),),
    ],
    ids=["one session", "file_version", "session start"],
)
def test_fast_path_equals_the_full_parse(tmp_path, middle):
    path = tmp_path / "events.out.tfevents.1.h"
    path.write_bytes(many_scalars_with(*middle))
    from mindinsight.ingest import fast_scalars

    segment = segments_of(path)[0]
    taken = fast_scalars.match_segment(*segment[:3], fast_scalars.TENSORBOARD_SCALAR_KEY)[1]
    assert taken.sum() > 70  # the fast path did decode them
    fast = TensorBoardDecoder().decode_segments(segments_of(path), fast=True)
    full = TensorBoardDecoder().decode_segments(segments_of(path), fast=False)
    assert same_batches(fast, full)
    assert len(fast.series[(PluginName.SCALAR, "loss")]["step"]) > 40


@pytest.mark.parametrize("path", sorted(TORCH.rglob("*tfevents*")), ids=lambda p: p.parent.name + "/" + p.name[-12:])
def test_fast_path_equals_the_full_parse_on_torch_logs(path):
    fast = TensorBoardDecoder().decode_segments(segments_of(path), fast=True)
    full = TensorBoardDecoder().decode_segments(segments_of(path), fast=False)
    assert same_batches(fast, full)
