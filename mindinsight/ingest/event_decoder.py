"""Decode framed event payloads into per-tag column batches.

Two ways to the same result:

* ``decode_payloads`` is the full protobuf parse (upb) of every payload: the reference.
* ``decode_segments`` first lets ``fast_scalars`` decode every record that has the common
  scalar-event shape (numpy over many records at once) and decodes the rest with the full
  parse, then merges both so the batch is *identical* to the full parse's: same keys in
  the same order (first appearance), same columns, same values in record order.

Values are grouped by (plugin, tag) so each container receives one batch per chunk.
Image bytes are copied as stored, histograms keep their serialized bytes and tensors their
TensorProto message: each is decoded only when asked for.
"""
import logging
from dataclasses import dataclass, field

import numpy as np
from google.protobuf.message import DecodeError

from mindinsight.conf import limits
from mindinsight.conf.plugins import VALUE_FIELD_PLUGINS, PluginName
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.ingest import fast_scalars

logger = logging.getLogger(__name__)

# Summary.Value oneof field -> (plugin, tag suffix, payload column names)
_PAYLOAD_NAMES = {
    PluginName.SCALAR: ("value",),
    PluginName.IMAGE: ("width", "height", "image"),
    PluginName.HISTOGRAM: ("histogram",),
    PluginName.TENSOR: ("tensor",),
    PluginName.LOSS_LANDSCAPE: ("landscape",),
}
_FIELDS = {name: (plugin, "/" + plugin.value, ("step", "wall_time", *_PAYLOAD_NAMES[plugin]))
           for name, plugin in VALUE_FIELD_PLUGINS.items()}
_SCALAR_SUFFIX = "/" + PluginName.SCALAR.value
_SCALAR, _IMAGE, _HISTOGRAM = PluginName.SCALAR, PluginName.IMAGE, PluginName.HISTOGRAM


class HistogramSample:
    """Buckets ``(n, 3)`` of ``[left, width, count]`` sorted by left, and the value range.

    Built either from decoded buckets, or (``from_serialized``) from the Histogram message
    bytes, which are then decoded on first use: most samples of a log never survive the
    reservoir, so they are never decoded.
    """

    __slots__ = ("_serialized", "_buckets", "_min", "_max")

    def __init__(self, buckets: np.ndarray, min: float, max: float):  # noqa: A002 (field names)
        self._serialized = None
        self._buckets, self._min, self._max = buckets, min, max

    @classmethod
    def from_serialized(cls, data: bytes) -> "HistogramSample":
        sample = cls.__new__(cls)
        sample._serialized = data
        sample._buckets = None
        return sample

    def _decode(self) -> None:
        decoded = histogram_sample(summary_pb.Summary.Histogram.FromString(self._serialized), check_limit=False)
        self._min, self._max = decoded.min, decoded.max
        self._buckets = decoded.buckets

    @property
    def buckets(self) -> np.ndarray:
        if self._buckets is None:
            self._decode()
        return self._buckets

    @property
    def min(self) -> float:
        if self._buckets is None:
            self._decode()
        return self._min

    @property
    def max(self) -> float:
        if self._buckets is None:
            self._decode()
        return self._max

    @property
    def count(self) -> int:
        return int(self.buckets[:, 2].sum()) if self.buckets.size else 0

    def __eq__(self, other) -> bool:
        if not isinstance(other, HistogramSample):
            return NotImplemented
        return (np.array_equal(self.buckets, other.buckets, equal_nan=True)
                and self.min == other.min and self.max == other.max)

    __hash__ = None

    def __repr__(self) -> str:
        return f"HistogramSample(buckets={len(self.buckets)}, min={self.min}, max={self.max})"


@dataclass
class TensorSample:
    """A tensor as stored; ``too_large`` when it exceeds the element limit (kept empty)."""

    proto: object
    dims: tuple
    data_type: int
    too_large: bool


