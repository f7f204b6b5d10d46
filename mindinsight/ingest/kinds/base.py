"""What every data kind declares: the contract the registry, decoder and containers rely on."""

from collections.abc import Callable
from dataclasses import dataclass

from mindinsight.conf.plugins import PluginName


@dataclass(frozen=True)
class Kind:
    """One kind of per-tag data a train job can hold.

    ``value_field`` is the ``Summary.Value`` oneof field that carries it (None for kinds that
    arrive otherwise, such as graphs); ``decode`` turns such a value into the tuple of payload
    columns (``payload`` names, in order), or None to drop it as the original does, or a
    ``Rejected`` to drop it and say why in the log. ``lazy`` says the payload is kept as stored
    and decoded only when a query reads it.

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
    lazy: bool = False
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
