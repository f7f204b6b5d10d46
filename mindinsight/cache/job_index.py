"""The persistent index: what loading a job derived, kept in SQLite in the workspace so a
restarted server serves at once instead of reading every log again.

Per job one row of meta data (JSON: the loader's files, offsets and tail bytes, tag lists,
reservoir thinning state) and its columns as raw numpy bytes, in parts of at most
``limits.INDEX_PART_BYTES``, each with its CRC-32 (the
reservoirs of every kind: scalars as numbers, images, histograms, tensors, graphs, ... as their
kind's codec turns them into numbers and bytes, never pickled; every full-fidelity scalar
point). What a job holds is produced and taken back by ``JobLoader.state`` /
``JobLoader.restore``; this module only stores it. Apart from those, per job
with lineage files its parsed lineage (JSON) and the files it was parsed from
(``cache/lineage_store.py``): the lineage of ten thousand jobs is not parsed again on a restart.

* Written by one background thread (``submit``), each job in one transaction: a server killed
  mid-write leaves the previous entry (SQLite's atomic commit). A job is written again at the
  earliest ``limits.INDEX_MIN_WRITE_INTERVAL_SECONDS`` after its last write, and never sooner
  than ``limits.INDEX_WRITE_COST_FACTOR`` times that write's duration: writing takes a bounded
  share of the time however large a job grows.
* Bounded: the entries together hold at most ``limits.INDEX_MAX_BYTES`` of columns; past it the
  least recently written entries go (SQLite reuses their pages).
* Never trusted blindly: a file that is not our database, of another schema version, or an entry
  that does not decode (a column whose CRC does not match included) is dropped and the job read
  from its logs; nothing here raises.
* Only the workspace is written, never the log directory.
* Opened on first use (``usable``), not when made: the loading thread opens and checks it
  beside the server's imports. The check costs the same whatever the file holds
  (``_check_structure``: the small tables' b-trees; the columns are checked by their CRCs).
"""

import contextlib
import hashlib
import json
import logging
import os
import queue
import sqlite3
import threading
import time
import zlib
from typing import NamedTuple

import numpy as np

from mindinsight.conf import limits

logger = logging.getLogger(__name__)

# 2: the lineage table; 3: every kind's columns, each with its CRC-32; 4: values not kept; 5: their
# reasons as codes and arguments; 6: columns in parts
SCHEMA_VERSION = 6
_APPLICATION_ID = 0x4D49_4958  # "MIIX": tells our index from any other SQLite file
_DTYPES = {name: np.dtype(name) for name in ("int64", "float64", "float32", "uint32", "int32", "uint8", "bool")}
_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    train_id TEXT PRIMARY KEY, job_dir TEXT NOT NULL, meta TEXT NOT NULL,
    bytes INTEGER NOT NULL, written REAL NOT NULL);
CREATE TABLE IF NOT EXISTS columns (
    train_id TEXT NOT NULL, name TEXT NOT NULL, part INTEGER NOT NULL, dtype TEXT NOT NULL,
    data BLOB NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY (train_id, name, part));
CREATE TABLE IF NOT EXISTS lineage (train_id TEXT PRIMARY KEY, files TEXT NOT NULL, dicts TEXT NOT NULL);
"""
_LINEAGE = "\0lineage"  # the writing queue's item for the pending lineage rows (never a train_id)


class IndexEntry(NamedTuple):
    """A job's saved ``(meta, arrays)``, and when it was written (tells a rewrite apart)."""

    meta: dict
    arrays: dict
    written: float


def index_path(workspace: str, summary_base_dir: str) -> str:
    """Where the index of ``summary_base_dir`` lives: one file per base dir in the workspace."""
    digest = hashlib.sha256(summary_base_dir.encode()).hexdigest()[:16]
    return os.path.join(workspace, "index", f"{digest}.sqlite")


