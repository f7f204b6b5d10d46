"""Tensors of one or more jobs and tags: shapes, statistics, histograms, or one step's slice.

Follows the original (docs/BEHAVIOUR.md §4.3): ``detail`` absent lists each kept step's dims and
type; ``stats`` adds the statistics of the whole tensor; ``histogram`` adds buckets re-binned
onto one grid shared by the tag's kept steps (the histogram re-binning of 4.2);
``data`` answers one step's NumPy selection given by ``dims`` (at most two ``:`` items), with
the statistics of the selection and of the whole tensor. Unlike the original, integer and
boolean tensors are shown with their values, in their own type.

A tensor is read once per (tag, step) through the memo of derived values (a zero-copy view
on the stored bytes, see ``ingest/kinds/tensor.py``); its statistics and the tag's histogram
grid are kept the same way, so a slice costs only the selection and its JSON.
"""

from dataclasses import dataclass

import numpy as np

from mindinsight.cache.provider import DataProvider
from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import (
    ParamMissError,
    ParamTypeError,
    ParamValueError,
    ResponseTooLargeError,
    StepTensorDataNotInCacheError,
    TensorNotExistError,
    TensorTooLargeError,
)
from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir
from mindinsight.ingest.kinds.histogram import HistogramSample
from mindinsight.services import per_tag
from mindinsight.services.histograms import display_bins, display_histograms

DETAILS = ("stats", "histogram", "data")
_TENSOR = PluginName.TENSOR
KIND = per_tag.PerTagKind(
    _TENSOR,
    TensorNotExistError,
    # a tag of another kind: the original says so
    other_kind_error=lambda tag: TensorNotExistError(f"there is no tensor data in this tag: {tag}"),
)


# -- statistics ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Statistics:
    """Statistics over the finite values of an array (counts over all of it)."""

    max: float
    min: float
    avg: float
    count: int
    nan_count: int
    neg_inf_count: int
    pos_inf_count: int
    neg_count: int  # values < 0
    pos_count: int  # values > 0
    zero_count: int
    is_bool: bool

    @property
    def finite_count(self) -> int:
        return self.count - self.nan_count - self.neg_inf_count - self.pos_inf_count


def statistics(array: np.ndarray) -> Statistics:
    """Max, min and mean of the finite values; NaN/Inf counts; counts of < 0, > 0 and == 0."""
    total = int(array.size)
    is_bool = array.dtype.kind == "b"
    valid = array.astype(np.uint8) if is_bool else array
    nan = neg_inf = pos_inf = 0
    if valid.dtype.kind == "f":
        finite = np.isfinite(valid)
        if not finite.all():
            nan = int(np.count_nonzero(np.isnan(valid)))
            pos_inf = int(np.count_nonzero(np.isposinf(valid)))
            neg_inf = total - nan - pos_inf - int(np.count_nonzero(finite))
            valid = valid[finite]
    if valid.size == 0:
        return Statistics(0.0, 0.0, 0.0, total, nan, neg_inf, pos_inf, 0, 0, 0, is_bool)
    negative = int(np.count_nonzero(valid < 0))
    positive = int(np.count_nonzero(valid > 0))
    return Statistics(
        max=float(valid.max()),
        min=float(valid.min()),
        avg=float(valid.sum(dtype=np.float64) / valid.size),
        count=total,
        nan_count=nan,
        neg_inf_count=neg_inf,
        pos_inf_count=pos_inf,
        neg_count=negative,
        pos_count=positive,
        zero_count=int(valid.size) - negative - positive,
        is_bool=is_bool,
    )


def statistics_dict(stats: Statistics, overall: Statistics) -> dict:
    """The JSON ``statistics`` of a selection (``stats``) within its tensor (``overall``)."""
    answer = {
        "max": stats.max,
        "min": stats.min,
        "avg": stats.avg,
        "count": stats.count,
        "nan_count": stats.nan_count,
        "neg_inf_count": stats.neg_inf_count,
        "pos_inf_count": stats.pos_inf_count,
    }
    if overall.is_bool:
        answer.update(
            overall_count=overall.count, overall_true_count=overall.pos_count, overall_false_count=overall.zero_count
        )
        return answer
    answer.update(
        overall_max=overall.max,
        overall_min=overall.min,
        overall_avg=overall.avg,
        overall_count=overall.count,
        overall_nan_count=overall.nan_count,
        overall_neg_inf_count=overall.neg_inf_count,
        overall_pos_inf_count=overall.pos_inf_count,
        # floats, as the original answers them
        overall_zero_count=float(overall.zero_count),
        overall_neg_zero_count=float(overall.neg_count),
        overall_pos_zero_count=float(overall.pos_count),
    )
    return answer


