"""Lineage of every listed train job (not only the cached ones), kept up to date lazily.

``refresh()`` walks the data manager's brief list: a job whose brief is unchanged keeps its
parsed lineage; for any other job with lineage files the store lists them and re-parses only
when their names, sizes or modification times changed. Queries call ``snapshot()``, which
refreshes first, so a query sees every job listed at that moment; with nothing changed a
refresh is one comparison per job. A server also refreshes in the background (``start``),
so the parsing is usually done before anyone asks. A job whose lineage file could not be read
is parsed again on every refresh until it can (its failure logged once), not kept as it was.

The parsed lineage is also kept in the persistent index (``cache/job_index.py``) with the
files it came from: after a restart, a job whose lineage files are the same (names, sizes,
modification times) takes its lineage from there instead of parsing them again.

A TensorBoard run without lineage files is a row when it is an hparams session
(``cache/tb_lineage.py``); it is looked at again when its brief, or that of a run its row was
read from, changes.

Users' tags and remarks (``added_info``) live in a database (``EditsDatabase``): the background
thread polls it once per pass, queries answer what it last read.
"""

import json
import logging
import math
import threading
import time
from dataclasses import asdict, dataclass

from mindinsight.cache.data_manager import DataManager
from mindinsight.cache.edits_database import EditsDatabase
from mindinsight.cache.tb_lineage import HParamsRuns
from mindinsight.conf import limits
from mindinsight.format import naming
from mindinsight.ingest.discovery import SummaryDirInfo, job_files, real_root
from mindinsight.ingest.lineage import LineageDicts, lineage_dicts, parse_lineage_files

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LineageRecord:
    """One job's parsed lineage and the lineage files it was parsed from."""

    train_id: str
    update_time: float
    dicts: LineageDicts
    files: tuple  # ((name, size, mtime_ns), ...)
    complete: bool = True  # False: a file could not be read (the record is re-parsed)
    depends: tuple = ()  # a TensorBoard session's ((train_id, brief or None), ...) it was read from


@dataclass(frozen=True)
class LineageSnapshot:
    """Every job with lineage, newest update first, and each one's dataset mark."""

    records: tuple[LineageRecord, ...]
    dataset_marks: dict[str, str]
    added_info: dict[str, dict]


