"""Per-job storage: one reservoir per (plugin, tag), sized and limited by the tag's kind.

``JobData`` is what the loader writes into and the services read from. Writers add whole
batches under the job lock, so a reader never sees half of a batch.
"""

import threading
from collections import OrderedDict

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.ingest.kinds import KINDS
from mindinsight.ingest.reservoir import Reservoir


class JobData:
    """Every tag of one train job."""

    def __init__(self):
        self.lock = threading.RLock()
        self.version = 0  # bumped by every write: readers compare it to see a change
        self._series: OrderedDict[tuple[PluginName, str], Reservoir] = OrderedDict()  # insertion = age
        self._evicted: OrderedDict[tuple[PluginName, str], None] = OrderedDict()
        self.lineage = LineageData()

    # -- writing ----------------------------------------------------------------------

    def add_batch(self, plugin: PluginName, tag: str, columns: dict) -> None:
        """Add samples of one tag (arrival order); drops them if the tag cannot be admitted."""
        with self.lock:
            series = self._series.get((plugin, tag)) or self._admit(plugin, tag)
            if series is not None:
                series.add_batch(columns)
            self.version += 1

    def remove_tags(self, plugin: PluginName, keep=lambda tag: False) -> None:
        """Delete every tag of ``plugin`` for which ``keep(tag)`` is false."""
        with self.lock:
            doomed = [k for k in self._series if k[0] == plugin and not keep(k[1])]
            for key in doomed:
                del self._series[key]
            if doomed:
                self.version += 1

    def set_lineage(self, lineage_data: "LineageData") -> None:
        """Replace the job's lineage records."""
        with self.lock:
            self.lineage = lineage_data
            self.version += 1

    def _admit(self, plugin: PluginName, tag: str):
        key = (plugin, tag)
        if key in self._evicted:
            return None
        kind = KINDS[plugin]
        plugin_limit = kind.max_tags
        while True:
            same_plugin = [k for k in self._series if k[0] == plugin]
            if plugin_limit is not None and len(same_plugin) >= plugin_limit:
                candidates = same_plugin
            elif len(self._series) >= limits.MAX_TAGS_PER_JOB:
                candidates = list(self._series)
            else:
                break
            victim = next((k for k in candidates if k[1] not in KINDS[k[0]].preferred_tags), None)
            if victim is None:
                return None
            del self._series[victim]
            self._evicted[victim] = None
            if len(self._evicted) > limits.MAX_REMEMBERED_EVICTED_TAGS:
                self._evicted.popitem(last=False)
        series = Reservoir(kind.steps_per_tag, kind.payload)
        self._series[key] = series
        return series

    # -- reading ----------------------------------------------------------------------

    def tags(self, plugin: PluginName) -> list[str]:
        """Tags of ``plugin``, sorted; the preferred graph file first among graph tags."""
        with self.lock:
            names = sorted(tag for (p, tag) in self._series if p == plugin)
        preferred = KINDS[plugin].preferred_tags
        if preferred:
            names.sort(key=lambda tag: tag not in preferred)
        return names

    def all_tags(self) -> dict[str, list[str]]:
        return {plugin.value: self.tags(plugin) for plugin in PluginName}

    def samples(self, plugin: PluginName, tag: str) -> dict | None:
        """Sorted sample columns of one tag, or None if the tag does not exist."""
        with self.lock:
            series = self._series.get((plugin, tag))
            return None if series is None else series.samples()


class LineageData:
    """Lineage records of a job's ``_lineage`` files (the lineage issue builds on this)."""

    def __init__(self):
        self.train_lineage = None  # TrainLineage message (last wins)
        self.evaluation_lineage = None  # EvaluationLineage message (last wins)
        self.dataset_graph = None  # DatasetGraph message (last wins)
        self.user_defined: dict = {}  # merged user_defined_info items

    def reset(self) -> None:
        self.__init__()
