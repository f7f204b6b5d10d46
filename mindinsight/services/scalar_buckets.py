"""``/datavisual/scalar/buckets``: every point of a scalar tag in a step range, reduced to one
bucket per pixel column (count, first, last, finite min and max, NaN/±Inf counts), so a spike
stays visible at any zoom.

A bucket covers the steps ``[edge_k, edge_k+1)`` of ``width`` equal parts of ``start..end``
and is listed only when it holds points. Each reduced *item* is a point or, for wide ranges,
a block summary of ``BLOCK`` consecutive points (``ingest/full_scalars.py``); a block belongs
wholly to the bucket of its first step, so a bucket's ``first.step``..``last.step`` is exactly
the range its min and max were taken over.
"""

import numpy as np

from mindinsight.cache.provider import BLOCK, BLOCK_FIELDS, DataProvider, SeriesView, point_items
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import (
    ParamTypeError,
    ScalarNotExistError,
    ScalarPointsReloadingError,
    ScalarPointsTooManyError,
    ScalarRangeError,
)
from mindinsight.services.jobs import cached_job_data
from mindinsight.services.scalars import _non_finite_name

# Ranges of fewer points are reduced from the points themselves (a few ms); wider ones from the
# block summaries, with points only at their two ends.
_MAX_RAW_POINTS = 1 << 20


def scalar_buckets(provider: DataProvider, train_id: str, tag: str, start, end, width: int) -> dict:
    """Buckets of one scalar tag over ``start..end`` (steps, both included; None: the tag's own)."""
    data = cached_job_data(provider, train_id)
    state = provider.read_scalar_points(train_id, data, tag)
    if state.dropped and state.too_large:
        raise ScalarPointsTooManyError()
    if state.dropped:
        raise ScalarPointsReloadingError("Ask again in a moment.")
    view = state.view
    if view is None:
        if any(provider.read_samples(data, plugin, tag) is not None for plugin in PluginName):
            raise ParamTypeError("scalar_value", "number")
        raise ScalarNotExistError("Invalid parameter value. Can not find any data in this train job by given tag.")
    if view.total:
        first, last = view.points(0, 1)[0][0], view.points(view.total - 1, view.total)[0][0]
    else:
        first = last = 0
    # A bound left out is the tag's own, so one bound past the data is an empty range, not an error.
    if start is None:
        start = int(first) if end is None else min(int(first), end)
    if end is None:
        end = max(int(last), start)
    if start > end:
        raise ScalarRangeError(f"start {start} is after end {end}.")
    lo, hi = view.search(start, "left"), view.search(end, "right")
    return {
        "start": start,
        "end": end,
        "width": width,
        "count": hi - lo,
        "buckets": _answer(reduce_buckets(_items(view, lo, hi), _edges(start, end, width))),
    }


def _edges(start: int, end: int, width: int) -> np.ndarray:
    """The first step of each of ``width`` equal parts of ``start..end`` (Python integers: exact
    for any int64 steps; a loop per bucket, not per point)."""
    span = end - start + 1
    return np.array([start + span * k // width for k in range(width)], dtype=np.int64)


def _items(view: SeriesView, lo: int, hi: int) -> dict:
    """The points ``lo:hi`` as items: block summaries in the middle of a wide range, points elsewhere."""
    blocks = view.blocks["count"].size
    first_block, last_block = -(-lo // BLOCK), min(hi // BLOCK, blocks)
    if hi - lo < _MAX_RAW_POINTS or last_block <= first_block:
        return point_items(*view.points(lo, hi))
    head = point_items(*view.points(lo, first_block * BLOCK), sparse=False)
    middle = {name: column[first_block:last_block] for name, column in view.blocks.items()}
    tail = point_items(*view.points(last_block * BLOCK, hi), sparse=False)
    return {name: np.concatenate((head[name], middle[name], tail[name])) for name in BLOCK_FIELDS}


def reduce_buckets(items: dict, edges: np.ndarray) -> dict:
    """Reduce items (sorted by step) into the buckets starting at ``edges``; empty ones left out."""
    size = items["first_step"].size
    if size == 0:
        return {name: np.empty(0, dtype=dtype) for name, dtype in BLOCK_FIELDS.items()}
    # Where each bucket's items begin: the edges searched among the items, not the other way.
    bounds = np.append(np.searchsorted(items["first_step"], edges, "left"), size)
    starts = bounds[:-1][bounds[:-1] < bounds[1:]]
    ends = np.append(starts[1:], size) - 1
    out = {
        "first_step": items["first_step"][starts],
        "first_value": items["first_value"][starts],
        "last_step": items["last_step"][ends],
        "last_value": items["last_value"][ends],
    }
    sizes = ends - starts + 1
    for name in ("count", "nan", "inf", "neg_inf"):
        counts = items.get(name)  # absent: 1 (count) or 0 (the rest) for every item
        if counts is not None:
            out[name] = np.add.reduceat(counts, starts)
        else:
            out[name] = sizes if name == "count" else np.zeros(starts.size, dtype=np.int64)
    for name, reduce in (("min", np.fmin), ("max", np.fmax)):
        extremes = reduce.reduceat(items[name], starts)  # fmin/fmax: NaN (no finite value) is skipped
        hits = np.flatnonzero(items[name] == np.repeat(extremes, sizes))
        first_hit = np.minimum(np.searchsorted(hits, starts), max(hits.size - 1, 0))
        found = hits.size > 0
        at = hits[first_hit] if found else starts
        inside = (at >= starts) & (at <= ends) if found else np.zeros(starts.size, dtype=bool)
        out[name] = np.where(inside, extremes, np.float32(np.nan))
        out[name + "_step"] = np.where(inside, items[name + "_step"][at], 0)
    return out


def _point(step: int, value: float) -> dict:
    if value != value or value in (float("inf"), float("-inf")):
        return {"step": step, "value": None, "non_finite": _non_finite_name(value)}
    return {"step": step, "value": value}


_COLUMNS = ("count", "first_step", "first_value", "last_step", "last_value", "min", "min_step", "max", "max_step")
_COLUMNS += ("nan", "inf", "neg_inf")


def _answer(buckets: dict) -> list[dict]:
    columns = {name: column.tolist() for name, column in buckets.items()}
    for name in ("first_value", "last_value", "min", "max"):
        columns[name] = buckets[name].astype(np.float64).tolist()
    answer = []
    for count, first_step, first, last_step, last, low, low_step, high, high_step, nan, inf, neg_inf in zip(
        *(columns[name] for name in _COLUMNS)
    ):
        answer.append(
            {
                "count": count,
                "first": _point(first_step, first),
                "last": _point(last_step, last),
                "min": None if low != low else {"step": low_step, "value": low},
                "max": None if high != high else {"step": high_step, "value": high},
                "nan": nan,
                "inf": inf,
                "neg_inf": neg_inf,
            }
        )
    return answer
