"""Record framing: u64 length, masked CRC32C of the length, payload, masked CRC32C of payload.

``RecordReader`` is incremental and batch-oriented: each call reads at most a bounded chunk
of a file from a saved offset, returns every complete record in it, leaves a partial record
at the end of a growing file for the next call, and skips (and reports) records whose CRC
does not match, resynchronising on the next valid header.
"""
import os
import struct
from dataclasses import dataclass, field

from mindinsight.conf.limits import MAX_EVENT_PAYLOAD_BYTES, READ_CHUNK_BYTES
from mindinsight.format.crc import masked_crc32c

HEADER_BYTES = 12   # u64 length + u32 masked crc of the length
FOOTER_BYTES = 4    # u32 masked crc of the payload
_HEADER = struct.Struct("<QI")
_FOOTER = struct.Struct("<I")


def frame(payload: bytes) -> bytes:
    """One record holding ``payload``, as MindSpore's writer frames it."""
    length = struct.pack("<Q", len(payload))
    return b"".join((length, struct.pack("<I", masked_crc32c(length)), payload,
                     struct.pack("<I", masked_crc32c(payload))))


@dataclass
class ReadBatch:
    """What one ``RecordReader.read`` call found."""

    payloads: list = field(default_factory=list)   # complete, CRC-valid payloads (bytes)
    corrupt: int = 0                                # records skipped for a bad CRC or length
    skipped_bytes: int = 0                          # bytes passed over while resynchronising
    partial_tail: bool = False                      # an incomplete record waits at the end
    end_of_data: bool = True                        # nothing more to read right now


def _header_ok(buf, pos: int) -> int | None:
    """Payload length of a valid record header at ``pos``, or None."""
    length, length_crc = _HEADER.unpack_from(buf, pos)
    if length == 0 or length > MAX_EVENT_PAYLOAD_BYTES:
        return None
    if masked_crc32c(buf[pos:pos + 8]) != length_crc:
        return None
    return length


class RecordReader:
    """Reads the records of one file, resuming where the previous call stopped."""

    def __init__(self, path: str, offset: int = 0, verify_crc: bool = True,
                 chunk_bytes: int = READ_CHUNK_BYTES):
        self.path = path
        self.offset = offset
        self.verify_crc = verify_crc
        self.chunk_bytes = chunk_bytes
        self._in_garbage = False   # resynchronising after a damaged header

    def read(self, max_bytes: int | None = None) -> ReadBatch:
        """Read complete records from ``offset`` on, consuming about ``max_bytes`` at most."""
        budget = max_bytes or self.chunk_bytes
        batch = ReadBatch()
        size = os.path.getsize(self.path)
        with open(self.path, "rb") as stream:
            while self.offset < size and budget > 0:
                stream.seek(self.offset)
                want = min(budget, size - self.offset)
                buf = memoryview(stream.read(max(want, HEADER_BYTES)))
                consumed = self._parse(buf, batch, stream)
                if consumed == 0:
                    break
                self.offset += consumed
                budget -= consumed
            batch.end_of_data = self.offset >= size or batch.partial_tail
        return batch

    def _parse(self, buf: memoryview, batch: ReadBatch, stream) -> int:
        """Parse records from ``buf`` (file bytes at ``self.offset``); return bytes consumed."""
        pos, end = 0, len(buf)
        while end - pos >= HEADER_BYTES:
            length = self._length_at(buf, pos)
            if length is None:
                if not self._in_garbage:
                    batch.corrupt += 1
                    self._in_garbage = True
                skip = self._resync(buf, pos)
                batch.skipped_bytes += skip
                pos += skip
                continue
            self._in_garbage = False
            record_end = pos + HEADER_BYTES + length + FOOTER_BYTES
            if record_end > end:
                if pos > 0:
                    return pos   # let the next chunk start at this record
                return self._read_large_record(length, batch, stream)
            payload = buf[pos + HEADER_BYTES:pos + HEADER_BYTES + length]
            (payload_crc,) = _FOOTER.unpack_from(buf, record_end - FOOTER_BYTES)
            if self.verify_crc and masked_crc32c(payload) != payload_crc:
                batch.corrupt += 1
            else:
                batch.payloads.append(payload.tobytes())
            pos = record_end
        if pos == 0:
            batch.partial_tail = True
        return pos

    def _read_large_record(self, length: int, batch: ReadBatch, stream) -> int:
        """A record longer than the chunk: read exactly it, or report a partial tail."""
        stream.seek(self.offset)
        data = memoryview(stream.read(HEADER_BYTES + length + FOOTER_BYTES))
        if len(data) < HEADER_BYTES + length + FOOTER_BYTES:
            batch.partial_tail = True
            return 0
        payload = data[HEADER_BYTES:HEADER_BYTES + length]
        (payload_crc,) = _FOOTER.unpack_from(data, HEADER_BYTES + length)
        if self.verify_crc and masked_crc32c(payload) != payload_crc:
            batch.corrupt += 1
        else:
            batch.payloads.append(payload.tobytes())
        return len(data)

    def _length_at(self, buf: memoryview, pos: int) -> int | None:
        if self.verify_crc:
            return _header_ok(buf, pos)
        length = _HEADER.unpack_from(buf, pos)[0]
        return length if 0 < length <= MAX_EVENT_PAYLOAD_BYTES else None

    def _resync(self, buf: memoryview, pos: int) -> int:
        """Bytes to skip from a damaged header at ``pos`` to the next valid header in ``buf``."""
        step = 1
        while pos + step + HEADER_BYTES <= len(buf) and self._length_at(buf, pos + step) is None:
            step += 1
        return step
