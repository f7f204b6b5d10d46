"""The scalar fast path gives exactly what the full protobuf parse gives.

Every fixture and many generated logs (NaN/Inf, restarts, corrupt records, partial tails,
odd shapes) are decoded both ways: per chunk (``decode_segments`` against
``decode_payloads``) and through the whole loader (tags, order, every sample column).
"""

import os
import random
import struct

import numpy as np
import pytest

from mindinsight.conf.plugins import PluginName
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.format.records import RecordReader, frame
from mindinsight.ingest import fast_scalars
from mindinsight.ingest.event_decoder import decode_payloads, decode_segments
from mindinsight.ingest.kinds.histogram import HistogramSample, histogram_sample
from mindinsight.ingest.loader import JobLoader
from mindinsight.summary.writer import histogram_proto, image_proto
from tests.ut.conftest import FIXTURES

FIXTURE_JOBS = sorted(
    str(path.parent.relative_to(FIXTURES))
    for path in FIXTURES.rglob("*")
    if path.is_file() and (".summary." in path.name or path.suffix == ".pb")
)
FIXTURE_JOBS = sorted(set(FIXTURE_JOBS))


# -- helpers ------------------------------------------------------------------------------


def load_fully(job_dir, fast: bool, chunk: int) -> JobLoader:
    loader = JobLoader(str(job_dir), fast_path=fast)
    while not loader.load(chunk).done:
        pass
    return loader


def same_object(a, b) -> bool:
    if hasattr(a, "SerializeToString"):
        return a.SerializeToString() == b.SerializeToString()
    if hasattr(a, "proto") and hasattr(a, "dims"):  # TensorSample
        return (a.dims, a.data_type, a.too_large) == (b.dims, b.data_type, b.too_large) and (
            a.proto is None and b.proto is None or a.proto.SerializeToString() == b.proto.SerializeToString()
        )
    return a == b


def assert_same_columns(x: dict, y: dict, where) -> None:
    assert list(x) == list(y), where
    for name in x:
        a, b = np.asarray(x[name]), np.asarray(y[name])
        assert a.dtype == b.dtype and a.shape == b.shape, (where, name, a.dtype, b.dtype)
        if a.dtype == object:
            assert all(same_object(u, v) for u, v in zip(a, b)), (where, name)
        elif a.dtype.kind == "f":  # bit for bit, NaN payloads included
            assert np.array_equal(a.view(f"u{a.itemsize}"), b.view(f"u{b.itemsize}")), (where, name)
        else:
            assert np.array_equal(a, b), (where, name)


def assert_same_jobs(fast: JobLoader, slow: JobLoader) -> None:
    assert fast.data.all_tags() == slow.data.all_tags()
    assert (fast.corrupt_records, fast.is_integrity) == (slow.corrupt_records, slow.is_integrity)
    for plugin in PluginName:
        for tag in fast.data.tags(plugin):
            assert_same_columns(fast.data.samples(plugin, tag), slow.data.samples(plugin, tag), (plugin, tag))


def read_segments(path, chunk=1 << 30):
    reader = RecordReader(str(path), chunk_bytes=chunk)
    segments = []
    while True:
        batch = reader.read()
        segments.append(batch.segments)
        if batch.end_of_data:
            return segments


def assert_same_batches(path, chunk=1 << 30) -> int:
    """Per read: fast and full decode are identical; return how many records the fast path took."""
    taken = 0
    for segments in read_segments(path, chunk):
        fast = decode_segments(segments, fast=True)
        slow = decode_payloads([p for s in segments for p in s.payloads()]).finish()
        assert list(fast.series) == list(slow.series)
        for key in fast.series:
            assert_same_columns(fast.series[key], slow.series[key], key)
        assert fast.undecodable == slow.undecodable
        assert {p: [(s, w) for s, w, _ in v] for p, v in fast.events.items()} == {
            p: [(s, w) for s, w, _ in v] for p, v in slow.events.items()
        }
        for segment in segments:
            taken += int(fast_scalars.match_segment(*segment[:3])[1].sum())
    return taken


def scalar_event(step, values: dict, wall_time=None) -> summary_pb.Event:
    event = summary_pb.Event(wall_time=1.7e9 + step if wall_time is None else wall_time, step=step)
    for tag, value in values.items():
        event.summary.value.add(tag=tag, scalar_value=value)
    return event


def write_events(path, events) -> None:
    with open(path, "ab") as stream:
        for event in events:
            stream.write(frame(event if isinstance(event, bytes) else event.SerializeToString()))


# -- fixtures -----------------------------------------------------------------------------