@dataclass
class DecodedBatch:
    """Columns per (plugin, tag) in order of first appearance, graphs in arrival order.

    While decoding, columns are lists; ``finish`` turns them into numpy arrays.
    """

    series: dict = field(default_factory=dict)
    graphs: list = field(default_factory=list)      # (step, wall_time, GraphProto)
    undecodable: int = 0

    def column_lists(self, plugin: PluginName, tag: str, names) -> dict:
        key = (plugin, tag)
        lists = self.series.get(key)
        if lists is None:
            lists = self.series[key] = {name: [] for name in ("step", "wall_time", *names)}
        return lists

    def finish(self) -> "DecodedBatch":
        for key, columns in self.series.items():
            self.series[key] = {name: as_column(values) for name, values in columns.items()}
        return self


def as_column(values) -> np.ndarray:
    """A list of numbers, or of objects (kept as an object array, never broadcast)."""
    if isinstance(values, np.ndarray):
        return values
    if values and not isinstance(values[0], (int, float, np.number)):
        column = np.empty(len(values), dtype=object)
        column[:] = values
        return column
    return np.asarray(values)


def histogram_sample(histogram, check_limit: bool = True) -> HistogramSample | None:
    """Compact histogram, or None when it has more buckets than the original accepts."""
    if check_limit and len(histogram.buckets) > limits.MAX_HISTOGRAM_INPUT_BUCKETS:
        return None
    buckets = np.array([(b.left, b.width, b.count) for b in histogram.buckets], dtype=np.float64).reshape(-1, 3)
    if buckets.size:
        buckets = buckets[np.argsort(buckets[:, 0], kind="stable")]
    low = histogram.min if np.isfinite(histogram.min) else 0.0
    high = histogram.max if np.isfinite(histogram.max) else 0.0
    return HistogramSample(buckets, float(low), float(high))


def tensor_sample(tensor) -> TensorSample:
    dims = tuple(int(d) for d in tensor.dims)
    too_large = int(np.prod(dims, dtype=np.int64)) > limits.MAX_TENSOR_ELEMENTS if dims else False
    return TensorSample(None if too_large else tensor, dims, int(tensor.data_type), too_large)


# -- the full parse ---------------------------------------------------------------------

def decode_payloads(payloads, batch: DecodedBatch | None = None) -> DecodedBatch:
    """Parse every payload as an Event and group its values by plugin and tag (lists)."""
    batch = batch or DecodedBatch()
    _decode(payloads, batch, None, None)
    if batch.undecodable:
        logger.warning("%d records could not be decoded as events", batch.undecodable)
    return batch


def _decode(payloads, batch: DecodedBatch, records, first_seen) -> None:
    """The full parse. With ``records`` (record index per payload) every column dict also
    gets a ``_record`` list, and ``first_seen`` the (record, value position) of each key."""
    event = summary_pb.Event()
    series = batch.series
    fields = _FIELDS
    max_buckets = limits.MAX_HISTOGRAM_INPUT_BUCKETS
    for index, payload in enumerate(payloads):
        try:
            event.ParseFromString(payload)
        except DecodeError:
            batch.undecodable += 1
            continue
        kind = event.WhichOneof("what")
        if kind == "graph_def":
            batch.graphs.append((event.step, event.wall_time, summary_pb.Event.FromString(payload).graph_def))
            continue
        if kind != "summary":
            continue
        step, wall_time = event.step, event.wall_time
        record = None if records is None else records[index]
        for position, value in enumerate(event.summary.value):
            info = fields.get(value.WhichOneof("value"))
            if info is None:
                continue
            plugin, suffix, names = info
            if plugin is _HISTOGRAM:
                histogram = value.histogram
                if len(histogram.buckets) > max_buckets:
                    continue
            key = (plugin, value.tag + suffix)
            lists = series.get(key)
            if lists is None:
                lists = series[key] = {name: [] for name in names}
                if records is not None:
                    lists["_record"] = []
                    first_seen[key] = (record, position)
            lists["step"].append(step)
            lists["wall_time"].append(wall_time)
            if records is not None:
                lists["_record"].append(record)
            if plugin is _SCALAR:
                lists["value"].append(value.scalar_value)
            elif plugin is _IMAGE:
                image = value.image
                lists["width"].append(image.width)
                lists["height"].append(image.height)
                lists["image"].append(image.encoded_image)
            elif plugin is _HISTOGRAM:
                lists["histogram"].append(HistogramSample.from_serialized(histogram.SerializeToString()))
            elif plugin is PluginName.TENSOR:
                lists["tensor"].append(tensor_sample(_detached(summary_pb.Summary.Value, value).tensor))
            else:
                lists["landscape"].append(_detached(summary_pb.Summary.Value, value).loss_landscape)


