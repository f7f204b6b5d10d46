"""The registry of data kinds: one module per kind, one table everything iterates.

The event decoder finds a kind by its ``Summary.Value`` field, the containers size their
reservoirs and tag limits from it, and the services ask it for a plugin's payload columns.
A test checks that every plugin name of ``conf.plugins.PluginName`` has exactly one kind.
"""

from mindinsight.conf.plugins import PluginName
from mindinsight.ingest.kinds import graph, histogram, image, loss_landscape, scalar, tensor
from mindinsight.ingest.kinds.base import Kind

KINDS: dict[PluginName, Kind] = {
    kind.plugin: kind
    for kind in (
        scalar.KIND,
        image.KIND,
        histogram.KIND,
        tensor.KIND,
        loss_landscape.KIND,
        graph.KIND,
        graph.OPTIMIZED_KIND,
    )
}

# Summary.Value oneof field -> the kind that stores it.
BY_VALUE_FIELD: dict[str, Kind] = {kind.value_field: kind for kind in KINDS.values() if kind.value_field}


def kind_of(plugin: PluginName) -> Kind:
    """The kind registered for ``plugin``."""
    return KINDS[plugin]


__all__ = ["KINDS", "BY_VALUE_FIELD", "Kind", "kind_of"]
