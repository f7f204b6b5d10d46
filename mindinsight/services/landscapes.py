"""Loss landscapes (docs/BEHAVIOUR.md §7): interval list and the landscapes of one or several jobs.

A landscape event whose ``loss_path.intervals`` is empty is the job's *final* landscape, every
other one an *interval* landscape named by an interval id. The original named intervals with
Python's ``hash(str(intervals))``, which is salted per process, so its ids changed on every
restart and a bookmarked URL broke. Ours is a SHA-256 of the same text, printed like the
original (a signed 64-bit decimal): stable across restarts and processes, and still equal for
equal intervals in different jobs, which is what lets the UI compare jobs on one interval.
"""

import hashlib

import numpy as np

from mindinsight.cache.provider import DataProvider, TrainIdProblem, train_id_problem
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import LandscapeNotExistError, ParamValueError, TrainJobNotExistError
from mindinsight.services.jobs import cached_job_data

INTERVAL = "interval"
FINAL = "final"


def interval_id(intervals) -> str:
    """The stable id of an interval list (the same list gives the same id in every job)."""
    text = str([int(value) for value in intervals])
    digest = hashlib.sha256(text.encode()).digest()
    return str(int.from_bytes(digest[:8], "big", signed=True))


def tensor_list(tensor) -> list:
    """A TensorProto's ``float_data`` as nested lists shaped by its dims (flat if they disagree)."""
    values = np.asarray(tensor.float_data, dtype=np.float32)
    dims = tuple(int(d) for d in tensor.dims)
    if dims and int(np.prod(dims)) == values.size:
        values = values.reshape(dims)
    return values.tolist()


def _point(point) -> dict:
    return {"x": tensor_list(point.x), "y": tensor_list(point.y), "z": tensor_list(point.z)}


def _convergence_point(landscape) -> list:
    point = landscape.convergence_point
    if not (len(point.x.float_data) and len(point.y.float_data) and len(point.z.float_data)):
        return [0, 0, 0]
    return [float(point.x.float_data[0]), float(point.y.float_data[0]), float(point.z.float_data[0])]


def _events(provider: DataProvider, data) -> list[dict]:
    """Every landscape event of a job, decoded once per change of its tag's samples:
    ``{id, intervals, points, path, metadata, convergence_point}`` (id None for a final one)."""
    events = []
    for tag in data.tags(PluginName.LOSS_LANDSCAPE):
        events.extend(provider.derived.get(data, PluginName.LOSS_LANDSCAPE, tag, "landscapes", _decode_tag) or [])
    return events


def _decode_tag(samples: dict) -> list[dict]:
    decoded = []
    for landscape in samples["landscape"]:
        intervals = [int(value) for value in landscape.loss_path.intervals]
        metadata = landscape.metadata
        event = {
            "id": interval_id(intervals) if intervals else None,
            "intervals": intervals,
            "points": _point(landscape.landscape),
            "metadata": {
                "decomposition": metadata.decomposition,
                "unit": metadata.unit,
                "step_per_epoch": metadata.step_per_epoch,
            },
            "convergence_point": _convergence_point(landscape),
        }
        if intervals:
            event["path"] = {**_point(landscape.loss_path.points), "intervals": intervals}
        decoded.append(event)
    return decoded


def intervals(provider: DataProvider, train_id: str) -> dict:
    """``{"intervals": [{id, value: [first, last]}]}``: one entry per interval landscape of the
    job (duplicates kept, as the original), sorted by the first interval value."""
    data = cached_job_data(provider, train_id)
    entries = [
        {"id": event["id"], "value": [event["intervals"][0], event["intervals"][-1]]}
        for event in _events(provider, data)
        if event["id"] is not None
    ]
    entries.sort(key=lambda entry: entry["value"][0])
    return {"intervals": entries}


def _job_landscape(provider: DataProvider, train_id: str, kind: str, wanted_id: str | None) -> dict:
    if train_id_problem(train_id) is TrainIdProblem.NOT_RELATIVE:
        return {"error_code": ParamValueError().code, "train_id": train_id}
    data = provider.job_data(train_id)
    if data is None:
        return {"error_code": TrainJobNotExistError().code, "train_id": train_id}
    for event in _events(provider, data):
        interval_match = kind == INTERVAL and event["id"] is not None and event["id"] == wanted_id
        if interval_match or (kind == FINAL and event["id"] is None):
            answer = {"train_id": train_id, "points": event["points"]}
            if interval_match:
                answer["path"] = event["path"]
            answer["metadata"] = {**event["metadata"], **provider.read_landscape_lineage(train_id)}
            answer["convergence_point"] = event["convergence_point"]
            return answer
    return {"error_code": LandscapeNotExistError().code, "train_id": train_id}


def landscapes(provider: DataProvider, train_ids: list[str], kind: str, wanted_id: str | None) -> dict:
    """The first matching landscape of each job, in request order; a job without one gets
    ``{error_code, train_id}`` in its place (bad id 50540002, not cached 50545005, none 50545017)."""
    return {"landscapes": [_job_landscape(provider, train_id, kind, wanted_id) for train_id in train_ids]}
