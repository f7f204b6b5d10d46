"""Fast path for scalar events: many records decoded with a few numpy operations.

MindSpore's SummaryRecord writes one Event per step holding every scalar of that step, so
consecutive records of a log are byte-identical except for the wall time, the step and the
float values. A *template* is the wire layout of one such record, read by a strict parser
that accepts only this shape::

    Event   = [1: wall_time fixed64]? [2: step varint, 1..9 bytes]? 5: summary LEN  (nothing else)
    Summary = (1: value LEN)*
    Value   = 1: tag LEN (UTF-8)  3: scalar_value fixed32                         (nothing else)

TensorBoard's scalar events (``proto/tensorboard_event.proto``) have the same shape with the
float in field 2 (``simple_value``): the callers name the float's key (``SCALAR_KEYS``).

All records of a chunk with the template's length are compared with it in one numpy pass:
a record *matches* when every byte outside the variable fields (wall time, step, floats)
equals the template's and its step varint keeps the template's byte count. Such a record
parses exactly like the template (every parse decision of the wire format reads only the
compared bytes), so the wall times, steps and floats are cut out of the records as strided
columns. Anything else is decoded by the full protobuf parse; ``event_decoder`` merges both
into the same per-tag columns, in the same order, as the full parse alone would produce.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from mindinsight.format.records import FOOTER_BYTES, HEADER_BYTES
from mindinsight.format.wire import read_varint

MIN_GROUP = 4  # records of one length worth a template attempt
MAX_TEMPLATES = 4  # templates tried per length group before the rest falls back
_STEP_MAX_BYTES = 9  # 9 varint bytes hold 63 bits: the value is a non-negative int64
_FRAMING_BYTES = HEADER_BYTES + FOOTER_BYTES  # around each payload
_MAX_BLOCKS = 8  # runs of one length handled in place; more are copied into one block
_ALL_ONES = 0xFFFF_FFFF_FFFF_FFFF
# Records x words of a block up to which ``match`` compares all words in one step (its
# temporary arrays stay small: a larger peak would stay in the heap as resident memory).
_FEW_WORDS = 1 << 15
# Templates remembered across chunks and runs: (float key, length) entries, templates per
# entry, and the longest payload remembered (the memory held stays a few MB at most).
_KNOWN_LENGTHS = 64
_TEMPLATES_PER_LENGTH = MAX_TEMPLATES
_KNOWN_MAX_BYTES = 4096

_KEY_WALL_TIME = 0x09  # field 1, wire type 1 (fixed64)
_KEY_STEP = 0x10  # field 2, wire type 0 (varint)
_KEY_SUMMARY = 0x2A  # field 5, wire type 2 (length-delimited)
_KEY_VALUE = 0x0A  # Summary field 1 (LEN)
_KEY_TAG = 0x0A  # Value field 1 (LEN)
MINDSPORE_SCALAR_KEY = 0x1D  # Value field 3 (scalar_value), wire type 5 (fixed32)
TENSORBOARD_SCALAR_KEY = 0x15  # Value field 2 (simple_value), wire type 5 (fixed32)


class RowBlock:
    """``count`` records of ``length`` bytes in ``buffer``: record i starts at ``offset + i * stride``.

    Fields are read through typed strided views made straight on the buffer (numpy handles
    the unaligned addresses), so nothing is gathered byte by byte.
    """

    def __init__(self, buffer, offset: int, stride: int, count: int, length: int):
        self.buffer, self.offset, self.stride, self.count, self.length = buffer, offset, stride, count, length

    def view(self, start: int, dtype, shape=(), strides=()) -> np.ndarray:
        """Per record, ``dtype`` items at byte ``start`` (further axes: ``shape``/``strides``)."""
        return np.ndarray(
            shape=(self.count, *shape),
            dtype=dtype,
            buffer=self.buffer,
            offset=self.offset + start,
            strides=(self.stride, *strides),
        )

    def bytes(self) -> np.ndarray:
        return self.view(0, np.uint8, (self.length,), (1,))

    def subset(self, chosen: np.ndarray) -> "RowBlock":
        """The records ``chosen``, copied into a contiguous block."""
        rows = np.ascontiguousarray(self.bytes()[chosen])
        return RowBlock(rows, 0, self.length, rows.shape[0], self.length)


@dataclass
class ScalarTemplate:
    """Layout of one scalar-only event payload."""

    length: int
    reference: np.ndarray  # uint8 payload the template was read from
    fixed: np.ndarray  # bool per byte: must equal ``reference``
    wall_time: int | None  # offset of the 8 wall-time bytes
    step: int | None  # offset of the step varint
    step_bytes: int
    float_offsets: np.ndarray  # offset of each value's 4 float bytes
    tags: list  # value tags in wire order

    def __post_init__(self):
        # What a matching record must hold, as a mask and the masked bytes: every fixed byte
        # whole, and the step varint's continuation bits (set on every byte but its last).
        check = np.where(self.fixed, np.uint8(0xFF), np.uint8(0))
        want = np.where(self.fixed, self.reference, np.uint8(0))
        if self.step is not None:
            check[self.step : self.step + self.step_bytes] |= np.uint8(0x80)
            want[self.step : self.step + self.step_bytes - 1] |= np.uint8(0x80)
        words = self.length // 8
        self._words = words
        self._masks64 = check[: words * 8].view("<u8").copy()
        self._want64 = want[: words * 8].view("<u8").copy()
        # (offset, mask, expected) per 8-byte word holding checked bytes; a column at a time is
        # faster in numpy than a reduction along each short row, for many records. The bytes
        # after the last whole word are checked through one more word ending with the record.
        self._word_checks = [
            (8 * word, int(mask), int(expected))
            for word, (mask, expected) in enumerate(zip(self._masks64.tolist(), self._want64.tolist()))
            if mask
        ]
        self._tail_check = None
        self._byte_checks = []
        tail = self.length - 8 * words
        if tail and words:
            tail_mask, tail_want = check[-8:].copy(), want[-8:].copy()
            tail_mask[: 8 - tail] = 0  # already checked by the last whole word
            tail_want[: 8 - tail] = 0
            mask, expected = int(tail_mask.view("<u8")[0]), int(tail_want.view("<u8")[0])
            if mask:
                self._tail_check = (self.length - 8, mask, expected)
        elif tail:  # shorter than a word
            self._byte_checks = [(position, int(check[position]), int(want[position])) for position in range(tail)]
        # The fixed bytes as (start, stop, bytes) stretches, to check one payload in Python.
        edges = np.flatnonzero(np.diff(np.concatenate(([False], self.fixed, [False])).astype(np.int8)))
        payload = self.reference.tobytes()
        self._stretches = [(start, stop, payload[start:stop]) for start, stop in zip(edges[::2], edges[1::2])]

    def fits(self, payload: bytes) -> bool:
        """Whether ``payload`` parses exactly like the template (``match`` for one record)."""
        if len(payload) != self.length:
            return False
        for start, stop, expected in self._stretches:
            if payload[start:stop] != expected:
                return False
        if self.step is not None:
            last = self.step + self.step_bytes - 1
            if payload[last] >= 0x80 or any(payload[index] < 0x80 for index in range(self.step, last)):
                return False
        return True

    def match(self, block: RowBlock) -> np.ndarray:
        """Bool per record of ``block``: does it parse exactly like the template?"""
        if self._words and block.count * self._words <= _FEW_WORDS:
            # Few records: all words at once (the numpy calls, not the bytes, are the cost).
            columns = block.view(0, "<u8", (self._words,), (8,))
            ok = ((columns & self._masks64) == self._want64).all(axis=1)
        else:
            ok = np.ones(block.count, dtype=bool)
            for offset, mask, expected in self._word_checks:
                column = block.view(offset, "<u8")
                ok &= (column if mask == _ALL_ONES else column & np.uint64(mask)) == np.uint64(expected)
        if self._tail_check is not None:
            offset, mask, expected = self._tail_check
            ok &= (block.view(offset, "<u8") & np.uint64(mask)) == np.uint64(expected)
        for position, mask, expected in self._byte_checks:
            ok &= (block.view(position, np.uint8) & np.uint8(mask)) == expected
        return ok

    def extract(self, block: RowBlock):
        """``(steps int64, wall_times float64, values float32 records x tags)`` of a block."""
        count = block.count
        if self.step is None:
            steps = np.zeros(count, dtype=np.int64)
        else:
            varint = block.view(self.step, np.uint8, (self.step_bytes,), (1,))
            steps = np.zeros(count, dtype=np.uint64)
            for index in range(self.step_bytes):
                steps |= (varint[:, index] & np.uint8(0x7F)).astype(np.uint64) << np.uint64(7 * index)
            steps = steps.view(np.int64)
        if self.wall_time is None:
            wall_times = np.zeros(count, dtype=np.float64)
        else:
            wall_times = block.view(self.wall_time, "<f8").copy()
        tags = len(self.tags)
        offsets = self.float_offsets
        spacing = int(offsets[1] - offsets[0]) if tags > 1 else 4
        if tags == 0:
            values = np.zeros((count, 0), dtype=np.float32)
        elif np.all(np.diff(offsets) == spacing):
            # Equally spaced floats (equally long tags): one strided float view.
            values = np.ascontiguousarray(block.view(int(offsets[0]), "<f4", (tags,), (spacing,)))
        else:
            values = np.stack([block.view(int(offset), "<f4") for offset in offsets.tolist()], axis=1)
        return steps, wall_times, values


def parse_template(payload: bytes, scalar_key: int = MINDSPORE_SCALAR_KEY) -> ScalarTemplate | None:
    """The template of ``payload`` if it has the scalar-event shape (the float keyed
    ``scalar_key``), else None."""
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
        value, after = read_varint(payload, pos + 1, end)
        if value is None or after - (pos + 1) > _STEP_MAX_BYTES:
            return None
        step, step_bytes = pos + 1, after - (pos + 1)
        variable.append((step, step_bytes))
        pos = after
    if pos >= end or payload[pos] != _KEY_SUMMARY:
        return None
    size, pos = read_varint(payload, pos + 1, end)
    if size is None or pos + size != end:
        return None
    tags, floats = [], []
    while pos < end:
        if payload[pos] != _KEY_VALUE:
            return None
        size, pos = read_varint(payload, pos + 1, end)
        if size is None or pos + size > end:
            return None
        value_end = pos + size
        if pos >= value_end or payload[pos] != _KEY_TAG:
            return None
        size, pos = read_varint(payload, pos + 1, value_end)
        if size is None or pos + size > value_end:
            return None
        try:
            tag = payload[pos : pos + size].decode("utf-8")
        except UnicodeDecodeError:
            return None
        pos += size
        if pos + 5 != value_end or payload[pos] != scalar_key:
            return None
        floats.append(pos + 1)
        variable.append((pos + 1, 4))
        tags.append(tag)
        pos = value_end
    reference = np.frombuffer(payload, dtype=np.uint8).copy()
    fixed = np.ones(end, dtype=bool)
    for start, size in variable:
        fixed[start : start + size] = False
    return ScalarTemplate(end, reference, fixed, wall_time, step, step_bytes, np.array(floats, dtype=np.int64), tags)


_known: OrderedDict = OrderedDict()  # (float key, length) -> recent templates, newest last
_known_lock = threading.Lock()


def template_for(payload: bytes, scalar_key: int = MINDSPORE_SCALAR_KEY) -> ScalarTemplate | None:
    """``parse_template(payload, scalar_key)``, taken from the templates met before when one fits:
    one writer's events share a few layouts, in every chunk and every run it wrote."""
    key = (scalar_key, len(payload))
    with _known_lock:
        known = _known.get(key)
        if known is not None:
            _known.move_to_end(key)
            for template in reversed(known):
                if template.fits(payload):
                    return template
    template = parse_template(payload, scalar_key)
    if template is not None and len(payload) <= _KNOWN_MAX_BYTES:
        with _known_lock:
            known = _known.setdefault(key, [])
            known.append(template)
            del known[:-_TEMPLATES_PER_LENGTH]
            _known.move_to_end(key)
            while len(_known) > _KNOWN_LENGTHS:
                _known.popitem(last=False)
    return template


