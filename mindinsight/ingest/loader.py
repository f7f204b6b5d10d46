"""Incremental loader of one train job directory.

Each ``load`` call reads only bytes appended since the previous call (saved file offsets),
in bounded chunks, and hands decoded values to the job's ``JobData`` in batches. Rules
follow docs/FORMATS.md §5, with these decisions of ours:

* summary files are read in timestamp order, resuming in the latest file; TensorBoard event
  files (``*tfevents*``, docs/FORMATS.md §8) are a second series of their own, read in name
  order the same way, so a directory may hold both and both may grow at once;
* a partial record at the end of the newest file is the writer at work: it waits, and the
  job stays intact. A file that will not grow any more (a newer summary file exists, or it
  has been quiet for ``limits.DAMAGED_FILE_AGE_SECONDS``) is *final*: an incomplete end there
  is damage, skipped and counted, and reading moves on to the next file at once;
* ``is_integrity`` is false exactly when records were skipped as damaged (CRC mismatch,
  impossible length, a final file ending mid-record, a payload that is no event;
  ``corrupt_records`` counts them) or a file could not be read;
* a file that cannot be read (no permission, an I/O error, refused by ``format.files``) is
  named in ``unreadable_files`` and logged once; reading goes on with the next summary file.
  It is tried again when its listed state changes (a chmod changes its ctime): a skipped summary
  or ``.pb`` file then resets the job, an unreadable lineage file is tried on every load;
* anything already read that no longer matches the disk (a file vanished, replaced, cut
  shorter or rewritten, see ``format.records``) resets the job: it is re-read from scratch,
  so what is served always equals what is on disk after the next load;
* files are listed by ``discovery.job_files``: symlinks are followed only inside the base dir;
* what a summary file holds is decoded and stored by its kind (``ingest/kinds``), and so are
  the files a kind reads whole (``.pb`` graphs): those reload when a newer one appears.
"""

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from google.protobuf.message import DecodeError

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format import naming
from mindinsight.format.files import is_dir, read_bounded
from mindinsight.format.object_store import StoreUnavailable
from mindinsight.format.records import RecordReader
from mindinsight.ingest import lineage
from mindinsight.ingest.discovery import JobFile, job_files, real_root
from mindinsight.ingest.dropped_values import DroppedValues
from mindinsight.ingest.event_decoder import DecodedBatch, decode_segments
from mindinsight.ingest.job_data import JobData
from mindinsight.ingest.kinds import FILE_KINDS, KINDS
from mindinsight.ingest.kinds.base import Kind
from mindinsight.ingest.tb_decoder import TensorBoardDecoder

logger = logging.getLogger(__name__)


@dataclass
class LoadResult:
    """What one ``load`` call did."""

    bytes_read: int = 0
    records: int = 0
    corrupt: int = 0
    done: bool = True  # nothing left to read right now
    gone: bool = False  # the job dir no longer exists (deleted since the base dir was listed)


@dataclass
class EventFiles:
    """One series of record files in a job dir, read one after the other, resuming in the newest:
    which names belong to it, their reading order, the creation time a name carries (for restarts)
    and how a chunk of its records is decoded (``decode(segments, fast)``)."""

    matches: Callable[[str], bool]
    order: Callable[[list], list]
    timestamp: Callable[[str], int | None]
    decode: Callable
    current: str | None = None  # the file being read
    waiting: tuple | None = None  # (offset, final) where the last read stopped at a partial record
    reader: RecordReader | None = field(default=None, repr=False)

    def names(self, files) -> list[str]:
        return self.order([name for name in files if self.matches(name)])


def event_file_series() -> tuple[EventFiles, ...]:
    """The record-file series a job dir may hold: MindSpore summary files and TensorBoard event files."""
    return (
        EventFiles(naming.is_datavisual_file, naming.sort_summary_files, naming.summary_timestamp, decode_segments),
        EventFiles(
            naming.is_tfevents_file,
            naming.sort_tfevents_files,
            naming.tfevents_timestamp,
            TensorBoardDecoder().decode_segments,
        ),
    )