class LineageStore:
    """Parsed lineage of the jobs ``manager`` lists; tags and remarks kept in ``edits``."""

    def __init__(self, manager: DataManager, edits: EditsDatabase):
        self.manager = manager
        self.added_info = edits
        self._lock = threading.Lock()
        self._briefs: dict[str, SummaryDirInfo] = {}
        self._records: dict[str, LineageRecord] = {}
        self._snapshot = LineageSnapshot((), {}, {})
        self._logged_unreadable: dict[str, dict] = {}  # train_id -> {path: reason} last logged
        self._hparams = HParamsRuns()
        self._index = manager.index if manager.index is not None and manager.index.usable else None
        # train_id -> (files, dicts) the index keeps, read at the first refresh; the dicts are let
        # go (None) once a record holds them.
        self._indexed: dict[str, tuple] | None = None

    def start(self, interval: float) -> None:
        """Refresh in a daemon thread every ``interval`` s (0: once), so the first lineage
        query after start or after new files does not wait for the parsing."""
        thread = threading.Thread(target=self._run, args=(interval,), name="mindinsight-lineage", daemon=True)
        thread.start()

    def _run(self, interval: float) -> None:
        # The jobs' first loading pass goes first: on a restart it serves the first charts from
        # the index in a fraction of a second, which this thread's first work (importing
        # SQLAlchemy, reading the edits, parsing lineage) would double by taking the GIL.
        # A lineage answer meanwhile waits for the edits' first read as it would for this one.
        self.added_info.expect_first_poll()
        self.manager.wait_first_pass(limits.LINEAGE_START_WAIT_SECONDS)
        while True:
            # Never in a query: a database that is down delays only this thread.
            self.added_info.poll()
            try:
                self.refresh()
            except Exception:  # the loop must survive any bad file or bug in one pass
                logger.exception("lineage refresh failed")
            if interval <= 0:
                return
            time.sleep(interval)

    def snapshot(self) -> LineageSnapshot:
        """The lineage of every listed job, refreshed first."""
        self.refresh()
        snapshot = self._snapshot
        return LineageSnapshot(snapshot.records, snapshot.dataset_marks, self.added_info.all())

    def record(self, train_id: str) -> LineageRecord | None:
        """One job's lineage (refreshed first), None when the job has none."""
        self.refresh()
        return self._records.get(train_id)

    def refresh(self) -> None:
        """Re-parse the lineage of jobs whose lineage files changed; drop vanished jobs."""
        briefs = self.manager.briefs()
        with self._lock:
            if self._indexed is None:
                self._indexed = self._index.read_lineage() if self._index is not None else {}
            changed = False
            records = {}
            by_id = {info.train_id: info for info in briefs}
            for info in briefs:
                record = self._records.get(info.train_id)
                unchanged = self._briefs.get(info.train_id) == info
                if record is not None and record.complete and unchanged and _same(record.depends, by_id):
                    records[info.train_id] = record
                    continue
                if record is None and unchanged and info.lineage_files == 0:
                    continue  # TensorBoard runs: looked at when their files change
                fresh = self._load(info, record, by_id)
                changed = changed or fresh is not record
                if fresh is not None:
                    records[info.train_id] = fresh
            changed = changed or set(records) != set(self._records)
            self._briefs = by_id
            self._hparams.forget(by_id)
            self._keep_in_index(records)
            self._records = records
            if changed or [r.train_id for r in self._snapshot.records] != list(records):
                self._snapshot = LineageSnapshot(tuple(records.values()), _dataset_marks(records.values()), {})

    def _load(self, info: SummaryDirInfo, previous: LineageRecord | None, by_id: dict) -> LineageRecord | None:
        root = real_root(self.manager.summary_base_dir)
        if info.lineage_files == 0:
            return self._load_hparams(info, by_id, root) if info.tfevents_files else None
        listed = job_files(info.path, root) or {}
        names = naming.sort_summary_files(name for name in listed if naming.is_lineage_file(name))
        files = tuple((name, listed[name].size, listed[name].mtime_ns) for name in names)
        if previous is not None and previous.complete and previous.files == files:
            if previous.update_time == info.update_time:
                return previous
            return LineageRecord(info.train_id, info.update_time, previous.dicts, files)
        kept = self._indexed.get(info.train_id)
        if previous is None and kept is not None and kept[0] == files and kept[1] is not None:
            self._indexed[info.train_id] = (files, None)  # the record holds the dicts from now on
            try:
                return LineageRecord(info.train_id, info.update_time, LineageDicts(**kept[1]), files)
            except TypeError:  # kept by another version: parsed again below
                pass
        try:
            parsed = parse_lineage_files([listed[name].path for name in names], root)
            dicts = lineage_dicts(parsed)
        except Exception:  # one damaged job must not hide the lineage of the others
            logger.exception("cannot parse the lineage of %s", info.train_id)
            return None
        self._log_unreadable(info.train_id, parsed.unreadable)
        complete = not parsed.unreadable
        return LineageRecord(info.train_id, info.update_time, dicts, files, complete) if dicts else None

    def _keep_in_index(self, records: dict) -> None:
        """Hand the index what changed: the lineage parsed from files since it was kept, and the
        jobs it keeps that have no such lineage any more."""
        if self._index is None:
            return
        rows = {}
        for train_id, record in records.items():
            if record.files and record.complete and self._indexed.get(train_id, (None,))[0] != record.files:
                rows[train_id] = (record.files, asdict(record.dicts))
        for train_id in self._indexed:
            if train_id not in records or not records[train_id].files:
                rows[train_id] = None
        self._index.submit_lineage(rows)
        for train_id, row in rows.items():
            if row is None:
                self._indexed.pop(train_id, None)
            else:
                self._indexed[train_id] = (row[0], None)  # what the index holds; the dicts are in the record

    def _load_hparams(self, info: SummaryDirInfo, by_id: dict, root: str) -> LineageRecord | None:
        try:
            found = self._hparams.lineage(info, by_id, root)
        except Exception:  # one damaged run must not hide the lineage of the others
            logger.exception("cannot read the hparams of %s", info.train_id)
            return None
        if found is None:
            return None
        return LineageRecord(info.train_id, info.update_time, found.dicts, (), found.complete, found.depends)

    def _log_unreadable(self, train_id: str, unreadable: dict) -> None:
        """Log the lineage files of a job that cannot be read, once per change."""
        if self._logged_unreadable.get(train_id, {}) == unreadable:
            return
        for path, reason in unreadable.items():
            logger.warning("cannot read the lineage file %s (%s); trying again on the next refresh", path, reason)
        if not unreadable:
            logger.info("the lineage files of %s can be read again", train_id)
        self._logged_unreadable[train_id] = dict(unreadable)


def _same(depends: tuple, by_id: dict) -> bool:
    return all(by_id.get(train_id) == brief for train_id, brief in depends)


def _dataset_marks(records) -> dict[str, str]:
    """Jobs with identical dataset graphs share a mark: "2", "3", ... in order of first
    appearance, as the original numbers them: it walks its job list, newest first by whole
    seconds of update time, then by train_id (so two jobs updated within one second are taken
    in name order), and starts at "2". Past "9" the original finds the next number with a
    string max ("9" > "10") and gives every further graph "10"; here they go on 10, 11, ..."""
    marks, by_graph = {}, {}
    for record in sorted(records, key=lambda r: (-math.floor(r.update_time), r.train_id)):
        key = json.dumps(record.dicts.dataset_graph, sort_keys=True, default=str)
        if key not in by_graph:
            by_graph[key] = str(len(by_graph) + 2)
        marks[record.train_id] = by_graph[key]
    return marks
