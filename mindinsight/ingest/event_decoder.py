"""Decode framed event payloads into per-tag column batches.

Two ways to the same result:

* ``decode_payloads`` is the full protobuf parse (upb) of every payload: the reference.
* ``decode_segments`` first lets ``fast_scalars`` decode every record that has the common
  scalar-event shape (numpy over many records at once) and decodes the rest with the full
  parse, then merges both so the batch is *identical* to the full parse's: same keys in
  the same order (first appearance), same columns, same values in record order.

Values are grouped by (plugin, tag) so each tag's reservoir receives one batch per chunk;
kinds that arrive as whole ``Event`` fields (graphs) are gathered per kind. Each kind decodes
its own values (``ingest/kinds``): image bytes are copied as stored, histograms keep their
serialized bytes and tensors their TensorProto message, each decoded only when asked for.
"""

import logging
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from google.protobuf.message import DecodeError

from mindinsight.conf.plugins import PluginName
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.ingest import fast_scalars
from mindinsight.ingest.kinds import BY_EVENT_FIELD, BY_VALUE_FIELD
from mindinsight.ingest.kinds.base import Rejected, as_column

logger = logging.getLogger(__name__)

# Summary.Value oneof field -> (kind, tag suffix, column names)
_FIELDS = {name: (kind, kind.tag_suffix, ("step", "wall_time", *kind.payload)) for name, kind in BY_VALUE_FIELD.items()}
_SCALAR_SUFFIX = "/" + PluginName.SCALAR.value


@dataclass
class DecodedBatch:
    """Columns per (plugin, tag) in order of first appearance; whole-event samples per plugin,
    in arrival order.

    While decoding, columns are lists; ``finish`` turns them into numpy arrays.
    """

    series: dict = field(default_factory=dict)
    events: dict = field(default_factory=dict)  # plugin -> [(step, wall_time, sample)]
    undecodable: int = 0
    rejected: Counter = field(default_factory=Counter)  # (plugin, tag, reason) -> values dropped

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
    event_kinds = BY_EVENT_FIELD
    payload_columns: dict = {}  # key -> the payload lists of that key, in the kind's order
    rejected: Counter = Counter()
    for index, payload in enumerate(payloads):
        try:
            event.ParseFromString(payload)
        except DecodeError:
            batch.undecodable += 1
            continue
        what = event.WhichOneof("what")
        if what != "summary":
            kind = event_kinds.get(what)
            if kind is not None:
                sample = (event.step, event.wall_time, kind.events.decode(event, payload))
                batch.events.setdefault(kind.plugin, []).append(sample)
            continue
        step, wall_time = event.step, event.wall_time
        record = None if records is None else records[index]
        for position, value in enumerate(event.summary.value):
            info = fields.get(value.WhichOneof("value"))
            if info is None:
                continue
            kind, suffix, names = info
            sample = kind.decode(value)
            if sample is None:
                continue
            if isinstance(sample, Rejected):
                rejected[(kind.plugin, value.tag + suffix, sample.reason)] += 1
                continue
            key = (kind.plugin, value.tag + suffix)
            lists = series.get(key)
            if lists is None:
                lists = series[key] = {name: [] for name in names}
                if records is not None:
                    lists["_record"] = []
                    first_seen[key] = (record, position)
            columns = payload_columns.get(key)
            if columns is None:
                columns = payload_columns[key] = [lists[name] for name in names[2:]]
            lists["step"].append(step)
            lists["wall_time"].append(wall_time)
            if records is not None:
                lists["_record"].append(record)
            for column, item in zip(columns, sample):
                column.append(item)
    for (plugin, tag, reason), count in rejected.items():
        logger.warning("dropped %d %s values of tag %r: %s", count, plugin.value, tag, reason)
    batch.rejected.update(rejected)


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
        batch.rejected.update(part.rejected)
        for plugin, samples in part.events.items():
            batch.events.setdefault(plugin, []).extend(samples)
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
            payloads = [
                buffer[start : start + size] for start, size in zip(offsets[rest].tolist(), lengths[rest].tolist())
            ]
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
            batch.series[key] = {name: np.concatenate([cols[name] for _, cols in parts])[order] for name in parts[0][1]}
    return batch


def _template_pieces(match, pieces: dict, first_seen: dict) -> None:
    """Per-tag columns of the records one template decoded."""
    template = match.template
    positions: dict = {}
    for position, tag in enumerate(template.tags):
        positions.setdefault(tag, []).append(position)
    first_record = int(match.records[0])
    with np.errstate(invalid="ignore"):  # a signalling NaN is quieted, as the full parse does
        as_double = match.values.astype(np.float64)
    for tag, where in positions.items():
        key = (PluginName.SCALAR, tag + _SCALAR_SUFFIX)
        if len(where) == 1:
            values = as_double[:, where[0]]
            records, steps, wall_times = match.records, match.steps, match.wall_times
        else:  # the same tag several times in one event: values in wire order per record
            values = as_double[:, where].reshape(-1)
            repeat = len(where)
            records, steps, wall_times = (
                np.repeat(column, repeat) for column in (match.records, match.steps, match.wall_times)
            )
        pieces.setdefault(key, []).append((records, {"step": steps, "wall_time": wall_times, "value": values}))
        seen = (first_record, where[0])
        first_seen[key] = min(first_seen.get(key, seen), seen)