class JobIndex:
    """The index file of one base dir, with its writing thread."""

    def __init__(self, path: str):
        self.path = path
        self._queue: queue.Queue = queue.Queue()
        self._pending: dict[str, tuple] = {}  # train_id -> newest submitted entry not yet written
        self._pending_lock = threading.Lock()
        self._next_write: dict[str, float] = {}  # train_id -> earliest time of its next write
        self._lineage_pending: dict[str, tuple | None] = {}  # train_id -> (files, dicts), None: drop
        self._lineage_writing = False
        self._thread: threading.Thread | None = None
        self._opening = threading.Lock()
        self._usable: bool | None = None  # None: not opened yet

    @property
    def usable(self) -> bool:
        """Whether the index can be read and written (opened, and checked, on first use)."""
        return self._usable if self._usable is not None else self.open()

    def open(self) -> bool:
        """Open and check the file, once (later calls answer at once); whether it is usable."""
        with self._opening:
            if self._usable is None:
                self._usable = self._open()
            return self._usable

    # -- opening ------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, timeout=limits.INDEX_BUSY_TIMEOUT_SECONDS, check_same_thread=False)
        connection.execute("PRAGMA journal_mode=WAL")
        return connection

    @contextlib.contextmanager
    def _session(self):
        """A connection for one transaction, closed after it (sqlite3's own ``with`` only
        commits: an open connection keeps the write-ahead log from being folded back)."""
        connection = self._connect()
        try:
            with connection:
                yield connection
        finally:
            connection.close()

    def _open(self) -> bool:
        """Make sure the file is our index of this version: anything else is replaced."""
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
        except OSError as error:
            logger.warning("no persistent index (%s): every restart reads the logs again", error)
            return False
        for attempt in (1, 2):
            try:
                with self._session() as connection:
                    application_id = connection.execute("PRAGMA application_id").fetchone()[0]
                    version = connection.execute("PRAGMA user_version").fetchone()[0]
                    tables = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                    if tables and (application_id, version) != (_APPLICATION_ID, SCHEMA_VERSION):
                        raise sqlite3.DatabaseError(f"foreign index (id {application_id}, version {version})")
                    if tables:
                        self._check_structure(connection)
                    connection.executescript(_SCHEMA)
                    connection.execute(f"PRAGMA application_id={_APPLICATION_ID}")
                    connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                return True
            except (sqlite3.Error, OSError) as error:
                if attempt == 2:
                    logger.warning("no persistent index (%s): every restart reads the logs again", error)
                    return False
                logger.warning("the index %s cannot be used (%s); building it again from the logs", self.path, error)
                self._remove_files()
        return False

    @staticmethod
    def _check_structure(connection: sqlite3.Connection) -> None:
        """Raise ``sqlite3.DatabaseError`` when the b-tree of a small table is broken. The
        columns table, nearly all of the file, is not walked (a whole-file check reads every
        page: 60 ms for a 45 MB index, seconds for the 2 GB it may hold, on every start): each
        column's bytes are checked against their CRC-32 when read, and a read that meets a
        broken page fails, so its entry is not trusted. (SQLite refuses a file shorter than its
        header says by itself.)"""
        for table in ("jobs", "lineage"):
            if connection.execute(f"PRAGMA quick_check({table})").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError(f"damaged index (table {table})")

    def _remove_files(self) -> None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            try:
                os.remove(self.path + suffix)
            except FileNotFoundError:
                pass
            except OSError as error:
                logger.warning("cannot remove %s: %s", self.path + suffix, error)

    # -- reading ------------------------------------------------------------------------

    def read(self, train_id: str, job_dir: str, later: str = "") -> IndexEntry | None:
        """The entry saved for the job, or None (none, another dir, or it does not decode).
        ``later``: the columns named with this prefix are left for ``read_later``."""
        if not self.usable:
            return None
        try:
            with self._session() as connection:
                connection.execute("BEGIN")  # the row and its columns from one snapshot
                row = connection.execute(
                    "SELECT job_dir, meta, written FROM jobs WHERE train_id=?", (train_id,)
                ).fetchone()
                if row is None or row[0] != job_dir:
                    return None
                meta = json.loads(row[1])
                arrays = self._columns(connection, train_id, later, wanted=False)
            if not isinstance(meta, dict):
                raise ValueError("meta data is not an object")
            return IndexEntry(meta, arrays, row[2])
        except (sqlite3.Error, ValueError, KeyError, TypeError) as error:
            logger.warning("the index entry of %s does not decode (%s); reading its logs", train_id, error)
            self.forget(train_id)
            return None

    def read_later(self, train_id: str, entry: "IndexEntry", prefix: str) -> dict | None:
        """The columns ``read(..., later=prefix)`` left out of ``entry``; None when they do not
        decode or the entry was written anew meanwhile (then it is dropped)."""
        try:
            with self._session() as connection:
                connection.execute("BEGIN")
                row = connection.execute("SELECT written FROM jobs WHERE train_id=?", (train_id,)).fetchone()
                if row is None or row[0] != entry.written:
                    raise ValueError("the entry was written anew since its first columns were read")
                return self._columns(connection, train_id, prefix, wanted=True)
        except (sqlite3.Error, ValueError, KeyError, TypeError) as error:
            logger.warning("the index entry of %s does not decode (%s); reading its logs", train_id, error)
            self.forget(train_id)
            return None

    @staticmethod
    def _columns(connection: sqlite3.Connection, train_id: str, prefix: str, wanted: bool) -> dict:
        """The job's columns whose name starts with ``prefix`` (``wanted``) or does not (every
        column for an empty ``prefix``)."""
        where, parameters = "train_id=?", [train_id]
        if prefix:
            where += f" AND substr(name, 1, ?) {'=' if wanted else '!='} ?"
            parameters += [len(prefix), prefix]
        # Each column made at its size first, then filled part by part: the restored job keeps
        # these very arrays (see JobScalars.restore), and no part is held longer than its copy.
        sizes = connection.execute(
            f"SELECT name, min(dtype), max(dtype), sum(length(data)), count(*), max(part) FROM columns "
            f"WHERE {where} GROUP BY name",
            parameters,
        ).fetchall()
        arrays, filled = {}, {}
        for name, dtype, other_dtype, size, parts, last in sizes:
            if dtype != other_dtype or parts != last + 1 or size % _DTYPES[dtype].itemsize:
                raise ValueError(f"column {name} is damaged (its parts do not fit)")
            arrays[name] = np.empty(size // _DTYPES[dtype].itemsize, dtype=_DTYPES[dtype])
            filled[name] = 0
        for name, data, crc in connection.execute(
            f"SELECT name, data, crc FROM columns WHERE {where} ORDER BY name, part", parameters
        ):
            if zlib.crc32(data) != crc:
                raise ValueError(f"column {name} is damaged (CRC mismatch)")
            target = arrays[name].view(np.uint8)
            target[filled[name] : filled[name] + len(data)] = np.frombuffer(data, dtype=np.uint8)
            filled[name] += len(data)
            del data
        return arrays

    def read_lineage(self) -> dict[str, tuple[tuple, dict]]:
        """``train_id -> (files, dicts)`` of every lineage row that decodes ({} without an index)."""
        if not self.usable:
            return {}
        rows = {}
        try:
            with self._session() as connection:
                for train_id, files, dicts in connection.execute("SELECT train_id, files, dicts FROM lineage"):
                    try:
                        decoded = json.loads(dicts)
                        listed = tuple((str(name), int(size), int(mtime)) for name, size, mtime in json.loads(files))
                    except (ValueError, TypeError) as error:
                        logger.warning("the lineage of %s in the index does not decode (%s)", train_id, error)
                        continue
                    if isinstance(decoded, dict):
                        rows[train_id] = (listed, decoded)
        except sqlite3.Error as error:
            logger.warning("cannot read the lineage kept in the index (%s); parsing every job's", error)
            return {}
        return rows

    def submit_lineage(self, rows: dict[str, tuple | None]) -> None:
        """Keep ``train_id -> (files, dicts)`` rows (``None``: drop the job's row), written in the
        background; the newest submitted row of a job wins."""
        if not self.usable or not rows:
            return
        with self._pending_lock:
            queued = bool(self._lineage_pending)
            self._lineage_pending.update(rows)
        if not queued:
            self._queue.put(_LINEAGE)
        self._start_writer()

    def forget(self, train_id: str) -> None:
        """Drop a job's entry (it did not fit, or the job is read from scratch)."""
        if not self.usable:
            return
        try:
            with self._session() as connection:
                connection.execute("DELETE FROM columns WHERE train_id=?", (train_id,))
                connection.execute("DELETE FROM jobs WHERE train_id=?", (train_id,))
        except sqlite3.Error as error:
            logger.warning("cannot drop the index entry of %s: %s", train_id, error)

    # -- writing ------------------------------------------------------------------------

    def due(self, train_id: str) -> bool:
        """Whether a new entry of the job would be written now (not too soon after the last)."""
        return self.usable and time.monotonic() >= self._next_write.get(train_id, 0.0)

    def submit(self, train_id: str, job_dir: str, meta: dict, arrays: dict) -> None:
        """Write the job's entry in the background (a newer one submitted meanwhile wins).
        Array values may be lists of chunks (concatenated by the writing thread)."""
        if not self.usable:
            return
        self._next_write[train_id] = float("inf")  # until this one is written
        with self._pending_lock:
            queued = train_id in self._pending
            self._pending[train_id] = (job_dir, meta, arrays)
        if not queued:
            self._queue.put(train_id)
        self._start_writer()

    def _start_writer(self) -> None:
        with self._pending_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="mindinsight-index", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            train_id = self._queue.get()
            if train_id == _LINEAGE:
                self._write_lineage()
                continue
            with self._pending_lock:
                entry = self._pending.pop(train_id, None)
            if entry is None:
                continue
            started = time.monotonic()
            try:
                self._write(train_id, *entry)
            except Exception:  # the writer must survive a full disk or a bug in one entry
                logger.exception("cannot write the index entry of %s", train_id)
            spent = time.monotonic() - started
            self._next_write[train_id] = time.monotonic() + max(
                limits.INDEX_MIN_WRITE_INTERVAL_SECONDS, limits.INDEX_WRITE_COST_FACTOR * spent
            )

    def _write(self, train_id: str, job_dir: str, meta: dict, arrays: dict) -> None:
        chunks = {name: value if isinstance(value, list) else [value] for name, value in arrays.items()}
        size = sum(np.asarray(chunk).nbytes for value in chunks.values() for chunk in value)
        if size > limits.INDEX_MAX_BYTES:
            logger.info("%s holds more than the index keeps (%d bytes); it is read from its logs", train_id, size)
            self.forget(train_id)
            return
        connection = self._connect()
        try:
            with connection:  # one transaction: the previous entry stays until this one is whole
                connection.execute("DELETE FROM columns WHERE train_id=?", (train_id,))
                for name, value in chunks.items():
                    self._write_column(connection, train_id, name, [np.asarray(chunk) for chunk in value])
                connection.execute(
                    "INSERT OR REPLACE INTO jobs VALUES (?, ?, ?, ?, ?)",
                    (train_id, job_dir, json.dumps(meta), size, time.time()),
                )
                self._fit_bound(connection, train_id)
        finally:
            connection.close()

    def _write_lineage(self) -> None:
        """Every pending lineage row, in one transaction."""
        with self._pending_lock:
            rows, self._lineage_pending = self._lineage_pending, {}
            self._lineage_writing = True
        try:
            with self._session() as connection:
                for train_id, row in rows.items():
                    if row is None:
                        connection.execute("DELETE FROM lineage WHERE train_id=?", (train_id,))
                    else:
                        files, dicts = row
                        connection.execute(
                            "INSERT OR REPLACE INTO lineage VALUES (?, ?, ?)",
                            (train_id, json.dumps(files), json.dumps(dicts)),
                        )
        except (sqlite3.Error, TypeError, ValueError) as error:  # a full disk, a value JSON cannot hold
            logger.warning("cannot keep the lineage of %d jobs in the index: %s", len(rows), error)
        finally:
            with self._pending_lock:
                self._lineage_writing = False

    @staticmethod
    def _write_column(connection: sqlite3.Connection, train_id: str, name: str, chunks: list) -> None:
        """One column, in parts of at most ``INDEX_PART_BYTES`` cut from its chunks: no copy of
        the whole column is ever made (SQLite makes one of a blob it is given, and a large
        blob written in place is first made whole, of zeros)."""
        dtypes = {chunk.dtype.name for chunk in chunks} or {"int64"}
        if len(dtypes) != 1 or not dtypes <= set(_DTYPES):
            raise TypeError(f"column {name} of {sorted(dtypes)} cannot be indexed")
        dtype = dtypes.pop()
        part = 0
        for piece in _parts(chunks):
            connection.execute(
                "INSERT INTO columns VALUES (?, ?, ?, ?, ?, ?)", (train_id, name, part, dtype, piece, zlib.crc32(piece))
            )
            part += 1

    @staticmethod
    def _fit_bound(connection: sqlite3.Connection, keep: str) -> None:
        """Drop the least recently written entries (never ``keep``) while over the bound."""
        rows = connection.execute("SELECT train_id, bytes FROM jobs ORDER BY written DESC").fetchall()
        total = 0
        for train_id, size in rows:
            total += size
            if total > limits.INDEX_MAX_BYTES and train_id != keep:
                connection.execute("DELETE FROM columns WHERE train_id=?", (train_id,))
                connection.execute("DELETE FROM jobs WHERE train_id=?", (train_id,))
                total -= size

    def wait_written(self, timeout: float = 30.0) -> bool:
        """Block until every submitted entry is written (tests and tools)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._pending_lock:
                idle = not (self._pending or self._lineage_pending or self._lineage_writing)
                idle = idle and not any(t == float("inf") for t in self._next_write.values())
            if idle:
                return True
            time.sleep(0.01)
        return False


def _parts(chunks: list):
    """The bytes of ``chunks`` (numpy arrays) as views of at most ``INDEX_PART_BYTES`` each; one
    empty part for no bytes at all (the column still exists)."""
    limit, given = limits.INDEX_PART_BYTES, False
    for chunk in chunks:
        view = memoryview(np.ascontiguousarray(chunk).reshape(-1)).cast("B")
        for start in range(0, len(view), limit):
            given = True
            yield view[start : start + limit]
    if not given:
        yield b""
