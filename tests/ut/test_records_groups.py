"""Records in a repeating group of lengths, as a writer of one event per tag and step interleaves
several tags: framed a group at a time, read in file order, damage skipped and counted, and the
fast path's blocks over them; a real tensorboardX log of three tags read back whole."""

import os

import google_crc32c
import numpy as np
import pytest
from tensorboardX import SummaryWriter

from mindinsight.format import records as record_format
from mindinsight.format.records import FOOTER_BYTES, HEADER_BYTES, RecordReader, frame
from mindinsight.ingest.fast_scalars import blocks_of
from mindinsight.ingest.loader import JobLoader
from mindinsight.ingest.tb_decoder import TensorBoardDecoder
from tests.ut.test_records import read_all as read_records
from tests.ut.test_tensorboard_events import same_batches

ROWS = record_format._ROWS_MIN * 3  # repeats of a group long enough to be checked as rows
FEW = record_format._MIN_GROUPS + 1  # repeats checked one record at a time
MAX_PERIOD = record_format._MAX_PERIOD


def interleaved(period: int, groups: int) -> list:
    """``groups`` times one payload per member, member j's payloads ``j % 4 + 1`` bytes longer
    than the shortest (so some members share a length, as tags of one length do)."""
    return [
        b"m%02d" % member + b"-" * (member % 4) + b" step %06d" % group
        for group in range(groups)
        for member in range(period)
    ]


def write(tmp_path, payloads, damage=None) -> str:
    data = bytearray(b"".join(frame(payload) for payload in payloads))
    if damage is not None:
        damage(data)
    path = tmp_path / "events.out.tfevents.1.host"
    path.write_bytes(bytes(data))
    return str(path)


def read_all(path: str, **kwargs):
    payloads, corrupt, _ = read_records(RecordReader(path, **kwargs), final=True)
    return payloads, corrupt


def record_start(payloads, index: int) -> int:
    return sum(HEADER_BYTES + len(payload) + FOOTER_BYTES for payload in payloads[:index])


def runs_per_segment(monkeypatch) -> list:
    """A list that gets the number of runs (``RecordReader._parse``'s) of every segment framed."""
    seen = []
    add_segment = RecordReader._add_segment

    def spy(self, buf, runs, batch, *args):
        seen.append(len(runs))
        return add_segment(self, buf, runs, batch, *args)

    monkeypatch.setattr(RecordReader, "_add_segment", spy)
    return seen


@pytest.mark.parametrize("groups", [FEW, ROWS])
@pytest.mark.parametrize("period", [2, 3, 7, MAX_PERIOD, MAX_PERIOD + 1])
def test_interleaved_records_are_read_in_file_order(tmp_path, period, groups):
    payloads = [b"file version"] + interleaved(period, groups) + [b"last"]
    assert read_all(write(tmp_path, payloads)) == (payloads, 0)
    assert read_all(write(tmp_path, payloads), verify_crc=False) == (payloads, 0)


@pytest.mark.parametrize("chunk", [40, 997, 4096])
def test_any_chunk_size_yields_the_same_interleaved_records(tmp_path, chunk):
    payloads = interleaved(3, ROWS)
    assert read_all(write(tmp_path, payloads), chunk_bytes=chunk) == (payloads, 0)


def test_a_repeating_group_is_framed_at_once(tmp_path, monkeypatch):
    """Not walked record by record: a few runs for the whole group, one per member."""
    seen = runs_per_segment(monkeypatch)
    payloads = interleaved(3, ROWS)
    assert read_all(write(tmp_path, payloads)) == (payloads, 0)
    assert sum(seen) <= 2 * MAX_PERIOD + 3, seen  # the records walked before the group repeats, then 3


def broken_groups(breaks: int, repeats: int = 30) -> list:
    """A group of three members repeated ``repeats`` times (fewer than checked as rows), then a
    longer record (a histogram, say), ``breaks`` times; every other stretch has one member more,
    so the group comes back in another member's turn."""
    members = interleaved(3, (repeats + 1) * breaks)
    payloads, taken = [], 0
    for index in range(breaks):
        count = 3 * repeats + index % 2
        payloads += members[taken : taken + count]
        payloads.append(b"histogram %04d " % index + b"x" * 300)
        taken += count
    return payloads


def test_a_group_broken_by_other_records_is_taken_again_at_once(tmp_path, monkeypatch):
    """After a record of another shape the group is probed again where it comes back (in any
    member's turn), instead of walking two of its periods one record at a time."""
    seen = runs_per_segment(monkeypatch)
    breaks = 20
    payloads = broken_groups(breaks)
    assert read_all(write(tmp_path, payloads)) == (payloads, 0)
    # Two periods walked before the group is first found; per break the other record and the
    # group's three members (in the 3 * 30 records before the next break, whole groups or not).
    assert sum(seen) <= 2 * 3 + 3 + breaks * (1 + 3 + 2), seen


def test_records_of_one_length_between_others_are_checked_in_bulk(tmp_path, monkeypatch):
    """Too few repeats between two breaks for rows each, but many of one length in the chunk:
    their CRCs are computed as gathered rows, not by one call of the C library each."""
    calls = []

    class Counting:
        @staticmethod
        def value(data):
            calls.append(len(data))
            return google_crc32c.value(data)

    monkeypatch.setattr(record_format, "google_crc32c", Counting)
    breaks = 20
    payloads = broken_groups(breaks)
    assert read_all(write(tmp_path, payloads)) == (payloads, 0)
    assert len(calls) <= 2 * breaks, len(calls)  # the breaks' records (and few others) one by one


