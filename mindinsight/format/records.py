"""Record framing: u64 length, masked CRC32C of the length, payload, masked CRC32C of payload.

``RecordReader`` is incremental and batch-oriented: each call reads at most a bounded chunk
of a file from a saved offset, returns every complete record in it and leaves a partial
record at the end of a growing file for the next call.

Damage is skipped and counted, never served:

* a record whose payload CRC does not match (its header is sound) is skipped whole;
* a header that cannot be right (length CRC mismatch, length 0 or above
  ``limits.MAX_EVENT_PAYLOAD_BYTES``, or a record running past the end of a *final* file,
  one that will not grow any more) starts a damaged stretch: the reader scans forward for the
  next header whose length CRC *and* payload CRC both match and resumes there; the stretch
  counts as one skipped record;
* the incomplete end of a final file is a damaged stretch too. The end of a file that may
  still grow is not: it waits for the writer.

Nothing larger than the file is ever read: a length field claiming gigabytes is checked
against the file size before any buffer is allocated.

A file replaced or rewritten under the reader (a new inode, smaller than what was read, the
same size with a new mtime, or different bytes just before the saved offset) is reported as
``replaced`` instead of being read on; the caller starts over.

Records are framed in bulk: one pass over the chunk walks the lengths (a header seen before
is not checked again: equal 12 header bytes have an equal, already verified CRC, and a run of
records with one header is found with one strided numpy comparison; so is a repeating group of
a few headers, as a writer of one event per tag and step interleaves them, and the same group
again where it comes back after a record of another shape, a histogram say), then the payload
CRCs are computed and compared with numpy: a long run of equally long records as rows
(``crc.rows_crc32c``, as PyTorch's one-scalar events come), many other records of one length as
rows gathered from the chunk, the rest one by one with the C CRC-32C. The result keeps the
chunk as one ``bytes`` object plus payload offsets and lengths (``Segment``), so a decoder can
work on many records at once; ``payloads`` materialises them one by one when asked.
"""

import os
import struct
from dataclasses import dataclass, field
from typing import NamedTuple

import google_crc32c
import numpy as np

from mindinsight.conf.limits import MAX_EVENT_PAYLOAD_BYTES, READ_CHUNK_BYTES
from mindinsight.format.crc import masked_crc32c, rows_crc32c
from mindinsight.format.files import is_remote, open_inside, opened_stat, read_at, real_root

HEADER_BYTES = 12  # u64 length + u32 masked crc of the length
FOOTER_BYTES = 4  # u32 masked crc of the payload
_HEADER = struct.Struct("<QI")
_FOOTER = struct.Struct("<I")
_HEADER_CACHE_SIZE = 4096  # distinct valid headers remembered per reader
_MASK_DELTA = 0xA282EAD8  # as in format.crc
_MIN_RUN = 8  # consecutive equal headers worth a numpy probe
# A group of up to this many headers that repeats (one event per tag and step, several tags),
# taken at once when it repeats at least _MIN_GROUPS times: walked one by one, each record
# costs a few microseconds of Python.
_MAX_PERIOD = 16
_MIN_GROUPS = 4
_FIRST_PROBE = 64  # repeats compared at first (then 8 times more each time all match)
_ROWS_MIN = 64  # records of a run worth checking as rows (``crc.rows_crc32c``) ...
# ... when short: the C library's cost per call only matters next to a short record's CRC,
# while the rows' cost grows with every byte position that differs.
_ROWS_MAX_LENGTH = 256
_TAIL_BYTES = 4  # bytes before the offset compared to notice a rewritten file
_FIRST_SCAN_WINDOW = 4096  # bytes searched for a header first while resynchronising


def frame(payload: bytes) -> bytes:
    """One record holding ``payload``, as MindSpore's writer frames it."""
    length = struct.pack("<Q", len(payload))
    return b"".join(
        (length, struct.pack("<I", masked_crc32c(length)), payload, struct.pack("<I", masked_crc32c(payload)))
    )


class Segment(NamedTuple):
    """CRC-valid records inside one buffer: ``buffer[offsets[i]:offsets[i] + lengths[i]]``."""

    buffer: bytes
    offsets: np.ndarray  # int64 payload start offsets, in file order
    lengths: np.ndarray  # int64 payload lengths
    copies: list | None = None  # the payloads as bytes, when the CRC check already cut them

    def payloads(self) -> list:
        if self.copies is not None:
            return self.copies
        buffer = self.buffer
        return [buffer[start : start + length] for start, length in zip(self.offsets.tolist(), self.lengths.tolist())]


