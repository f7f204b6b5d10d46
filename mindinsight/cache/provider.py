"""The data provider: the one thing services read data through.

Services never open a file, build a path or call a reader (``tests/ut/test_layers.py`` checks
it): what they show comes from here, read by ``ingest/`` and held by ``cache/``. Behind the
provider are the data manager (train-job list, per-tag samples of cached jobs), the lineage
store (every job's parsed lineage, users' tags and remarks) and the profiler memo (parsed CSV
rows); another storage (an object store) plugs in here without touching the services.

The contract, by family (``train_id`` is a string a client sent; nothing is assumed of it):

* Jobs. ``list_jobs()`` every listed job's brief (``SummaryDirInfo``), newest update first;
  ``job_brief(id)`` one of them or None (also for an id breaking the train-id rule);
  ``job_status(id)`` its cache facts; ``job_graph_mode(brief)`` the graph mode its profiler
  output recorded; ``base_dir_name``, ``brief_status``, ``scan_stopped_at`` and ``generation``
  describe the listing; ``cache_train_job(id)`` asks for a job's data (its previous
  ``CacheStatus``, None for an unknown job).
* Per-tag data of cached jobs. ``job_data(id)`` the job's ``JobData`` or None when it is not
  in the detail cache; ``cached_job(id)`` the same or ``TrainJobNotExistError``;
  ``list_tags(id)`` its tags per plugin (every list empty when not cached); ``read_samples(data,
  plugin, tag)`` a tag's kept samples (columns; None for an unknown tag); ``derived.get(data,
  plugin, tag, name, build)`` a value built from them, kept while they are unchanged;
  ``scalar_summary(id, tags)`` the last, min and max of the first of ``tags`` a cached job has;
  ``read_scalar_points(id, data, tag)`` every point of a scalar tag (``ScalarPoints``).
* Lineage. ``read_lineages()`` every job's lineage (a ``LineageSnapshot``); ``read_lineage(id)``
  one job's (None when it has none); ``read_landscape_lineage(id)`` what it adds to the job's
  loss landscapes; ``update_added_info(id, values)`` stores a tag or remark
  (``LineageAddedInfoStoreError`` when the store cannot be written); ``added_info_notice`` why
  tags and remarks may be missing.
* Profiler output. ``profiler_output(id, profile)`` locates a named profiler directory and
  ``newest_profiler_output(id)`` a job's newest: an opaque handle the other profiler methods take
  (``ParamValueError`` for a bad name, ``TrainJobNotExistError``, ``ProfilerDirNotFoundError``);
  ``list_profiler_devices``, ``read_profiler_table`` (the rows of an operator view; none when its
  file is absent), ``read_profiler_devices_info`` / ``read_profiler_version_info`` /
  ``read_msadvisor_recommendation`` (a JSON value, None without the file) and
  ``has_cluster_analysis``. Reading refuses a file outside the base dir (50546081), not a regular
  file or unreadable (50546085), beyond the readers' bounds (50546086).

Threads: every method may be called from any request thread while the loading and lineage
threads run. The provider holds no state of its own beyond the profiler memo (locked inside);
the data manager, lineage store and ``JobData`` lock what they share (see
``cache/data_manager.py``), so a reader sees each loaded batch whole or not at all.
"""

import math
import os
from dataclasses import dataclass

import numpy as np

from mindinsight.cache.data_manager import BriefStatus, CacheStatus, DataManager
from mindinsight.cache.lineage_store import LineageRecord, LineageSnapshot, LineageStore
from mindinsight.cache.memo import DerivedValues
from mindinsight.cache.profiler_rows import ParsedRows
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import TrainJobNotExistError
from mindinsight.ingest import profiler_dirs
from mindinsight.ingest.discovery import SummaryDirInfo
from mindinsight.ingest.full_scalars import BLOCK, BLOCK_FIELDS, SeriesView, point_items
from mindinsight.ingest.job_data import JobData
from mindinsight.ingest.lineage import landscape_metadata
from mindinsight.ingest.profiler_csv import READERS
from mindinsight.ingest.profiler_dirs import ProfilerOutput
from mindinsight.ingest.profiler_files import read_json
from mindinsight.ingest.train_ids import NOT_ONE_LEVEL, TrainIdProblem, is_valid_train_id, train_id_problem

__all__ = [
    "BLOCK",
    "BLOCK_FIELDS",
    "CacheStatus",
    "DataProvider",
    "JobData",
    "JobStatus",
    "NOT_ONE_LEVEL",
    "LineageRecord",
    "LineageSnapshot",
    "ProfilerOutput",
    "ScalarPoints",
    "SeriesView",
    "SummaryDirInfo",
    "TrainIdProblem",
    "point_items",
    "train_id_problem",
]


