"""Find train jobs under the summary base dir.

The base dir itself and its direct sub-directories are candidates; a candidate holding
summary, lineage, ``.pb`` graph or TensorBoard event files is a train job with ``train_id`` =
``./`` or ``./<name>``. Deeper directories are TensorBoard runs when they hold event files
(``./<a>/<b>``, docs/FORMATS.md §8), and nothing else; at most ``limits.MAX_SUMMARY_DIR_COUNT``
jobs are listed, one scan reads at most ``limits.MAX_SCAN_COUNT`` entries of the base dir (the
listing says when it stopped at either) and as many again below its sub-directories, breadth
first, without following symlinks there.

Nothing outside the base dir is ever opened: a symlink (a job dir or a file in one) is
followed only when its real path lies inside the base dir's real path (the one rule of
``format/files.py``, which checks it again when the loader opens a file). A file or directory deleted while it is
being listed is simply not listed.
"""

import itertools
import os
import stat as file_modes
from dataclasses import dataclass, field

from mindinsight.conf import limits
from mindinsight.format import naming
from mindinsight.format.files import is_link, real_root, resolve_inside, scandir, stat_path
from mindinsight.ingest.profiler_dirs import find_profiler_dir
from mindinsight.ingest.quiet_dirs import QuietDirs
from mindinsight.ingest.train_ids import is_valid_train_id, train_id_for


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
    profiler_dir: str | None = None  # sub-directory name of the job's profiler output
    profiler_type: str = ""  # ascend / gpu / cpu when profiler_dir is set
    tfevents_files: int = 0  # TensorBoard event files, also counted in summary_files

    @property
    def has_loadable_files(self) -> bool:
        """Event or graph files the data loader reads (a lineage-only job has none)."""
        return self.summary_files > 0 or self.graph_files > 0


@dataclass(frozen=True)
class JobFile:
    """One file of a job dir worth reading, as it was when listed."""

    name: str
    path: str  # what to open: a path inside the base dir (a followed symlink resolved)
    size: int
    mtime: float
    mtime_ns: int
    ctime: float
    inode: int
    etag: str = ""  # an object store's ETag (its files have no inode); "" on a local disk


def _is_job_file(name: str) -> bool:
    return naming.is_summary_file(name) or naming.is_graph_pb_file(name) or naming.is_tfevents_file(name)


def job_files(job_dir: str, root: str) -> dict[str, JobFile] | None:
    """Summary, lineage, explain and ``.pb`` files of ``job_dir`` by name; None if it cannot be listed.

    ``root`` is the real path of the base dir: the job dir and every file must resolve inside it.
    """
    entries = _listed(job_dir, root, is_link(job_dir))
    return None if entries is None else _job_files_among(entries, root)


def _listed(job_dir: str, root: str, linked: bool) -> list | None:
    """The entries of ``job_dir`` (of its real path when ``linked``, a symlink that must resolve
    inside ``root``); None if it cannot be listed."""
    # A plain job dir is the base dir or one of its children; only a linked one needs resolving.
    real_dir = resolve_inside(job_dir, root) if linked else job_dir
    if real_dir is None:
        return None
    try:
        return list(scandir(real_dir))
    except OSError:
        return None


def _job_files_among(entries: list, root: str) -> dict[str, JobFile]:
    """``job_files`` from the directory entries a listing gave."""
    found = {}
    for entry in entries:
        name = entry.name
        if not _is_job_file(name):
            continue
        try:
            if entry.is_symlink():
                path = resolve_inside(entry.path, root)
                if path is None:
                    continue
                stat = os.stat(path)
            elif entry.is_file(follow_symlinks=False):
                path = entry.path
                stat = entry.stat(follow_symlinks=False)
            else:
                continue
        except OSError:  # deleted while listed, or a dangling link
            continue
        if not file_modes.S_ISREG(stat.st_mode):
            continue
        etag = getattr(stat, "etag", "")
        found[name] = JobFile(
            name, path, stat.st_size, stat.st_mtime, stat.st_mtime_ns, stat.st_ctime, stat.st_ino, etag
        )
    return found


