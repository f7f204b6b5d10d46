"""Plugin names: the one list shared by ingest, services, REST and UI."""

from enum import Enum


class PluginName(str, Enum):
    """Kinds of data a train job can hold; the value is the REST/tag suffix."""

    IMAGE = "image"
    SCALAR = "scalar"
    GRAPH = "graph"
    OPTIMIZED_GRAPH = "optimized_graph"
    HISTOGRAM = "histogram"
    TENSOR = "tensor"
    LOSS_LANDSCAPE = "loss_landscape"
    TEXT = "text"

    @classmethod
    def names(cls) -> list[str]:
        """All plugin names in the order the original API lists them."""
        return [plugin.value for plugin in cls]

    @classmethod
    def is_valid(cls, name: str) -> bool:
        return name in cls._value2member_map_


OPTIMIZED_GRAPH_SUFFIX = " (optimized)"
# The graph MindSpore's save_graphs writes after optimization; listed first among graph tags.
PREFERRED_GRAPH_FILE = "ms_output_optimize.pb"