class JobLoader:
    """Keeps the file offsets of one job and feeds its ``JobData``."""

    def __init__(self, job_dir: str, verify_crc: bool = True, fast_path: bool = True, root: str | None = None):
        self.job_dir = job_dir
        self.root = real_root(root or job_dir)  # no file outside it is opened
        self.verify_crc = verify_crc
        self.fast_path = fast_path  # False: full protobuf parse of every record (same result)
        self.data = JobData()
        self.corrupt_records = 0  # records skipped as damaged since the last reset
        self.dropped = DroppedValues()  # values not kept since the last reset: kinds not shown, refused
        self._logged_unreadable: dict[str, str] = {}  # name -> reason last logged (kept over resets)
        self._reset_state()

    @property
    def is_integrity(self) -> bool:
        """False when damaged records were skipped or a file could not be read (a partial record
        still being written is not damage)."""
        return self.corrupt_records == 0 and not self._unreadable

    @property
    def unreadable_files(self) -> dict[str, str]:
        """Files of the job that could not be read: name -> reason (e.g. "Permission denied")."""
        return {name: reason for name, (reason, _mark) in sorted(self._unreadable.items())}

    def _reset_state(self) -> None:
        self._seen_files: set[str] = set()
        self._series = event_file_series()
        self._finished: dict[str, tuple] = {}  # summary files read to their end: name -> (inode, size, mtime)
        self._newest_file_mtime: dict = {}  # kind reading files whole -> mtime of the newest one read
        self._lineage_marks: dict[str, tuple] = {}
        # name -> (reason, listed state when it failed); replaced whole, never changed in place:
        # request threads read it (unreadable_files) while the loader works
        self._unreadable: dict[str, tuple] = {}
        self._lineage_failed: tuple | None = None  # (marks, failures) of the last lineage read that failed

    def reset(self) -> None:
        """Forget everything and re-read from scratch (a file vanished or changed)."""
        self.data = JobData()
        self.corrupt_records = 0
        self.dropped = DroppedValues()
        self._reset_state()

    # -- saving and resuming ----------------------------------------------------------

    def state(self) -> tuple[dict, dict] | None:
        """``(meta, arrays)``: where reading stands and what was derived, for ``restore`` in a
        later process; None when that cannot be resumed exactly (objects of a kind without a
        codec, unreadable files, a reader inside a damaged stretch)."""
        files = job_files(self.job_dir, self.root)
        if files is None or self._unreadable:
            return None
        if any(name not in files for name in self._seen_files):
            return None  # something vanished: the next load resets anyway
        series_states = []
        for series in self._series:
            reader = None
            if series.current is not None:
                reader = series.reader.state()
                if reader is None:
                    return None
            decoder = getattr(series.decode, "__self__", None)
            series_states.append(
                {
                    "current": series.current,
                    "waiting": series.waiting,
                    "reader": reader,
                    "decoder": decoder.state() if decoder is not None else None,
                }
            )
        data = self.data.state()
        if data is None:
            return None
        data_meta, arrays = data
        meta = {
            "files": {name: _identity(files[name]) for name in sorted(self._seen_files)},
            "finished": {name: list(mark) for name, mark in self._finished.items()},
            "series": series_states,
            # Files a kind reads whole (.pb graphs): the newest one read, as the next load compares.
            "whole_files": {plugin.value: mtime for plugin, mtime in self._newest_file_mtime.items()},
            "corrupt": self.corrupt_records,
            "dropped": self.dropped.state(),
            "data": data_meta,
        }
        return meta, arrays

    def restore(self, meta: dict, arrays: dict, files: dict[str, JobFile], full_scalars_later: bool = False) -> bool:
        """Resume from a ``state()`` when every file it read is still there, unchanged or only
        grown (``files``: the job's listing now); False leaves the loader as it was (read from
        scratch). A grown file's new bytes are read by the next ``load``, after the reader's own
        check that the bytes before its offset are still the ones read.

        ``full_scalars_later``: ``arrays`` lack the full scalar points (``FULL_SCALARS_PREFIX``);
        ``restore_full_scalars`` must take them before the next ``load``."""
        try:
            if not self._still_valid(meta, files):
                return False
            data = JobData()
            data.restore(meta["data"], arrays, full_scalars_later)
            whole_files = {PluginName(plugin): float(mtime) for plugin, mtime in meta["whole_files"].items()}
            dropped = DroppedValues()
            dropped.restore(meta["dropped"])
            series_list = event_file_series()
            for series, saved in zip(series_list, meta["series"], strict=True):
                decoder = getattr(series.decode, "__self__", None)
                if saved["decoder"] is not None and decoder is not None:
                    decoder.restore(saved["decoder"])
                if saved["current"] is None:
                    continue
                series.current = str(saved["current"])
                series.waiting = tuple(saved["waiting"]) if saved["waiting"] is not None else None
                series.reader = RecordReader(files[series.current].path, verify_crc=self.verify_crc, root=self.root)
                series.reader.restore(saved["reader"])
        except (KeyError, ValueError, TypeError, IndexError, AttributeError) as error:
            logger.warning("the saved state of %s does not fit (%s); reading it from its files", self.job_dir, error)
            return False
        self.reset()
        self.data = data
        self._series = series_list
        self._seen_files = set(meta["files"])
        self._finished = {name: tuple(mark) for name, mark in meta["finished"].items()}
        self._newest_file_mtime = whole_files
        self.corrupt_records = int(meta["corrupt"])
        self.dropped = dropped
        return True

    def restore_full_scalars(self, arrays: dict) -> bool:
        """Take the full scalar points a ``restore(..., full_scalars_later=True)`` left out;
        False (they do not fit) leaves the loader reset, to read the job from its files."""
        try:
            self.data.restore_full_scalars(arrays)
        except (KeyError, ValueError, TypeError, IndexError) as error:
            logger.warning("the saved points of %s do not fit (%s); reading it from its files", self.job_dir, error)
            self.reset()
            return False
        return True

    @staticmethod
    def _still_valid(meta: dict, files: dict[str, JobFile]) -> bool:
        """Every recorded file listed with the same identity and size; the file being read of a
        series may have grown (same inode, at least as long, and unchanged if just as long)."""
        currents = {s["current"]: s["reader"] for s in meta["series"] if s["current"] is not None}
        for name, recorded in meta["files"].items():
            file = files.get(name)
            if file is None:
                return False
            if name not in currents:
                if _identity(file) != recorded:
                    return False
                continue
            reader = currents[name]
            if file.inode != reader["inode"] or file.size < reader["offset"]:
                return False
            if file.size == recorded[0] and _identity(file) != recorded:
                return False
        return True

    # -- one pass ---------------------------------------------------------------------

    def load(self, max_bytes: int = limits.READ_CHUNK_BYTES, files: dict[str, JobFile] | None = None) -> LoadResult:
        """Read up to about ``max_bytes`` of new data; ``done`` tells whether more is waiting.
        ``files``: the job's files as a listing just taken found them (else listed here)."""
        result = self._load(max_bytes, files)
        refused = self.data.take_refused()  # by the tag limits, whichever kind of file held them
        if refused:
            self.dropped.add_dropped(refused)
        return result

    def _load(self, max_bytes: int, files: dict[str, JobFile] | None) -> LoadResult:
        result = LoadResult()
        if files is None:
            files = job_files(self.job_dir, self.root)
        if files is None:
            result.gone = not is_dir(self.job_dir)
            if not result.gone:
                logger.warning("cannot list %s", self.job_dir)
            return result
        if self._on_disk_changed(files):
            logger.info("a file of %s vanished or changed; reloading it from scratch", self.job_dir)
            self.reset()
        self._seen_files.update(files)
        for name in [name for name in self._logged_unreadable if name not in files]:
            del self._logged_unreadable[name]  # gone: a file of that name failing again is news
        self._load_lineage(files)
        for kind in FILE_KINDS:
            self._load_kind_files(kind, files)
        budget = max_bytes
        for series in self._series:
            before = result.bytes_read
            if self._load_summaries(series, files, budget, result):
                logger.info("%s changed under the reader; reloading %s from scratch", series.current, self.job_dir)
                self.reset()
                return LoadResult(done=False)
            budget -= result.bytes_read - before
            if budget <= 0:
                result.done = False
                break
        return result

    def _on_disk_changed(self, files: dict[str, JobFile]) -> bool:
        """Whether something already read vanished or changed, or an older summary file appeared."""
        if not self._seen_files.issubset(files):
            return True
        for name, mark in self._finished.items():
            file = files[name]
            if (file.inode, file.size, file.mtime_ns) != mark:
                return True
        currents = {series.current for series in self._series}
        for name, (_reason, mark) in self._unreadable.items():
            # A skipped file that changed (e.g. made readable) is read in its place, from scratch.
            if name not in currents and not naming.is_lineage_file(name) and _listed_state(files[name]) != mark:
                return True
        for series in self._series:
            if series.current is not None:
                ordered = series.names(files)
                if any(name not in self._seen_files for name in ordered[: ordered.index(series.current)]):
                    return True
        return False

    def _load_summaries(self, series: EventFiles, files: dict, max_bytes: int, result: LoadResult) -> bool:
        """Read the files of one series; True when the file being read was replaced (the caller resets)."""
        ordered = series.names(files)
        if not ordered:
            return False
        newest = ordered[-1]
        if series.current is not None and series.current in ordered:
            ordered = ordered[ordered.index(series.current) :]
        budget = max_bytes
        now = time.time()
        for name in ordered:
            file = files[name]
            if name != series.current:
                series.current, series.waiting = name, None
                series.reader = RecordReader(file.path, verify_crc=self.verify_crc, root=self.root)
            reader = series.reader
            final = name != newest or now - file.mtime > limits.DAMAGED_FILE_AGE_SECONDS
            listed = (file.inode, file.size, file.mtime_ns, file.etag)
            unchanged = listed == (reader.inode, reader.file_size, reader.mtime_ns, reader.etag)
            # A partial record already seen, in a file unchanged since, is not fetched again (on
            # an object store every read is a request).
            waiting = unchanged and series.waiting == (reader.offset, final)
            if (reader.offset < file.size and not waiting) or not unchanged:
                start = reader.offset
                try:
                    batch = reader.read(max_bytes=budget, final=final)
                except FileNotFoundError:  # gone since listed: the next load resets the job
                    return False
                except OSError as error:
                    self._mark_unreadable(name, files[name], error)
                    if name == newest or isinstance(error, StoreUnavailable):
                        return False  # tried again on the next load (a store may come back)
                    continue  # newer files hold data too: read on past this one
                self._mark_readable(name)
                if batch.replaced:
                    return True
                series.waiting = (reader.offset, final) if batch.partial_tail else None
                consumed = reader.offset - start
                result.bytes_read += consumed
                result.records += batch.count
                decoded = series.decode(batch.segments, self.fast_path)
                # A record whose checksum holds but which is no event is damaged too (a writer's
                # fault, or damage the CRC did not catch): skipped and counted alike.
                corrupt = batch.corrupt + decoded.undecodable
                result.corrupt += corrupt
                self.corrupt_records += corrupt
                if corrupt:
                    logger.warning("%s: skipped %d damaged records", file.path, corrupt)
                self._store(decoded, series.timestamp(name) or 0, name)
                budget -= consumed
                if not batch.end_of_data or (budget <= 0 and name != newest):
                    result.done = False
                    return False
            if name == newest or reader.offset < reader.file_size:
                return False  # the newest file, or an older one that shrank while read
            self._finished[name] = (reader.inode, reader.file_size, reader.mtime_ns)
        return False

    def _store(self, batch: DecodedBatch, file_ts: int, file_name: str) -> None:
        if batch.unshown:
            self.dropped.add_unshown(batch.unshown)
        if batch.rejected:
            self.dropped.add_dropped(batch.rejected)
        if batch.purge_from is not None:
            self.data.drop_from_step(batch.purge_from)
        for columns in batch.series.values():
            if "file_ts" not in columns:  # TensorBoard's decoder numbers sessions itself
                columns["file_ts"] = np.full(len(columns["step"]), file_ts, dtype=np.int64)
        self.data.add_batches(batch.series)
        for plugin, samples in batch.events.items():
            KINDS[plugin].events.store(self.data, file_name, samples, file_ts)

    def _load_kind_files(self, kind: Kind, files: dict[str, JobFile]) -> None:
        """Read the files ``kind`` reads whole that are newer than the newest one read."""
        source = kind.files
        newest = self._newest_file_mtime.get(kind.plugin, -1.0)
        stats = sorted((file.mtime, name) for name, file in files.items() if source.matches(name))
        for mtime, name in stats:
            if mtime <= newest:
                continue
            try:
                content = read_bounded(files[name].path, self.root, source.max_bytes)
            except OSError as error:
                self._mark_unreadable(name, files[name], error)
                continue
            self._mark_readable(name)
            try:
                sample = source.parse(content)
            except DecodeError as error:
                logger.warning("cannot parse %s file %s: %s", kind.plugin.value, name, error)
                continue
            source.store(self.data, name, mtime, sample)
        if stats:
            self._newest_file_mtime[kind.plugin] = max(newest, stats[-1][0])

    def _load_lineage(self, files: dict[str, JobFile]) -> None:
        names = naming.sort_summary_files([name for name in files if naming.is_lineage_file(name)])
        marks = {name: (files[name].size, files[name].mtime_ns) for name in names}
        if marks == self._lineage_marks:
            return
        parsed = lineage.parse_lineage_files([files[name].path for name in names], self.root)
        for name in names:
            reason = parsed.unreadable.get(files[name].path)
            if reason is None:
                self._mark_readable(name)
            else:
                self._mark_unreadable(name, files[name], OSError(None, reason))
        # With a file unread the marks are not kept: the next load tries again. The data is set
        # again only when that changed something (else every reload would be a new version).
        failed = (marks, sorted(parsed.unreadable.items())) if parsed.unreadable else None
        self._lineage_marks = {} if failed else marks
        if failed is None or failed != self._lineage_failed:
            self.data.set_lineage(parsed)
        self._lineage_failed = failed

    def _mark_unreadable(self, name: str, file: JobFile, error: OSError) -> None:
        """Name ``file`` as unreadable; log it when this is news (not on every reload)."""
        reason = error.strerror or str(error)
        self._unreadable = {**self._unreadable, name: (reason, _listed_state(file))}
        if self._logged_unreadable.get(name) != reason:
            self._logged_unreadable[name] = reason
            logger.warning("cannot read %s (%s); the rest of %s is read without it", file.path, reason, self.job_dir)

    def _mark_readable(self, name: str) -> None:
        if name in self._unreadable:
            self._unreadable = {key: value for key, value in self._unreadable.items() if key != name}
        if self._logged_unreadable.pop(name, None) is not None:
            logger.info("%s of %s can be read again", name, self.job_dir)


def _identity(file: JobFile) -> list:
    """Size and identity of a listed file: inode and mtime locally, ETag and mtime on a store."""
    return [file.size, file.mtime_ns, file.inode, file.etag]


def _listed_state(file: JobFile) -> tuple:
    """What changes when a file is rewritten, replaced or given other permissions (ctime)."""
    return file.inode, file.size, file.mtime_ns, file.ctime
