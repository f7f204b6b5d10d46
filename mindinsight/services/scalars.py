"""Scalar series of one job, and of several jobs for comparison."""

import numpy as np

from mindinsight.cache.memo import Derived
from mindinsight.cache.provider import DataProvider
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import ParamTypeError, ScalarNotExistError
from mindinsight.services.jobs import cached_job_data


def _non_finite_name(value: float) -> str:
    return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")


def scalar_points(samples: dict) -> list[dict]:
    """``[{wall_time, step, value}]``; a NaN/Inf value is null (JSON has no such numbers) and,
    beyond the original, its point also says which it was: ``non_finite`` NaN/Infinity/-Infinity."""
    values = samples["value"].astype(np.float64)
    points = [
        {"wall_time": wall_time, "step": step, "value": value}
        for wall_time, step, value in zip(samples["wall_time"].tolist(), samples["step"].tolist(), values.tolist())
    ]
    finite = np.isfinite(values)
    if not finite.all():
        for index in np.flatnonzero(~finite).tolist():
            point = points[index]
            point["non_finite"] = _non_finite_name(point["value"])
            point["value"] = None
    return points


def scalar_metadata(provider: DataProvider, train_id: str, tag: str) -> Derived:
    """All kept points of one scalar tag (the same object until the tag changes)."""
    data = cached_job_data(provider, train_id)
    answer = provider.derived.get(
        data, PluginName.SCALAR, tag, "metadata", lambda samples: Derived(metadatas=scalar_points(samples))
    )
    if answer is None:
        if any(provider.read_samples(data, plugin, tag) is not None for plugin in PluginName):
            raise ParamTypeError("scalar_value", "number")
        raise ScalarNotExistError("Invalid parameter value. Can not find any data in this train job by given tag.")
    return answer


def scalar_columns(samples: dict) -> dict:
    """``{steps, values, wall_times}`` of the points ``scalar_points`` gives, as columns (a far
    smaller answer for many series); a NaN/Inf value is null and ``non_finite`` maps its index
    (as text) to which it was."""
    values = samples["value"].astype(np.float64)
    columns = {
        "steps": samples["step"].tolist(),
        "values": values.tolist(),
        "wall_times": samples["wall_time"].tolist(),
    }
    finite = np.isfinite(values)
    if not finite.all():
        column = columns["values"]
        columns["non_finite"] = {}
        for index in np.flatnonzero(~finite).tolist():
            columns["non_finite"][str(index)] = _non_finite_name(column[index])
            column[index] = None
    return columns


def scalars_comparison(provider: DataProvider, train_ids: list[str], tags: list[str], compact: bool = False) -> dict:
    """Series for every (job, tag) pair that exists; missing jobs or tags are skipped. ``compact``:
    each series as columns (``scalar_columns``) instead of the original's point objects, each
    the same ``Derived`` object until its samples change (serialized once per change)."""
    result = []
    for train_id in train_ids:
        data = provider.job_data(train_id) if provider.job_brief(train_id) else None
        if data is None:
            continue
        for tag in tags:
            if compact:
                series = provider.derived.get(
                    data,
                    PluginName.SCALAR,
                    tag,
                    "columns",
                    lambda samples, train_id=train_id, tag=tag: Derived(
                        train_id=train_id, tag=tag, **scalar_columns(samples)
                    ),
                )
                if series is not None:
                    result.append(series)
                continue
            samples = provider.read_samples(data, PluginName.SCALAR, tag)
            if samples is not None:
                result.append({"train_id": train_id, "tag": tag, "values": scalar_points(samples)})
    return {"scalars": result}