def blocks_of(buffer, offsets: np.ndarray, length: int) -> list:
    """Payloads at ``offsets`` (all ``length`` bytes long) of ``buffer`` as ``RowBlock`` s.

    Records of equal length that follow each other in the file are equally spaced in the
    buffer: each such run is one block over the buffer itself. So are records of one length
    that come every so many bytes (one event per tag and step, the tags' lengths differing).
    Many short runs (records of other shapes in between) are gathered into one contiguous
    block instead, in one numpy step.
    """
    gaps = np.diff(offsets)
    if offsets.size > 1 and gaps[0] >= length and (gaps == gaps[0]).all():
        return [(0, RowBlock(buffer, int(offsets[0]), int(gaps[0]), offsets.size, length))]
    spacing = length + _FRAMING_BYTES
    breaks = np.flatnonzero(gaps != spacing) + 1
    if breaks.size < _MAX_BLOCKS:
        bounds = [0, *breaks.tolist(), offsets.size]
        return [
            (start, RowBlock(buffer, int(offsets[start]), spacing, stop - start, length))
            for start, stop in zip(bounds[:-1], bounds[1:])
        ]
    # Row i of the windows starts at byte i: picking the records' rows copies just their bytes.
    windows = np.lib.stride_tricks.sliding_window_view(np.frombuffer(buffer, dtype=np.uint8), length)
    rows = windows[offsets]
    return [(0, RowBlock(rows, 0, length, rows.shape[0], length))]


