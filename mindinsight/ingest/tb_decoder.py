"""Decode the records of TensorBoard event files (``*tfevents*``) into per-tag column batches.

The payload of each record is a TensorBoard ``Event`` (``proto/tensorboard_event.proto``). Each
``Summary.Value`` goes to the kind registered for its value field or, for a ``tensor``, for its
plugin name (``ingest/kinds``, ``TensorBoardValues``); tags keep the names the writer gave them.
An ``Event`` field a kind declares (``graph_def``) gives a whole-event sample, as in MindSpore's.
The result is the ``DecodedBatch`` the MindSpore decoder gives, so the loader stores both alike.

One decoder reads one run's event files in order and is kept between calls: writers may attach
a tag's plugin name to its first value only, so the decoder remembers it.

Restarts follow TensorBoard's purge rule. A writer starts every file with a ``file_version``
event, and a restarted TF1 session logs ``SessionLog`` ``START``: each opens a new *session*,
numbered in reading order and stored as the samples' ``file_ts``. A sample whose step is not
above the tag's kept latest one then drops the kept samples of earlier sessions at or after its
step (``Reservoir``'s restart rule), while steps going back within one session drop only their
equal step. A ``START`` also drops at once every sample at or after its own step: those in the
batch, and those stored before through ``purge_from``.
"""

import logging
from collections import Counter

import numpy as np
from google.protobuf.message import DecodeError

from mindinsight.format.proto import tensorboard_event_pb2 as tb_pb
from mindinsight.ingest import fast_scalars, tb_hparams
from mindinsight.ingest.event_decoder import DecodedBatch, decode_segment_fast, merge_batches
from mindinsight.ingest.kinds import TB_BY_EVENT_FIELD, TB_BY_TENSOR_PLUGIN, TB_BY_VALUE_FIELD
from mindinsight.ingest.kinds.base import Rejected

logger = logging.getLogger(__name__)

_START = tb_pb.SessionLog.START
MAX_REMEMBERED_TAGS = 100_000  # tag -> plugin name entries kept per run


class _SessionStart(Exception):
    """A SessionLog START met on the fast path: the segment is decoded again in full, in order."""


