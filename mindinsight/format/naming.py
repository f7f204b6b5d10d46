"""File-name rules of summary directories (docs/FORMATS.md §2, §8)."""

import re

_SUMMARY_RE = re.compile(r"summary\.(?P<timestamp>\d+)")
_PROFILER_MEMORY_PB_RE = re.compile(r"^memory_usage_\d+\.pb$")
_TFEVENTS_MARK = "tfevents"
_TFEVENTS_RE = re.compile(r"tfevents\.(?P<timestamp>\d+)")
LINEAGE_SUFFIX = "_lineage"
EXPLAIN_SUFFIX = "_explain"


def summary_timestamp(name: str) -> int | None:
    """The creation time encoded in a summary file name, or None if it is not one."""
    match = _SUMMARY_RE.search(name)
    return int(match.group("timestamp")) if match else None


def is_summary_file(name: str) -> bool:
    """Any MindSpore file matching ``summary.<digits>`` (datavisual, lineage or explain)."""
    return _SUMMARY_RE.search(name) is not None and not is_tfevents_file(name)


def is_tfevents_file(name: str) -> bool:
    """A TensorBoard event file: ``tfevents`` anywhere in the name, as TensorBoard decides."""
    return _TFEVENTS_MARK in name


def tfevents_timestamp(name: str) -> int | None:
    """The creation time in a TensorBoard event file name (``events.out.tfevents.<secs>.<host>...``)."""
    match = _TFEVENTS_RE.search(name)
    return int(match.group("timestamp")) if match else None


def sort_tfevents_files(names) -> list[str]:
    """Order of TensorBoard event files in a directory: by name, as TensorBoard reads them."""
    return sorted(names)


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
