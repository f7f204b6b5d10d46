"""Decode a batch of event payloads into per-tag column batches.

The decode is the full protobuf parse (upb). Values are grouped by (plugin, tag) so each
container receives one batch per chunk of records. Image bytes are copied as stored and
tensors are kept as their TensorProto message: both are decoded only when asked for.
"""
import logging
from dataclasses import dataclass, field

import numpy as np
from google.protobuf.message import DecodeError

from mindinsight.conf import limits
from mindinsight.conf.plugins import VALUE_FIELD_PLUGINS, PluginName
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb

logger = logging.getLogger(__name__)


@dataclass
class HistogramSample:
    """Buckets ``(n, 3)`` of ``[left, width, count]`` sorted by left, and the value range."""

    buckets: np.ndarray
    min: float
    max: float

    @property
    def count(self) -> int:
        return int(self.buckets[:, 2].sum()) if self.buckets.size else 0


@dataclass
class TensorSample:
    """A tensor as stored; ``too_large`` when it exceeds the element limit (kept empty)."""

    proto: object
    dims: tuple
    data_type: int
    too_large: bool


@dataclass
class DecodedBatch:
    """Column lists per (plugin, tag), graphs in arrival order, and decode failures."""

    series: dict = field(default_factory=dict)
    graphs: list = field(default_factory=list)      # (step, wall_time, GraphProto)
    undecodable: int = 0

    def column_lists(self, plugin: PluginName, tag: str, names) -> dict:
        key = (plugin, tag)
        lists = self.series.get(key)
        if lists is None:
            lists = self.series[key] = {name: [] for name in ("step", "wall_time", *names)}
        return lists


def histogram_sample(histogram) -> HistogramSample | None:
    """Compact histogram, or None when it has more buckets than the original accepts."""
    if len(histogram.buckets) > limits.MAX_HISTOGRAM_INPUT_BUCKETS:
        return None
    buckets = np.array([(b.left, b.width, b.count) for b in histogram.buckets], dtype=np.float64).reshape(-1, 3)
    if buckets.size:
        buckets = buckets[np.argsort(buckets[:, 0], kind="stable")]
    low = histogram.min if np.isfinite(histogram.min) else 0.0
    high = histogram.max if np.isfinite(histogram.max) else 0.0
    return HistogramSample(buckets, float(low), float(high))


def tensor_sample(tensor) -> TensorSample:
    dims = tuple(int(d) for d in tensor.dims)
    too_large = int(np.prod(dims, dtype=np.int64)) > limits.MAX_TENSOR_ELEMENTS if dims else False
    return TensorSample(None if too_large else tensor, dims, int(tensor.data_type), too_large)


def decode_payloads(payloads, batch: DecodedBatch | None = None) -> DecodedBatch:
    """Parse every payload as an Event and group its values by plugin and tag."""
    batch = batch or DecodedBatch()
    event = summary_pb.Event()
    for payload in payloads:
        try:
            event.ParseFromString(payload)
        except DecodeError:
            batch.undecodable += 1
            continue
        kind = event.WhichOneof("what")
        if kind == "summary":
            _add_summary(batch, event)
        elif kind == "graph_def":
            batch.graphs.append((event.step, event.wall_time, summary_pb.Event.FromString(payload).graph_def))
    if batch.undecodable:
        logger.warning("%d records could not be decoded as events", batch.undecodable)
    return batch


def _add_summary(batch: DecodedBatch, event) -> None:
    step, wall_time = event.step, event.wall_time
    for value in event.summary.value:
        field_name = value.WhichOneof("value")
        plugin = VALUE_FIELD_PLUGINS.get(field_name)
        if plugin is None:
            continue
        tag = f"{value.tag}/{plugin.value}"
        if plugin is PluginName.SCALAR:
            lists = batch.column_lists(plugin, tag, ("value",))
            lists["value"].append(value.scalar_value)
        elif plugin is PluginName.IMAGE:
            lists = batch.column_lists(plugin, tag, ("width", "height", "image"))
            image = value.image
            lists["width"].append(image.width)
            lists["height"].append(image.height)
            lists["image"].append(image.encoded_image)
        elif plugin is PluginName.HISTOGRAM:
            sample = histogram_sample(value.histogram)
            if sample is None:
                continue
            lists = batch.column_lists(plugin, tag, ("histogram",))
            lists["histogram"].append(sample)
        elif plugin is PluginName.TENSOR:
            lists = batch.column_lists(plugin, tag, ("tensor",))
            lists["tensor"].append(tensor_sample(_detached(summary_pb.Summary.Value, value).tensor))
        else:
            lists = batch.column_lists(plugin, tag, ("landscape",))
            lists["landscape"].append(_detached(summary_pb.Summary.Value, value).loss_landscape)
        lists["step"].append(step)
        lists["wall_time"].append(wall_time)


def _detached(message_type, message):
    """A copy independent of the reused Event (which is overwritten by the next parse)."""
    return message_type.FromString(message.SerializeToString())
