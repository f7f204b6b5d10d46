"""Profiler output inside a train job's directory.

Two layouts are recognised:

* the original's: a sub-directory whose name starts with ``profiler`` holding the parsed
  files directly (``cpu_op_type_info_0.csv``, ``gpu_op_detail_info_0.csv``,
  ``output_op_compute_time_0.txt`` ...);
* MindSpore 2.x's: a sub-directory ``<host>_<pid>_<time>_ascend_ms`` whose ``FRAMEWORK``
  folder holds them (``FRAMEWORK/cpu_op_type_info_0.csv``, ``cpu_op_detail_info_0.csv``).

The type is decided as the original does: ascend files first, then gpu, then cpu.

Folders below a profiler directory (``FRAMEWORK``, ``msadvisor/...``) count only when their
real path lies inside the base dir (``root``, the rule of ``format/files.py``); the readers
(``profiler_csv.py``, ``profiler_files.py``) open files by the same rule.

Paths are strings, a local path or an object-store URL alike (``os.path`` joins and splits
both), and every listing and state comes from ``format/files.py``: profiler output on
``s3://bucket/prefix`` is found and read as on a local disk.
"""

import os
import re
from dataclasses import dataclass

from mindinsight.errors import ParamValueError, ProfilerDirNotFoundError, TrainJobNotExistError
from mindinsight.format.files import is_dir, real_root, resolve_inside, scandir, stat_path
from mindinsight.ingest.train_ids import NOT_ONE_LEVEL, TrainIdProblem, train_id_problem

PROFILER_DIR_PATTERN = re.compile(r"^profiler|_ascend_ms$")
FRAMEWORK_DIR = "FRAMEWORK"
_TYPE_FILES = (
    ("ascend", ("ascend_timeline_display", "output_op_compute_time")),
    ("gpu", ("gpu_op_detail_info", "gpu_activity_data", "gpu_op_type_info")),
    ("cpu", ("cpu_op_detail_info", "cpu_op_type_info")),
)
PROFILER_INFO_PREFIX = "profiler_info_"  # profiler_info_<device>.json: meta info per device
_PROFILER_INFO = re.compile(rf"^{PROFILER_INFO_PREFIX}(\d+)\.json$")
# What MindSpore writes for a multi-device Ascend training's cluster analysis:
# ascend_cluster_analyse_<mode>-parallel_<stages>_<ranks>_<rank>.csv
_CLUSTER_FILE = re.compile(r"^ascend_cluster_analyse_[a-z]+-parallel_\d+_\d+_\d+\.csv$")
_DEVICE_SUFFIX = re.compile(r"_(\d+)\.(?:csv|txt|json)$")


def _root_of(directory: str, root: str | None) -> str:
    return real_root(directory) if root is None else root


def folder_inside(folder: str | os.PathLike, root: str) -> bool:
    """Whether ``folder`` is a directory whose real path lies inside ``root``."""
    folder = os.fspath(folder)
    return resolve_inside(folder, root) is not None and is_dir(folder)


def data_dir(profiler_dir: str | os.PathLike, root: str | None = None) -> str:
    """Where the parsed profiler files of ``profiler_dir`` are (its FRAMEWORK folder if any
    inside ``root``, the real base dir; by default ``profiler_dir`` itself)."""
    profiler_dir = os.fspath(profiler_dir)
    framework = os.path.join(profiler_dir, FRAMEWORK_DIR)
    return framework if folder_inside(framework, _root_of(profiler_dir, root)) else profiler_dir


def folders(profiler_dir: str | os.PathLike, root: str | None = None) -> list[str]:
    """The profiler directory and its data folder (once when they are the same)."""
    profiler_dir = os.fspath(profiler_dir)
    return list(dict.fromkeys((profiler_dir, data_dir(profiler_dir, root))))


def _entries(directory: str) -> list:
    """The entries of ``directory`` (``files.scandir``'s), none when it cannot be listed."""
    try:
        with scandir(directory) as entries:
            return list(entries)
    except OSError:
        return []


def _file_names(directory: str) -> list[str]:
    return [entry.name for entry in _entries(directory) if entry.is_file(follow_symlinks=False)]


def profiler_type(profiler_dir: str | os.PathLike, root: str | None = None) -> str:
    """``ascend`` / ``gpu`` / ``cpu`` by the files present, ``""`` when none is recognised."""
    names = _file_names(data_dir(profiler_dir, root))
    for kind, prefixes in _TYPE_FILES:
        if any(name.startswith(prefix) for name in names for prefix in prefixes):
            return kind
    return ""


def device_ids(profiler_dir: str | os.PathLike, root: str | None = None) -> list[str]:
    """The device ids the recognised profiler files name (``cpu_op_type_info_0.csv`` -> ``0``)."""
    found = set()
    for name in {name for folder in folders(profiler_dir, root) for name in _file_names(folder)}:
        match = _DEVICE_SUFFIX.search(name)
        known = name.startswith(PROFILER_INFO_PREFIX) or any(
            name.startswith(p) for _, prefixes in _TYPE_FILES for p in prefixes
        )
        if match and known:
            found.add(match.group(1))
    return sorted(found, key=int)


