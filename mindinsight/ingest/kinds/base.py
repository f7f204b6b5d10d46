"""What every data kind declares: the contract the registry, decoder, loader and job data rely on."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

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
class Kind:
    """One kind of per-tag data a train job can hold.

    ``value_field`` is the ``Summary.Value`` oneof field that carries it (None for kinds that
    arrive otherwise, see ``events`` and ``files``); ``decode`` turns such a value into the
    tuple of payload columns (``payload`` names, in order), or None to drop it as the original
    does, or a ``Rejected`` to drop it and say why in the log.

    A kind whose payload has an ``nbytes`` column is bounded in bytes too (``conf.limits``):
    ``bytes_per_tag`` for one tag's samples, ``bytes_per_job`` for all its tags in one job;
    ``evicted_seconds`` keeps a thinned-out sample fetchable that long (see ``Reservoir``).
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

    @property
    def tag_suffix(self) -> str:
        """What the REST API appends to a written tag: ``loss`` -> ``loss/scalar``."""
        return "/" + self.plugin.value


@dataclass(frozen=True)
class Rejected:
    """What ``Kind.decode`` answers for a value it drops at ingest: why, for the log."""

    reason: str


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
