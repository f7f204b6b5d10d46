"""Graphs: a GraphProto per graph file (``graph_def`` events of summary files, ``.pb`` files).

Graphs do not arrive as ``Summary.Value`` items: the loader adds them, one sample per tag.
The optimized view is a second kind over the same graphs (``<tag> (optimized)``).
"""

from mindinsight.conf import limits
from mindinsight.conf.plugins import OPTIMIZED_GRAPH_SUFFIX, PREFERRED_GRAPH_FILE, PluginName
from mindinsight.ingest.kinds.base import Kind

KIND = Kind(
    PluginName.GRAPH,
    {"graph": object},
    limits.STEPS_PER_TAG[PluginName.GRAPH],
    max_tags=limits.MAX_TAGS_PER_PLUGIN[PluginName.GRAPH],
    lazy=True,
    preferred_tags=frozenset({PREFERRED_GRAPH_FILE}),
)
OPTIMIZED_KIND = Kind(
    PluginName.OPTIMIZED_GRAPH,
    {"graph": object},
    limits.STEPS_PER_TAG[PluginName.OPTIMIZED_GRAPH],
    max_tags=limits.MAX_TAGS_PER_PLUGIN[PluginName.OPTIMIZED_GRAPH],
    lazy=True,
    preferred_tags=frozenset({PREFERRED_GRAPH_FILE + OPTIMIZED_GRAPH_SUFFIX}),
)
