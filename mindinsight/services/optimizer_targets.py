"""``POST /optimizer/targets/search``: which hyper-parameters matter for each target.

The jobs a lineage search condition selects become a table: one row per job, one column per
model-lineage field, ``[M]<metric>`` and ``[U]<user-defined key>`` (at most 100 user-defined
columns). Columns that are not all numbers are left out (user-defined ones are reported in
``unrecognized_params`` with reason 1). Targets are the metric columns and ``loss``; each
hyper-parameter's importance for a target is |Pearson r| over the rows where both are
present: 0 with reason 2 when at most 2 such rows, 0 with reason 3 when r is not a number
(e.g. a constant column). The original built this table with pandas; this module uses
numpy only (``np.corrcoef`` and ``np.histogram``), pandas is not a dependency.
"""

import math

import numpy as np

from mindinsight.cache.provider import DataProvider
from mindinsight.conf.limits import OPTIMIZER_MAX_USER_DEFINED_COLUMNS
from mindinsight.services.lineage import search_lineages

METRIC_COLUMN = "[M]"
USER_COLUMN = "[U]"
LOSS = "loss"
NOT_TUNABLE = ("loss", "train_id", "device_num", "model_size", "test_dataset_count", "train_dataset_count")
HISTOGRAM_BINS = 5
REASON_NOT_ALL_NUMBERS = 1
REASON_SAMPLES_NOT_ENOUGH = 2
REASON_CORRELATION_NAN = 3


def _number(value):
    """A table cell: a number, NaN for a missing value or the strings 'nan'/'inf', else None."""
    if value is None:
        return math.nan
    if isinstance(value, str) and value.lower() in ("nan", "inf"):
        return math.nan
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return None


def _table(objects: list[dict]) -> tuple[list[str], dict[str, list]]:
    """Train ids and ``{column: values}`` (missing values None), columns in first-seen order."""
    train_ids, columns, user_columns = [], {}, 0
    for index, item in enumerate(objects):
        train_ids.append(item.get("summary_dir"))
        model = item.get("model_lineage", {})
        cells = []
        for key, value in model.items():
            if key == "metric":
                cells += [(METRIC_COLUMN + name, metric) for name, metric in value.items()]
            elif key == "user_defined":
                cells += [(USER_COLUMN + name, info) for name, info in value.items()]
            else:
                cells.append((key, value))
        for name, value in cells:
            if name not in columns:
                if name.startswith(USER_COLUMN):
                    if user_columns >= OPTIMIZER_MAX_USER_DEFINED_COLUMNS:
                        continue
                    user_columns += 1
                columns[name] = [None] * index
            columns[name].append(value)
        for values in columns.values():
            if len(values) == index:
                values.append(None)
    return train_ids, columns


def _numeric_columns(columns: dict[str, list]) -> tuple[dict[str, np.ndarray], dict[str, list], list[dict]]:
    """Float arrays of the all-number columns, their JSON values, and the dropped user columns."""
    arrays, values, dropped = {}, {}, []
    for name, cells in columns.items():
        numbers = [_number(cell) for cell in cells]
        usable = all(number is not None for number in numbers) and any(cell is not None for cell in cells)
        if not usable:
            if name.startswith(USER_COLUMN):
                dropped.append({"name": name, "unselected": True, "reason_code": REASON_NOT_ALL_NUMBERS})
            continue
        arrays[name] = np.asarray(numbers, dtype=np.float64)
        if all(isinstance(number, int) for number in numbers):
            values[name] = numbers
        else:
            values[name] = [None if math.isnan(number) else float(number) for number in numbers]
    return arrays, values, dropped


def _importance(parameter: np.ndarray, target: np.ndarray) -> dict:
    present = ~(np.isnan(parameter) | np.isnan(target))
    if int(present.sum()) <= 2:
        return {"importance": 0, "reason_code": REASON_SAMPLES_NOT_ENOUGH}
    with np.errstate(invalid="ignore", divide="ignore"):
        correlation = np.corrcoef(parameter[present], target[present])[0, 1]
    if np.isnan(correlation):
        return {"importance": 0, "reason_code": REASON_CORRELATION_NAN}
    return {"importance": abs(float(correlation))}


def _histogram(values: np.ndarray) -> list[list[float]]:
    """5 equal-width buckets ``[left, width, count]`` over the finite values (±0.5 around one value)."""
    finite = values[np.isfinite(values)]
    low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 0.0)
    if low >= high:
        low, high = low - 0.5, high + 0.5
    counts, edges = np.histogram(finite, bins=HISTOGRAM_BINS, range=(low, high))
    return [[float(edges[i]), float(edges[i + 1] - edges[i]), float(count)] for i, count in enumerate(counts)]


def search_targets(provider: DataProvider, condition) -> dict:
    """``{"metadata": {train_ids, possible_hyper_parameters, unrecognized_params}, "targets": [...]}``."""
    objects = search_lineages(provider, condition)["object"]
    train_ids, columns = _table(objects)
    arrays, values, dropped = _numeric_columns(columns)
    targets = [name for name in arrays if name.startswith(METRIC_COLUMN)] + ([LOSS] if LOSS in arrays else [])
    parameters = [name for name in arrays if not name.startswith(METRIC_COLUMN) and name not in NOT_TUNABLE]
    summaries = []
    for target in targets:
        hyper_parameters = [{"name": name, **_importance(arrays[name], arrays[target])} for name in parameters]
        # Most important first; at equal importance collected fields before user-defined ones.
        hyper_parameters.sort(key=lambda item: (-item["importance"], item["name"].startswith("["), item["name"]))
        summaries.append(
            {
                "name": target,
                "buckets": _histogram(arrays[target]),
                "hyper_parameters": hyper_parameters,
                "data": values[target],
            }
        )
    summaries.sort(key=lambda summary: summary["name"])
    return {
        "metadata": {
            "train_ids": train_ids,
            "possible_hyper_parameters": [{"name": name, "data": values[name]} for name in parameters],
            "unrecognized_params": dropped,
        },
        "targets": summaries,
    }