@dataclass
class TemplateMatch:
    """Records of a segment decoded by one template."""

    template: ScalarTemplate
    records: np.ndarray  # record indices within the segment, ascending
    steps: np.ndarray
    wall_times: np.ndarray
    values: np.ndarray  # float32, records x tags


def match_segment(buffer: bytes, offsets: np.ndarray, lengths: np.ndarray, scalar_key: int = MINDSPORE_SCALAR_KEY):
    """Decode what the fast path can; return ``(matches, handled bool per record)``."""
    count = offsets.size
    handled = np.zeros(count, dtype=bool)
    matches = []
    if count < MIN_GROUP:
        return matches, handled
    for length, indices in _length_groups(lengths):
        start = int(offsets[indices[0]])
        template = template_for(buffer[start : start + length], scalar_key)
        if template is None:
            continue
        blocks = blocks_of(buffer, offsets[indices], length)
        pending = np.ones(indices.size, dtype=bool)
        for attempt in range(MAX_TEMPLATES):
            if attempt:
                first = int(np.argmax(pending))
                start = int(offsets[indices[first]])
                template = template_for(buffer[start : start + length], scalar_key)
                if template is None:
                    break
            for first_row, block in blocks:
                ok = template.match(block)
                ok &= pending[first_row : first_row + block.count]
                chosen = np.flatnonzero(ok)
                if chosen.size == 0:
                    continue
                part = block if chosen.size == block.count else block.subset(chosen)
                steps, wall_times, values = template.extract(part)
                matches.append(TemplateMatch(template, indices[first_row + chosen], steps, wall_times, values))
                pending[first_row + chosen] = False
            if np.count_nonzero(pending) < MIN_GROUP:
                break
        handled[indices[~pending]] = True
    return matches, handled