class TensorBoardDecoder:
    """Decodes the event records of one run, remembering each tag's plugin name."""

    def __init__(self):
        self._plugins: dict[str, str] = {}  # tag -> plugin name from its metadata
        self._session = 0  # file_version and SessionLog START events read so far

    def state(self) -> dict:
        """What the decoder remembers between chunks, to resume in another process."""
        return {"plugins": dict(self._plugins), "session": self._session}

    def restore(self, state: dict) -> None:
        self._plugins = {str(tag): str(plugin) for tag, plugin in state["plugins"].items()}
        self._session = int(state["session"])

    def decode_segments(self, segments, fast: bool = True) -> DecodedBatch:
        """Decode the records of ``segments`` (``records.Segment``) into finished columns.

        With ``fast`` the scalar fast path (``fast_scalars``) decodes the plain ``simple_value``
        events; the result equals the full parse of the same records.
        """
        parts = []
        for segment in segments:
            part = self._decode_fast(segment) if fast else None
            parts.append(part or self.decode_payloads(segment.payloads(), DecodedBatch()).finish())
        batch = merge_batches(parts)
        if batch.undecodable:
            logger.warning("%d records could not be decoded as TensorBoard events", batch.undecodable)
        return batch

    def _decode_fast(self, segment) -> DecodedBatch | None:
        session, plugins = self._session, dict(self._plugins)
        opens: list[int] = []  # records (segment indices) that opened a session, ascending

        def decode_rest(payloads, batch, records, first_seen):
            self._decode(payloads, batch, records, first_seen, opens)

        def sessions(records: np.ndarray) -> dict:
            return {"file_ts": session + np.searchsorted(np.asarray(opens, dtype=np.int64), records)}

        try:
            scalar_key = fast_scalars.TENSORBOARD_SCALAR_KEY
            return decode_segment_fast(segment, decode_rest, scalar_key, "", sessions)
        except _SessionStart:  # its purge needs the records in order: decode them all again
            self._session, self._plugins = session, plugins
            return None

    def decode_payloads(self, payloads, batch: DecodedBatch) -> DecodedBatch:
        """Parse every payload as a TensorBoard Event into ``batch`` (column lists)."""
        self._decode(payloads, batch, None, None, None)
        return batch

    def _decode(self, payloads, batch: DecodedBatch, records, first_seen, opens) -> None:
        """The full parse. With ``records`` (record index per payload) every column dict also
        gets a ``_record`` list, ``first_seen`` the (record, value position) of each key and
        ``opens`` the records that open a session; a START then raises ``_SessionStart``."""
        event = tb_pb.Event()
        rejected: Counter = Counter()
        for index, payload in enumerate(payloads):
            try:
                event.ParseFromString(payload)
            except DecodeError:
                batch.undecodable += 1
                continue
            what = event.WhichOneof("what")
            if what == "summary":
                record = None if records is None else records[index]
                self._add_summary(event, batch, rejected, record, first_seen)
            elif what == "file_version":
                self._session += 1
                if opens is not None:
                    opens.append(records[index])
            elif what in TB_BY_EVENT_FIELD:  # a whole-event sample: a graph
                kind, decode = TB_BY_EVENT_FIELD[what]
                sample = decode(event)
                if isinstance(sample, Rejected):
                    rejected[(kind.plugin, what, sample)] += 1
                else:
                    batch.events.setdefault(kind.plugin, []).append((event.step, event.wall_time, sample))
            elif what == "session_log" and event.session_log.status == _START:
                if opens is not None:
                    raise _SessionStart
                self._session += 1
                _purge(batch, event.step)
            elif what == "tagged_run_metadata":  # step stats (torch's add_graph writes one): not shown
                batch.unshown[("run_metadata", event.tagged_run_metadata.tag)] += 1
            elif what == "meta_graph_def":  # TF1's MetaGraphDef beside its GraphDef: not shown
                batch.unshown[("meta_graph_def", "")] += 1
        for (plugin, tag, reason), count in rejected.items():
            logger.warning("dropped %d %s values of tag %r: %s", count, plugin.value, tag, reason.reason)
        batch.rejected.update(rejected)

    def _add_summary(self, event, batch: DecodedBatch, rejected: Counter, record, first_seen) -> None:
        step, wall_time, session = event.step, event.wall_time, self._session
        plugins = self._plugins
        series = batch.series
        for position, value in enumerate(event.summary.value):
            tag = value.tag or value.node_name
            if not tag:
                continue
            plugin_name = value.metadata.plugin_data.plugin_name if value.HasField("metadata") else ""
            if plugin_name:
                if tag not in plugins and len(plugins) >= MAX_REMEMBERED_TAGS:
                    plugins.pop(next(iter(plugins)))
                plugins[tag] = plugin_name
            field = value.WhichOneof("value")
            if field == "tensor":
                plugin_name = plugin_name or plugins.get(tag, "")
                found = TB_BY_TENSOR_PLUGIN.get(plugin_name)
            else:
                found = TB_BY_VALUE_FIELD.get(field)
            if found is None:
                # A kind not shown (PR curves, meshes, audio ...): counted for the user to see.
                # The hparams plugin's values are read apart (tb_hparams) for the lineage pages.
                if field is not None and plugin_name != tb_hparams.PLUGIN_NAME:
                    batch.unshown[(plugin_name if field == "tensor" and plugin_name else field, tag)] += 1
                continue
            kind, decode = found
            sample = decode(value)
            if sample is None:
                continue
            if isinstance(sample, Rejected):
                rejected[(kind.plugin, tag, sample)] += 1
                continue
            key = (kind.plugin, tag)
            lists = series.get(key)
            if lists is None:
                lists = batch.column_lists(kind.plugin, tag, ("file_ts", *kind.payload))
                if record is not None:
                    lists["_record"] = []
                    first_seen[key] = (record, position)
            lists["step"].append(step)
            lists["wall_time"].append(wall_time)
            lists["file_ts"].append(session)
            if record is not None:
                lists["_record"].append(record)
            for name, item in zip(kind.payload, sample):
                lists[name].append(item)


def _purge(batch: DecodedBatch, step: int) -> None:
    """A restart at ``step``: drop the batch's samples at or after it, and mark the stored ones."""
    for key, columns in list(batch.series.items()):
        keep = [index for index, kept_step in enumerate(columns["step"]) if kept_step < step]
        if not keep:
            del batch.series[key]
        elif len(keep) != len(columns["step"]):
            for name, values in columns.items():
                columns[name] = [values[index] for index in keep]
    batch.purge_from = step if batch.purge_from is None else min(batch.purge_from, step)
