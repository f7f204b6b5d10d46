"""Find train jobs under the summary base dir (file-formats.md section 3).

The base dir itself and its direct sub-directories are candidates; a candidate holding
summary, lineage or ``.pb`` graph files is a train job with ``train_id`` = ``./`` or
``./<name>``. Symlinks are skipped, deeper directories ignored, at most 999 jobs listed.
"""
import os
from dataclasses import dataclass

from mindinsight.conf import limits
from mindinsight.format import naming


@dataclass(frozen=True)
class SummaryDirInfo:
    """Brief facts of one train job directory."""

    train_id: str
    path: str
    create_time: float
    update_time: float
    summary_files: int
    lineage_files: int
    explain_files: int
    graph_files: int

    @property
    def has_loadable_files(self) -> bool:
        """Event or graph files the data loader reads (a lineage-only job has none)."""
        return self.summary_files > 0 or self.graph_files > 0


def train_id_for(name: str | None) -> str:
    return "./" if not name else "./" + name


def inspect_dir(path: str, train_id: str) -> SummaryDirInfo | None:
    """Facts of ``path`` as a train job, or None if it holds no qualifying file."""
    counts = {"summary": 0, "lineage": 0, "explain": 0, "graph": 0}
    newest_ts, create_time, update_time = -1, 0.0, 0.0
    try:
        entries = list(os.scandir(path))
    except OSError:
        return None
    for entry in entries:
        if entry.is_symlink() or not entry.is_file(follow_symlinks=False):
            continue
        name = entry.name
        if naming.is_summary_file(name):
            if naming.is_explain_file(name):
                counts["explain"] += 1
                continue
            counts["lineage" if naming.is_lineage_file(name) else "summary"] += 1
            stat = entry.stat(follow_symlinks=False)
            timestamp = naming.summary_timestamp(name)
            if timestamp > newest_ts:
                newest_ts, create_time = timestamp, float(timestamp)
            update_time = max(update_time, stat.st_mtime)
        elif naming.is_graph_pb_file(name):
            counts["graph"] += 1
            stat = entry.stat(follow_symlinks=False)
            if newest_ts < 0:
                create_time = max(create_time, stat.st_ctime)
            update_time = max(update_time, stat.st_mtime)
    if not (counts["summary"] or counts["lineage"] or counts["graph"]):
        return None
    return SummaryDirInfo(train_id, path, create_time, update_time,
                          counts["summary"], counts["lineage"], counts["explain"], counts["graph"])


def list_summary_dirs(base_dir: str) -> list[SummaryDirInfo]:
    """All train jobs under ``base_dir``, newest update first, then by train_id."""
    try:
        children = [e for e in os.scandir(base_dir)
                    if not e.is_symlink() and e.is_dir(follow_symlinks=False)]
    except OSError:
        return []
    children.sort(key=lambda e: _mtime(e))
    found = []
    own = inspect_dir(base_dir, train_id_for(None))
    if own:
        found.append(own)
    for entry in children:
        if len(found) >= limits.MAX_SUMMARY_DIR_COUNT:
            break
        info = inspect_dir(entry.path, train_id_for(entry.name))
        if info:
            found.append(info)
    found.sort(key=lambda info: info.train_id)
    found.sort(key=lambda info: info.update_time, reverse=True)
    return found


def _mtime(entry) -> float:
    try:
        return entry.stat(follow_symlinks=False).st_mtime
    except OSError:
        return 0.0


def is_valid_train_id(train_id: str) -> bool:
    """``./`` or ``./<name>`` with a plain name (no separators, no dot segments, no NUL)."""
    if not train_id.startswith("./") or "\x00" in train_id:
        return False
    name = train_id[2:]
    return name == "" or ("/" not in name and "\\" not in name and name not in (".", ".."))
