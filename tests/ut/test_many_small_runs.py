"""Many small runs of one writer (issue #20, 2,000 runs x 500 events): what each run costs once
is shared between runs, with results equal to reading each run on its own."""

import os

import google_crc32c
import numpy as np
import pytest
from tensorboardX import SummaryWriter

from mindinsight.format import crc
from mindinsight.format.records import RecordReader
from mindinsight.ingest import fast_scalars
from mindinsight.ingest.full_scalars import FullScalarBudget, JobScalars
from mindinsight.ingest.reservoir import Reservoir

TAG = "train/loss"


def _write_run(path, steps: int, first_step: int = 0) -> str:
    writer = SummaryWriter(str(path), flush_secs=120)
    for step in range(first_step, first_step + steps):
        writer.add_scalar(TAG, 1.0 / (step + 1), step)
    writer.close()
    (name,) = os.listdir(path)
    return os.path.join(path, name)


def _payloads(path: str) -> list[bytes]:
    return RecordReader(path).read(final=True).payloads


def test_one_writer_s_layout_is_parsed_once_for_every_run(tmp_path):
    first = _payloads(_write_run(tmp_path / "run1", 200))
    second = _payloads(_write_run(tmp_path / "run2", 200))
    key = fast_scalars.TENSORBOARD_SCALAR_KEY
    for index in (5, 150):  # steps below 128 and above: a one- and a two-byte step varint
        template = fast_scalars.template_for(first[index], key)
        assert template is not None
        assert fast_scalars.template_for(second[index], key) is template
        assert fast_scalars.template_for(second[index + 10], key) is template
    assert fast_scalars.template_for(second[5], key) is not fast_scalars.template_for(second[150], key)


def _same_template(got, want) -> bool:
    if got is None or want is None:
        return got is want
    return (
        (got.length, got.wall_time, got.step, got.step_bytes, got.tags)
        == (want.length, want.wall_time, want.step, want.step_bytes, want.tags)
        and np.array_equal(got.fixed, want.fixed)
        and np.array_equal(got.float_offsets, want.float_offsets)
        and np.array_equal(got.reference[got.fixed], want.reference[want.fixed])
    )


def test_a_remembered_layout_is_taken_only_where_the_parse_gives_it(tmp_path):
    # Steps around every varint boundary, tags of equal length, other kinds of events between.
    path = tmp_path / "mixed"
    writer = SummaryWriter(str(path), flush_secs=120)
    for step in (0, 1, 127, 128, 129, 16383, 16384, 2**21, 2**35):
        writer.add_scalar("a/loss", 0.5, step)
        writer.add_scalar("b/loss", 0.25, step)
        writer.add_scalar("a/loss", float("nan"), step)
        writer.add_text("note", "hello", step)
        writer.add_histogram("weights", np.arange(10.0), step)
    writer.close()
    (name,) = os.listdir(path)
    payloads = _payloads(os.path.join(path, name))
    # Each payload also with one fixed byte changed (the tag's last): a remembered layout must not fit.
    payloads += [payload[:-6] + bytes([payload[-6] ^ 1]) + payload[-5:] for payload in payloads]
    for key in (fast_scalars.TENSORBOARD_SCALAR_KEY, fast_scalars.MINDSPORE_SCALAR_KEY):
        for payload in payloads + payloads[::-1]:  # each met again after the others
            assert _same_template(fast_scalars.template_for(payload, key), fast_scalars.parse_template(payload, key))
    assert any(fast_scalars.parse_template(p, fast_scalars.TENSORBOARD_SCALAR_KEY) for p in payloads)


@pytest.mark.parametrize("count", [2, 300, 1024, 1025, 3000])
def test_rows_crc_equals_the_library_for_few_and_many_rows(count):
    rng = np.random.default_rng(count)
    length, stride = 41, 57
    data = bytearray(np.tile(rng.integers(0, 256, size=stride, dtype=np.uint8), count).tobytes())
    for row in range(count):
        for position in (1, 2, 3, 9, 10, 30, 31, 32, 33):
            data[row * stride + position] = int(rng.integers(0, 256))
    buffer = bytes(data)
    got = crc.rows_crc32c(buffer, 0, stride, count, length)
    want = [google_crc32c.value(buffer[row * stride : row * stride + length]) for row in range(count)]
    assert got.tolist() == want


def test_a_reservoir_thins_as_if_its_generator_were_made_up_front():
    def thinned(batches):
        reservoir = Reservoir(10, {"value": np.float32})
        for steps in batches:
            reservoir.add_batch(
                {"step": steps, "wall_time": steps * 1.0, "file_ts": np.zeros_like(steps), "value": steps * 0.5}
            )
        return reservoir.samples()["step"].tolist()

    steps = np.arange(1, 1001, dtype=np.int64)
    assert thinned([steps]) == thinned([steps[:5], steps[5:]]) == thinned([steps[:500], steps[500:]])
    saved = Reservoir(10, {"value": np.float32})
    saved.add_batch(
        {"step": steps[:8], "wall_time": steps[:8] * 1.0, "file_ts": steps[:8] * 0, "value": steps[:8] * 0.5}
    )
    meta, arrays = saved.state()
    restored = Reservoir(10, {"value": np.float32})
    restored.restore(meta, arrays)
    for reservoir in (saved, restored):
        reservoir.add_batch(
            {"step": steps[8:], "wall_time": steps[8:] * 1.0, "file_ts": steps[8:] * 0, "value": steps[8:] * 0.5}
        )
    assert saved.samples()["step"].tolist() == restored.samples()["step"].tolist() == thinned([steps])


def test_the_memory_bound_of_full_points_counts_every_job():
    budget = FullScalarBudget(max_bytes=10_000)
    jobs = [JobScalars(budget) for _ in range(5)]
    steps = np.arange(100, dtype=np.int64)
    columns = {"step": steps, "wall_time": steps * 1.0, "file_ts": steps * 0, "value": steps * 0.5}
    for job in jobs[:3]:
        job.add(TAG, columns)
    assert budget.total == sum(budget.held(job) for job in jobs) > 0
    del jobs[0]  # a job let go is no longer counted
    assert budget.total == sum(budget.held(job) for job in jobs)
    later = {name: column + (1000 if name == "step" else 0) for name, column in columns.items()}
    for job in jobs:  # past the bound the least recently used go
        job.add(TAG, later)
    assert budget.total == sum(budget.held(job) for job in jobs) <= budget.max_bytes
    assert any(job.dropped for job in jobs)
