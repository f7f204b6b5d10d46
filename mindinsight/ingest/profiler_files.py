"""Reading one profiler file: the opening rule of ``format/files.py`` with the profiler's error
codes, and strict JSON for ``profiler_info_<device>.json`` and MSAdvisor's recommendations.

JSON answers must be strict JSON, so what is read is made so here, once: a number beyond the
float range (``1e999``) and the non-standard ``NaN`` / ``Infinity`` become ``null`` (as the
scalar API serves NaN and Inf), rather than refusing a whole recommendation for one value that
only a broken writer produces. Nesting is bounded (``limits.MAX_PROFILER_JSON_DEPTH``) so that
neither parsing nor serializing the answer can recurse out of the stack.
"""

import contextlib
import json
import math
import os

from mindinsight.conf import limits
from mindinsight.errors import ProfilerFileTooLargeError, ProfilerIOError, ProfilerPathError
from mindinsight.format.files import FileTooLarge, NotRegularFile, OutsideBaseDir, read_bounded


@contextlib.contextmanager
def reading(path: str | os.PathLike):
    """Turn the refusals and read errors of ``path`` into the profiler's error codes."""
    name = os.path.basename(os.fspath(path))
    try:
        yield
    except OutsideBaseDir:
        raise ProfilerPathError(f"{name} lies outside the summary base dir.") from None
    except NotRegularFile:
        raise ProfilerIOError(f"{name} is not a regular file.") from None
    except FileTooLarge as error:
        raise ProfilerFileTooLargeError(f"{name}: {error.strerror}.") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ProfilerIOError() from error


def _finite_or_null(text: str) -> float | None:
    value = float(text)
    return value if math.isfinite(value) else None


def _null(_constant: str) -> None:
    return None


def _depth(value) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar: 0), without recursion."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in children)
    return deepest


def read_json(path: str | os.PathLike, root: str):
    """The strict-JSON value of the profiler JSON file ``path`` (inside ``root``, the real base
    dir), within ``limits.MAX_PROFILER_JSON_BYTES`` and ``MAX_PROFILER_JSON_DEPTH``."""
    path = os.fspath(path)
    depth = limits.MAX_PROFILER_JSON_DEPTH
    too_deep = ProfilerFileTooLargeError(f"{os.path.basename(path)}: nested deeper than {depth} levels.")
    with reading(path):
        data = read_bounded(path, root, limits.MAX_PROFILER_JSON_BYTES)
        try:
            value = json.loads(data.decode("utf-8"), parse_float=_finite_or_null, parse_constant=_null)
        except RecursionError:
            raise too_deep from None
    if _depth(value) > limits.MAX_PROFILER_JSON_DEPTH:
        raise too_deep
    return value