@pytest.mark.parametrize("job", FIXTURE_JOBS)
@pytest.mark.parametrize("chunk", [48 * 1024, 64 << 20])
def test_fixture_fast_equals_full_parse(fixture_job, job, chunk):
    job_dir = fixture_job(job)
    assert_same_jobs(load_fully(job_dir, True, chunk), load_fully(job_dir, False, chunk))


@pytest.mark.parametrize("job", FIXTURE_JOBS)
def test_fixture_batches_equal(job):
    for path in (FIXTURES / job).glob("*summary*"):
        if not path.name.endswith("_lineage"):
            assert_same_batches(path)


# -- generated logs -------------------------------------------------------------------------


def test_scalar_log_takes_the_fast_path_and_matches(tmp_path):
    rng = np.random.default_rng(5)
    tags = [f"train/tag_{index:02d}" for index in range(20)]
    special = [float("nan"), float("inf"), float("-inf"), -0.0, 3.4e38, 1e-45]
    events = []
    for step in range(1, 5_001):
        row = rng.standard_normal(len(tags)).astype(np.float32).tolist()
        if step % 97 == 0:
            row[step % len(tags)] = special[step % len(special)]
        events.append(scalar_event(step, dict(zip(tags, row))))
    path = tmp_path / "events.summary.100"
    write_events(path, events)
    # a NaN with a payload and a signalling NaN, raw
    raw = scalar_event(5_001, dict(zip(tags, [0.0] * len(tags)))).SerializeToString()
    for bits in (0x7FC12345, 0x7F812345, 0xFFC00001):
        raw = raw.replace(struct.pack("<f", 0.0), struct.pack("<I", bits), 1)
    write_events(path, [raw] * 5)
    assert assert_same_batches(path, chunk=64 * 1024) >= 4_990
    assert_same_jobs(load_fully(tmp_path, True, 64 * 1024), load_fully(tmp_path, False, 64 * 1024))
    samples = load_fully(tmp_path, True, 1 << 20).data.samples(PluginName.SCALAR, "train/tag_00/scalar")
    assert len(samples["step"]) == 1000 and samples["step"][-1] == 5_001


@pytest.fixture(params=["all words at once", "a word at a time"])
def either_match(request, monkeypatch):
    """Templates compared with few records' way (all words in one step) or many records' way."""
    if request.param == "a word at a time":
        monkeypatch.setattr(fast_scalars, "_FEW_WORDS", 0)


@pytest.mark.parametrize(
    "steps",
    [[126, 127, 128, 129], [16_382, 16_383, 16_384, 16_385], [2**40, 2**40 + 1, 2**56, 2**62 + 5], [0, 0, 1, 1]],
)
def test_step_varint_lengths(tmp_path, either_match, steps):
    events = [scalar_event(step, {"a": float(i), "b": -float(i)}) for i, step in enumerate(steps * 4)]
    path = tmp_path / "events.summary.1"
    write_events(path, events)
    assert_same_batches(path)
    assert_same_jobs(load_fully(tmp_path, True, 1 << 20), load_fully(tmp_path, False, 1 << 20))


def test_negative_steps_and_missing_fields(tmp_path, either_match):
    events = []
    for index in range(10):
        events.append(scalar_event(-index, {"neg": 1.0}))  # 10-byte varint: full parse
        events.append(summary_pb.Event(step=index, summary=scalar_event(0, {"nowall": 2.0}).summary))
        events.append(summary_pb.Event(wall_time=5.0, summary=scalar_event(0, {"nostep": 3.0}).summary))
    path = tmp_path / "events.summary.1"
    write_events(path, events)
    assert_same_batches(path)
    assert_same_jobs(load_fully(tmp_path, True, 1 << 20), load_fully(tmp_path, False, 1 << 20))


def test_restarts_in_one_file_and_across_files(tmp_path):
    first = [scalar_event(step, {"loss": step * 0.1, "acc": step * 0.01}) for step in range(1, 3001)]
    first += [scalar_event(step, {"loss": -1.0, "acc": -2.0}) for step in range(1500, 2500)]  # same file
    write_events(tmp_path / "events.summary.100", first)
    write_events(
        tmp_path / "events.summary.200", [scalar_event(step, {"loss": 5.0, "acc": 6.0}) for step in range(2000, 4000)]
    )
    fast, slow = load_fully(tmp_path, True, 64 * 1024), load_fully(tmp_path, False, 64 * 1024)
    assert_same_jobs(fast, slow)
    steps = fast.data.samples(PluginName.SCALAR, "loss/scalar")["step"]
    assert steps[-1] == 3999 and np.all(np.diff(steps) > 0)


