"""Write summary files any Python training loop can produce and MindSpore's reader accepts.

Each ``add_*`` call writes one Event; ``add_values`` writes one Event holding several values
for a step, the way MindSpore's SummaryRecord does.
"""

import io
import os
import socket
import time

import numpy as np

from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.format.records import frame

EVENT_VERSION = "Mindspore.Event:1"
_NUMPY_DTYPES = {
    np.dtype(np.float32): anf_ir.DT_FLOAT32,
    np.dtype(np.float64): anf_ir.DT_FLOAT64,
    np.dtype(np.int32): anf_ir.DT_INT32,
    np.dtype(np.int64): anf_ir.DT_INT64,
    np.dtype(np.bool_): anf_ir.DT_BOOL,
}


def summary_file_name(timestamp: int | None = None, suffix: str = "_MS") -> str:
    """``events.out.events.summary.<ts>.<host><suffix>``, MindSpore's naming."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    return f"events.out.events.summary.{timestamp}.{socket.gethostname()}{suffix}"


def tensor_proto(array) -> anf_ir.TensorProto:
    """A TensorProto with dims, dtype and the values in ``float_data``, as MindSpore writes it."""
    array = np.asarray(array)
    proto = anf_ir.TensorProto(dims=list(array.shape), data_type=_NUMPY_DTYPES.get(array.dtype, anf_ir.DT_FLOAT32))
    proto.float_data.extend(array.astype(np.float32).ravel().tolist())
    return proto


def histogram_proto(values, bins: int = 10) -> summary_pb.Summary.Histogram:
    """Histogram of the finite ``values`` with NaN/Inf counts, as MindSpore summarises a tensor."""
    values = np.asarray(values, dtype=np.float64).ravel()
    finite = values[np.isfinite(values)]
    hist = summary_pb.Summary.Histogram(
        nan_count=int(np.isnan(values).sum()),
        pos_inf_count=int(np.isposinf(values).sum()),
        neg_inf_count=int(np.isneginf(values).sum()),
        count=int(values.size),
    )
    if finite.size:
        counts, edges = np.histogram(finite, bins=bins)
        for left, right, count in zip(edges[:-1], edges[1:], counts):
            hist.buckets.add(left=float(left), width=float(right - left), count=int(count))
        hist.min, hist.max, hist.sum = float(finite.min()), float(finite.max()), float(finite.sum())
    return hist


def image_proto(image) -> summary_pb.Summary.Image:
    """An Image value from encoded bytes (PNG/JPEG...) or an HxWxC uint8 array (encoded as PNG)."""
    if isinstance(image, (bytes, bytearray)):
        from PIL import Image

        with Image.open(io.BytesIO(image)) as decoded:
            width, height, channels = decoded.width, decoded.height, len(decoded.getbands())
        encoded = bytes(image)
    else:
        from PIL import Image

        array = np.asarray(image, dtype=np.uint8)
        height, width = array.shape[:2]
        channels = 1 if array.ndim == 2 else array.shape[2]
        buffer = io.BytesIO()
        Image.fromarray(array.squeeze() if channels == 1 else array).save(buffer, format="PNG")
        encoded = buffer.getvalue()
    return summary_pb.Summary.Image(height=height, width=width, colorspace=channels, encoded_image=encoded)


class SummaryWriter:
    """Append events to one summary file in ``log_dir`` (created if needed)."""

    def __init__(self, log_dir, file_name: str | None = None, timestamp: int | None = None, suffix: str = "_MS"):
        os.makedirs(log_dir, exist_ok=True)
        self.path = os.path.join(log_dir, file_name or summary_file_name(timestamp, suffix))
        self._stream = open(self.path, "ab")
        if self._stream.tell() == 0:
            self.write_event(summary_pb.Event(wall_time=time.time(), version=EVENT_VERSION))

    def write_event(self, event) -> None:
        """Frame and append any Event (or LineageEvent) message."""
        self._stream.write(frame(event.SerializeToString()))

    def write_raw(self, payload: bytes) -> None:
        """Append an already-serialized payload (tests use this for odd records)."""
        self._stream.write(frame(payload))

    def add_values(self, step: int, values: dict, wall_time: float | None = None) -> None:
        """One Event for ``step`` with several values; each value is a float (scalar) or a
        ready ``Summary.Image``/``Summary.Histogram``/``TensorProto``/``LossLandscape``."""
        event = summary_pb.Event(wall_time=time.time() if wall_time is None else wall_time, step=step)
        for tag, value in values.items():
            item = event.summary.value.add(tag=tag)
            if isinstance(value, summary_pb.Summary.Image):
                item.image.CopyFrom(value)
            elif isinstance(value, summary_pb.Summary.Histogram):
                item.histogram.CopyFrom(value)
            elif isinstance(value, anf_ir.TensorProto):
                item.tensor.CopyFrom(value)
            elif isinstance(value, summary_pb.LossLandscape):
                item.loss_landscape.CopyFrom(value)
            else:
                item.scalar_value = float(value)
        self.write_event(event)

    def add_scalar(self, tag: str, value: float, step: int, wall_time: float | None = None) -> None:
        self.add_values(step, {tag: float(value)}, wall_time)

    def add_image(self, tag: str, image, step: int, wall_time: float | None = None) -> None:
        self.add_values(step, {tag: image_proto(image)}, wall_time)

    def add_histogram(self, tag: str, values, step: int, wall_time: float | None = None) -> None:
        self.add_values(step, {tag: histogram_proto(values)}, wall_time)

    def add_tensor(self, tag: str, array, step: int, wall_time: float | None = None) -> None:
        self.add_values(step, {tag: tensor_proto(array)}, wall_time)

    def add_graph(self, graph: anf_ir.GraphProto, step: int = 0, wall_time: float | None = None) -> None:
        event = summary_pb.Event(wall_time=time.time() if wall_time is None else wall_time, step=step)
        event.graph_def.CopyFrom(graph)
        self.write_event(event)

    def flush(self) -> None:
        self._stream.flush()

    def close(self) -> None:
        self._stream.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