def _detached(message_type, message):
    """A copy independent of the reused Event (which is overwritten by the next parse)."""
    return message_type.FromString(message.SerializeToString())


# -- fast path + full parse for the rest -------------------------------------------------

def decode_segments(segments, fast: bool = True) -> DecodedBatch:
    """Decode the records of ``segments`` (``records.Segment``) into finished columns.

    With ``fast`` the scalar fast path decodes what it can; the result equals
    ``decode_payloads`` over the same payloads followed by ``finish``.
    """
    batch = None
    for segment in segments:
        if fast:
            part = _decode_segment(segment)
        else:
            part = decode_payloads(segment.payloads()).finish()
        if batch is None:
            batch = part
            continue
        batch.undecodable += part.undecodable
        batch.graphs.extend(part.graphs)
        for key, columns in part.series.items():
            existing = batch.series.get(key)
            if existing is None:
                batch.series[key] = columns
            else:
                for name, column in columns.items():
                    existing[name] = np.concatenate((existing[name], column))
    return batch or DecodedBatch()


def _decode_segment(segment) -> DecodedBatch:
    buffer, offsets, lengths = segment.buffer, segment.offsets, segment.lengths
    matches, handled = fast_scalars.match_segment(buffer, offsets, lengths)
    if not matches:
        return decode_payloads(segment.payloads()).finish()
    batch = DecodedBatch()
    # pieces[key]: list of (record indices, columns) from templates and from the full parse
    pieces: dict = {}
    first_seen: dict = {}
    for match in matches:
        _template_pieces(match, pieces, first_seen)
    rest = np.flatnonzero(~handled)
    if rest.size:
        if segment.copies is not None:
            copies = segment.copies
            payloads = [copies[index] for index in rest.tolist()]
        else:
            payloads = [buffer[start:start + size]
                        for start, size in zip(offsets[rest].tolist(), lengths[rest].tolist())]
        slow_seen: dict = {}
        _decode(payloads, batch, rest.tolist(), slow_seen)
        if batch.undecodable:
            logger.warning("%d records could not be decoded as events", batch.undecodable)
        for key, lists in batch.series.items():
            records = np.asarray(lists.pop("_record"), dtype=np.int64)
            columns = {name: as_column(values) for name, values in lists.items()}
            pieces.setdefault(key, []).append((records, columns))
            first_seen[key] = min(first_seen.get(key, slow_seen[key]), slow_seen[key])
        batch.series = {}
    for key in sorted(pieces, key=first_seen.__getitem__):
        parts = pieces[key]
        if len(parts) == 1:
            batch.series[key] = parts[0][1]
        else:
            order = np.argsort(np.concatenate([records for records, _ in parts]), kind="stable")
            batch.series[key] = {name: np.concatenate([cols[name] for _, cols in parts])[order]
                                 for name in parts[0][1]}
    return batch


def _template_pieces(match, pieces: dict, first_seen: dict) -> None:
    """Per-tag columns of the records one template decoded."""
    template = match.template
    positions: dict = {}
    for position, tag in enumerate(template.tags):
        positions.setdefault(tag, []).append(position)
    first_record = int(match.records[0])
    with np.errstate(invalid="ignore"):   # a signalling NaN is quieted, as the full parse does
        as_double = match.values.astype(np.float64)
    for tag, where in positions.items():
        key = (PluginName.SCALAR, tag + _SCALAR_SUFFIX)
        if len(where) == 1:
            values = as_double[:, where[0]]
            records, steps, wall_times = match.records, match.steps, match.wall_times
        else:   # the same tag several times in one event: values in wire order per record
            values = as_double[:, where].reshape(-1)
            repeat = len(where)
            records, steps, wall_times = (np.repeat(column, repeat)
                                          for column in (match.records, match.steps, match.wall_times))
        pieces.setdefault(key, []).append((records, {"step": steps, "wall_time": wall_times, "value": values}))
        seen = (first_record, where[0])
        first_seen[key] = min(first_seen.get(key, seen), seen)