def find_profiler_dir(
    job_dir: str | os.PathLike, root: str | None = None, entries: list | None = None
) -> tuple[str, str] | None:
    """``(sub-directory name, profiler type)`` of the newest recognised profiler output of a
    job directory (listed as ``entries`` when given), or None. Symlinked directories are
    skipped, as everywhere in discovery."""
    job_dir = os.fspath(job_dir)
    root = _root_of(job_dir, root)
    candidates = []
    if entries is None:
        try:
            with scandir(job_dir) as listed:
                entries = list(listed)
        except OSError:
            return None
    for entry in entries:
        if not entry.is_dir(follow_symlinks=False) or not PROFILER_DIR_PATTERN.search(entry.name):
            continue
        kind = profiler_type(entry.path, root)
        if kind:
            candidates.append((entry.stat(follow_symlinks=False).st_mtime, entry.name, kind))
    if not candidates:
        return None
    _, name, kind = max(candidates)
    return name, kind


def graph_mode(profiler_dir: str | os.PathLike, root: str | None = None) -> str:
    """``dynamic`` when the profiler recorded dynamic-shape information, else ``static``."""
    names = [name for folder in folders(profiler_dir, root) for name in _file_names(folder)]
    return "dynamic" if any(name.startswith("dynamic_shape_info") for name in names) else "static"


@dataclass(frozen=True)
class ProfilerOutput:
    """A located profiler directory and the real base dir its files must lie in."""

    path: str
    root: str

    @property
    def data_dir(self) -> str:
        return data_dir(self.path, self.root)

    @property
    def folders(self) -> list[str]:
        return folders(self.path, self.root)


def job_path(base_dir: str, train_id: str) -> str:
    """The real directory of ``train_id`` (``./<name>`` or ``./``), never outside the summary
    base dir (50540002 otherwise); it may not exist."""
    # A backslash name passes here as it always has: no job dir has one, so it is not found.
    if train_id_problem(train_id) in (*NOT_ONE_LEVEL, TrainIdProblem.DOT_OR_NUL):
        raise ParamValueError("Invalid profiler dir")
    root = real_root(base_dir)
    job = resolve_inside(os.path.join(root, train_id), root)
    if job is None:
        raise ParamValueError("Invalid profiler dir")
    return job


def locate(base_dir: str, train_id: str, profile: str) -> ProfilerOutput:
    """The profiler directory ``profile`` of ``train_id``: the original's checks (50540002 for
    a bad name) plus containment; its real path is a direct child of the job's."""
    profile = profile[2:] if profile.startswith("./") else profile  # train-jobs names it either way
    job = job_path(base_dir, train_id)
    if "/" in profile or "\\" in profile or profile in (".", "..") or "\x00" in profile:
        raise ParamValueError("Invalid profiler dir")
    target = resolve_inside(os.path.join(job, profile), job)
    if target is None or os.path.dirname(target) != job:
        raise ParamValueError("Invalid profiler dir")
    if not is_dir(job):
        raise TrainJobNotExistError(train_id)
    if not is_dir(target):
        raise ProfilerDirNotFoundError(target)
    return ProfilerOutput(target, real_root(base_dir))


def newest_output(base_dir: str, train_id: str) -> ProfilerOutput:
    """The newest recognised profiler directory of ``train_id`` (50540002 for a bad train id,
    50545005 when the job dir does not exist, 50546083 when it holds no profiler output)."""
    job = job_path(base_dir, train_id)
    if not is_dir(job):
        raise TrainJobNotExistError(train_id)
    root = real_root(base_dir)
    found = find_profiler_dir(job, root)
    if found is None:
        raise ProfilerDirNotFoundError(job)
    return ProfilerOutput(os.path.join(job, found[0]), root)


def devices_info_file(output: ProfilerOutput) -> str | None:
    """The first ``profiler_info_<device>.json`` directly in the profiler directory (by name)."""
    names = sorted(
        entry.name
        for entry in _entries(output.path)
        if entry.name.startswith(PROFILER_INFO_PREFIX) and entry.name.endswith(".json")
    )
    return os.path.join(output.path, names[0]) if names else None


def version_info_file(output: ProfilerOutput) -> str | None:
    """The first ``profiler_info_<device>.json`` file of the profiler directory, else of its
    data folder."""
    for folder in output.folders:
        names = sorted(entry.name for entry in _entries(folder) if entry.is_file())
        for name in names:
            if _PROFILER_INFO.match(name):
                return os.path.join(folder, name)
    return None


def _mtime(path: str) -> float:
    try:
        return stat_path(path).st_mtime
    except OSError:
        return 0.0


def newest_msadvisor_file(output: ProfilerOutput, device: str) -> str | None:
    """MSAdvisor's newest recommendation file for ``device`` (under either folder), or None."""
    candidates = []
    for folder in output.folders:
        recommendations = os.path.join(folder, "msadvisor", f"device_{device}", "recommendation")
        if not folder_inside(recommendations, output.root):
            continue
        candidates += [
            entry.path
            for entry in _entries(recommendations)
            if os.path.splitext(entry.name)[1] == ".json" and entry.is_file()
        ]
    return max(candidates, key=_mtime) if candidates else None


def has_cluster_files(output: ProfilerOutput) -> bool:
    """Whether the profiler directory holds a multi-device Ascend cluster analysis."""
    return any(_CLUSTER_FILE.match(entry.name) for folder in output.folders for entry in _entries(folder))