def _scalar_summary(samples: dict) -> tuple[float, float, float]:
    values = samples["value"]
    if not len(values):
        return (math.nan, math.nan, math.nan)
    finite = values[np.isfinite(values)]
    low, high = (float(finite.min()), float(finite.max())) if len(finite) else (math.nan, math.nan)
    return (float(values[-1]), low, high)


class JobStatus:
    """What the detail cache knows of one job (a job not cached: not in cache, sound, nothing skipped)."""

    __slots__ = ("cache_status", "is_integrity", "skipped_records", "unreadable_files", "unshown", "dropped")

    def __init__(
        self,
        cache_status: CacheStatus,
        is_integrity: bool,
        skipped_records: int,
        unreadable: dict,
        not_kept: tuple[list, list],
    ):
        self.cache_status = cache_status
        self.is_integrity = is_integrity
        self.skipped_records = skipped_records  # damaged records skipped (checksum, length, no event)
        self.unreadable_files = unreadable  # path relative to the base dir -> why it cannot be read
        # Values not kept (ingest/dropped_values.py): of a kind not shown; refused by their decoder.
        self.unshown, self.dropped = not_kept


@dataclass(frozen=True)
class ScalarPoints:
    """What ``read_scalar_points`` found: the tag's points (None: no such tag), or that the
    job's points are not held now (``dropped``: for the memory bound, ``too_large`` when the
    job alone is past it; or a restart is still taking them from the index)."""

    view: SeriesView | None
    dropped: bool
    too_large: bool