def tensor_histogram(array: np.ndarray, stats: Statistics) -> HistogramSample:
    """Equal-width buckets of the finite values from min to max (widened by 0.5 when equal);
    the bucket count follows the finite value count as for histograms."""
    count = stats.finite_count
    if count == 0:
        return HistogramSample(np.zeros((0, 3)), 0.0, 0.0)
    low, high = stats.min, stats.max
    if not low < high:
        low, high = low - 0.5, high + 0.5
    values = array.astype(np.uint8) if array.dtype.kind == "b" else array
    if values.dtype.kind == "f" and stats.finite_count != stats.count:
        values = values[np.isfinite(values)]
    counts, edges = np.histogram(values, bins=display_bins(count), range=(low, high))
    buckets = np.column_stack((edges[:-1], np.diff(edges), counts)).astype(np.float64)
    return HistogramSample(buckets, stats.min, stats.max)


# -- dims --------------------------------------------------------------------------------


def _dim_item(text: str):
    try:
        if ":" in text:
            parts = [int(part.strip()) if part.strip() else None for part in text.split(":")]
            if len(parts) > 3:
                raise ValueError(text)
            if len(parts) == 3 and parts[2] == 0:
                raise ParamValueError(f"Invalid shape. Slice step cannot be zero. input_str: {text}")
            return slice(*parts)
        return int(text)
    except ValueError:
        raise ParamValueError(f"Invalid shape. Convert int from str failed. input_str: {text}") from None


def parse_dims(dims: str) -> tuple:
    """``"[0, 0, 1:10, :]"`` -> ``(0, 0, slice(1, 10), slice(None))``; at most
    ``limits.MAX_TENSOR_SLICE_DIMS`` items may hold ``:``."""
    text = dims.strip()
    if not (text.startswith("[") and text.endswith("]")):
        raise ParamValueError(
            f"Invalid shape. The type of shape should be str and start with `[` and end with `]`. Received: {dims}."
        )
    inner = text[1:-1]
    if sum(1 for item in inner.split(",") if ":" in item) > limits.MAX_TENSOR_SLICE_DIMS:
        raise ParamValueError(
            f"Invalid shape. At most {limits.MAX_TENSOR_SLICE_DIMS} dimensions are specified. Received: {inner}"
        )
    return tuple(_dim_item(item.strip()) for item in inner.split(",")) if inner else ()


def select(array: np.ndarray, dims: tuple) -> np.ndarray:
    """The selection ``array[dims]`` (a view where NumPy allows), always an ndarray."""
    if array.size == 0:
        return array
    if array.ndim != len(dims):
        raise ParamValueError("Invalid dims. The length of param dims and tensor shape should be the same.")
    try:
        result = array[dims]
    except (IndexError, OverflowError, ValueError):
        raise ParamValueError(
            f"Invalid shape. Shape unmatched. Received: {dims}, tensor shape: {array.shape}"
        ) from None
    return result if isinstance(result, np.ndarray) else np.asarray(result)


def json_values(selection: np.ndarray, stats: Statistics):
    """Nested lists of the selection; with any NaN/Inf, every value is a float or one of the
    strings ``"NAN"``, ``"INF"``, ``"-INF"`` (JSON has no NaN)."""
    if stats.nan_count + stats.neg_inf_count + stats.pos_inf_count == 0:
        return selection.tolist()
    shown = selection.astype(np.float64).astype(object)
    shown[np.isnan(selection)] = "NAN"
    shown[np.isposinf(selection)] = "INF"
    shown[np.isneginf(selection)] = "-INF"
    return shown.tolist()


# -- the query ---------------------------------------------------------------------------


def data_type_name(data_type: int) -> str:
    """``DT_FLOAT32`` for 11; an unknown number answers ``DT_UNDEFINED``."""
    try:
        return anf_ir.DataType.Name(data_type)
    except ValueError:
        return anf_ir.DataType.Name(anf_ir.DT_UNDEFINED)


def _sample_at(samples: dict, step: int):
    index = per_tag.step_index(samples, step)
    if index is None:  # replaced by a reload meanwhile
        raise StepTensorDataNotInCacheError(f"this step: {step} data may has been dropped.")
    return samples["tensor"][index]


