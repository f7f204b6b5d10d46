"""Users' tags and remarks of train jobs, kept in one JSON file of the workspace.

The original kept them in memory only; here they survive a restart. Every edit re-reads the
file and replaces it atomically (a temporary file, then ``os.replace``) while holding a
thread lock and an exclusive ``flock`` on a lock file beside it, so concurrent edits, even
from two server processes, never lose one another and a reader never sees half a file.
"""

import fcntl
import json
import logging
import os
import tempfile
import threading

logger = logging.getLogger(__name__)


class AddedInfoFile:
    """``{train_id: {"tag": int, "remark": str}}`` stored at ``path``."""

    def __init__(self, path: str):
        self.path = path
        self._lock = threading.Lock()
        self._cache: dict[str, dict] | None = None
        self._cache_stamp = None

    def all(self) -> dict[str, dict]:
        """Every job's added info (read again only when the file changed)."""
        with self._lock:
            stamp = self._stamp()
            if self._cache is None or stamp != self._cache_stamp:
                self._cache, self._cache_stamp = self._read(), stamp
            return self._cache

    def update(self, train_id: str, values: dict) -> dict:
        """Merge ``values`` into ``train_id``'s added info and store it; return the new info.

        Raises OSError when the workspace cannot be written.
        """
        with self._lock:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            with open(self.path + ".lock", "a") as lock_file:
                fcntl.flock(lock_file, fcntl.LOCK_EX)
                try:
                    stored = self._read()
                    info = {**stored.get(train_id, {}), **values}
                    stored[train_id] = info
                    self._write(stored)
                finally:
                    fcntl.flock(lock_file, fcntl.LOCK_UN)
            self._cache, self._cache_stamp = stored, self._stamp()
            return info

    def _stamp(self):
        try:
            stat = os.stat(self.path)
        except OSError:
            return None
        return stat.st_mtime_ns, stat.st_size, stat.st_ino

    def _read(self) -> dict[str, dict]:
        try:
            with open(self.path, encoding="utf-8") as file:
                stored = json.load(file)
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            logger.warning("cannot read %s (%s); starting with no tags or remarks", self.path, error)
            return {}
        if not isinstance(stored, dict):
            return {}
        return {key: value for key, value in stored.items() if isinstance(value, dict)}

    def _write(self, stored: dict) -> None:
        directory = os.path.dirname(self.path)
        handle, temporary = tempfile.mkstemp(prefix=".added_info.", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                json.dump(stored, file, ensure_ascii=False, indent=1, sort_keys=True)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise
