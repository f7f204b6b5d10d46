"""Incremental loader of one train job directory.

Each ``load`` call reads only bytes appended since the previous call (saved file offsets),
in bounded chunks, and hands decoded values to the job's containers in batches. Rules
follow file-formats.md section 5: summary files in timestamp order, resuming in the latest
file; a vanished file resets the job; a partial tail waits for the writer unless the file
has been quiet for 10 minutes; ``.pb`` graphs reload when a newer one appears.
"""
import logging
import os
import time
from dataclasses import dataclass

import numpy as np
from google.protobuf.message import DecodeError

from mindinsight.conf import limits
from mindinsight.conf.plugins import OPTIMIZED_GRAPH_SUFFIX, PluginName
from mindinsight.format import naming
from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir
from mindinsight.format.records import RecordReader
from mindinsight.ingest import lineage
from mindinsight.ingest.containers import JobData
from mindinsight.ingest.event_decoder import DecodedBatch, as_column, decode_segments

logger = logging.getLogger(__name__)


@dataclass
class LoadResult:
    """What one ``load`` call did."""

    bytes_read: int = 0
    records: int = 0
    corrupt: int = 0
    done: bool = True          # nothing left to read right now


class JobLoader:
    """Keeps the file offsets of one job and feeds its ``JobData``."""

    def __init__(self, job_dir: str, verify_crc: bool = True, fast_path: bool = True):
        self.job_dir = job_dir
        self.verify_crc = verify_crc
        self.fast_path = fast_path   # False: full protobuf parse of every record (same result)
        self.data = JobData()
        self.is_integrity = True
        self.corrupt_records = 0
        self._reset_state()

    def _reset_state(self) -> None:
        self._seen_files: set[str] = set()
        self._reader: RecordReader | None = None
        self._current: str | None = None
        self._damaged: set[str] = set()
        self._newest_pb_mtime = -1.0
        self._summary_graph_tags: set[str] = set()
        self._lineage_sizes: dict[str, int] = {}

    def reset(self) -> None:
        """Forget everything and re-read from scratch (a file vanished)."""
        self.data = JobData()
        self.is_integrity = True
        self._reset_state()

    # -- one pass ---------------------------------------------------------------------

    def load(self, max_bytes: int = limits.READ_CHUNK_BYTES) -> LoadResult:
        """Read up to about ``max_bytes`` of new data; ``done`` tells whether more is waiting."""
        result = LoadResult()
        try:
            names = [e.name for e in os.scandir(self.job_dir) if e.is_file(follow_symlinks=False)]
        except OSError as error:
            logger.warning("cannot list %s: %s", self.job_dir, error)
            return result
        if not self._seen_files.issubset(names):
            logger.info("a file of %s vanished; reloading it from scratch", self.job_dir)
            self.reset()
        self._seen_files.update(names)
        self._load_lineage(names)
        self._load_pb_graphs(names)
        self._load_summaries(names, max_bytes, result)
        return result

    def _load_summaries(self, names, max_bytes: int, result: LoadResult) -> None:
        ordered = naming.sort_summary_files([n for n in names if naming.is_datavisual_file(n)])
        if self._current is not None and self._current in ordered:
            ordered = ordered[ordered.index(self._current):]
        budget = max_bytes
        for name in ordered:
            if name in self._damaged:
                continue
            if name != self._current:
                self._current = name
                self._reader = RecordReader(os.path.join(self.job_dir, name), verify_crc=self.verify_crc)
            reader = self._reader
            path = reader.path
            try:
                size = os.path.getsize(path)
                if reader.offset >= size:
                    continue
                start = reader.offset
                batch = reader.read(max_bytes=budget)
            except OSError as error:
                logger.warning("cannot read %s: %s", path, error)
                result.done = True
                return
            result.bytes_read += reader.offset - start
            result.records += batch.count
            result.corrupt += batch.corrupt
            self.corrupt_records += batch.corrupt
            if batch.corrupt:
                logger.warning("%s: skipped %d damaged records", path, batch.corrupt)
            self._store(decode_segments(batch.segments, self.fast_path), name)
            budget -= reader.offset - start
            if batch.partial_tail:
                if time.time() - os.path.getmtime(path) > limits.DAMAGED_FILE_AGE_SECONDS:
                    logger.warning("%s ends in a partial record and stopped growing; giving it up", path)
                    self._damaged.add(name)
                    self.is_integrity = False
                    continue
                self.is_integrity = False
                return
            self.is_integrity = not self._damaged
            if not batch.end_of_data or budget <= 0:
                result.done = False
                return

    def _store(self, batch: DecodedBatch, file_name: str) -> None:
        file_ts = naming.summary_timestamp(file_name) or 0
        for (plugin, tag), columns in batch.series.items():
            columns["file_ts"] = np.full(len(columns["step"]), file_ts, dtype=np.int64)
            self.data.add_batch(plugin, tag, columns)
        if batch.graphs:
            # Only the newest summary-file graph survives (pb graphs are unaffected).
            stale = self._summary_graph_tags
            self.data.remove_tags(PluginName.GRAPH, keep=lambda tag: tag not in stale)
            self.data.remove_tags(PluginName.OPTIMIZED_GRAPH,
                                  keep=lambda tag: tag.removesuffix(OPTIMIZED_GRAPH_SUFFIX) not in stale)
            self._summary_graph_tags = {file_name}
            step, wall_time, graph = batch.graphs[-1]
            self._add_graph(file_name, step, wall_time, graph, file_ts)

    def _add_graph(self, tag: str, step: int, wall_time: float, graph, file_ts: int = 0) -> None:
        for plugin, name in ((PluginName.GRAPH, tag), (PluginName.OPTIMIZED_GRAPH, tag + OPTIMIZED_GRAPH_SUFFIX)):
            self.data.remove_tags(plugin, keep=lambda t, n=name: t != n)
            self.data.add_batch(plugin, name, {
                "step": [step], "wall_time": [wall_time], "file_ts": [file_ts], "graph": as_column([graph])})

    def _load_pb_graphs(self, names) -> None:
        pbs = [n for n in names if naming.is_graph_pb_file(n)]
        stats = []
        for name in pbs:
            try:
                stats.append((os.path.getmtime(os.path.join(self.job_dir, name)), name))
            except OSError:
                continue
        for mtime, name in sorted(stats):
            if mtime <= self._newest_pb_mtime:
                continue
            try:
                with open(os.path.join(self.job_dir, name), "rb") as stream:
                    model = anf_ir.ModelProto.FromString(stream.read())
            except (OSError, DecodeError) as error:
                logger.warning("cannot parse graph file %s: %s", name, error)
                continue
            self._add_graph(name, 0, mtime, model.graph)
        if stats:
            self._newest_pb_mtime = max(self._newest_pb_mtime, max(stats)[0])

    def _load_lineage(self, names) -> None:
        files = naming.sort_summary_files([n for n in names if naming.is_lineage_file(n)])
        sizes = {}
        for name in files:
            try:
                sizes[name] = os.path.getsize(os.path.join(self.job_dir, name))
            except OSError:
                continue
        if sizes == self._lineage_sizes:
            return
        self._lineage_sizes = sizes
        self.data.set_lineage(lineage.parse_lineage_files([os.path.join(self.job_dir, n) for n in sizes]))
