"""What every data kind declares: the contract the registry, decoder, loader and job data rely on."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
from google.protobuf.message import DecodeError

from mindinsight.conf.plugins import PluginName


@dataclass(frozen=True)
class EventSamples:
    """Samples that arrive as a whole ``Event`` field (``what`` oneof) rather than as
    ``Summary.Value`` items, such as graphs.

    ``decode(event, payload)`` gives the sample of one such event (independent of the Event
    object the decoder reuses); ``store(data, file_name, samples, file_ts)`` puts the
    ``[(step, wall_time, sample)]`` of one summary file's batch into the job data.
    """

    field: str
    decode: Callable
    store: Callable


@dataclass(frozen=True)
class FileSamples:
    """Files of a job dir that hold one sample each (``.pb`` graphs), read whole.

    ``matches(name)`` picks the files; one of at most ``max_bytes`` is ``parse``-d (raising
    ``DecodeError`` when it cannot be) and ``store(data, name, mtime, sample)``-d. A file is
    read again only when a newer one of the kind appears.
    """

    matches: Callable
    max_bytes: int
    parse: Callable
    store: Callable


@dataclass(frozen=True)
class TensorBoardValues:
    """How a kind reads the ``Summary.Value``s of TensorBoard event files
    (``proto/tensorboard_event.proto``); their tags are kept as written, with no plugin suffix.

    ``fields`` maps a ``Value`` oneof field (``simple_value``, ``histo``, ``image``) to the decode
    of such a value; ``plugins`` maps a ``SummaryMetadata`` plugin name (``scalars``, ...) to the
    decode of a ``tensor`` value of that plugin (writers may send the metadata with a tag's first
    value only: the decoder remembers it per tag). Each decode answers as ``Kind.decode`` does.
    ``events`` maps an ``Event`` oneof field (``graph_def``) to the decode of such an event into
    one sample the kind's ``EventSamples.store`` takes (or a ``Rejected``).
    """

    fields: Mapping[str, Callable] = field(default_factory=dict)
    plugins: Mapping[str, Callable] = field(default_factory=dict)
    events: Mapping[str, Callable] = field(default_factory=dict)


@dataclass(frozen=True)
class Codec:
    """How a kind's object payload columns are kept in the persistent index
    (``cache/job_index.py``): as plain numeric columns, never pickled, so a damaged or forged
    index can only fail to decode, never run anything.

    ``encode(columns)`` takes the object columns of some samples (``{name: object array}``, one
    length) and gives ``{name: array}`` of plain numbers or bytes (``uint8``); a value may be a
    list of arrays of one dtype, joined as it is written. ``decode(arrays, count, shared)`` gives
    the object columns of ``count`` samples back, or raises ``ValueError`` when ``arrays`` do
    not describe them. ``shared`` is one dict per restored job: samples that several tags held
    as one object (a graph and its optimized view) become one object again through it.
    """

    encode: Callable
    decode: Callable


@dataclass(frozen=True)
class Kind:
    """One kind of per-tag data a train job can hold.

    ``value_field`` is the ``Summary.Value`` oneof field that carries it (None for kinds that
    arrive otherwise, see ``events`` and ``files``); ``decode`` turns such a value into the
    tuple of payload columns (``payload`` names, in order), or None to drop it as the original
    does, or a ``Rejected`` to drop it and say why in the log.

    A kind whose payload has an ``nbytes`` column is bounded in bytes too (``conf.limits``):
    ``bytes_per_tag`` for one tag's samples, ``bytes_per_job`` for all its tags in one job;
    ``evicted_seconds`` keeps a thinned-out sample fetchable that long (see ``Reservoir``).
    A kind with object payload columns is kept by the persistent index only with a ``codec``;
    without one its jobs are read from their logs again on every start.
    """

    plugin: PluginName
    payload: dict  # column name -> numpy dtype (object for messages/bytes)
    steps_per_tag: int  # reservoir capacity per tag (0 keeps every sample)
    max_tags: int | None = None  # tags of this kind per job; None: only the job-wide limit
    value_field: str | None = None
    decode: Callable | None = None
    events: EventSamples | None = None
    files: FileSamples | None = None
    tensorboard: TensorBoardValues | None = None  # how TensorBoard event files carry the kind
    preferred_tags: frozenset = frozenset()  # listed first and never evicted by the tag limits
    bytes_per_tag: int = 0  # 0: no byte bound
    bytes_per_job: int = 0
    evicted_seconds: float = 0
    codec: Codec | None = None  # object payload columns <-> plain columns of the persistent index

    @property
    def tag_suffix(self) -> str:
        """What the REST API appends to a written tag: ``loss`` -> ``loss/scalar``."""
        return "/" + self.plugin.value


# Why a value is refused at ingest: code -> its English text, of the refusal's arguments. Clients
# get the code and arguments too (train-jobs' ``dropped_values``) and may say it in their language.
REFUSALS = {
    "image_too_large": "image over {bytes} bytes",
    "histogram_too_large": "histogram over {bytes} bytes",
    "tensor_too_large": "tensor over {bytes} bytes",
    "too_many_buckets": "more than {buckets} buckets",
    "bucket_counts_mismatch": "{counts} bucket counts for {limits} bucket limits",
    "not_a_histogram": "not a histogram: {error}",
    "histogram_tensor_shape": "a histogram tensor of shape {shape}",
    "not_a_scalar": "not a scalar: {error}",
    "empty_scalar_tensor": "an empty scalar tensor",
    "negative_dims": "tensor with negative dims {dims}",
    "values_do_not_fill_dims": "{count} values for dims {dims}",
    "graph_undecodable": "the GraphDef could not be decoded",
    "over_kind_tags": "over the {limit} {plugin} tags a job keeps",
    "over_job_tags": "over the {limit} tags a job keeps",
    "tag_too_long": "a tag name over {chars} characters",
}


@dataclass(frozen=True)
class Rejected:
    """What ``Kind.decode`` answers for a value it drops at ingest: why (a ``REFUSALS`` code and
    its arguments), for the log and the job's ``dropped_values`` (ingest/dropped_values.py)."""

    code: str
    args: tuple = ()  # ((name, value), ...), each value a str or an int

    @classmethod
    def because(cls, code: str, **args) -> "Rejected":
        """The refusal ``code`` (a key of ``REFUSALS``) with its arguments."""
        return cls(code, tuple(args.items()))

    @property
    def reason(self) -> str:
        """The refusal in English."""
        return refusal_text(self.code, self.args)


