"""Sub-directories of the base dir found holding nothing of interest, skipped while unchanged.

Every reload lists the base dir again; looking into each of thousands of empty directories
every few seconds is what kept an idle server busy. A directory that holds only plain files
(no sub-directory, no symlink) and no job file cannot become a train job without an entry
being added, removed or renamed in it, which moves its modification time: until then its
earlier answer (nothing) stands. Directories with sub-directories or links are always looked
into again (a profiler folder or a link target may change without touching them).
"""

import os
import time

from mindinsight.format.files import scandir

# A directory changed within this many seconds of a scan may change again within the same
# timestamp tick (file systems keep coarse times): it is looked into again next time.
SETTLE_SECONDS = 2.0


def _stamp(stat: os.stat_result) -> tuple:
    return stat.st_ino, stat.st_mtime_ns, stat.st_ctime_ns


def holds_only_plain_files(path: str) -> bool:
    """Whether every entry of ``path`` is a regular file (True for an empty directory)."""
    try:
        with scandir(path) as entries:
            return all(entry.is_file(follow_symlinks=False) for entry in entries)
    except OSError:
        return False


class QuietDirs:
    """Directories that held nothing, by path, with the stat stamp they had then.

    ``begin`` starts a scan; only directories seen during the latest scan are kept, so the
    memo never holds more entries than one scan visits."""

    def __init__(self):
        self._known: dict[str, tuple] = {}
        self._seen: dict[str, tuple] = {}
        self._started = 0.0

    def begin(self) -> None:
        """Start a scan: forget what the previous scan did not see again."""
        self._known, self._seen = self._seen, {}
        self._started = time.time()

    def unchanged(self, path: str, stat: os.stat_result | None) -> bool:
        """Whether ``path`` held nothing when last looked into and has not changed since."""
        stamp = self._known.get(path)
        if stamp is None or stat is None or stamp != _stamp(stat):
            return False
        self._seen[path] = stamp
        return True

    def remember(self, path: str, stat: os.stat_result | None) -> None:
        """``path`` (with ``stat`` taken before it was looked into) holds nothing: skip it while it stays so."""
        settled = stat is not None and stat.st_mtime <= self._started - SETTLE_SECONDS
        if not settled or not holds_only_plain_files(path):
            return
        self._seen[path] = _stamp(stat)