def test_corrupt_records_and_partial_tail(tmp_path):
    path = tmp_path / "events.summary.100"
    write_events(path, [scalar_event(step, {"x": float(step), "y": 1.0}) for step in range(1, 2001)])
    data = bytearray(path.read_bytes())
    record = len(data) // 2000
    for position in (record * 10 + 30, record * 500 + 3, record * 1200 + record - 2, record * 1500 + 20):
        data[position] ^= 0x5A  # payload, header and footer bytes
    tail = frame(scalar_event(2001, {"x": 1.0, "y": 1.0}).SerializeToString())
    path.write_bytes(bytes(data) + tail[:-7])
    fast, slow = load_fully(tmp_path, True, 32 * 1024), load_fully(tmp_path, False, 32 * 1024)
    assert_same_jobs(fast, slow)
    assert fast.corrupt_records >= 3 and not fast.is_integrity


def test_mixed_shapes_interleaved(tmp_path):
    """Scalar events between image/histogram events, changing tag sets, duplicate tags."""
    events = []
    for step in range(1, 1201):
        values = {f"s{index}": step * 0.5 + index for index in range(5)}
        if step % 10 == 0:
            values["hist"] = histogram_proto(np.arange(step % 17 + 3), bins=5)
        if step % 25 == 0:
            values["img"] = image_proto(np.full((4, 4, 3), step % 255, dtype=np.uint8))
        event = summary_pb.Event(wall_time=1e9 + step, step=step)
        for tag, value in values.items():
            item = event.summary.value.add(tag=tag)
            if isinstance(value, float):
                item.scalar_value = value
            elif isinstance(value, summary_pb.Summary.Image):
                item.image.CopyFrom(value)
            else:
                item.histogram.CopyFrom(value)
        if step % 7 == 0:
            event.summary.value.add(tag="s1", scalar_value=-step)  # a tag twice in one event
        if 400 < step < 600:
            event.summary.value.add(tag=f"late{step % 3}", scalar_value=1.5)
        events.append(event)
        if step % 50 == 0:
            events.append(summary_pb.Event(wall_time=2.0, step=step, version="x"))
    path = tmp_path / "events.summary.100"
    write_events(path, events)
    for chunk in (8 * 1024, 100 * 1024, 1 << 30):
        assert_same_batches(path, chunk)
    assert_same_jobs(load_fully(tmp_path, True, 40 * 1024), load_fully(tmp_path, False, 40 * 1024))


def test_odd_wire_shapes_fall_back_identically(tmp_path):
    base = scalar_event(7, {"a": 1.0, "b": 2.0}).SerializeToString()
    value = summary_pb.Summary.Value(tag="a", scalar_value=4.0).SerializeToString()
    odd = [
        base + b"\x1a\x01v",  # oneof switched to version afterwards
        b"\x10\x07" + base,  # step before wall time, then again
        base + b"\x98\x06\x01",  # unknown varint field 99
        b"\x09"
        + struct.pack("<d", 3.0)
        + b"\x2a"
        + bytes([len(value) + 2 + 3])
        + b"\x0a"
        + bytes([len(value) + 3])
        + value
        + b"\x20\x01"
        + b"\x0a\x01\x00",  # unknown field inside Value
        b"\x09" + struct.pack("<d", 3.0) + b"\x2a\x00",  # empty summary
        b"\x09" + struct.pack("<d", 3.0) + b"\x2a\x09\x0a\x07\x0a\x02\xff\xfe\x1d\x00\x00",  # bad UTF-8, cut
        b"\x09" + struct.pack("<d", 3.0) + b"\x2a\x0b\x0a\x09\x0a\x02\xc3\xa9\x1d\x00\x00\x80\x3f",  # 'é'
        b"\xff\xff\xff not protobuf",
    ]
    events = []
    for repeat in range(8):
        for payload in odd:
            events.append(payload)
            events.append(scalar_event(repeat, {"a": float(repeat), "b": 2.0}))
    path = tmp_path / "events.summary.1"
    write_events(path, events)
    assert_same_batches(path)
    assert_same_jobs(load_fully(tmp_path, True, 1 << 20), load_fully(tmp_path, False, 1 << 20))


def test_same_length_different_layout_is_not_taken_for_the_template(tmp_path, either_match):
    """Equal length, different layout: step 1 byte + tag 'ab' vs step 2 bytes + tag 'a'."""
    short = [scalar_event(step, {"ab": float(step)}, wall_time=1.0) for step in range(1, 100)]
    long = [scalar_event(step, {"a": float(step)}, wall_time=1.0) for step in range(200, 300)]
    assert len(short[0].SerializeToString()) == len(long[0].SerializeToString())
    mixed = [event for pair in zip(short, long) for event in pair]
    path = tmp_path / "events.summary.1"
    write_events(path, mixed)
    assert assert_same_batches(path) == len(mixed)  # both shapes decoded by templates
    fast = load_fully(tmp_path, True, 1 << 20)
    assert_same_jobs(fast, load_fully(tmp_path, False, 1 << 20))
    assert fast.data.samples(PluginName.SCALAR, "a/scalar")["step"][0] == 200
    assert fast.data.samples(PluginName.SCALAR, "ab/scalar")["step"][-1] == 99