@dataclass
class ReadBatch:
    """What one ``RecordReader.read`` call found."""

    segments: list = field(default_factory=list)  # Segment objects, in file order
    corrupt: int = 0  # records skipped: bad CRC, impossible length, damaged stretch
    skipped_bytes: int = 0  # bytes passed over while resynchronising
    partial_tail: bool = False  # an incomplete record waits at the end
    end_of_data: bool = True  # nothing more to read right now
    replaced: bool = False  # the file changed under the reader: start over

    @property
    def count(self) -> int:
        """Number of complete, CRC-valid records."""
        return sum(len(segment.offsets) for segment in self.segments)

    @property
    def payloads(self) -> list:
        """The valid payloads as separate ``bytes`` objects, in file order."""
        return [payload for segment in self.segments for payload in segment.payloads()]


def masked_crcs(payloads) -> np.ndarray:
    """Masked CRC-32C of every payload (uint32 array)."""
    value = google_crc32c.value
    return _masked(np.fromiter(map(value, payloads), dtype=np.uint32, count=len(payloads)))


def _masked(crcs: np.ndarray) -> np.ndarray:
    return ((crcs >> np.uint32(15)) | (crcs << np.uint32(17))) + np.uint32(_MASK_DELTA)


def _u32_at(array: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Little-endian uint32 at each of ``positions`` of a uint8 array."""
    out = array[positions].astype(np.uint32)
    for shift in (1, 2, 3):
        out |= array[positions + shift].astype(np.uint32) << np.uint32(8 * shift)
    return out


def _plausible_lengths(array: np.ndarray, start: int, stop: int) -> np.ndarray:
    """Positions in ``[start, stop)`` whose u64 is a possible payload length (1..2**32-1)."""
    count = stop - start
    if count <= 0:
        return np.empty(0, dtype=np.int64)
    window = array[start : stop + 7]
    high_zero = window[4 : 4 + count] == 0
    for shift in (5, 6, 7):
        high_zero &= window[shift : shift + count] == 0
    low_set = (window[0:count] | window[1 : 1 + count] | window[2 : 2 + count] | window[3 : 3 + count]) != 0
    return np.flatnonzero(high_zero & low_set) + start


def _repeats(buf: bytes, pos: int, end: int, stride: int, members: list) -> int:
    """How many times in a row, from ``pos`` on, every ``stride`` bytes hold the headers
    ``members`` ((offset in the stride, 12 header bytes) each); whole strides inside ``end``
    only. Compared in windows that grow, so the cost follows the repeats found, not the chunk."""
    fit = (end - pos) // stride
    found, window = 0, _FIRST_PROBE
    wanted = [(offset, np.void(header)) for offset, header in members]
    while found < fit:
        count = min(fit - found, window)
        start = pos + found * stride
        same = None
        for offset, header in wanted:  # a header compared whole, as one 12-byte item
            equal = np.ndarray((count,), "V12", buf, start + offset, (stride,)) == header
            same = equal if same is None else same & equal
        if not same.all():
            return found + int(np.argmin(same))
        found += count
        window *= 8
    return found


def _repeating_group(buf: bytes, headers: list, sizes: list, pos: int, end: int):
    """The group of the last few records if their headers repeat those just before them and the
    group repeats at least ``_MIN_GROUPS`` times from ``pos`` on: ``(group, groups)``, the group as
    (header, record size) per member; else None. ``headers`` and ``sizes`` are those of the
    records walked just before ``pos``, in file order. A repeat's headers equal verified ones byte
    for byte, so they are valid too."""
    seen = len(headers)
    last = headers[-1]
    for period in range(2, min(_MAX_PERIOD, seen // 2) + 1):
        # Called for most records walked one by one: the cheap test first.
        if headers[seen - 1 - period] != last or headers[seen - period :] != headers[seen - 2 * period : seen - period]:
            continue
        group = list(zip(headers[seen - period :], sizes[seen - period :]))
        groups = _group_repeats(buf, group, pos, end)
        return (group, groups) if groups >= _MIN_GROUPS else None
    return None


def _resumed_group(buf: bytes, group: list, header: bytes, pos: int, end: int):
    """``group`` (as ``_repeating_group`` gives it) again from the record at ``pos``, whose
    ``header`` is one of its members', when it repeats at least ``_MIN_GROUPS`` times from there:
    ``(group, groups)``, the group starting with that member; else None. A training's group of
    one event per tag and step comes back after each histogram or image written between."""
    first = next(index for index, (member, _size) in enumerate(group) if member == header)
    group = group[first:] + group[:first]
    start = pos
    for member, size in group:  # the next group whole first, without numpy: often it is cut short
        if buf[start : start + HEADER_BYTES] != member:
            return None
        start += size
    groups = _group_repeats(buf, group, pos, end)
    return (group, groups) if groups >= _MIN_GROUPS else None


def _group_repeats(buf: bytes, group: list, pos: int, end: int) -> int:
    """How many times in a row ``group`` ((header, record size) per member) repeats from ``pos``."""
    members, offset = [], 0
    for header, size in group:
        members.append((offset, header))
        offset += size
    return _repeats(buf, pos, end, offset, members)


def _valid_in_bulk(buf: bytes, runs: np.ndarray, offsets: np.ndarray, sizes: np.ndarray):
    """Bool per record of ``runs`` (``RecordReader._parse``'s runs as rows; records in run order,
    at ``offsets`` with payload lengths ``sizes``): its payload CRC matches. None when no records
    are worth checking as rows (the caller checks them one by one).

    A long run of equal records is checked as rows of the buffer itself (``crc.rows_crc32c``);
    the other records of one length, when many, as rows gathered into one array (a group's
    members come a few dozen times between two histograms, say: too few for rows each, but a
    C call per record costs more than the CRC of a short one); the rest one by one."""
    counts = runs[:, 1]
    in_rows = (counts >= _ROWS_MIN) & (runs[:, 3] <= _ROWS_MAX_LENGTH)
    single = ~np.repeat(in_rows, counts)
    rest = np.flatnonzero(single)
    short = rest[sizes[rest] <= _ROWS_MAX_LENGTH]
    gathered = []  # (record indices, payload length) checked as gathered rows
    if short.size >= _ROWS_MIN:
        by_length = np.bincount(sizes[short])
        for length in np.flatnonzero(by_length >= _ROWS_MIN).tolist():
            gathered.append((short[sizes[short] == length], length))
    if not in_rows.any() and not gathered:
        return None
    crcs = np.empty(offsets.size, dtype=np.uint32)
    stored = np.empty(offsets.size, dtype=np.uint32)
    firsts = np.cumsum(counts) - counts  # index of each run's first record
    for run in np.flatnonzero(in_rows).tolist():
        start, count, size, length = runs[run].tolist()
        index = int(firsts[run])
        crcs[index : index + count] = rows_crc32c(buf, start, size, count, length)
        stored[index : index + count] = np.ndarray((count,), "<u4", buf, start + length, (size,))
    array = np.frombuffer(buf, dtype=np.uint8)
    for records, length in gathered:
        # Row i of the windows starts at byte i: picking the records' rows copies just their bytes.
        rows = np.lib.stride_tricks.sliding_window_view(array, length)[offsets[records]]
        crcs[records] = rows_crc32c(rows, 0, length, records.size, length)
        stored[records] = _u32_at(array, offsets[records] + length)
        single[records] = False
    if single.any():
        starts, lengths = offsets[single], sizes[single]
        payloads = [buf[start : start + size] for start, size in zip(starts.tolist(), lengths.tolist())]
        crcs[single] = [google_crc32c.value(payload) for payload in payloads]
        stored[single] = _u32_at(array, starts + lengths)
    return _masked(crcs) == stored


class RecordReader:
    """Reads the records of one file, resuming where the previous call stopped."""

    def __init__(
        self,
        path: str,
        offset: int = 0,
        verify_crc: bool = True,
        chunk_bytes: int = READ_CHUNK_BYTES,
        root: str | None = None,
    ):
        self.path = path
        # The real dir the file must lie in (format/files.py); by default the one that names it.
        self.root = root or real_root(os.path.dirname(path if is_remote(path) else os.path.abspath(path)))
        self.offset = offset
        self.verify_crc = verify_crc
        self.chunk_bytes = chunk_bytes
        self.file_size = 0  # size, mtime, inode and ETag at the last read (``files.opened_stat``)
        self.mtime_ns = 0
        self.inode: int | None = None
        # An object store's ETag ("" on a local disk): its modification times have whole seconds,
        # so an object replaced by one of the same size within a second is told only by it.
        self.etag = ""
        self._tail = b""  # the bytes just before ``offset`` as last read
        self._in_garbage = False  # resynchronising after a damaged header
        self._headers: dict = {}  # 12 header bytes -> payload length, for valid headers

    def state(self) -> dict | None:
        """Where reading stands, to resume in another process (``restore``); None while inside a
        damaged stretch (resuming there is not worth a saved state)."""
        if self._in_garbage:
            return None
        return {
            "offset": self.offset,
            "file_size": self.file_size,
            "mtime_ns": self.mtime_ns,
            "inode": self.inode,
            "etag": self.etag,
            "tail": self._tail.hex(),
        }

    def restore(self, state: dict) -> None:
        """Resume from a ``state()``; the next ``read`` checks the file is still the one read."""
        self.offset, self.file_size = int(state["offset"]), int(state["file_size"])
        self.mtime_ns = int(state["mtime_ns"])
        self.inode = None if state["inode"] is None else int(state["inode"])
        self.etag = str(state.get("etag", ""))
        self._tail = bytes.fromhex(state["tail"])

    def read(self, max_bytes: int | None = None, final: bool = False) -> ReadBatch:
        """Read complete records from ``offset`` on, consuming about ``max_bytes`` at most.

        ``final``: the file will not grow any more, so an incomplete record is damage.
        """
        budget = max_bytes or self.chunk_bytes
        batch = ReadBatch()
        with open_inside(self.path, self.root) as stream:
            stat = opened_stat(stream)
            if self._was_replaced(stream, stat):
                batch.replaced = True
                return batch
            size = stat.st_size
            self.file_size, self.mtime_ns, self.inode = size, stat.st_mtime_ns, stat.st_ino
            self.etag = getattr(stat, "etag", "")
            start = self.offset
            first = True
            while self.offset < size and budget > 0:
                stream.seek(self.offset)
                # At least a header's worth, so a small budget never looks like a partial tail.
                buf = stream.read(min(max(budget, HEADER_BYTES), size - self.offset))
                # A record larger than what is left of the budget waits for the next call,
                # unless it is the first one (a record larger than the whole budget).
                consumed = self._parse(buf, batch, stream, size, final, allow_large=first)
                first = False
                if consumed == 0:
                    break
                self.offset += consumed
                budget -= consumed
            if self.offset != start:
                keep = min(_TAIL_BYTES, self.offset)
                self._tail = read_at(stream, keep, self.offset - keep)
            batch.end_of_data = self.offset >= size or batch.partial_tail
        return batch

    def _was_replaced(self, stream, stat) -> bool:
        """Whether the file is no longer the one read so far (see the module docstring)."""
        if self.inode is None:
            return False
        if stat.st_ino != self.inode or stat.st_size < self.offset:
            return True
        if stat.st_size == self.file_size and (
            stat.st_mtime_ns != self.mtime_ns or getattr(stat, "etag", "") != self.etag
        ):
            return True
        tail = self._tail
        return bool(tail) and read_at(stream, len(tail), self.offset - len(tail)) != tail

    def _parse(
        self, buf: bytes, batch: ReadBatch, stream, file_size: int, final: bool, allow_large: bool = True
    ) -> int:
        """Parse records from ``buf`` (file bytes at ``self.offset``); return bytes consumed."""
        pos, end = 0, len(buf)
        at_eof = self.offset + end >= file_size
        runs = []  # (first payload offset, count, stride, payload length), file order unless grouped
        grouped = False  # some runs are members of a repeating group: their records interleave
        # Headers and sizes of the records walked since the last long run (at most two groups).
        recent, recent_sizes = [], []
        headers = self._headers
        array = np.frombuffer(buf, dtype=np.uint8)
        probe_after = 0  # records to walk one by one before probing for a run again
        misses = 0  # probes that found no run
        group_after = 0  # the same for a repeating group
        group_misses = 0
        last_group, last_heads = None, set()  # the last group found, and its members' headers
        while True:
            if self._in_garbage:
                recent.clear()
                recent_sizes.clear()
                found = self._resync(buf, array, pos, stream, file_size, final)
                batch.skipped_bytes += found - pos
                pos = found
                if self._in_garbage:
                    break
            if end - pos < HEADER_BYTES:
                if at_eof and final and pos < end:
                    self._damaged(batch)  # a final file ends inside a header
                    batch.skipped_bytes += end - pos
                    pos = end
                break
            header = buf[pos : pos + HEADER_BYTES]
            length = headers.get(header)
            if length is None:
                length = self._length_at(buf, pos)
                if length is None:
                    self._damaged(batch)
                    continue
                if len(headers) < _HEADER_CACHE_SIZE:
                    headers[header] = length
            size = HEADER_BYTES + length + FOOTER_BYTES
            if pos + size > end:
                if self.offset + pos + size > file_size:
                    if final:
                        self._damaged(batch)  # it can never complete
                        continue
                    break  # the writer has not finished it yet
                if pos > 0:
                    break  # let the next chunk start at this record
                if not allow_large:
                    return 0
                return self._read_large_record(length, batch, stream)
            if last_group is not None and header in last_heads:
                found = _resumed_group(buf, last_group, header, pos, end)
                if found is not None:
                    pos = self._take_group(runs, found, pos)
                    grouped = True
                    recent.clear()
                    recent_sizes.clear()
                    continue
            count = 1
            if probe_after <= 0 and (end - pos) // size >= _MIN_RUN:
                # Consecutive records with this very header (same length, same verified CRC).
                count = _repeats(buf, pos, end, size, [(0, header)])
                if count < _MIN_RUN:
                    # Back off gradually: a file's first records (other shapes) are often
                    # followed by a long run at once.
                    probe_after = min(2**misses - 1, _MIN_RUN * 4)
                    misses = min(misses + 1, 6)  # 2**6 - 1 is past the longest wait
            else:
                probe_after -= 1
            runs.append((pos + HEADER_BYTES, count, size, length))
            pos += count * size
            if count >= _MIN_RUN:
                recent.clear()
                recent_sizes.clear()
                continue
            recent.extend([header] * count)
            recent_sizes.extend([size] * count)
            if len(recent) > 2 * _MAX_PERIOD:
                del recent[: -2 * _MAX_PERIOD], recent_sizes[: -2 * _MAX_PERIOD]
            if group_after > 0:
                group_after -= 1
                continue
            found = _repeating_group(buf, recent, recent_sizes, pos, end)
            if found is None:
                if len(recent) >= 4:  # enough records seen to tell
                    group_after = min(2**group_misses - 1, _MIN_RUN * 8)
                    group_misses = min(group_misses + 1, 7)
                continue
            pos = self._take_group(runs, found, pos)
            last_group, last_heads = found[0], {member for member, _size in found[0]}
            grouped = True
            group_misses = 0
            recent.clear()
            recent_sizes.clear()
        if runs:
            self._add_segment(buf, runs, batch, grouped)
        if pos == 0:
            batch.partial_tail = True
        return pos

    @staticmethod
    def _take_group(runs: list, found: tuple, pos: int) -> int:
        """Add the member runs of a repeating group ``found`` at ``pos``; return where it ends."""
        group, groups = found
        stride = sum(size for _header, size in group)
        for _header, size in group:
            runs.append((pos + HEADER_BYTES, groups, stride, size - HEADER_BYTES - FOOTER_BYTES))
            pos += size
        return pos - stride + groups * stride

    def _damaged(self, batch: ReadBatch) -> None:
        """Enter a damaged stretch (counted once however long it is)."""
        if not self._in_garbage:
            batch.corrupt += 1
            self._in_garbage = True

    def _add_segment(self, buf: bytes, runs: list, batch: ReadBatch, grouped: bool = False) -> None:
        """Check the payload CRCs of ``runs`` (see ``_parse``) and keep the valid records, in
        file order, as one ``Segment`` of ``batch``."""
        table = np.array(runs, dtype=np.int64).reshape(-1, 4)
        if len(runs) == 1 and runs[0][1] == 1:
            offsets, sizes, counts = table[:, 0], table[:, 3], table[:, 1]
        else:
            counts = table[:, 1]
            sizes = np.repeat(table[:, 3], counts)
            first = np.repeat(table[:, 0], counts)
            within = np.arange(counts.sum(), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
            offsets = first + within * np.repeat(table[:, 2], counts)
        copies = valid = None
        if self.verify_crc:
            valid = _valid_in_bulk(buf, table, offsets, sizes)
        if grouped:
            order = np.argsort(offsets, kind="stable")
            offsets, sizes = offsets[order], sizes[order]
            if valid is not None:
                valid = valid[order]
        if self.verify_crc:
            if valid is None:
                # The payloads are cut once: for the CRC, and kept for a decoder that wants them.
                copies = [buf[start : start + size] for start, size in zip(offsets.tolist(), sizes.tolist())]
                valid = masked_crcs(copies) == _u32_at(np.frombuffer(buf, dtype=np.uint8), offsets + sizes)
            if not valid.all():
                batch.corrupt += int(valid.size - np.count_nonzero(valid))
                offsets, sizes = offsets[valid], sizes[valid]
                if copies is not None:
                    copies = [payload for payload, ok in zip(copies, valid.tolist()) if ok]
        if offsets.size:
            batch.segments.append(Segment(buf, offsets, sizes, copies))

    def _read_large_record(self, length: int, batch: ReadBatch, stream) -> int:
        """A record longer than the chunk, known to lie inside the file: read exactly it."""
        stream.seek(self.offset)
        data = stream.read(HEADER_BYTES + length + FOOTER_BYTES)
        if len(data) < HEADER_BYTES + length + FOOTER_BYTES:  # the file shrank meanwhile
            batch.partial_tail = True
            return 0
        self._add_segment(data, [(HEADER_BYTES, 1, len(data), length)], batch)
        return len(data)

    def _length_at(self, buf, pos: int) -> int | None:
        """Payload length of a valid record header at ``pos``, or None."""
        length, length_crc = _HEADER.unpack_from(buf, pos)
        if length == 0 or length > MAX_EVENT_PAYLOAD_BYTES:
            return None
        if self.verify_crc and masked_crc32c(buf[pos : pos + 8]) != length_crc:
            return None
        return length

    def _resync(self, buf: bytes, array: np.ndarray, pos: int, stream, file_size: int, final: bool) -> int:
        """Where to resume after the damaged stretch that runs at ``pos``.

        Returns the position of the next record whose length CRC and payload CRC both match
        (and leaves the damaged stretch), or the position to continue scanning from with the
        next bytes of the file (still in the stretch).
        """
        end = len(buf)
        last = end - HEADER_BYTES  # the last position a whole header fits at
        window = _FIRST_SCAN_WINDOW
        start = pos
        while start <= last:
            stop = min(start + window, last + 1)
            for candidate in _plausible_lengths(array, start, stop).tolist():
                verdict = self._verify_candidate(buf, candidate, stream, file_size, final)
                if verdict is not None:
                    return verdict
            start, window = stop, window * 2
        if self.offset + end >= file_size and final:
            return end  # the rest of a final file is damage
        return max(pos, end - HEADER_BYTES + 1)

    def _verify_candidate(self, buf: bytes, candidate: int, stream, file_size: int, final: bool):
        """``candidate`` if a verified record starts there; the same when it may become one
        (the file still grows), with the reader still in the damaged stretch; else None."""
        length = self._length_at(buf, candidate)
        if length is None:
            return None
        record_end = candidate + HEADER_BYTES + length + FOOTER_BYTES
        if record_end <= len(buf):
            record = buf[candidate:record_end]
        elif self.offset + record_end <= file_size:
            stream.seek(self.offset + candidate)
            record = stream.read(HEADER_BYTES + length + FOOTER_BYTES)
        elif final:
            return None
        else:
            return candidate  # wait for the writer, then verify it
        if len(record) != HEADER_BYTES + length + FOOTER_BYTES:  # the file shrank meanwhile
            return None
        stored = _FOOTER.unpack_from(record, HEADER_BYTES + length)[0]
        if masked_crc32c(record[HEADER_BYTES : HEADER_BYTES + length]) != stored:
            return None
        self._in_garbage = False
        return candidate
