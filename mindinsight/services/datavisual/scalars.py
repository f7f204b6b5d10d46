"""Scalar series of one job, and of several jobs for comparison."""
import json
import threading
from collections import OrderedDict

import numpy as np

from mindinsight.cache.data_manager import DataManager
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import ParamTypeError, ScalarNotExistError, TrainJobNotExistError

_BODY_CACHE_SIZE = 64     # serialized scalar answers kept (a 1,000-point answer is ~70 KB)


def scalar_points(samples: dict) -> list[dict]:
    """``[{wall_time, step, value}]`` with NaN/Inf values as None (JSON null)."""
    values = samples["value"].astype(np.float64)
    finite = np.isfinite(values)
    value_list = values.tolist()
    if not finite.all():
        for index in np.flatnonzero(~finite).tolist():
            value_list[index] = None
    return [{"wall_time": wall_time, "step": step, "value": value}
            for wall_time, step, value in zip(samples["wall_time"].tolist(), samples["step"].tolist(), value_list)]


def _scalar_samples(manager: DataManager, train_id: str, tag: str):
    """``(job data, sorted samples)`` of one scalar tag, or the documented error."""
    data = manager.job_data(train_id)
    if data is None:
        raise TrainJobNotExistError("Can not find the given train job in cache.")
    samples = data.samples(PluginName.SCALAR, tag)
    if samples is None:
        if any(data.samples(plugin, tag) is not None for plugin in PluginName):
            raise ParamTypeError("scalar_value", "number")
        raise ScalarNotExistError("Invalid parameter value. Can not find any data in this train job by given tag.")
    return data, samples


def scalar_metadata(manager: DataManager, train_id: str, tag: str) -> dict:
    """All kept points of one scalar tag."""
    return {"metadatas": scalar_points(_scalar_samples(manager, train_id, tag)[1])}


class _BodyCache:
    """Serialized answers per (job data, tag), valid while the tag's samples are unchanged.

    ``JobData.samples`` returns the same sorted-columns object until the tag receives new
    samples, so an entry holding that very object is current. Bounded LRU.
    """

    def __init__(self, size: int):
        self.size = size
        self._entries: "OrderedDict[tuple, tuple]" = OrderedDict()
        self._lock = threading.Lock()

    def get(self, data, tag: str, samples: dict, build) -> bytes:
        key = (id(data), tag)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] is data and entry[1] is samples:
                self._entries.move_to_end(key)
                return entry[2]
        body = build()
        with self._lock:
            self._entries[key] = (data, samples, body)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return body


_BODIES = _BodyCache(_BODY_CACHE_SIZE)


def json_body(payload) -> bytes:
    """``payload`` serialized exactly as the app's ``jsonify`` does (compact, keys in order)."""
    return (json.dumps(payload, ensure_ascii=True, sort_keys=False, separators=(",", ":")) + "\n").encode()


def scalar_metadata_json(manager: DataManager, train_id: str, tag: str) -> bytes:
    """``scalar_metadata`` as the JSON answer body, serialized once per change of the tag."""
    data, samples = _scalar_samples(manager, train_id, tag)
    return _BODIES.get(data, tag, samples, lambda: json_body({"metadatas": scalar_points(samples)}))


def scalars_comparison(manager: DataManager, train_ids: list[str], tags: list[str]) -> dict:
    """Series for every (job, tag) pair that exists; missing jobs or tags are skipped."""
    result = []
    for train_id in train_ids:
        data = manager.job_data(train_id) if manager.brief(train_id) else None
        if data is None:
            continue
        for tag in tags:
            samples = data.samples(PluginName.SCALAR, tag)
            if samples is not None:
                result.append({"train_id": train_id, "tag": tag, "values": scalar_points(samples)})
    return {"scalars": result}