@pytest.mark.parametrize("member", [0, 1, 2])
def test_a_damaged_record_checked_in_bulk_is_lost_alone(tmp_path, member):
    payloads = broken_groups(10)
    where = 5 * 91 + 3 * 12 + member  # inside the sixth stretch of groups
    assert payloads[where].startswith(b"m")

    def flip(data):
        data[record_start(payloads, where) + HEADER_BYTES + 2] ^= 0x01

    assert read_all(write(tmp_path, payloads, flip)) == (payloads[:where] + payloads[where + 1 :], 1)


@pytest.mark.parametrize("groups", [FEW, ROWS])
@pytest.mark.parametrize("where", [4, 7, -2])
def test_a_damaged_payload_inside_a_group_is_skipped(tmp_path, groups, where):
    payloads = interleaved(3, groups)
    where %= len(payloads)

    def flip(data):
        data[record_start(payloads, where) + HEADER_BYTES + 1] ^= 0x10

    assert read_all(write(tmp_path, payloads, flip)) == (payloads[:where] + payloads[where + 1 :], 1)


@pytest.mark.parametrize("groups", [FEW, ROWS])
def test_a_damaged_header_inside_a_group_ends_it_and_reading_resumes(tmp_path, groups):
    payloads = interleaved(3, groups)
    where = 3 * (groups // 2) + 1

    def lengthen(data):
        data[record_start(payloads, where)] += 1  # its length (and so the length's CRC) is wrong

    assert read_all(write(tmp_path, payloads, lengthen)) == (payloads[:where] + payloads[where + 1 :], 1)


def test_blocks_over_records_of_one_length_equal_their_bytes():
    rng = np.random.default_rng(3)
    buffer = rng.integers(0, 256, size=10_000, dtype=np.uint8).tobytes()
    length = 11
    cases = [
        np.arange(5, 9000, 37),  # every so many bytes: one block over the buffer
        np.arange(5, 600, length + HEADER_BYTES + FOOTER_BYTES),  # back to back
        np.sort(rng.choice(9000, size=300, replace=False)),  # anywhere: gathered
        np.array([17]),
    ]
    for offsets in cases:
        offsets = offsets.astype(np.int64)
        rows = np.concatenate([block.bytes() for _, block in blocks_of(buffer, offsets, length)])
        assert [bytes(row) for row in rows] == [buffer[start : start + length] for start in offsets.tolist()]
    # Equally spaced records are read in place, not copied.
    ((_, block),) = blocks_of(buffer, cases[0].astype(np.int64), length)
    assert block.buffer is buffer and block.stride == 37


@pytest.mark.parametrize("seed", range(40))
def test_random_repeating_groups_with_damage_anywhere(tmp_path, seed):
    """Groups of random lengths repeated a random number of times, between records of other
    lengths; one payload bit or one length byte damaged anywhere loses that record alone."""
    rng = np.random.default_rng(seed)
    payloads = []
    while len(payloads) < 600:
        period = int(rng.integers(1, MAX_PERIOD + 3))
        lengths = rng.integers(1, 60, size=period).tolist()
        for _ in range(int(rng.integers(1, 100))):  # from 64 repeats on, CRCs are checked as rows
            payloads += [bytes(rng.integers(0, 256, size=length, dtype=np.uint8)) for length in lengths]
    assert read_all(write(tmp_path, payloads)) == (payloads, 0)
    where = int(rng.integers(len(payloads)))
    start = record_start(payloads, where)
    offset = HEADER_BYTES + int(rng.integers(len(payloads[where]))) if seed % 2 else int(rng.integers(4))

    def damage(data):
        data[start + offset] ^= 1 << int(rng.integers(8))

    assert read_all(write(tmp_path, payloads, damage)) == (payloads[:where] + payloads[where + 1 :], 1)


def test_three_tags_written_by_tensorboardx_read_back_whole(tmp_path):
    steps = 3000  # the step's varint grows a byte at 128: the group changes shape once
    given = {"loss": lambda s: 1.0 / (s + 1), "lr": lambda s: 0.1 * 0.999**s, "accuracy/top1": lambda s: s / steps}
    writer = SummaryWriter(str(tmp_path), flush_secs=3600, max_queue=10 * steps)
    for step in range(steps):
        for tag, value in given.items():
            writer.add_scalar(tag, value(step), step)
    writer.close()
    (name,) = os.listdir(tmp_path)

    loader = JobLoader(str(tmp_path), root=str(tmp_path))
    while not loader.load().done:
        pass
    for tag, value in given.items():
        view = loader.data.scalar_points(tag)
        got_steps, got_values = view.points(0, view.total)
        assert got_steps.tolist() == list(range(steps)), tag
        assert got_values.tolist() == np.array([value(s) for s in range(steps)], dtype=np.float32).tolist(), tag
    assert loader.is_integrity

    segments = RecordReader(str(tmp_path / name)).read(final=True).segments
    fast = TensorBoardDecoder().decode_segments(segments, fast=True)
    full = TensorBoardDecoder().decode_segments(segments, fast=False)
    assert same_batches(fast, full)