def refusal_text(code: str, args) -> str:
    """``REFUSALS[code]`` with ``args`` (pairs); the code itself when it is not known."""
    template = REFUSALS.get(code)
    try:
        return code if template is None else template.format(**dict(args))
    except (KeyError, IndexError, ValueError):
        return code


def detached(message):
    """A copy of a protobuf sub-message independent of the Event being parsed (the decoder
    reuses one Event object for every record, overwriting it)."""
    return type(message).FromString(message.SerializeToString())


def as_column(values) -> np.ndarray:
    """A list of numbers, or of objects (kept as an object array, never broadcast)."""
    if isinstance(values, np.ndarray):
        return values
    if values and not isinstance(values[0], (int, float, np.number)):
        column = np.empty(len(values), dtype=object)
        column[:] = values
        return column
    return np.asarray(values)


def object_column(values: list) -> np.ndarray:
    """``values`` as a 1-D object array (never broadcast, even when empty or nested)."""
    column = np.empty(len(values), dtype=object)
    column[:] = values
    return column


# -- plain columns of the persistent index (see ``Codec``) ----------------------------------


def joined(value, dtype) -> np.ndarray:
    """A column as the index gives it back (or as ``encode`` made it: a list of chunks), of
    exactly ``dtype`` (ValueError otherwise)."""
    if isinstance(value, list):
        value = np.concatenate(value) if value else np.empty(0, dtype=dtype)
    if not isinstance(value, np.ndarray) or value.dtype != np.dtype(dtype) or value.ndim != 1:
        raise ValueError(f"a column that is not 1-D {np.dtype(dtype).name}")
    return value


