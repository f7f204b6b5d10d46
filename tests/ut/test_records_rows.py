"""Records checked as rows: the CRC of many equally long records at once, damage in long runs,
and the fast path's grouping of records by length."""

import os

import google_crc32c
import numpy as np
import pytest
from tensorboardX import SummaryWriter

from mindinsight.format import records as record_format
from mindinsight.format.crc import masked_crc32c, rows_crc32c
from mindinsight.format.records import FOOTER_BYTES, HEADER_BYTES, RecordReader, frame
from mindinsight.ingest.fast_scalars import MIN_GROUP, _length_groups

RUN = record_format._ROWS_MIN * 3  # records in a run long enough to be checked as rows


@pytest.mark.parametrize("length", [1, 3, 7, 8, 9, 16, 34, 71])
@pytest.mark.parametrize("varying", [0, 1, 5, 1000])
def test_rows_crc_equals_the_library_on_each_row(length, varying):
    rng = np.random.default_rng(length * 7919 + varying)
    stride = length + 5  # rows with other bytes between them, as records in a file
    count = 300
    data = bytearray(rng.integers(0, 256, size=stride * count + 3, dtype=np.uint8).tobytes())
    first = data[3 : 3 + length]
    for row in range(count):  # equal rows except ``varying`` random bytes
        start = 3 + row * stride
        data[start : start + length] = first
        for _ in range(min(varying, length)):
            data[start + int(rng.integers(0, length))] = int(rng.integers(0, 256))
    buffer = bytes(data)
    got = rows_crc32c(buffer, 3, stride, count, length)
    want = [google_crc32c.value(buffer[3 + row * stride : 3 + row * stride + length]) for row in range(count)]
    assert got.dtype == np.uint32 and got.tolist() == want


def test_a_single_row():
    assert rows_crc32c(b"123456789", 0, 9, 1, 9).tolist() == [0xE3069283]


def _run_file(tmp_path, payloads):
    path = tmp_path / "events.out.tfevents.1.host"
    path.write_bytes(b"".join(frame(payload) for payload in payloads))
    return path


def _read(path, **kwargs):
    reader = RecordReader(str(path), **kwargs)
    batch = reader.read(final=True)
    return batch.payloads, batch.corrupt


def _payloads(count):
    return [b"step %06d value %08.3f" % (index, index / 7) for index in range(count)]


def test_a_long_run_of_equal_records_is_read_whole(tmp_path):
    payloads = _payloads(RUN)
    assert len(set(map(len, payloads))) == 1
    assert _read(_run_file(tmp_path, payloads)) == (payloads, 0)


@pytest.mark.parametrize("where", [0, 1, RUN // 2, RUN - 1])
def test_a_damaged_payload_inside_a_long_run_is_skipped(tmp_path, where):
    payloads = _payloads(RUN)
    data = bytearray(b"".join(frame(payload) for payload in payloads))
    record = HEADER_BYTES + len(payloads[0]) + FOOTER_BYTES
    data[where * record + HEADER_BYTES + 5] ^= 0x10  # one bit of one payload
    path = tmp_path / "events.out.tfevents.1.host"
    path.write_bytes(bytes(data))
    assert _read(path) == (payloads[:where] + payloads[where + 1 :], 1)


def test_a_damaged_stored_crc_inside_a_long_run_is_skipped(tmp_path):
    payloads = _payloads(RUN)
    data = bytearray(b"".join(frame(payload) for payload in payloads))
    record = HEADER_BYTES + len(payloads[0]) + FOOTER_BYTES
    data[7 * record + record - 1] ^= 0x01  # the footer of record 7
    path = tmp_path / "events.out.tfevents.1.host"
    path.write_bytes(bytes(data))
    assert _read(path) == (payloads[:7] + payloads[8:], 1)


def test_without_crc_checking_damage_is_not_looked_for(tmp_path):
    payloads = _payloads(RUN)
    data = bytearray(b"".join(frame(payload) for payload in payloads))
    data[HEADER_BYTES + 2] ^= 0x01
    path = tmp_path / "events.out.tfevents.1.host"
    path.write_bytes(bytes(data))
    got, corrupt = _read(path, verify_crc=False)
    assert corrupt == 0 and got[1:] == payloads[1:]


def test_runs_of_several_lengths_mixed_with_single_records(tmp_path):
    payloads = _payloads(RUN) + [b"x" * 3, b"y" * 900] + [b"%d" % index for index in range(10_000, 10_000 + RUN)]
    assert _read(_run_file(tmp_path, payloads)) == (payloads, 0)


def test_a_real_tensorboardx_log_verifies_as_rows(tmp_path):
    writer = SummaryWriter(str(tmp_path), flush_secs=120)
    for step in range(3 * RUN):
        writer.add_scalar("train/loss", 1.0 / (step + 1), step)
    writer.close()
    (name,) = os.listdir(tmp_path)
    data = (tmp_path / name).read_bytes()
    got, corrupt = _read(tmp_path / name)
    assert corrupt == 0 and len(got) == 3 * RUN + 1  # the file_version event first
    # Every stored CRC is the library's over the payload.
    position = 0
    for payload in got:
        assert data[position + HEADER_BYTES : position + HEADER_BYTES + len(payload)] == payload
        stored = int.from_bytes(data[position + HEADER_BYTES + len(payload) :][:4], "little")
        assert stored == masked_crc32c(payload)
        position += HEADER_BYTES + len(payload) + FOOTER_BYTES


@pytest.mark.parametrize("longest_run", [2, 7, 40])  # short runs: the records are sorted; long: the runs
def test_length_groups_equal_a_grouping_by_unique_lengths(longest_run):
    rng = np.random.default_rng(5)
    for _ in range(500):
        runs = int(rng.integers(1, 40))
        lengths = np.repeat(rng.integers(1, 6, size=runs), rng.integers(1, longest_run, size=runs)).astype(np.int64)
        want = {}
        for length in np.unique(lengths).tolist():
            indices = np.flatnonzero(lengths == length)
            if indices.size >= MIN_GROUP:
                want[length] = indices.tolist()
        got = {length: indices.tolist() for length, indices in _length_groups(lengths)}
        assert got == want