def inspect_dir(path: str, train_id: str, root: str | None = None, nested: bool = False) -> SummaryDirInfo | None:
    """Facts of ``path`` as a train job, or None if it holds neither a qualifying file nor
    profiler output (a profiler-only directory is listed, as the original does). A ``nested``
    directory (below the base dir's children) is a job only when it holds TensorBoard event files."""
    root = real_root(path) if root is None else root
    entries = _listed(path, root, is_link(path))
    return None if entries is None else _inspect_listed(path, entries, train_id, root, nested)[0]


def _inspect_listed(
    path: str, entries: list, train_id: str, root: str, nested: bool
) -> tuple[SummaryDirInfo | None, dict[str, JobFile]]:
    """``inspect_dir`` of a directory listed as ``entries``, with the job files found there."""
    files = _job_files_among(entries, root)
    if nested and not any(naming.is_tfevents_file(name) for name in files):
        return None, files
    profiler = None if nested else find_profiler_dir(path, root, entries)
    counts = {"summary": 0, "lineage": 0, "explain": 0, "graph": 0, "tfevents": 0}
    newest_ts, create_time, update_time = -1, 0.0, 0.0
    for file in files.values():
        name = file.name
        if naming.is_tfevents_file(name):
            counts["summary"] += 1
            counts["tfevents"] += 1
            timestamp = naming.tfevents_timestamp(name) or 0
            if timestamp > newest_ts:
                newest_ts, create_time = timestamp, float(timestamp)
            update_time = max(update_time, file.mtime)
        elif naming.is_summary_file(name):
            if naming.is_explain_file(name):
                counts["explain"] += 1
                continue
            counts["lineage" if naming.is_lineage_file(name) else "summary"] += 1
            timestamp = naming.summary_timestamp(name)
            if timestamp > newest_ts:
                newest_ts, create_time = timestamp, float(timestamp)
            update_time = max(update_time, file.mtime)
        else:
            counts["graph"] += 1
            if newest_ts < 0:
                create_time = max(create_time, file.ctime)
            update_time = max(update_time, file.mtime)
    if not (counts["summary"] or counts["lineage"] or counts["graph"]):
        if profiler is None:
            return None, files
        try:
            stat = stat_path(os.path.join(path, profiler[0]))
        except OSError:
            return None, files
        create_time, update_time = stat.st_ctime, stat.st_mtime
    info = SummaryDirInfo(
        train_id,
        path,
        create_time,
        update_time,
        counts["summary"],
        counts["lineage"],
        counts["explain"],
        counts["graph"],
        *(profiler or (None, "")),
        tfevents_files=counts["tfevents"],
    )
    return info, files


@dataclass(frozen=True)
class DirScan:
    """What one scan of the base dir found: the train jobs, and ``stopped_at`` (the number of
    base-dir entries read) when it stopped at ``limits.MAX_SCAN_COUNT`` entries with more left
    or at ``limits.MAX_SUMMARY_DIR_COUNT`` jobs."""

    jobs: list[SummaryDirInfo]
    stopped_at: int | None = None
    # The job files each listed job held at the scan, by train_id: a loader reading right after
    # the scan takes them instead of listing the directory again.
    files: dict[str, dict[str, JobFile]] = field(default_factory=dict)


def list_summary_dirs(base_dir: str) -> list[SummaryDirInfo]:
    """All train jobs under ``base_dir``, newest update first, then by train_id."""
    return scan_summary_dirs(base_dir).jobs