def bounds(ends, total: int | None, count: int) -> np.ndarray:
    """The ``count + 1`` offsets of ``count`` consecutive pieces of a column of ``total``
    items (None: any), from their end offsets; ValueError when they do not describe such pieces."""
    ends = joined(ends, np.int64)
    if ends.size != count:
        raise ValueError(f"{ends.size} pieces for {count} samples")
    offsets = np.concatenate((np.zeros(1, dtype=np.int64), ends))
    if np.any(np.diff(offsets) < 0) or (total is not None and offsets[-1] != total):
        raise ValueError("piece offsets out of order or not ending at the column's end")
    return offsets


def pack_bytes(items) -> tuple[list, np.ndarray]:
    """Byte strings as one ``uint8`` column (chunks viewing the items: no copy) and their ends."""
    chunks = [np.frombuffer(item, dtype=np.uint8) for item in items if len(item)]
    ends = np.cumsum([len(item) for item in items], dtype=np.int64)
    return chunks or [np.empty(0, dtype=np.uint8)], ends


def unpack_bytes(data, ends, count: int) -> list[bytes]:
    """The ``count`` byte strings ``pack_bytes`` packed (ValueError when they do not fit)."""
    data = joined(data, np.uint8)
    offsets = bounds(ends, data.size, count).tolist()
    memory = memoryview(data)
    return [bytes(memory[start:end]) for start, end in zip(offsets[:-1], offsets[1:])]


def pack_ragged(rows, dtype) -> tuple[np.ndarray, np.ndarray]:
    """Rows of numbers of varying lengths as one flat column of ``dtype`` and their ends."""
    arrays = [np.asarray(row, dtype=dtype).reshape(-1) for row in rows]
    flat = np.concatenate(arrays) if arrays else np.empty(0, dtype=dtype)
    return flat, np.cumsum([array.size for array in arrays], dtype=np.int64)


def unpack_ragged(flat, ends, count: int, dtype) -> list[np.ndarray]:
    """The ``count`` rows ``pack_ragged`` packed (ValueError when they do not fit)."""
    flat = joined(flat, dtype)
    offsets = bounds(ends, flat.size, count).tolist()
    return [flat[start:end] for start, end in zip(offsets[:-1], offsets[1:])]


def bytes_codec(column: str) -> Codec:
    """The codec of a payload column of byte strings (images)."""

    def encode(columns: dict) -> dict:
        data, ends = pack_bytes(columns[column])
        return {column: data, f"{column}.ends": ends}

    def decode(arrays: dict, count: int, _shared: dict) -> dict:
        return {column: object_column(unpack_bytes(arrays[column], arrays[f"{column}.ends"], count))}

    return Codec(encode, decode)


def message_codec(column: str, message_type, share: bool = False) -> Codec:
    """The codec of a payload column of protobuf messages of ``message_type``, kept serialized;
    with ``share``, equal messages of one job's tags are restored as one object."""

    def encode(columns: dict) -> dict:
        data, ends = pack_bytes([message.SerializeToString() for message in columns[column]])
        return {column: data, f"{column}.ends": ends}

    def decode(arrays: dict, count: int, shared: dict) -> dict:
        messages = []
        for serialized in unpack_bytes(arrays[column], arrays[f"{column}.ends"], count):
            key = (message_type, serialized)
            message = shared.get(key) if share else None
            if message is None:
                try:
                    message = message_type.FromString(serialized)
                except DecodeError as error:
                    raise ValueError(f"a {message_type.__name__} that does not parse: {error}") from error
                if share:
                    shared[key] = message
            messages.append(message)
        return {column: object_column(messages)}

    return Codec(encode, decode)
