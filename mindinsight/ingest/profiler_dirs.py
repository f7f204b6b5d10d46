"""Profiler output inside a train job's directory.

Two layouts are recognised:

* the original's: a sub-directory whose name starts with ``profiler`` holding the parsed
  files directly (``cpu_op_type_info_0.csv``, ``gpu_op_detail_info_0.csv``,
  ``output_op_compute_time_0.txt`` ...);
* MindSpore 2.x's: a sub-directory ``<host>_<pid>_<time>_ascend_ms`` whose ``FRAMEWORK``
  folder holds them (``FRAMEWORK/cpu_op_type_info_0.csv``, ``cpu_op_detail_info_0.csv``).

The type is decided as the original does: ascend files first, then gpu, then cpu.
"""

import os
import re
from pathlib import Path

PROFILER_DIR_PATTERN = re.compile(r"^profiler|_ascend_ms$")
FRAMEWORK_DIR = "FRAMEWORK"
_TYPE_FILES = (
    ("ascend", ("ascend_timeline_display", "output_op_compute_time")),
    ("gpu", ("gpu_op_detail_info", "gpu_activity_data", "gpu_op_type_info")),
    ("cpu", ("cpu_op_detail_info", "cpu_op_type_info")),
)
PROFILER_INFO_PREFIX = "profiler_info_"  # profiler_info_<device>.json: meta info per device
_DEVICE_SUFFIX = re.compile(r"_(\d+)\.(?:csv|txt|json)$")


def data_dir(profiler_dir: Path) -> Path:
    """Where the parsed profiler files of ``profiler_dir`` are (its FRAMEWORK folder if any)."""
    framework = profiler_dir / FRAMEWORK_DIR
    return framework if framework.is_dir() else profiler_dir


def _file_names(directory: Path) -> list[str]:
    try:
        return [entry.name for entry in os.scandir(directory) if entry.is_file(follow_symlinks=False)]
    except OSError:
        return []


def profiler_type(profiler_dir: Path) -> str:
    """``ascend`` / ``gpu`` / ``cpu`` by the files present, ``""`` when none is recognised."""
    names = _file_names(data_dir(profiler_dir))
    for kind, prefixes in _TYPE_FILES:
        if any(name.startswith(prefix) for name in names for prefix in prefixes):
            return kind
    return ""


def device_ids(profiler_dir: Path) -> list[str]:
    """The device ids the recognised profiler files name (``cpu_op_type_info_0.csv`` -> ``0``)."""
    found = set()
    for name in set(_file_names(profiler_dir) + _file_names(data_dir(profiler_dir))):
        match = _DEVICE_SUFFIX.search(name)
        known = name.startswith(PROFILER_INFO_PREFIX) or any(
            name.startswith(p) for _, prefixes in _TYPE_FILES for p in prefixes
        )
        if match and known:
            found.add(match.group(1))
    return sorted(found, key=int)


def find_profiler_dir(job_dir: Path) -> tuple[str, str] | None:
    """``(sub-directory name, profiler type)`` of the newest recognised profiler output of a
    job directory, or None. Symlinked directories are skipped, as everywhere in discovery."""
    candidates = []
    try:
        entries = list(os.scandir(job_dir))
    except OSError:
        return None
    for entry in entries:
        if not entry.is_dir(follow_symlinks=False) or not PROFILER_DIR_PATTERN.search(entry.name):
            continue
        kind = profiler_type(Path(entry.path))
        if kind:
            candidates.append((entry.stat(follow_symlinks=False).st_mtime, entry.name, kind))
    if not candidates:
        return None
    _, name, kind = max(candidates)
    return name, kind


def graph_mode(profiler_dir: Path) -> str:
    """``dynamic`` when the profiler recorded dynamic-shape information, else ``static``."""
    names = _file_names(profiler_dir) + _file_names(data_dir(profiler_dir))
    return "dynamic" if any(name.startswith("dynamic_shape_info") for name in names) else "static"
