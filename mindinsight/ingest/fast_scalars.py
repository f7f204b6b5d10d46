"""Fast path for scalar events: many records decoded with a few numpy operations.

MindSpore's SummaryRecord writes one Event per step holding every scalar of that step, so
consecutive records of a log are byte-identical except for the wall time, the step and the
float values. A *template* is the wire layout of one such record, read by a strict parser
that accepts only this shape::

    Event   = [1: wall_time fixed64]? [2: step varint, 1..9 bytes]? 5: summary LEN  (nothing else)
    Summary = (1: value LEN)*
    Value   = 1: tag LEN (UTF-8)  3: scalar_value fixed32                         (nothing else)

All records of a chunk with the template's length are compared with it in one numpy pass:
a record *matches* when every byte outside the variable fields (wall time, step, floats)
equals the template's and its step varint keeps the template's byte count. Such a record
parses exactly like the template (every parse decision of the wire format reads only the
compared bytes), so the wall times, steps and floats are cut out of the records as strided
columns. Anything else is decoded by the full protobuf parse; ``event_decoder`` merges both
into the same per-tag columns, in the same order, as the full parse alone would produce.
"""
from dataclasses import dataclass

import numpy as np

from mindinsight.format.records import FOOTER_BYTES, HEADER_BYTES

MIN_GROUP = 4          # records of one length worth a template attempt
MAX_TEMPLATES = 4      # templates tried per length group before the rest falls back
_STEP_MAX_BYTES = 9    # 9 varint bytes hold 63 bits: the value is a non-negative int64
_FRAMING_BYTES = HEADER_BYTES + FOOTER_BYTES   # around each payload

_KEY_WALL_TIME = 0x09  # field 1, wire type 1 (fixed64)
_KEY_STEP = 0x10       # field 2, wire type 0 (varint)
_KEY_SUMMARY = 0x2A    # field 5, wire type 2 (length-delimited)
_KEY_VALUE = 0x0A      # Summary field 1 (LEN)
_KEY_TAG = 0x0A        # Value field 1 (LEN)
_KEY_SCALAR = 0x1D     # Value field 3, wire type 5 (fixed32)


@dataclass
class ScalarTemplate:
    """Layout of one scalar-only event payload."""

    length: int
    reference: np.ndarray      # uint8 payload the template was read from
    fixed: np.ndarray          # bool per byte: must equal ``reference``
    wall_time: int | None      # offset of the 8 wall-time bytes
    step: int | None           # offset of the step varint
    step_bytes: int
    float_offsets: np.ndarray  # offset of each value's 4 float bytes
    tags: list                 # value tags in wire order

    def match(self, rows: np.ndarray) -> np.ndarray:
        """Bool per row of ``rows`` (n x length uint8): does it parse like the template?"""
        differs = rows != self.reference
        differs &= self.fixed
        ok = ~differs.any(axis=1)
        if self.step is not None:
            varint = rows[:, self.step:self.step + self.step_bytes]
            ok &= varint[:, -1] < 0x80
            if self.step_bytes > 1:
                ok &= (varint[:, :-1] >= 0x80).all(axis=1)
        return ok

    def extract(self, rows: np.ndarray):
        """``(steps int64, wall_times float64, values float32 n x tags)`` of matching rows."""
        count = rows.shape[0]
        if self.step is None:
            steps = np.zeros(count, dtype=np.int64)
        else:
            varint = rows[:, self.step:self.step + self.step_bytes]
            steps = np.zeros(count, dtype=np.uint64)
            for index in range(self.step_bytes):
                steps |= (varint[:, index] & np.uint8(0x7F)).astype(np.uint64) << np.uint64(7 * index)
            steps = steps.view(np.int64)
        if self.wall_time is None:
            wall_times = np.zeros(count, dtype=np.float64)
        else:
            wall_times = np.ascontiguousarray(rows[:, self.wall_time:self.wall_time + 8]).view("<f8").reshape(count)
        columns = (self.float_offsets[:, None] + np.arange(4)).reshape(-1)
        values = np.ascontiguousarray(rows[:, columns]).view("<f4").reshape(count, len(self.tags))
        return steps, wall_times, values


def _varint(data: bytes, pos: int, end: int):
    """``(value, next position)`` of the varint at ``pos``, or ``(None, pos)``."""
    result = shift = 0
    while pos < end and shift < 64:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7
    return None, pos


