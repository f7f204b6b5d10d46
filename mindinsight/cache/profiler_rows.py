"""Parsed rows of profiler CSV files: one version per file, bounded in bytes.

Every operator search filters and sorts all rows of its file, and parsing is slow (10^6 rows
take ~7 s), so parsed rows are kept. They are kept per file path: a changed file (new inode,
size or mtime) replaces its previous rows instead of adding a version beside them. The rows
kept together are bounded in bytes (``limits.PROFILER_ROWS_KEPT_BYTES``, least recently used
evicted first); rows larger than the bound are answered but not kept.

One parse at a time: a request for a file being parsed waits for that parse instead of
starting its own, so concurrent requests never hold more than one parse in memory.
"""

import os
import sys
import threading
from collections import OrderedDict

from mindinsight.conf import limits
from mindinsight.ingest.profiler_csv import file_mark, parse_rows

_SAMPLED_ROWS = 1000  # rows measured to estimate the size of all


def rows_bytes(rows: list[list]) -> int:
    """An estimate of the memory ``rows`` hold (the list, its row lists and their values)."""
    if not rows:
        return sys.getsizeof(rows)
    sample = rows[:: max(1, len(rows) // _SAMPLED_ROWS)]
    measured = sum(sys.getsizeof(row) + sum(sys.getsizeof(value) for value in row) for row in sample)
    return sys.getsizeof(rows) + measured * len(rows) // len(sample)


class ParsedRows:
    """Converted rows of CSV files by path, valid while the file's mark is unchanged."""

    def __init__(self, max_bytes: int = limits.PROFILER_ROWS_KEPT_BYTES):
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, tuple] = OrderedDict()  # path -> (mark, convert, rows, bytes)
        self._bytes = 0
        self._lock = threading.Lock()
        self._parsing = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def kept_bytes(self) -> int:
        """The estimated bytes of every kept version together."""
        return self._bytes

    def rows(self, path: str | os.PathLike, root: str, convert) -> list[list]:
        """The rows of ``path`` (inside ``root``, the real base dir; a local path or a store URL)
        through ``convert``; no rows when the file does not exist."""
        key = path = os.fspath(path)
        mark = file_mark(path)
        if mark is None:
            self._drop(key)
            return []
        kept = self._kept(key, mark, convert)
        if kept is not None:
            return kept
        with self._parsing:
            kept = self._kept(key, mark, convert)  # parsed by another request meanwhile
            if kept is not None:
                return kept
            self._drop(key)  # the previous version goes before the new one is parsed
            rows, read_mark = parse_rows(path, root, convert)
            self._keep(key, (read_mark, convert, rows, rows_bytes(rows)))
        return rows

    def _kept(self, key: str, mark: tuple, convert) -> list[list] | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] != mark or entry[1] is not convert:
                return None
            self._entries.move_to_end(key)
            return entry[2]

    def _drop(self, key: str) -> None:
        with self._lock:
            entry = self._entries.pop(key, None)
            if entry is not None:
                self._bytes -= entry[3]

    def _keep(self, key: str, entry: tuple) -> None:
        if entry[3] > self.max_bytes:
            return
        with self._lock:
            self._entries[key] = entry
            self._bytes += entry[3]
            while self._bytes > self.max_bytes:
                _, evicted = self._entries.popitem(last=False)
                self._bytes -= evicted[3]
