"""TensorBoard hparams (the ``hparams`` plugin) of one run, as a lineage row.

A run whose event files hold a ``_hparams_/session_start_info`` value is a *session* and becomes
one lineage row (its train_id is its own, ``./exp/seed1/1732491234.56`` for the time-named
sub-run ``add_hparams`` of ``torch.utils.tensorboard`` and ``tensorboardX`` writes). Its
hyper-parameters are the session's ``hparams`` (numbers as floats, strings, booleans), answered as
the lineage's ``user_defined``; its metrics, answered as ``metric``, are the last value written of
each metric tag the experiment names (``MetricInfo``: tag ``tag`` of the run ``<session>/<group>``;
``group`` "" is the session run itself). The experiment is the session run's own, else the
nearest ancestor run's (TF2 writes it at the top); without one every scalar tag of the session run
is a metric. The last value written: in file name order, then record order; a float32 as the
shortest decimal that reads back as it.

Event files are searched for the plugin's tag bytes first, so a run without hparams costs no
record parsing. They are read for it in bounded chunks: a mapped file counts whole in the
server's resident memory while it is searched (a 50 MB log: +48 MB).
"""

import math
from dataclasses import dataclass, field

import numpy as np
from google.protobuf.message import DecodeError

from mindinsight.conf import limits
from mindinsight.format.files import open_inside
from mindinsight.format.proto import tensorboard_event_pb2 as tb_pb
from mindinsight.format.proto import tensorboard_hparams_pb2 as hp_pb
from mindinsight.format.records import RecordReader
from mindinsight.ingest.kinds.base import Rejected
from mindinsight.ingest.kinds.scalar import decode_scalar_tensor
from mindinsight.ingest.lineage import MODEL_FIELDS, LineageDicts, landscape_metadata

PLUGIN_NAME = "hparams"
EXPERIMENT_TAG = "_hparams_/experiment"
SESSION_START_TAG = "_hparams_/session_start_info"
_HPARAMS_MARK = b"_hparams_/"


@dataclass
class RunHParams:
    """What one run's event files say: the session's hyper-parameters (None: no session start),
    the experiment's metric names (None: no experiment) and the last value of each scalar tag."""

    hparams: dict | None = None
    metrics: list | None = None  # [(group, tag), ...]
    scalars: dict = field(default_factory=dict)
    unreadable: dict = field(default_factory=dict)  # path -> reason


def _holds(path: str, root: str, mark: bytes) -> bool:
    with open_inside(path, root) as stream:
        return _stream_holds(stream, mark)


def _stream_holds(stream, mark: bytes) -> bool:
    """Whether a stream holds ``mark``, read in chunks of ``READ_CHUNK_BYTES``."""
    tail = b""
    while chunk := stream.read(limits.READ_CHUNK_BYTES):
        if mark in tail + chunk[: len(mark) - 1] or mark in chunk:
            return True
        tail = chunk[-(len(mark) - 1) :] if len(mark) > 1 else b""
    return False


def files_hold(paths, root: str, mark: bytes) -> bool:
    """Whether any of the event files holds ``mark`` (files that cannot be read do not)."""
    for path in paths:
        try:
            if _holds(path, root, mark):
                return True
        except OSError:
            continue
    return False


def read_run(paths, root: str) -> RunHParams:
    """Parse every record of the run's event files (in the order given) for hparams and scalars."""
    run = RunHParams()
    event = tb_pb.Event()
    for path in paths:
        reader = RecordReader(path, root=root)
        try:
            while True:
                batch = reader.read()
                for payload in batch.payloads:
                    try:
                        event.ParseFromString(payload)
                    except DecodeError:
                        continue
                    if event.HasField("summary"):
                        _add_summary(run, event.summary, _HPARAMS_MARK in payload)
                if batch.end_of_data:
                    break
        except OSError as error:
            run.unreadable[path] = error.strerror or str(error)
    return run


def _add_summary(run: RunHParams, summary, has_hparams: bool) -> None:
    for value in summary.value:
        field_name = value.WhichOneof("value")
        if field_name == "simple_value":
            run.scalars[value.tag] = _shortest(value.simple_value)
        elif has_hparams and value.metadata.plugin_data.plugin_name == PLUGIN_NAME:
            _add_plugin_data(run, value.metadata.plugin_data.content)
        elif field_name == "tensor" and value.metadata.plugin_data.plugin_name in ("", "scalars"):
            sample = decode_scalar_tensor(value) if value.tensor.dtype in _SCALAR_DTYPES else None
            if sample is not None and not isinstance(sample, Rejected):
                run.scalars[value.tag] = _shortest(sample[0]) if value.tensor.dtype != _DOUBLE else sample[0]


_DOUBLE = tb_pb.DataType.DT_DOUBLE
_SCALAR_DTYPES = (tb_pb.DataType.DT_FLOAT, _DOUBLE, tb_pb.DataType.DT_HALF)


def _shortest(value: float) -> float:
    """A float32 as the shortest decimal that reads back as it (0.9, not 0.8999999761581421):
    the number the writer was given, as far as float32 keeps it."""
    return float(str(np.float32(value)))


def _add_plugin_data(run: RunHParams, content: bytes) -> None:
    try:
        data = hp_pb.HParamsPluginData.FromString(content)
    except DecodeError:
        return
    which = data.WhichOneof("data")
    if which == "session_start_info":
        run.hparams = {name: _value(item) for name, item in data.session_start_info.hparams.items()}
        run.hparams = {name: item for name, item in run.hparams.items() if item is not None}
    elif which == "experiment":
        run.metrics = [(info.name.group, info.name.tag) for info in data.experiment.metric_infos]


def _value(item):
    """A ``google.protobuf.Value`` as a lineage value: number, string or bool (others: None)."""
    kind = item.WhichOneof("kind")
    if kind == "number_value":
        return item.number_value
    if kind == "string_value":
        return item.string_value
    if kind == "bool_value":
        return item.bool_value
    return None


def _json_number(value: float):
    """A metric value as JSON can hold it: NaN and ±Inf as the strings 'nan', 'inf', '-inf'."""
    return value if math.isfinite(value) else str(value)


def hparams_lineage(hparams: dict, metrics: dict) -> LineageDicts:
    """A session's lineage dicts: the original's model fields null, ``metric`` and
    ``user_defined`` from the run, no dataset graph."""
    model = dict.fromkeys(MODEL_FIELDS)
    model["metric"] = {name: _json_number(value) for name, value in metrics.items()}
    model["user_defined"] = dict(hparams)
    return LineageDicts(model, {}, landscape_metadata(None))