def parse_template(payload: bytes) -> ScalarTemplate | None:
    """The template of ``payload`` if it has the scalar-event shape, else None."""
    end = len(payload)
    pos = 0
    wall_time = step = None
    step_bytes = 0
    variable = []
    if pos < end and payload[pos] == _KEY_WALL_TIME:
        if pos + 9 > end:
            return None
        wall_time = pos + 1
        variable.append((wall_time, 8))
        pos += 9
    if pos < end and payload[pos] == _KEY_STEP:
        value, after = _varint(payload, pos + 1, end)
        if value is None or after - (pos + 1) > _STEP_MAX_BYTES:
            return None
        step, step_bytes = pos + 1, after - (pos + 1)
        variable.append((step, step_bytes))
        pos = after
    if pos >= end or payload[pos] != _KEY_SUMMARY:
        return None
    size, pos = _varint(payload, pos + 1, end)
    if size is None or pos + size != end:
        return None
    tags, floats = [], []
    while pos < end:
        if payload[pos] != _KEY_VALUE:
            return None
        size, pos = _varint(payload, pos + 1, end)
        if size is None or pos + size > end:
            return None
        value_end = pos + size
        if pos >= value_end or payload[pos] != _KEY_TAG:
            return None
        size, pos = _varint(payload, pos + 1, value_end)
        if size is None or pos + size > value_end:
            return None
        try:
            tag = payload[pos:pos + size].decode("utf-8")
        except UnicodeDecodeError:
            return None
        pos += size
        if pos + 5 != value_end or payload[pos] != _KEY_SCALAR:
            return None
        floats.append(pos + 1)
        variable.append((pos + 1, 4))
        tags.append(tag)
        pos = value_end
    reference = np.frombuffer(payload, dtype=np.uint8).copy()
    fixed = np.ones(end, dtype=bool)
    for start, size in variable:
        fixed[start:start + size] = False
    return ScalarTemplate(end, reference, fixed, wall_time, step, step_bytes,
                          np.array(floats, dtype=np.int64), tags)


def rows_of(array: np.ndarray, offsets: np.ndarray, length: int) -> np.ndarray:
    """Payloads at ``offsets`` (all ``length`` bytes long) of a buffer as an n x length array.

    Records of equal length that follow each other in the file are equally spaced in the
    buffer, so each such run is a strided view (no copy); several runs are copied into one.
    """
    spacing = length + _FRAMING_BYTES
    breaks = np.flatnonzero(np.diff(offsets) != spacing) + 1
    bounds = [0, *breaks.tolist(), offsets.size]
    views = [np.lib.stride_tricks.as_strided(array[int(offsets[start]):], shape=(stop - start, length),
                                             strides=(spacing, 1), writeable=False)
             for start, stop in zip(bounds[:-1], bounds[1:])]
    return views[0] if len(views) == 1 else np.concatenate(views)


@dataclass
class TemplateMatch:
    """Records of a segment decoded by one template."""

    template: ScalarTemplate
    records: np.ndarray        # record indices within the segment, ascending
    steps: np.ndarray
    wall_times: np.ndarray
    values: np.ndarray         # float32, records x tags


def match_segment(buffer: bytes, offsets: np.ndarray, lengths: np.ndarray):
    """Decode what the fast path can; return ``(matches, handled bool per record)``."""
    count = offsets.size
    handled = np.zeros(count, dtype=bool)
    matches = []
    if count < MIN_GROUP:
        return matches, handled
    array = np.frombuffer(buffer, dtype=np.uint8)
    sizes, inverse, counts = np.unique(lengths, return_inverse=True, return_counts=True)
    for group, (length, members) in enumerate(zip(sizes.tolist(), counts.tolist())):
        if members < MIN_GROUP:
            continue
        indices = np.flatnonzero(inverse == group)
        start = int(offsets[indices[0]])
        template = parse_template(buffer[start:start + length])
        if template is None:
            continue
        rows = rows_of(array, offsets[indices], length)
        pending = np.ones(indices.size, dtype=bool)
        for attempt in range(MAX_TEMPLATES):
            if attempt:
                first = int(np.argmax(pending))
                start = int(offsets[indices[first]])
                template = parse_template(buffer[start:start + length])
                if template is None:
                    break
            ok = template.match(rows)
            ok &= pending
            chosen = np.flatnonzero(ok)
            steps, wall_times, values = template.extract(rows if chosen.size == rows.shape[0] else rows[chosen])
            matches.append(TemplateMatch(template, indices[chosen], steps, wall_times, values))
            pending &= ~ok
            if np.count_nonzero(pending) < MIN_GROUP:
                break
        handled[indices[~pending]] = True
    return matches, handled