def _overall(provider: DataProvider, data, tag: str, step: int):
    """Statistics of the whole tensor of ``step`` (None when too large), kept in the memo."""

    def build(samples):
        sample = _sample_at(samples, step)
        return None if sample.too_large else statistics(_array(provider, data, tag, step))

    return provider.derived.get(data, _TENSOR, tag, f"stats:{step}", build)


def _array(provider: DataProvider, data, tag: str, step: int) -> np.ndarray:
    """The tensor of ``step``, read once while the tag's samples are unchanged."""
    return provider.derived.get(data, _TENSOR, tag, f"array:{step}", lambda samples: _sample_at(samples, step).array())


def _base_value(sample) -> dict:
    return {"dims": list(sample.dims), "data_type": data_type_name(sample.data_type)}


def _summary(provider, data, tag, samples, with_stats: bool) -> list[dict]:
    values = []
    for step, sample in zip(samples["step"].tolist(), samples["tensor"]):
        value = _base_value(sample)
        if with_stats:
            overall = None if sample.too_large else _overall(provider, data, tag, step)
            value["statistics"] = None if overall is None else statistics_dict(overall, overall)
        values.append(value)
    return per_tag.step_rows(samples, {"value": values})


def _histograms(provider, data, tag, samples) -> list[dict]:
    for step, sample in zip(samples["step"].tolist(), samples["tensor"]):
        if sample.too_large:
            raise TensorTooLargeError(f"Step: {step}")
    steps = samples["step"].tolist()
    overall = [_overall(provider, data, tag, step) for step in steps]
    histograms = [tensor_histogram(_array(provider, data, tag, step), stats) for step, stats in zip(steps, overall)]
    grid = display_histograms({"wall_time": samples["wall_time"], "step": samples["step"], "histogram": histograms})
    values = []
    for sample, stats, shown in zip(samples["tensor"], overall, grid):
        values.append(
            {
                **_base_value(sample),
                "histogram_buckets": shown["buckets"],
                "statistics": statistics_dict(stats, stats),
            }
        )
    return per_tag.step_rows(samples, {"value": values})


def _step_data(provider, data, tag, samples, step: int, dims: tuple) -> list[dict]:
    index = per_tag.step_index(samples, step)
    if index is None:
        raise StepTensorDataNotInCacheError(f"this step: {step} data may has been dropped.")
    sample = samples["tensor"][index]
    if sample.too_large:
        raise TensorTooLargeError(f"Step: {step}")
    selection = select(_array(provider, data, tag, step), dims)
    if selection.size > limits.MAX_TENSOR_RESPONSE_VALUES:
        raise ResponseTooLargeError(
            f"the size of response data: {selection.size} exceed max value: {limits.MAX_TENSOR_RESPONSE_VALUES}."
        )
    stats = statistics(selection)
    value = {
        **_base_value(sample),
        "data": json_values(selection, stats),
        "statistics": statistics_dict(stats, _overall(provider, data, tag, step)),
    }
    return [{"wall_time": float(samples["wall_time"][index]), "step": int(samples["step"][index]), "value": value}]


def _to_step(step: str) -> int:
    try:
        return int(step)
    except ValueError:
        raise ParamTypeError("step", "Integer") from None


def _tag_values(provider, data, tag, step, dims, detail) -> list[dict]:
    samples = per_tag.tag_samples(provider, data, KIND, tag)
    if detail is None or detail == "stats":
        name = "summary:stats" if detail else "summary"
        return provider.derived.get(data, _TENSOR, tag, name, lambda s: _summary(provider, data, tag, s, bool(detail)))
    if detail == "data":
        if step is None:
            raise ParamMissError("step")
        if dims is None:
            raise ParamMissError("dims")
        parsed = parse_dims(dims)
        return _step_data(provider, data, tag, samples, _to_step(step), parsed)
    if detail == "histogram":
        return provider.derived.get(
            data, _TENSOR, tag, "summary:histogram", lambda s: _histograms(provider, data, tag, s)
        )
    raise ParamValueError(f"Can not support this value: {detail} of detail.")


def tensors(
    provider: DataProvider,
    train_ids: list[str],
    tags: list[str],
    step: str | None = None,
    dims: str | None = None,
    detail: str | None = None,
) -> dict:
    """``{tensors: [{train_id, tag, values}]}`` for every (job, tag) pair, in query order."""
    answer = []
    for train_id in train_ids:
        data = per_tag.job(provider, train_id)
        for tag in tags:
            values = _tag_values(provider, data, tag, step, dims, detail)
            answer.append({"train_id": train_id, "tag": tag, "values": values})
    return {"tensors": answer}