def _sort_keys(lengths: np.ndarray) -> np.ndarray:
    """``lengths`` as 16-bit keys when they fit: numpy's stable sort of those is a radix sort,
    several times faster than its merge sort of 64-bit ones."""
    return lengths.astype(np.uint16) if lengths.size and int(lengths.max()) <= 0xFFFF else lengths


def _length_groups(lengths: np.ndarray):
    """``(length, record indices)`` of each length at least ``MIN_GROUP`` records have.

    Records of one length mostly follow each other, so the lengths are grouped by runs (a
    pass over the records, then a sort of the runs only). Tags written in turn, an event each,
    make runs of a record or two: then the records themselves are sorted."""
    breaks = np.flatnonzero(lengths[1:] != lengths[:-1]) + 1
    if breaks.size * 4 > lengths.size:
        order = np.argsort(_sort_keys(lengths), kind="stable")  # stable: each group ascending
        ordered = lengths[order]
        bounds = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1], [True])))
        for group in np.flatnonzero(np.diff(bounds) >= MIN_GROUP).tolist():
            first, last = int(bounds[group]), int(bounds[group + 1])
            yield int(ordered[first]), order[first:last]
        return
    starts = np.concatenate(([0], breaks))
    stops = np.concatenate((breaks, [lengths.size]))
    run_lengths = lengths[starts]
    order = np.argsort(_sort_keys(run_lengths), kind="stable")
    ordered = run_lengths[order]
    group_starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    members = np.add.reduceat((stops - starts)[order], group_starts)
    for group in np.flatnonzero(members >= MIN_GROUP).tolist():
        first = group_starts[group]
        last = group_starts[group + 1] if group + 1 < group_starts.size else order.size
        runs = order[first:last]  # ascending: the argsort is stable
        if runs.size == 1:
            yield int(ordered[first]), np.arange(starts[runs[0]], stops[runs[0]])
        else:
            run_starts, run_sizes = starts[runs], stops[runs] - starts[runs]
            offsets = np.repeat(run_starts - (np.cumsum(run_sizes) - run_sizes), run_sizes)
            yield int(ordered[first]), np.arange(int(run_sizes.sum())) + offsets
