"""Record framing: CRC, writing, incremental reading, partial tails, corruption."""

import os
import random
import struct
import tracemalloc

import pytest

from mindinsight.conf.limits import MAX_EVENT_PAYLOAD_BYTES
from mindinsight.format import records as record_format
from mindinsight.format.crc import crc32c, masked_crc32c
from mindinsight.format.records import RecordReader, frame
from tests.ut.conftest import FIXTURES


def read_all(reader: RecordReader, max_bytes=None, final=False):
    """Every payload the reader gives until the end of the data, the damage counted, the last batch."""
    payloads, corrupt = [], 0
    while True:
        batch = reader.read(max_bytes, final=final)
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
    bad[13] ^= 0xFF  # flip a payload byte
    path = tmp_path / "x.summary.1"
    path.write_bytes(good[0] + bytes(bad) + good[2])
    payloads, corrupt, _ = read_all(RecordReader(str(path)))
    assert payloads == [b"one", b"three"] and corrupt == 1


def test_damaged_length_resynchronises_on_the_next_valid_record(tmp_path):
    records = [frame(b"first" * 10), frame(b"second" * 10), frame(b"third" * 10)]
    bad = bytearray(records[1])
    bad[0] ^= 0x55  # the length no longer matches its CRC
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
    real_open = record_format.open_inside  # what the reader opens every file with

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

    monkeypatch.setattr(record_format, "open_inside", lambda *a, **k: Spy(real_open(*a, **k)))
    reader = RecordReader(str(path), chunk_bytes=1000)
    payloads, _, _ = read_all(reader, max_bytes=1000)
    assert len(payloads) == 1000
    assert max(sizes) <= 1000


# -- damage: resynchronising, impossible lengths, final files, rewrites (issue #12) -----------


def header(length: int) -> bytes:
    """A record header whose length CRC is right, whatever the length claims."""
    raw = struct.pack("<Q", length)
    return raw + struct.pack("<I", masked_crc32c(raw))


def test_resync_needs_the_payload_crc_too_not_only_the_length_crc(tmp_path):
    # Record 2's header is damaged; inside its payload sits a header whose length CRC is right
    # but whose "record" runs over record 3. Trusting the length CRC alone would lose record 3.
    first, third, fourth = frame(b"A" * 40), frame(b"C" * 40), frame(b"D" * 40)
    decoy = header(60)
    second = bytearray(frame(b"B" * 10 + decoy + b"B" * 10))
    second[0] ^= 0x55
    path = tmp_path / "x.summary.1"
    path.write_bytes(first + bytes(second) + third + fourth)
    payloads, corrupt, _ = read_all(RecordReader(str(path)))
    assert payloads == [b"A" * 40, b"C" * 40, b"D" * 40] and corrupt == 1


def test_length_beyond_the_payload_limit_is_damage_and_reading_resumes(tmp_path):
    path = tmp_path / "x.summary.1"
    path.write_bytes(frame(b"a") + header(MAX_EVENT_PAYLOAD_BYTES + 1) + b"\x00" * 30 + frame(b"b"))
    payloads, corrupt, batch = read_all(RecordReader(str(path)))
    assert payloads == [b"a", b"b"] and corrupt == 1 and not batch.partial_tail


def test_a_gigabyte_length_is_never_allocated(tmp_path):
    path = tmp_path / "x.summary.1"
    path.write_bytes(frame(b"a") + header(400_000_000) + b"\x00" * 100)
    size = path.stat().st_size
    for final in (False, True):
        reader = RecordReader(str(path))
        tracemalloc.start()
        try:
            batch = reader.read(final=final)
            again = reader.read(final=final)  # starts at the huge header
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert batch.payloads == [b"a"] and again.payloads == [] and peak < 1_000_000 + size
        batch.corrupt += again.corrupt
        if final:  # a file that will not grow cannot complete it: damage, consumed
            assert (batch.corrupt, batch.partial_tail, reader.offset) == (1, False, size)
        else:  # a growing file may: it waits
            assert (batch.corrupt, batch.partial_tail, reader.offset) == (0, True, len(frame(b"a")))


def test_no_read_is_larger_than_the_file(tmp_path, monkeypatch):
    path = tmp_path / "x.summary.1"
    path.write_bytes(frame(b"a") + header(400_000_000) + b"\x00" * 100 + frame(b"b"))
    sizes = []
    real_open = record_format.open_inside  # what the reader opens every file with

    class Spy:
        def __init__(self, stream):
            self.stream = stream

        def read(self, n=-1):
            sizes.append(n)
            return self.stream.read(n)

        def __getattr__(self, name):
            return getattr(self.stream, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.stream.close()

    monkeypatch.setattr(record_format, "open_inside", lambda *a, **k: Spy(real_open(*a, **k)))
    reader = RecordReader(str(path))
    assert [reader.read(final=final).payloads for final in (False, True)] == [[b"a"], [b"b"]]
    assert sizes and 0 < max(sizes) <= path.stat().st_size


def test_partial_tail_of_a_growing_file_waits_of_a_final_file_is_damage(tmp_path):
    path = tmp_path / "x.summary.1"
    record = frame(b"z" * 30)
    path.write_bytes(frame(b"a") + record[:20])
    reader = RecordReader(str(path))
    batch = reader.read()
    assert (batch.payloads, batch.corrupt, batch.partial_tail) == ([b"a"], 0, True)
    batch = reader.read(final=True)
    assert (batch.payloads, batch.corrupt, batch.partial_tail) == ([], 1, False)
    assert reader.offset == path.stat().st_size


def test_random_bytes_are_one_damaged_stretch(tmp_path):
    path = tmp_path / "x.summary.1"
    path.write_bytes(random.Random(7).randbytes(300_000))
    reader = RecordReader(str(path), chunk_bytes=64 * 1024)
    payloads, corrupt, _ = read_all(reader, final=True)
    assert (payloads, corrupt, reader.offset) == ([], 1, 300_000)


def test_garbage_at_the_end_of_a_growing_file_resumes_on_the_next_valid_record(tmp_path):
    path = tmp_path / "x.summary.1"
    path.write_bytes(frame(b"a") + b"\xfe" * 50)
    reader = RecordReader(str(path))
    batch = reader.read()
    assert (batch.payloads, batch.corrupt) == ([b"a"], 1)
    with open(path, "ab") as stream:
        stream.write(frame(b"b" * 300))
    assert reader.read().payloads == [b"b" * 300]


@pytest.mark.parametrize("change", ["truncated", "same_size", "grown", "replaced"])
def test_a_file_changed_under_the_reader_is_reported(tmp_path, change):
    path = tmp_path / "x.summary.1"
    path.write_bytes(frame(b"one" * 10) + frame(b"two" * 10))
    reader = RecordReader(str(path))
    assert len(reader.read().payloads) == 2
    stat = path.stat()
    if change == "truncated":
        path.write_bytes(frame(b"one" * 10))
    elif change == "same_size":
        path.write_bytes(frame(b"one" * 10) + frame(b"TWO" * 10))
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    elif change == "grown":  # rewritten in place (same inode), longer than before
        with open(path, "r+b") as stream:
            stream.write(frame(b"uno" * 10) + frame(b"dos" * 10) + frame(b"tres"))
    else:
        replacement = tmp_path / "new"
        replacement.write_bytes(frame(b"one" * 10) + frame(b"two" * 10) + frame(b"three"))
        os.replace(replacement, path)
    assert reader.read().replaced


def test_appending_is_not_a_change(tmp_path):
    path = tmp_path / "x.summary.1"
    path.write_bytes(frame(b"one"))
    reader = RecordReader(str(path))
    reader.read()
    with open(path, "ab") as stream:
        stream.write(frame(b"two"))
    batch = reader.read()
    assert not batch.replaced and batch.payloads == [b"two"]
    assert not reader.read().replaced
