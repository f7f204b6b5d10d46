"""Record framing: CRC, writing, incremental reading, partial tails, corruption."""
import struct

import pytest

from mindinsight.format.crc import crc32c, masked_crc32c
from mindinsight.format.records import RecordReader, frame
from tests.ut.conftest import FIXTURES


def read_all(reader: RecordReader, max_bytes=None):
    payloads, corrupt = [], 0
    while True:
        batch = reader.read(max_bytes)
        payloads += batch.payloads
        corrupt += batch.corrupt
        if batch.end_of_data:
            return payloads, corrupt, batch


def test_crc32c_matches_the_standard_check_value():
    # The CRC-32C check value of "123456789" (RFC 3720).
    assert crc32c(b"123456789") == 0xE3069283


def test_masked_crc_matches_tfrecord_masking():
    crc = crc32c(b"abc")
    assert masked_crc32c(b"abc") == ((((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF)


def test_frame_layout():
    record = frame(b"hello")
    assert struct.unpack_from("<Q", record)[0] == 5
    assert struct.unpack_from("<I", record, 8)[0] == masked_crc32c(record[:8])
    assert record[12:17] == b"hello"
    assert struct.unpack_from("<I", record, 17)[0] == masked_crc32c(b"hello")


def test_real_fixture_crcs_verify():
    path = FIXTURES / "b_summary_ops" / "events.out.events.summary.1795343856.0.vm_MS"
    payloads, corrupt, batch = read_all(RecordReader(str(path)))
    assert (len(payloads), corrupt, batch.partial_tail) == (302, 0, False)


@pytest.mark.parametrize("chunk", [13, 100, 4096, 1 << 20])
def test_any_chunk_size_yields_the_same_records(tmp_path, chunk):
    payloads = [bytes([i % 251]) * (i * 37 % 500 + 1) for i in range(60)]
    path = tmp_path / "x.summary.1"
    path.write_bytes(b"".join(frame(p) for p in payloads))
    got, corrupt, _ = read_all(RecordReader(str(path), chunk_bytes=chunk))
    assert got == payloads and corrupt == 0


def test_partial_tail_is_left_for_the_next_read(tmp_path):
    path = tmp_path / "x.summary.1"
    records = [frame(b"a" * 10), frame(b"b" * 20), frame(b"c" * 30)]
    data = b"".join(records)
    cut = len(records[0]) + len(records[1]) + 7
    path.write_bytes(data[:cut])
    reader = RecordReader(str(path))
    batch = reader.read()
    assert batch.payloads == [b"a" * 10, b"b" * 20] and batch.partial_tail
    assert reader.offset == len(records[0]) + len(records[1])
    with open(path, "ab") as stream:
        stream.write(data[cut:])
    batch = reader.read()
    assert batch.payloads == [b"c" * 30] and not batch.partial_tail and batch.end_of_data


def test_partial_header_is_left_for_the_next_read(tmp_path):
    path = tmp_path / "x.summary.1"
    record = frame(b"payload")
    path.write_bytes(record + record[:5])
    reader = RecordReader(str(path))
    batch = reader.read()
    assert batch.payloads == [b"payload"] and batch.partial_tail
    with open(path, "ab") as stream:
        stream.write(record[5:])
    assert reader.read().payloads == [b"payload"]


def test_payload_crc_mismatch_skips_only_that_record(tmp_path):
    good = [frame(b"one"), frame(b"two"), frame(b"three")]
    bad = bytearray(good[1])
    bad[13] ^= 0xFF   # flip a payload byte
    path = tmp_path / "x.summary.1"
    path.write_bytes(good[0] + bytes(bad) + good[2])
    payloads, corrupt, _ = read_all(RecordReader(str(path)))
    assert payloads == [b"one", b"three"] and corrupt == 1


def test_damaged_length_resynchronises_on_the_next_valid_record(tmp_path):
    records = [frame(b"first" * 10), frame(b"second" * 10), frame(b"third" * 10)]
    bad = bytearray(records[1])
    bad[0] ^= 0x55    # the length no longer matches its CRC
    path = tmp_path / "x.summary.1"
    path.write_bytes(records[0] + bytes(bad) + records[2])
    payloads, corrupt, _ = read_all(RecordReader(str(path), chunk_bytes=64))
    assert payloads == [b"first" * 10, b"third" * 10] and corrupt == 1


def test_garbage_between_records_is_skipped(tmp_path):
    path = tmp_path / "x.summary.1"
    path.write_bytes(frame(b"a") + b"\x00garbage bytes\xff" * 3 + frame(b"b"))
    payloads, corrupt, _ = read_all(RecordReader(str(path)))
    assert payloads == [b"a", b"b"] and corrupt == 1


def test_zero_length_record_is_corrupt(tmp_path):
    zero = struct.pack("<Q", 0)
    record = zero + struct.pack("<I", masked_crc32c(zero)) + struct.pack("<I", masked_crc32c(b""))
    path = tmp_path / "x.summary.1"
    path.write_bytes(frame(b"a") + record + frame(b"b"))
    payloads, corrupt, _ = read_all(RecordReader(str(path)))
    assert payloads == [b"a", b"b"] and corrupt == 1


def test_reader_buffer_is_bounded_by_the_chunk(tmp_path, monkeypatch):
    path = tmp_path / "x.summary.1"
    path.write_bytes(b"".join(frame(b"x" * 100) for _ in range(1000)))
    sizes = []
    real_open = open

    class Spy:
        def __init__(self, stream):
            self.stream = stream

        def read(self, n=-1):
            data = self.stream.read(n)
            sizes.append(len(data))
            return data

        def __getattr__(self, name):
            return getattr(self.stream, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.stream.close()

    monkeypatch.setattr("builtins.open", lambda *a, **k: Spy(real_open(*a, **k)))
    reader = RecordReader(str(path), chunk_bytes=1000)
    payloads, _, _ = read_all(reader, max_bytes=1000)
    assert len(payloads) == 1000
    assert max(sizes) <= 1000
