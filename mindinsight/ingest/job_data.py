"""The data of one train job: one reservoir per (plugin, tag), sized and limited by the tag's
kind, and the job's lineage records.

``JobData`` is what the loader writes into and the services read from. Writers add whole
batches under the job lock, so a reader never sees half of a batch. Kinds bounded in bytes
(``Kind.bytes_per_job``) are kept within that sum over all their tags of the job: the tags
holding the most bytes let their oldest samples go first.
"""

import threading
from collections import Counter, OrderedDict

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.ingest import full_scalars
from mindinsight.ingest.kinds import KINDS
from mindinsight.ingest.kinds.base import Rejected
from mindinsight.ingest.reservoir import Reservoir

# The prefix of the full scalar points' columns in ``JobData.state``: the bulk of a large
# scalar job, which ``restore`` may leave for ``restore_full_scalars``.
FULL_SCALARS_PREFIX = "full."


class JobData:
    """Every tag of one train job."""

    def __init__(self, full_budget: full_scalars.FullScalarBudget = full_scalars.BUDGET):
        self.lock = threading.RLock()
        self.full_scalars = full_scalars.JobScalars(full_budget)  # every scalar point, beside the reservoir
        self.version = 0  # bumped by every write: readers compare it to see a change
        self._series: OrderedDict[tuple[PluginName, str], Reservoir] = OrderedDict()  # insertion = age
        self._evicted: OrderedDict[tuple[PluginName, str], None] = OrderedDict()
        # (plugin, tag, Rejected) -> values let go by the tag limits since the last take_refused
        self._refused: Counter = Counter()
        self._bytes: Counter = Counter()  # plugin -> payload bytes of its tags (kinds bounded in bytes)
        self._tag_counts: Counter = Counter()  # plugin -> its tags held: admitting a tag counts nothing
        self.lineage = LineageData()
        self._full_scalars_meta: dict | None = None  # what ``restore`` left for ``restore_full_scalars``

    # -- writing ----------------------------------------------------------------------

    def add_batch(self, plugin: PluginName, tag: str, columns: dict) -> None:
        """Add samples of one tag (arrival order); drops them if the tag cannot be admitted."""
        self.add_batches({(plugin, tag): columns})

    def add_batches(self, series: dict) -> None:
        """Add the samples of several tags, ``{(plugin, tag): columns}`` in arrival order,
        keeping what one ``add_batch`` each would. The tags are admitted first: a tag that a
        later one of the same batch pushes out over the tag limits is never stored, and every
        value the batch had for it is counted as refused (a log of thousands of distinct tags
        costs a dict entry per tag, not a reservoir)."""
        with self.lock:
            for key in series:
                if key not in self._series and len(key[1]) <= limits.MAX_TAG_CHARS and self._make_room(*key):
                    self._series[key] = None  # its reservoir is made below, if it is still held then
                    self._tag_counts[key[0]] += 1
            for (plugin, tag), columns in series.items():
                if (plugin, tag) not in self._series:
                    reason = _over_limit(plugin) if len(tag) <= limits.MAX_TAG_CHARS else _TAG_TOO_LONG
                    self._refused[(plugin, tag, reason)] += len(columns["step"])
                    continue
                held = self._series[(plugin, tag)] or self._new_reservoir(plugin, tag)
                before = held.nbytes
                held.add_batch(columns)
                self._bytes[plugin] += held.nbytes - before
                if plugin is PluginName.SCALAR:
                    self.full_scalars.add(tag, columns)
                budget = KINDS[plugin].bytes_per_job
                if budget and self._bytes[plugin] > budget:
                    self._fit_job_bytes(plugin, held, budget)
            self.version += 1

    def _fit_job_bytes(self, plugin: PluginName, added: Reservoir, budget: int) -> None:
        # Tags a batch admitted and has not stored yet hold nothing (see add_batches).
        tags = [series for (p, _), series in self._series.items() if p == plugin and series is not None]
        sizes = {id(series): series.nbytes for series in tags}
        while sum(sizes.values()) > budget:
            # The largest tag sheds one sample; the tag just written keeps its latest.
            for series in sorted(tags, key=lambda s: sizes[id(s)], reverse=True):
                if series.shed_one(keep_latest=series is added):
                    sizes[id(series)] = series.nbytes
                    break
            else:
                break
        self._bytes[plugin] = sum(sizes.values())

    def drop_from_step(self, step: int) -> None:
        """A restarted training announced at ``step``: every tag drops its samples at or after it."""
        with self.lock:
            for (plugin, _tag), series in self._series.items():
                before = series.nbytes
                series.drop_from(step)
                self._bytes[plugin] += series.nbytes - before
            self.full_scalars.drop_from(step)
            self.version += 1

    def state(self) -> tuple[dict, dict] | None:
        """``(meta, arrays)`` of every tag's samples and every full scalar point, for ``restore``
        in another process; None when a tag holds objects its kind has no codec for (such a job
        is read from its files again). Lineage is not part of it (read again: small)."""
        with self.lock:
            tags, arrays = [], {}
            for position, ((plugin, tag), series) in enumerate(self._series.items()):
                saved = series.state()
                if saved is None:
                    return None
                meta, columns = saved
                tags.append([plugin.value, tag, meta])
                arrays.update({f"r{position}.{name}": column for name, column in columns.items()})
            full_meta, full_arrays = self.full_scalars.state()
        arrays.update({FULL_SCALARS_PREFIX + name: column for name, column in full_arrays.items()})
        evicted = [[plugin.value, tag] for plugin, tag in self._evicted]
        return {"tags": tags, "evicted": evicted, "full": full_meta}, arrays

    def restore(self, meta: dict, arrays: dict, full_scalars_later: bool = False) -> None:
        """Take what ``state()`` gave (raises KeyError/ValueError/TypeError when it does not fit);
        ``full_scalars_later``: ``arrays`` hold no full scalar points, ``restore_full_scalars``
        takes them (meanwhile the samples are served)."""
        shared: dict = {}  # samples several tags held as one object (see Codec)
        with self.lock:
            for position, (plugin, tag, series_meta) in enumerate(meta["tags"]):
                series = self._admit(PluginName(plugin), str(tag))
                if series is None:
                    raise ValueError(f"tag {tag!r} cannot be admitted")
                prefix = f"r{position}."
                columns = {k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}
                series.restore(series_meta, columns, shared)
                self._bytes[PluginName(plugin)] += series.nbytes
            for plugin, tag in meta["evicted"]:
                self._evicted[(PluginName(plugin), str(tag))] = None
            self._full_scalars_meta = meta["full"]
            self.full_scalars.restoring = full_scalars_later
            if not full_scalars_later:
                self.restore_full_scalars(arrays)
            self.version += 1

    def restore_full_scalars(self, arrays: dict) -> None:
        """Take the full scalar points of the ``state()`` given to ``restore`` (its columns
        named as there; raises KeyError/ValueError when they do not fit)."""
        full = {k[len(FULL_SCALARS_PREFIX) :]: v for k, v in arrays.items() if k.startswith(FULL_SCALARS_PREFIX)}
        if self._full_scalars_meta is None:
            raise ValueError("nothing restored to take the full scalar points into")
        with self.lock:
            self.full_scalars.restore(self._full_scalars_meta, full)
            self.full_scalars.restoring = False
            self.version += 1

    def payload_bytes(self, plugin: PluginName) -> int:
        """Payload bytes held by the tags of ``plugin`` (kinds bounded in bytes; else 0)."""
        with self.lock:
            return self._bytes[plugin]

    def remove_tags(self, plugin: PluginName, keep=lambda tag: False) -> None:
        """Delete every tag of ``plugin`` for which ``keep(tag)`` is false."""
        with self.lock:
            doomed = [k for k in self._series if k[0] == plugin and not keep(k[1])]
            for key in doomed:
                self._bytes[plugin] -= self._series.pop(key).nbytes
                self._tag_counts[plugin] -= 1
                if plugin is PluginName.SCALAR:
                    self.full_scalars.remove(key[1])
            if doomed:
                self.version += 1

    def set_lineage(self, lineage_data: "LineageData") -> None:
        """Replace the job's lineage records."""
        with self.lock:
            self.lineage = lineage_data
            self.version += 1

    def _admit(self, plugin: PluginName, tag: str) -> Reservoir | None:
        """The new tag's reservoir, room made for it; None when it cannot be admitted."""
        if not self._make_room(plugin, tag):
            return None
        self._tag_counts[plugin] += 1
        return self._new_reservoir(plugin, tag)

    def _new_reservoir(self, plugin: PluginName, tag: str) -> Reservoir:
        kind = KINDS[plugin]
        series = Reservoir(kind.steps_per_tag, kind.payload, kind.bytes_per_tag, kind.evicted_seconds, kind.codec)
        self._series[(plugin, tag)] = series
        return series

    def _make_room(self, plugin: PluginName, tag: str) -> bool:
        """Let the oldest tags go until a new tag of ``plugin`` fits the tag limits; False when
        it cannot be admitted (let go before, or nothing may make room)."""
        if (plugin, tag) in self._evicted:
            return False
        max_tags = KINDS[plugin].max_tags
        while True:
            if max_tags is not None and self._tag_counts[plugin] >= max_tags:
                candidates = (k for k in self._series if k[0] == plugin)
            elif len(self._series) >= limits.MAX_TAGS_PER_JOB:
                candidates = iter(self._series)
            else:
                return True
            # The oldest tag goes first, so the search mostly ends at the first key: a log of
            # many thousand distinct tags turns them over at a constant cost each.
            victim = next((k for k in candidates if k[1] not in KINDS[k[0]].preferred_tags), None)
            if victim is None:
                return False
            let_go = self._series.pop(victim)  # None: admitted by this batch, nothing held yet
            self._tag_counts[victim[0]] -= 1
            if let_go is not None:
                self._bytes[victim[0]] -= let_go.nbytes
                self._refused[(*victim, _over_limit(victim[0]))] += len(let_go)
                if victim[0] is PluginName.SCALAR:
                    self.full_scalars.remove(victim[1])
            self._evicted[victim] = None
            if len(self._evicted) > limits.MAX_REMEMBERED_EVICTED_TAGS:
                self._evicted.popitem(last=False)

    def take_refused(self) -> Counter:
        """(plugin, tag, Rejected) -> values the tag limits let go since the last call: those of a
        tag not admitted, and the samples a tag held when it made room for a newer one."""
        with self.lock:
            refused, self._refused = self._refused, Counter()
        return refused

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

    def scalar_points(self, tag: str) -> "full_scalars.SeriesView | None":
        """Every point of one scalar tag (None: no such tag, or its points were dropped, see
        ``full_scalars``)."""
        with self.lock:
            return self.full_scalars.view(tag)

    def mark_listed(self, plugin: PluginName, tag: str) -> None:
        """A client was shown the tag's kept steps (kinds that keep evicted samples)."""
        with self.lock:
            series = self._series.get((plugin, tag))
            if series is not None:
                series.mark_listed()

    def recent_sample(self, plugin: PluginName, tag: str, step: int) -> dict | None:
        """A sample of ``step`` that was listed a moment ago and thinned out since (``{column: value}``)."""
        with self.lock:
            series = self._series.get((plugin, tag))
            if series is None:
                return None
            before = series.nbytes
            sample = series.recent(step)  # expires what is too old
            self._bytes[plugin] += series.nbytes - before
            return sample


class LineageData:
    """Lineage records of a job's ``_lineage`` files (the lineage issue builds on this)."""

    def __init__(self):
        self.train_lineage = None  # TrainLineage message (last wins)
        self.evaluation_lineage = None  # EvaluationLineage message (last wins)
        self.dataset_graph = None  # DatasetGraph message (last wins)
        self.user_defined: dict = {}  # merged user_defined_info items
        self.unreadable: dict[str, str] = {}  # path -> reason, of files that could not be read


_TAG_TOO_LONG = Rejected.because("tag_too_long", chars=limits.MAX_TAG_CHARS)


def _over_limit(plugin: PluginName) -> Rejected:
    """Why a tag of ``plugin`` is not kept: the limit it is over (the kind's own, else the job's)."""
    limit = KINDS[plugin].max_tags
    if limit is not None:
        return Rejected.because("over_kind_tags", limit=limit, plugin=plugin.value)
    return Rejected.because("over_job_tags", limit=limits.MAX_TAGS_PER_JOB)
