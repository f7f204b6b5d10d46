"""Histograms: buckets ``[left, width, count]`` kept serialized until a query reads them.

Values no writer produces are made harmless when the buckets are read, so every answer stays
exact, finite JSON: a bucket count is clamped to 0..``limits.MAX_HISTOGRAM_BUCKET_COUNT`` (90
buckets of it still sum within int64), a bucket with a non-finite or huge edge is left out,
and min / max are clamped to ``limits.MAX_HISTOGRAM_ABS_EDGE``. A histogram message over
``limits.MAX_SAMPLE_BYTES`` is dropped at ingest.

TensorBoard files hold a ``HistogramProto`` (right edges and counts; the first bucket starts at
``min`` and the last ends at ``max``, as TensorBoard reads it) or a ``[k, 3]`` tensor of the
``histograms`` plugin (left, right, count). Both become the same sample; more buckets than the
original accepts are merged into neighbours, keeping every count.

A ``HistogramProto`` is kept serialized too, and turned into buckets on first use; what can be
refused (too large, counts and limits of different lengths) is checked at ingest without it.

In the persistent index a sample is its Histogram message bytes as read (decoded again only
when a query asks), or its buckets and range when it came from a TensorBoard form (``CODEC``).
"""

import numpy as np
from google.protobuf.message import DecodeError

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.format.proto import tensorboard_event_pb2 as tb_pb
from mindinsight.format.tb_tensors import tensor_array
from mindinsight.ingest.kinds.base import (
    Codec,
    Kind,
    Rejected,
    TensorBoardValues,
    joined,
    object_column,
    pack_bytes,
    pack_ragged,
    unpack_bytes,
    unpack_ragged,
)

_MAX_BYTES = limits.MAX_SAMPLE_BYTES[PluginName.HISTOGRAM]
_TOO_LARGE = Rejected.because("histogram_too_large", bytes=_MAX_BYTES)


class HistogramSample:
    """Buckets ``(n, 3)`` of ``[left, width, count]`` sorted by left, and the value range.

    Built either from decoded buckets, or (``from_serialized``, ``from_histogram_proto``) from
    the message bytes, which are then decoded on first use: most samples of a log never survive
    the reservoir, so they are never decoded.
    """

    __slots__ = ("_serialized", "_histogram_proto", "_buckets", "_min", "_max")

    def __init__(self, buckets: np.ndarray, min: float, max: float):  # noqa: A002 (field names)
        self._serialized = self._histogram_proto = None
        self._buckets, self._min, self._max = buckets, min, max

    @classmethod
    def from_serialized(cls, data: bytes) -> "HistogramSample":
        """A MindSpore Histogram message's bytes."""
        sample = cls.__new__(cls)
        sample._serialized, sample._histogram_proto = data, None
        sample._buckets = None
        return sample

    @classmethod
    def from_histogram_proto(cls, data: bytes) -> "HistogramSample":
        """A TensorBoard HistogramProto's bytes (its counts and limits equally many)."""
        sample = cls.__new__(cls)
        sample._serialized, sample._histogram_proto = None, data
        sample._buckets = None
        return sample

    def _decode(self) -> None:
        # The bytes stay (as a MindSpore message's do): a request thread may decode the same
        # sample meanwhile, and must find them.
        if self._histogram_proto is not None:
            decoded = _from_histogram_proto(tb_pb.HistogramProto.FromString(self._histogram_proto))
        else:
            decoded = histogram_sample(summary_pb.Summary.Histogram.FromString(self._serialized), check_limit=False)
        self._min, self._max = decoded.min, decoded.max
        self._buckets = decoded.buckets

    @property
    def buckets(self) -> np.ndarray:
        if self._buckets is None:
            self._decode()
        return self._buckets

    @property
    def min(self) -> float:
        if self._buckets is None:
            self._decode()
        return self._min

    @property
    def max(self) -> float:
        if self._buckets is None:
            self._decode()
        return self._max

    @property
    def count(self) -> int:
        return int(self.buckets[:, 2].sum()) if self.buckets.size else 0

    def __eq__(self, other) -> bool:
        if not isinstance(other, HistogramSample):
            return NotImplemented
        return (
            np.array_equal(self.buckets, other.buckets, equal_nan=True)
            and self.min == other.min
            and self.max == other.max
        )

    __hash__ = None

    def __repr__(self) -> str:
        return f"HistogramSample(buckets={len(self.buckets)}, min={self.min}, max={self.max})"