def scan_summary_dirs(base_dir: str, quiet: QuietDirs | None = None) -> DirScan:
    """The train jobs under ``base_dir`` (newest update first, then by train_id).

    One scan reads at most ``MAX_SCAN_COUNT`` entries of the base dir, so its cost is bounded
    whatever the base dir holds; it looks into the sub-directories among them oldest
    modification first until ``MAX_SUMMARY_DIR_COUNT`` jobs are found (``stopped_at`` is then set
    too, to the entries read). ``quiet`` (kept by the
    caller from scan to scan) skips directories that held nothing and have not changed since."""
    root = real_root(base_dir)
    try:
        read = _first_entries(base_dir, limits.MAX_SCAN_COUNT + 1)
    except OSError:
        return DirScan([])
    stopped_at = limits.MAX_SCAN_COUNT if len(read) > limits.MAX_SCAN_COUNT else None
    children = [(entry, _stat(entry)) for entry in read[: limits.MAX_SCAN_COUNT] if _is_job_dir(entry, root)]
    children.sort(key=lambda pair: pair[1].st_mtime if pair[1] else 0.0)
    if quiet is not None:
        quiet.begin()
    found = []
    files: dict[str, dict[str, JobFile]] = {}

    def inspect(path: str, entries: list | None, train_id: str, nested: bool = False) -> SummaryDirInfo | None:
        if entries is None:
            return None
        info, listed = _inspect_listed(path, entries, train_id, root, nested)
        if info:
            found.append(info)
            files[train_id] = listed
        return info

    linked = is_link(base_dir)
    complete = stopped_at is None and not linked  # the entries read are the whole listing
    inspect(base_dir, read if complete else _listed(base_dir, root, linked), train_id_for(None))
    # Each child is listed once: for its job files, its profiler folder and the runs below it.
    # A linked child is listed through its link for the runs below (their train_ids are paths
    # below the link) and through its real path for its own files.
    listings: dict[str, list | None] = {}
    for entry, stat in children:
        if len(found) >= limits.MAX_SUMMARY_DIR_COUNT:
            break
        if quiet is not None and quiet.unchanged(entry.path, stat):
            continue
        linked = entry.is_symlink()
        entries = _listed(entry.path, root, linked)
        if not linked:
            listings[entry.path] = entries
        if not inspect(entry.path, entries, train_id_for(entry.name)) and quiet is not None:
            quiet.remember(entry.path, stat)
    level = [(entry.path, listings.get(entry.path)) for entry, _ in children]
    for path, entries in _nested_dirs(level):
        if len(found) >= limits.MAX_SUMMARY_DIR_COUNT:
            break
        name = os.path.relpath(path, base_dir).replace(os.sep, "/")
        inspect(path, entries, train_id_for(name), nested=True)
    if stopped_at is None and len(found) >= limits.MAX_SUMMARY_DIR_COUNT:
        stopped_at = len(read)
    found.sort(key=lambda info: info.train_id)
    found.sort(key=lambda info: info.update_time, reverse=True)
    return DirScan(found, stopped_at, files)


def _nested_dirs(level: list[tuple[str, list | None]]):
    """``(path, entries)`` of the directories below the base dir's sub-directories ``level``
    (each with its entries when already listed, else None), breadth first, reading at most
    ``limits.MAX_SCAN_COUNT`` directory entries in all (beside each yielded one's own listing)."""
    budget = limits.MAX_SCAN_COUNT
    while level and budget > 0:
        below = []
        for path, entries in level:
            if entries is None:
                try:
                    entries = _first_entries(path, budget)
                except OSError:
                    continue
            entries = entries[:budget]
            budget -= len(entries)
            below.extend(entry.path for entry in entries if _is_plain_dir(entry))
            if budget <= 0:
                break
        level = []
        for path in below:
            entries = _listed(path, "", linked=False)  # a plain directory: no root to resolve in
            level.append((path, entries))
            yield path, entries


def _is_plain_dir(entry) -> bool:
    """A directory that is no symlink (nested runs are found without following links)."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _first_entries(path: str, count: int) -> list:
    """At most ``count`` entries of directory ``path`` (the rest is never read)."""
    entries = scandir(path)
    try:
        return list(itertools.islice(entries, count))
    finally:
        if hasattr(entries, "close"):  # a scandir iterator left unfinished holds its descriptor
            entries.close()


def _is_job_dir(entry, root: str) -> bool:
    """A sub-directory, or a symlink to a directory inside the base dir."""
    try:
        if entry.is_symlink():
            real = resolve_inside(entry.path, root)
            return real is not None and os.path.isdir(real)
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _stat(entry) -> os.stat_result | None:
    try:
        return entry.stat(follow_symlinks=True)
    except OSError:
        return None


__all__ = ["SummaryDirInfo", "JobFile", "is_valid_train_id", "train_id_for", "job_files", "scan_summary_dirs"]
