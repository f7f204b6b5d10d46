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
    rejected: Counter = field(default_factory=Counter)  # (plugin, tag, Rejected) -> values dropped
    unshown: Counter = field(default_factory=Counter)  # (plugin name, tag) -> values of a kind not shown
    # A restart announced in the batch (TensorBoard's SessionLog START): samples stored before
    # it with a step at or after this one are stale.
    purge_from: int | None = None

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
                rejected[(kind.plugin, value.tag + suffix, sample)] += 1
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
        logger.warning("dropped %d %s values of tag %r: %s", count, plugin.value, tag, reason.reason)
    batch.rejected.update(rejected)


# -- fast path + full parse for the rest -------------------------------------------------


def decode_segments(segments, fast: bool = True) -> DecodedBatch:
    """Decode the records of ``segments`` (``records.Segment``) into finished columns.

    With ``fast`` the scalar fast path decodes what it can; the result equals
    ``decode_payloads`` over the same payloads followed by ``finish``.
    """
    parts = []
    for segment in segments:
        part = _decode_segment(segment) if fast else None
        parts.append(part or decode_payloads(segment.payloads()).finish())
    return merge_batches(parts)


def merge_batches(parts) -> DecodedBatch:
    """One finished batch of the finished ``parts`` (in record order). A part's ``purge_from``
    drops the samples of the parts before it at or after that step, and stays for the stored ones."""
    batch = None
    for part in parts:
        if batch is None:
            batch = part
            continue
        if part.purge_from is not None:
            _drop_from(batch, part.purge_from)
        batch.undecodable += part.undecodable
        batch.rejected.update(part.rejected)
        batch.unshown.update(part.unshown)
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


def _drop_from(batch: DecodedBatch, step: int) -> None:
    for key, columns in list(batch.series.items()):
        keep = columns["step"] < step
        if not keep.any():
            del batch.series[key]
        elif not keep.all():
            batch.series[key] = {name: column[keep] for name, column in columns.items()}
    batch.purge_from = step if batch.purge_from is None else min(batch.purge_from, step)


def _decode_segment(segment) -> DecodedBatch | None:
    return decode_segment_fast(segment, _decode_rest, fast_scalars.MINDSPORE_SCALAR_KEY, _SCALAR_SUFFIX)


def _decode_rest(payloads, batch: DecodedBatch, records, first_seen) -> None:
    _decode(payloads, batch, records, first_seen)
    if batch.undecodable:
        logger.warning("%d records could not be decoded as events", batch.undecodable)


def decode_segment_fast(segment, decode_rest, scalar_key: int, tag_suffix: str, template_columns=None):
    """The records of ``segment`` decoded by the scalar fast path (``fast_scalars``, floats keyed
    ``scalar_key``, tags + ``tag_suffix``) and ``decode_rest`` for the others, merged as one full
    parse would give them; None when no record has the fast path's shape.

    ``decode_rest(payloads, batch, records, first_seen)`` is a full parse that also keeps each
    value's record index (``_record`` lists) and each key's first (record, value position);
    ``template_columns(records)`` gives further columns of the fast path's samples.
    """
    buffer, offsets, lengths = segment.buffer, segment.offsets, segment.lengths
    matches, handled = fast_scalars.match_segment(buffer, offsets, lengths, scalar_key)
    if not matches:
        return None
    batch = DecodedBatch()
    # pieces[key]: list of (record indices, columns) from templates and from the full parse
    pieces: dict = {}
    first_seen: dict = {}
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
        decode_rest(payloads, batch, rest.tolist(), slow_seen)
        # Each key's lists are let go as its arrays are made: a batch of many thousand tags
        # never holds both whole.
        series, batch.series = batch.series, {}
        while series:
            key, lists = series.popitem()
            records = np.asarray(lists.pop("_record"), dtype=np.int64)
            columns = {name: as_column(values) for name, values in lists.items()}
            pieces.setdefault(key, []).append((records, columns))
            first_seen[key] = min(first_seen.get(key, slow_seen[key]), slow_seen[key])
    for match in matches:  # after the rest, which tells template_columns what it needs
        _template_pieces(match, pieces, first_seen, tag_suffix, template_columns)
    for key in sorted(pieces, key=first_seen.__getitem__):
        parts = pieces[key]
        if len(parts) == 1:
            batch.series[key] = parts[0][1]
        else:
            order = np.argsort(np.concatenate([records for records, _ in parts]), kind="stable")
            batch.series[key] = {name: np.concatenate([cols[name] for _, cols in parts])[order] for name in parts[0][1]}
    return batch


def _template_pieces(match, pieces: dict, first_seen: dict, tag_suffix: str, template_columns) -> None:
    """Per-tag columns of the records one template decoded (a value named "" is not kept)."""
    template = match.template
    positions: dict = {}
    for position, tag in enumerate(template.tags):
        positions.setdefault(tag, []).append(position)
    first_record = int(match.records[0])
    with np.errstate(invalid="ignore"):  # a signalling NaN is quieted, as the full parse does
        as_double = match.values.astype(np.float64)
    for tag, where in positions.items():
        if not tag + tag_suffix:
            continue
        key = (PluginName.SCALAR, tag + tag_suffix)
        if len(where) == 1:
            values = as_double[:, where[0]]
            records, steps, wall_times = match.records, match.steps, match.wall_times
        else:  # the same tag several times in one event: values in wire order per record
            values = as_double[:, where].reshape(-1)
            repeat = len(where)
            records, steps, wall_times = (
                np.repeat(column, repeat) for column in (match.records, match.steps, match.wall_times)
            )
        columns = {"step": steps, "wall_time": wall_times, "value": values}
        if template_columns is not None:
            columns.update(template_columns(records))
        pieces.setdefault(key, []).append((records, columns))
        seen = (first_record, where[0])
        first_seen[key] = min(first_seen.get(key, seen), seen)