def histogram_sample(histogram, check_limit: bool = True) -> HistogramSample | None:
    """Compact histogram, or None when it has more buckets than the original accepts."""
    if check_limit and len(histogram.buckets) > limits.MAX_HISTOGRAM_INPUT_BUCKETS:
        return None
    buckets = np.array([(b.left, b.width, b.count) for b in histogram.buckets], dtype=np.float64).reshape(-1, 3)
    if buckets.size:
        buckets = _sane_buckets(buckets)
        buckets = buckets[np.argsort(buckets[:, 0], kind="stable")]
    return HistogramSample(buckets, _sane_bound(histogram.min), _sane_bound(histogram.max))


def _sane_buckets(buckets: np.ndarray) -> np.ndarray:
    """Buckets whose edges are finite and within bounds, counts clamped to the exact range."""
    edge = limits.MAX_HISTOGRAM_ABS_EDGE
    left, width = buckets[:, 0], buckets[:, 1]
    with np.errstate(invalid="ignore", over="ignore"):
        usable = (np.abs(left) <= edge) & (np.abs(width) <= edge) & (np.abs(left + width) <= edge)
    buckets = buckets[usable]
    buckets[:, 2] = buckets[:, 2].clip(0, limits.MAX_HISTOGRAM_BUCKET_COUNT)
    return buckets


def _sane_bound(value: float) -> float:
    if not np.isfinite(value):
        return 0.0
    edge = limits.MAX_HISTOGRAM_ABS_EDGE
    return float(min(max(value, -edge), edge))


def decode(value):
    histogram = value.histogram
    if len(histogram.buckets) > limits.MAX_HISTOGRAM_INPUT_BUCKETS:  # the original drops it too
        return Rejected.because("too_many_buckets", buckets=limits.MAX_HISTOGRAM_INPUT_BUCKETS)
    serialized = histogram.SerializeToString()
    if len(serialized) > _MAX_BYTES:
        return _TOO_LARGE
    return HistogramSample.from_serialized(serialized), len(serialized)


