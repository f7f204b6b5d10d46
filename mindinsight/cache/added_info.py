"""The JSON store of tags and remarks of older versions (``<workspace>/lineage/added_info.json``).

Edits now go to a database (``cache/edits_database.py``), which imports this file once; this
module only reads it, under the same rules older versions wrote it by (an exclusive ``flock`` on a
lock file beside it, so an older server still writing it is never read half-way):

* one that cannot be parsed (cut short, not JSON, not ``{train_id: {...}}``) is moved aside,
  whole, as ``added_info.json.damaged-<local time>`` beside it;
* one that cannot be read (permissions, I/O error) stays where it is, and ``notice`` says so
  (the database then refuses edits until it can be read and imported).

Each of these is logged once and kept in ``notice`` for the lineage pages to show. Temporary
files left by a write of an older version that was interrupted are removed when it is opened.
"""

import fcntl
import glob
import json
import logging
import os
import threading
import time
from dataclasses import asdict, dataclass

from mindinsight.errors import LineageAddedInfoStoreError

logger = logging.getLogger(__name__)

_TEMPORARY_PREFIX = ".added_info."
_TEMPORARY_SUFFIX = ".tmp"
_BACKUP_INFIX = ".damaged-"


@dataclass(frozen=True)
class StoreNotice:
    """Why the store is not as it should be, for the log and the lineage pages.

    ``status``: ``backed_up`` (it could not be parsed and was moved to ``backup``), ``unreadable``
    or ``unwritable`` (edits are refused until it can be imported), ``unreachable`` (the database
    of edits cannot be used: ``store`` is its URL without password, or the SQLite file; edits are
    refused). ``store`` and ``backup`` are otherwise paths relative to the workspace.
    """

    status: str
    store: str
    reason: str
    backup: str | None = None

    def to_json(self) -> dict:
        return asdict(self)


class _Unparsable(ValueError):
    """The store's bytes are not a ``{train_id: {...}}`` JSON object."""


