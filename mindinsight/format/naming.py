"""File-name rules of summary directories (docs/FORMATS.md §2)."""

import re

_SUMMARY_RE = re.compile(r"summary\.(?P<timestamp>\d+)")
_PROFILER_MEMORY_PB_RE = re.compile(r"^memory_usage_\d+\.pb$")
LINEAGE_SUFFIX = "_lineage"
EXPLAIN_SUFFIX = "_explain"


def summary_timestamp(name: str) -> int | None:
    """The creation time encoded in a summary file name, or None if it is not one."""
    match = _SUMMARY_RE.search(name)
    return int(match.group("timestamp")) if match else None


def is_summary_file(name: str) -> bool:
    """Any file matching ``summary.<digits>`` (datavisual, lineage or explain)."""
    return _SUMMARY_RE.search(name) is not None


def is_lineage_file(name: str) -> bool:
    return is_summary_file(name) and name.endswith(LINEAGE_SUFFIX)


def is_explain_file(name: str) -> bool:
    return is_summary_file(name) and name.endswith(EXPLAIN_SUFFIX)


def is_datavisual_file(name: str) -> bool:
    """A summary file holding events (scalars, images, graphs...)."""
    return is_summary_file(name) and not name.endswith((LINEAGE_SUFFIX, EXPLAIN_SUFFIX))


def is_graph_pb_file(name: str) -> bool:
    """A bare ModelProto graph file (``*.pb``), excluding profiler memory dumps."""
    return name.endswith(".pb") and not _PROFILER_MEMORY_PB_RE.match(name)


def sort_summary_files(names) -> list[str]:
    """Order of summary files in a directory: timestamp ascending, ties by name descending."""
    by_name_desc = sorted(names, reverse=True)
    return sorted(by_name_desc, key=lambda name: summary_timestamp(name) or 0)