class DataProvider:
    """Jobs, per-tag data, lineage and profiler output of one summary base dir (see the module)."""

    def __init__(self, manager: DataManager, lineage: LineageStore, profiler_rows: ParsedRows | None = None):
        self._manager = manager
        self._lineage = lineage
        self._profiler_rows = profiler_rows if profiler_rows is not None else ParsedRows()

    # -- jobs ---------------------------------------------------------------------------

    @property
    def summary_base_dir(self) -> str:
        return self._manager.summary_base_dir

    @property
    def base_dir_name(self) -> str:
        """The base dir's last path component (the listing's ``name``), or the path as given."""
        base_dir = self._manager.summary_base_dir
        return os.path.basename(base_dir.rstrip(os.sep)) or base_dir

    @property
    def generation(self) -> int:
        """A number that changes whenever anything a query can see has changed."""
        return self._manager.generation

    @property
    def brief_status(self) -> BriefStatus:
        return self._manager.brief_status

    @property
    def scan_stopped_at(self) -> int | None:
        """Base-dir entries the last scan read when it stopped at its limit, else None."""
        return self._manager.scan_stopped_at

    @property
    def storage_problem(self) -> str | None:
        """Why the object store holding the base dir could not be listed last time, else None."""
        return self._manager.storage_problem

    def list_jobs(self) -> list[SummaryDirInfo]:
        return self._manager.briefs()

    def job_brief(self, train_id: str) -> SummaryDirInfo | None:
        return self._manager.brief(train_id)

    def job_status(self, train_id: str) -> JobStatus:
        # Read first: CACHED here means the tags read after it are complete.
        status = self._manager.cache_status(train_id)
        job_dir = train_id[2:]  # "" for the base dir itself
        unreadable = {
            os.path.join(job_dir, name): reason for name, reason in self._manager.unreadable_files(train_id).items()
        }
        return JobStatus(
            status,
            self._manager.is_integrity(train_id),
            self._manager.skipped_records(train_id),
            unreadable,
            self._manager.values_not_kept(train_id),
        )

    def job_graph_mode(self, info: SummaryDirInfo) -> str | None:
        """``dynamic`` / ``static`` for a job with profiler output, None without."""
        if not info.profiler_dir:
            return None
        return profiler_dirs.graph_mode(os.path.join(info.path, info.profiler_dir))

    def cache_train_job(self, train_id: str) -> CacheStatus | None:
        return self._manager.cache_train_job(train_id)

    # -- per-tag data -------------------------------------------------------------------

    @property
    def derived(self) -> DerivedValues:
        """The memo of values built from a tag's samples."""
        return self._manager.derived

    def job_data(self, train_id: str) -> JobData | None:
        return self._manager.job_data(train_id)

    def cached_job(self, train_id: str) -> JobData:
        data = self._manager.job_data(train_id)
        if data is None:
            raise TrainJobNotExistError("Can not find the given train job in cache.")
        return data

    def list_tags(self, train_id: str) -> dict[str, list[str]]:
        data = self._manager.job_data(train_id)
        return data.all_tags() if data is not None else {name: [] for name in PluginName.names()}

    @staticmethod
    def read_samples(data: JobData, plugin: PluginName, tag: str) -> dict | None:
        return data.samples(plugin, tag)

    def read_scalar_points(self, train_id: str, data: JobData, tag: str) -> ScalarPoints:
        """Every point of one scalar tag; when the job's points were dropped for the memory
        bound (``ingest/full_scalars.py``), says so and has the job read again; while a restart
        takes them from the index, says they are not held yet."""
        scalars = data.full_scalars
        if scalars.restoring:
            return ScalarPoints(None, True, False)  # read from the index in a moment: ask again
        if scalars.dropped:
            if not scalars.too_large:
                scalars.reread_wanted = True
                self._manager.cache_train_job(train_id)  # wakes the loader
            return ScalarPoints(None, True, scalars.too_large)
        return ScalarPoints(data.scalar_points(tag), False, False)

    def scalar_summary(self, train_id: str, tags: tuple[str, ...]) -> tuple[float, float, float] | None:
        """``(last, min, max)`` of the first of ``tags`` a job in the detail cache has as a scalar
        tag, over the points the server keeps of it (min and max leave NaN and ±Inf out; NaN
        when nothing is left); None when the job is not cached or has none of them. Kept while
        the tag is unchanged."""
        data = self._manager.job_data(train_id)
        if data is None:
            return None
        for tag in tags:
            summary = self.derived.get(data, PluginName.SCALAR, tag, "summary", _scalar_summary)
            if summary is not None:
                return summary
        return None

    # -- lineage ------------------------------------------------------------------------

    def read_lineages(self) -> LineageSnapshot:
        return self._lineage.snapshot()

    def read_lineage(self, train_id: str) -> LineageRecord | None:
        """A job's lineage; a nested TensorBoard run (``./exp/seed1``) has one when it holds
        an hparams session (``cache/tb_lineage.py``)."""
        return self._lineage.record(train_id) if is_valid_train_id(train_id) else None

    def read_landscape_lineage(self, train_id: str) -> dict:
        """What a job's lineage adds to its loss landscapes' metadata (nulls and ``{}`` without one)."""
        record = self.read_lineage(train_id)
        return record.dicts.landscape if record is not None else landscape_metadata(None)

    def update_added_info(self, train_id: str, values: dict) -> dict:
        return self._lineage.added_info.update(train_id, values)

    @property
    def added_info_notice(self):
        """Why users' tags and remarks may be missing or cannot be edited (None when all is well)."""
        return self._lineage.added_info.notice

    # -- profiler output ----------------------------------------------------------------

    def profiler_output(self, train_id: str, profile: str) -> ProfilerOutput:
        return profiler_dirs.locate(self._manager.summary_base_dir, train_id, profile)

    def newest_profiler_output(self, train_id: str) -> ProfilerOutput:
        return profiler_dirs.newest_output(self._manager.summary_base_dir, train_id)

    @staticmethod
    def list_profiler_devices(output: ProfilerOutput) -> list[str]:
        return profiler_dirs.device_ids(output.path, output.root)

    def read_profiler_table(self, output: ProfilerOutput, view: str, device: str) -> list[list]:
        if view not in READERS:
            return []
        pattern, convert = READERS[view]
        return self._profiler_rows.rows(os.path.join(output.data_dir, pattern.format(device)), output.root, convert)

    @staticmethod
    def read_profiler_devices_info(output: ProfilerOutput):
        """The first ``profiler_info_<device>.json`` directly in the profiler directory."""
        found = profiler_dirs.devices_info_file(output)
        return None if found is None else read_json(found, output.root)

    @staticmethod
    def read_profiler_version_info(output: ProfilerOutput):
        """The first ``profiler_info_<device>.json`` of the directory, else of its data folder."""
        found = profiler_dirs.version_info_file(output)
        return None if found is None else read_json(found, output.root)

    @staticmethod
    def read_msadvisor_recommendation(output: ProfilerOutput, device: str):
        found = profiler_dirs.newest_msadvisor_file(output, device)
        return None if found is None else read_json(found, output.root)

    @staticmethod
    def has_cluster_analysis(output: ProfilerOutput) -> bool:
        return profiler_dirs.has_cluster_files(output)