class AddedInfoFile:
    """``{train_id: {"tag": int, "remark": str}}`` stored at ``path`` (``<workspace>/lineage/...``)."""

    def __init__(self, path: str):
        self.path = path
        # What the user reads in messages: the path inside the workspace.
        self.display_path = os.path.join(os.path.basename(os.path.dirname(path)), os.path.basename(path))
        self._lock = threading.Lock()
        self._cache: dict[str, dict] | None = None
        self._cache_stamp = None
        self._backed_up: StoreNotice | None = None  # kept for the life of the process
        self._failure: StoreNotice | None = None  # unreadable or unwritable right now
        self._logged: StoreNotice | None = None  # the failure last logged
        self._remove_interrupted_writes()

    @property
    def notice(self) -> StoreNotice | None:
        """The current problem of the store (unreadable, unwritable), else a backup made, else None."""
        return self._failure or self._backed_up

    def all(self) -> dict[str, dict]:
        """Every job's added info (read again when the file changed, or while it failed); {} when unreadable."""
        with self._lock:
            stamp = self._stamp()
            if self._cache is None or stamp != self._cache_stamp or self._failure is not None:
                # Tried again while failing: a chmod or a folder made writable changes no stamp.
                self._failure = None
                try:
                    self._cache = self._load()
                except OSError as error:
                    self._fail("unreadable", error)
                    self._cache = {}
                except LineageAddedInfoStoreError:  # unparsable and cannot be moved aside
                    self._cache = {}
                if self._failure is None and self._logged is not None:
                    logger.info("the tags and remarks in %s can be read again", self.path)
                    self._logged = None
                self._cache_stamp = stamp
            return self._cache

    # -- reading ----------------------------------------------------------------------

    def _stamp(self):
        try:
            stat = os.stat(self.path)
        except OSError:
            return None
        # ctime too: a chmod that makes the file readable again changes nothing else.
        return stat.st_mtime_ns, stat.st_size, stat.st_ino, stat.st_ctime_ns

    def _load(self, locked: bool = False) -> dict[str, dict]:
        """The stored info; a store that cannot be parsed is moved aside first (then {}).

        Raises OSError when the file exists but cannot be read.
        """
        try:
            return _parse(self._read_bytes())
        except _Unparsable as error:
            if not locked:
                # Under the lock, so another process's edit cannot slip in between.
                return self._set_aside_locked(error)
            self._set_aside(error)
            return {}

    def _read_bytes(self) -> bytes | None:
        try:
            with open(self.path, "rb") as file:
                return file.read()
        except FileNotFoundError:
            return None

    def _set_aside_locked(self, error: Exception) -> dict[str, dict]:
        try:
            lock_file = open(self.path + ".lock", "a")
        except OSError as lock_error:
            # The folder is read-only: nothing can overwrite the store either, so leave it.
            logger.warning("cannot parse %s (%s)", self.path, error)
            self._fail("unwritable", lock_error)
            return {}
        with lock_file:
            fcntl.flock(lock_file, fcntl.LOCK_EX)
            try:
                try:
                    return _parse(self._read_bytes())  # another process may have replaced it meanwhile
                except _Unparsable as again:
                    self._set_aside(again)
                    return {}
            finally:
                fcntl.flock(lock_file, fcntl.LOCK_UN)

    def _set_aside(self, error: Exception) -> None:
        """Move the unparsable store to a dated backup beside it (caller holds the flock)."""
        backup = self._backup_path()
        try:
            os.rename(self.path, backup)
        except FileNotFoundError:
            return
        except OSError as rename_error:
            raise self._fail("unwritable", rename_error) from None
        relative = os.path.join(os.path.dirname(self.display_path), os.path.basename(backup))
        self._backed_up = StoreNotice("backed_up", self.display_path, str(error), relative)
        logger.error(
            "the tags and remarks in %s cannot be parsed (%s): kept the file as %s; new edits start a new store",
            self.path,
            error,
            backup,
        )

    def _backup_path(self) -> str:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        candidate = f"{self.path}{_BACKUP_INFIX}{stamp}"
        count = 1
        while os.path.lexists(candidate):
            count += 1
            candidate = f"{self.path}{_BACKUP_INFIX}{stamp}-{count}"
        return candidate

    # -- leftovers ----------------------------------------------------------------------

    def _remove_interrupted_writes(self) -> None:
        """Delete temporary files of writes that never finished (under the flock: none is under way)."""
        directory = os.path.dirname(self.path)
        leftovers = glob.glob(os.path.join(glob.escape(directory), _TEMPORARY_PREFIX + "*" + _TEMPORARY_SUFFIX))
        if not leftovers:
            return
        try:
            lock_file = open(self.path + ".lock", "a")
        except OSError as error:
            logger.warning("cannot remove the unfinished writes %s: %s", leftovers, error)
            return
        with lock_file:
            fcntl.flock(lock_file, fcntl.LOCK_EX)
            try:
                for leftover in leftovers:
                    try:
                        os.unlink(leftover)
                        logger.info("removed %s, left by an interrupted write", leftover)
                    except FileNotFoundError:
                        pass
                    except OSError as error:
                        logger.warning("cannot remove %s: %s", leftover, error)
            finally:
                fcntl.flock(lock_file, fcntl.LOCK_UN)

    # -- notices ----------------------------------------------------------------------

    def _fail(self, status: str, error: OSError) -> LineageAddedInfoStoreError:
        """Record (and log once) that the store is ``status``; the error refusing the edit."""
        reason = error.strerror or str(error)
        notice = StoreNotice(status, self.display_path, reason)
        if notice != self._logged:
            logger.error("the tags and remarks in %s are %s (%s): edits are refused", self.path, status, reason)
            self._logged = notice
        self._failure = notice
        verb = "read" if status == "unreadable" else "written"
        return LineageAddedInfoStoreError(
            f"{self.display_path} in the workspace cannot be {verb} ({reason}); nothing was changed."
        )


def _parse(data: bytes | None) -> dict[str, dict]:
    if data is None:
        return {}
    try:
        stored = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise _Unparsable(f"not JSON: {error}") from None
    if not isinstance(stored, dict) or not all(isinstance(value, dict) for value in stored.values()):
        raise _Unparsable("not an object of train jobs' tags and remarks")
    return stored