def test_random_logs(tmp_path, either_match):
    """Seeded random mixtures of every shape above, many chunk sizes."""
    for seed in range(6):
        rng = random.Random(seed)
        job = tmp_path / f"job{seed}"
        job.mkdir()
        tag_sets = [[f"t{rng.randrange(400)}" for _ in range(rng.randrange(1, 6))] for _ in range(4)]
        events, step = [], 0
        for _ in range(rng.randrange(300, 900)):
            step = step + 1 if rng.random() > 0.03 else max(0, step - rng.randrange(50))
            tags = rng.choice(tag_sets)
            values = {tag: rng.choice([rng.uniform(-1, 1), float("nan"), float("inf")]) for tag in tags}
            event = scalar_event(step, values, wall_time=rng.choice([1.0, 1e9 + step]))
            if rng.random() < 0.05:
                event.summary.value.add(tag="h").histogram.CopyFrom(histogram_proto([1.0, 2.0, float(step)]))
            events.append(event)
        write_events(job / "events.summary.100", events[: len(events) // 2])
        write_events(job / "events.summary.200", events[len(events) // 2 :])
        data = bytearray((job / "events.summary.200").read_bytes())
        data[rng.randrange(len(data))] ^= 0xFF
        (job / "events.summary.200").write_bytes(bytes(data))
        chunk = rng.choice([4096, 30_000, 1 << 20])
        assert_same_jobs(load_fully(job, True, chunk), load_fully(job, False, chunk))


def test_tag_admission_order_matches_over_the_tag_limit(tmp_path):
    """Over 300 tags: which tags survive depends on first-appearance order; both paths agree."""
    events = []
    for step in range(1, 41):
        group = step % 4
        events.append(scalar_event(step, {f"g{group}_{index:03d}": 1.0 for index in range(90)}))
        if step % 5 == 0:
            event = scalar_event(step, {f"x{step}": 2.0})
            event.summary.value.add(tag="hist").histogram.CopyFrom(histogram_proto([1.0, 2.0]))
            events.append(event)
    path = tmp_path / "events.summary.1"
    write_events(path, events)
    fast, slow = load_fully(tmp_path, True, 1 << 20), load_fully(tmp_path, False, 1 << 20)
    assert_same_jobs(fast, slow)
    assert sum(len(tags) for tags in fast.data.all_tags().values()) == 300


# -- pieces -------------------------------------------------------------------------------


def test_template_parser_accepts_only_the_scalar_shape():
    template = fast_scalars.parse_template(scalar_event(300, {"loss": 1.0, "acc": 0.5}).SerializeToString())
    assert template.tags == ["loss", "acc"] and template.step_bytes == 2 and template.wall_time == 1
    with_image = summary_pb.Event(wall_time=1.0, step=1)
    with_image.summary.value.add(tag="i").image.CopyFrom(image_proto(np.zeros((2, 2, 3), dtype=np.uint8)))
    for payload in (
        with_image.SerializeToString(),
        summary_pb.Event(wall_time=1.0, version="v").SerializeToString(),
        scalar_event(-1, {"a": 1.0}).SerializeToString(),
        scalar_event(1, {"a": 1.0}).SerializeToString() + b"\x18\x01",
    ):
        assert fast_scalars.parse_template(payload) is None


def test_lazy_histogram_equals_eager_decode():
    message = histogram_proto(np.concatenate([np.arange(100.0), [np.nan, np.inf]]), bins=7)
    message.max = float("inf")
    lazy = HistogramSample.from_serialized(message.SerializeToString())
    eager = histogram_sample(message)
    assert lazy == eager and lazy.max == 0.0 and lazy.count == 100
    assert np.all(np.diff(lazy.buckets[:, 0]) > 0)


def test_payloads_view_of_segments_matches_the_file(tmp_path):
    payloads = [os.urandom(n) for n in (5, 5, 5, 5, 5, 9, 5, 5, 300, 5)]
    path = tmp_path / "x.summary.1"
    path.write_bytes(b"".join(frame(p) for p in payloads))
    batch = RecordReader(str(path)).read()
    assert batch.payloads == payloads and batch.count == len(payloads)