def histogram_from_edges(lefts, rights, counts, minimum: float, maximum: float) -> HistogramSample:
    """A sample from bucket edges and counts (TensorBoard's forms), at most
    ``limits.MAX_HISTOGRAM_INPUT_BUCKETS`` buckets: neighbours merge when there are more."""
    table = np.column_stack((lefts, rights, counts)).astype(np.float64).reshape(-1, 3)
    merge = -(-len(table) // limits.MAX_HISTOGRAM_INPUT_BUCKETS)  # ceiling
    if merge > 1:
        starts = np.arange(0, len(table), merge)
        lasts = np.minimum(starts + merge, len(table)) - 1
        table = np.column_stack((table[starts, 0], table[lasts, 1], np.add.reduceat(table[:, 2], starts)))
    buckets = np.column_stack((table[:, 0], table[:, 1] - table[:, 0], table[:, 2]))
    if buckets.size:
        buckets = _sane_buckets(buckets)
        buckets = buckets[np.argsort(buckets[:, 0], kind="stable")]
    return HistogramSample(buckets, _sane_bound(minimum), _sane_bound(maximum))


def _sized(sample: HistogramSample):
    if sample.buckets.nbytes > _MAX_BYTES:
        return _TOO_LARGE
    return sample, sample.buckets.nbytes + 16


def decode_histogram_proto(value):
    """TensorBoard's ``HistogramProto``, kept serialized (see ``_from_histogram_proto``)."""
    histo = value.histo
    if histo.ByteSize() > _MAX_BYTES:
        return _TOO_LARGE
    buckets = len(histo.bucket)
    if buckets != len(histo.bucket_limit):
        return Rejected.because("bucket_counts_mismatch", counts=buckets, limits=len(histo.bucket_limit))
    # The size the buckets will have once decoded (merged to at most the input limit), as _sized.
    size = min(buckets, limits.MAX_HISTOGRAM_INPUT_BUCKETS) * 3 * 8 + 16
    return HistogramSample.from_histogram_proto(histo.SerializeToString()), size


def _from_histogram_proto(histo) -> HistogramSample:
    """Bucket i spans (limit[i-1], limit[i]], the first from min and the last to max."""
    counts = np.asarray(histo.bucket, dtype=np.float64)
    limits_ = np.asarray(histo.bucket_limit, dtype=np.float64)
    if counts.size == 0:
        return histogram_from_edges([], [], [], histo.min, histo.max)
    lefts = np.concatenate(([histo.min], limits_[:-1]))
    rights = np.concatenate((limits_[:-1], [histo.max]))
    return histogram_from_edges(lefts, rights, counts, histo.min, histo.max)


def decode_histogram_tensor(value):
    """The ``histograms`` plugin's ``[k, 3]`` tensor of (left, right, count) rows."""
    try:
        table = tensor_array(value.tensor, _MAX_BYTES // 8)
    except ValueError as error:
        return Rejected.because("not_a_histogram", error=str(error))
    if table.size == 0:
        return _sized(histogram_from_edges([], [], [], 0.0, 0.0))
    if table.ndim != 2 or table.shape[1] != 3:
        return Rejected.because("histogram_tensor_shape", shape=str(list(table.shape)))
    table = table.astype(np.float64)
    return _sized(histogram_from_edges(table[:, 0], table[:, 1], table[:, 2], table[0, 0], table[-1, 1]))


def _encode(columns: dict) -> dict:
    """Each sample as its message bytes (``serialized`` 1) or its buckets and range (0)."""
    samples = columns["histogram"]
    serialized = np.array([sample._serialized is not None for sample in samples], dtype=np.uint8)
    data, ends = pack_bytes([sample._serialized or b"" for sample in samples])
    decoded = [sample for sample in samples if sample._serialized is None]
    buckets, bucket_ends = pack_ragged([sample.buckets.reshape(-1) for sample in decoded], np.float64)
    ranges = np.array([(sample.min, sample.max) for sample in decoded], dtype=np.float64).reshape(-1)
    return {
        "serialized": serialized,
        "message": data,
        "message.ends": ends,
        "buckets": buckets,
        "buckets.ends": bucket_ends,
        "ranges": ranges,
    }


def _decode(arrays: dict, count: int, _shared: dict) -> dict:
    serialized = joined(arrays["serialized"], np.uint8)
    if serialized.size != count or np.any(serialized > 1):
        raise ValueError("histogram forms do not fit")
    messages = unpack_bytes(arrays["message"], arrays["message.ends"], count)
    decoded = int(count - serialized.sum())
    buckets = unpack_ragged(arrays["buckets"], arrays["buckets.ends"], decoded, np.float64)
    ranges = joined(arrays["ranges"], np.float64)
    if ranges.size != 2 * decoded:
        raise ValueError("histogram ranges do not fit")
    samples, next_decoded = [], 0
    for index in range(count):
        if serialized[index]:
            # Checked now: a sample is otherwise parsed only when a query asks for it.
            try:
                summary_pb.Summary.Histogram.FromString(messages[index])
            except DecodeError as error:
                raise ValueError(f"a histogram message that does not parse: {error}") from error
            samples.append(HistogramSample.from_serialized(messages[index]))
            continue
        table = buckets[next_decoded]
        if table.size % 3:
            raise ValueError("histogram buckets that are not rows of three")
        low, high = ranges[2 * next_decoded : 2 * next_decoded + 2].tolist()
        samples.append(HistogramSample(table.reshape(-1, 3).copy(), low, high))
        next_decoded += 1
    return {"histogram": object_column(samples)}


CODEC = Codec(_encode, _decode)

KIND = Kind(
    PluginName.HISTOGRAM,
    {"histogram": object, "nbytes": np.int64},
    limits.STEPS_PER_TAG[PluginName.HISTOGRAM],
    value_field="histogram",
    decode=decode,
    tensorboard=TensorBoardValues({"histo": decode_histogram_proto}, {"histograms": decode_histogram_tensor}),
    bytes_per_tag=limits.BYTES_PER_TAG[PluginName.HISTOGRAM],
    bytes_per_job=limits.BYTES_PER_JOB[PluginName.HISTOGRAM],
    codec=CODEC,
)
KINDS = (KIND,)
