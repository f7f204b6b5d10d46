"""Histograms of one tag, re-binned onto one grid shared by every kept step (docs/BEHAVIOUR.md §4.2)."""

import math

import numpy as np

from mindinsight.cache.provider import DataProvider
from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import HistogramNotExistError
from mindinsight.services import per_tag

KIND = per_tag.PerTagKind(PluginName.HISTOGRAM, HistogramNotExistError, no_tag_detail=per_tag.NO_DATA_FOR_TAG)


def display_bins(max_count: int) -> int:
    """Number of display bins for a tag whose fullest step holds ``max_count`` values."""
    if max_count <= 0:
        return 1
    if max_count <= 5:
        return 2
    if max_count <= 10:
        return 3
    if max_count <= 280:
        return math.ceil(max_count / 10) + 1
    return limits.MAX_HISTOGRAM_DISPLAY_BINS


def rebin(buckets: np.ndarray, low: float, width: float, bins: int) -> list[int]:
    """Counts of ``bins`` bins of ``width`` from ``low`` for original ``[left, width, count]``
    buckets: each bucket spreads its count over the bins it overlaps, then counts round up."""
    counts = np.zeros(bins)
    if buckets.size:
        lefts, widths, values = buckets[:, 0], buckets[:, 1], buckets[:, 2]
        edges = low + width * np.arange(bins + 1)
        spread = widths > 0
        if spread.any():
            overlap = (
                np.minimum(lefts[spread, None] + widths[spread, None], edges[None, 1:])
                - np.maximum(lefts[spread, None], edges[None, :-1])
            ).clip(min=0)
            # The share first: count * overlap could overflow for counts and edges near the
            # bounds ingest allows (kinds/histogram.py); a share is at most 1.
            counts += (values[spread, None] * (overlap / widths[spread, None])).sum(axis=0)
        points = ~spread
        if points.any():  # a zero-width bucket puts its whole count into the bin holding it
            index = np.floor((lefts[points] - low) / width).astype(np.int64).clip(0, bins - 1)
            np.add.at(counts, index, values[points])
    # Rounded to 1e-9 first so float error in the overlaps never turns 3.0 into 4.
    return np.ceil(np.round(counts, 9)).astype(np.int64).tolist()


def display_histograms(samples: dict) -> list[dict]:
    """``[{wall_time, step, buckets}]`` for sorted histogram sample columns."""
    histograms = samples["histogram"]
    filled = [h for h in histograms if h.count > 0]
    bins = display_bins(max((h.count for h in filled), default=0))
    low = min((h.min for h in filled), default=0.0)
    high = max((h.max for h in filled), default=0.0)
    if low == high:
        low, high = low - 0.5, high + 0.5
    width = (high - low) / bins
    lefts = (low + width * np.arange(bins)).tolist()
    buckets = []
    for histogram in histograms:
        counts = rebin(histogram.buckets, low, width, bins) if histogram.count > 0 else [0] * bins
        buckets.append([[left, width, count] for left, count in zip(lefts, counts)])
    return per_tag.step_rows(samples, {"buckets": buckets})


def histograms(provider: DataProvider, train_id: str, tag: str) -> dict:
    """Every kept step of one histogram tag, or the documented error."""
    data = per_tag.job(provider, train_id)
    grid = per_tag.tag_answer(provider, data, KIND, tag, "display", display_histograms)
    return {"train_id": train_id, "tag": tag, "histograms": grid}
