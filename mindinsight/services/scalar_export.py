"""``/datavisual/scalars/export``: every kept point (``ingest/full_scalars.py``, not the
1,000-point sample) of the chosen runs x scalar tags, as a stream of CSV, JSON or Parquet bytes.

Runs are the ``train_id`` values given, or every job, narrowed by ``query`` (the query language
over runs, ``services/run_query.py``) as ``/datavisual/train-jobs`` narrows them. Tags are the
``tag`` values given and those ``tag_pattern`` (RE2) finds; neither: every scalar tag of a run.
Everything that can go wrong is found before the first byte (``plan_export``): the stream itself
only formats the points, which it reads as immutable views of what the server keeps.

A run not loaded yet (not in the detail cache, or still being read) is asked for, and the export
answers 50545007 (data is loading: ask again) rather than a part of its points.
"""

import threading
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import re2

from mindinsight.cache.provider import CacheStatus, DataProvider, SeriesView
from mindinsight.conf.limits import (
    EXPORT_CHUNK_POINTS,
    EXPORT_CHUNKS_AHEAD,
    MAX_EXPORT_TRAIN_JOBS,
    MAX_QUERY_PATTERN_LENGTH,
)
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import (
    DataLoadingError,
    ParamValueError,
    ScalarNotExistError,
    ScalarPointsReloadingError,
    ScalarPointsTooManyError,
    TrainJobNotExistError,
)
from mindinsight.services.export_formats import encoder
from mindinsight.services.run_query import parse_query
from mindinsight.services.train_jobs import matching_jobs


@dataclass(frozen=True)
class ExportPlan:
    """What an export streams: ``(run, tag, points)`` in order, and its format's encoder."""

    series: tuple[tuple[str, str, SeriesView], ...]
    encoder: object

    @property
    def points(self) -> int:
        return sum(view.total for _, _, view in self.series)


def plan_export(
    provider: DataProvider,
    fmt: str,
    train_ids: list[str],
    query: str | None = None,
    tags: list[str] = (),
    tag_pattern: str | None = None,
) -> ExportPlan:
    """Check every run and tag of an export and take the views of their points."""
    tree = parse_query(query) if query is not None else None
    pattern = _tag_pattern(tag_pattern)
    fmt_encoder = encoder(fmt)  # a missing optional package is refused first
    runs = _runs(provider, train_ids, tree)
    _require_loaded(provider, runs)
    series = []
    for run in runs:
        data = provider.cached_job(run)
        scalar_tags = data.tags(PluginName.SCALAR)
        chosen = [tag for tag in scalar_tags if (not tags and pattern is None) or tag in tags or _found(pattern, tag)]
        for tag in chosen:
            state = provider.read_scalar_points(run, data, tag)
            if state.dropped and state.too_large:
                raise ScalarPointsTooManyError(f"train job {run}")
            if state.dropped:
                raise ScalarPointsReloadingError(f"train job {run}: ask again in a moment.")
            if state.view is not None:
                series.append((run, tag, state.view))
    if not series:
        raise ScalarNotExistError("No scalar tag of the chosen train jobs matches.")
    return ExportPlan(tuple(series), fmt_encoder)


def stream(plan: ExportPlan) -> Iterator[bytes]:
    """The export's bytes, a chunk of at most ``EXPORT_CHUNK_POINTS`` points at a time."""
    out = plan.encoder
    yield out.header()
    pieces = ((run, tag, *chunk) for run, tag, view in plan.series for chunk in view.chunks(EXPORT_CHUNK_POINTS))
    encoded = _side_by_side(out.chunk, pieces) if out.parallel else (out.chunk(*piece) for piece in pieces)
    cut = out.separator
    for data in encoded:
        if data:
            yield data[cut:]
            cut = 0
    yield out.footer()


_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _side_by_side(encode, pieces) -> Iterator[bytes]:
    """``encode(*piece)`` of each piece, in order, ``EXPORT_CHUNKS_AHEAD`` at a time on a small
    pool: pyarrow's kernels let go of the GIL, so the cores format chunks side by side while at
    most that many chunks are held."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=EXPORT_CHUNKS_AHEAD, thread_name_prefix="export")
    pending = deque()
    for piece in pieces:
        pending.append(_pool.submit(encode, *piece))
        if len(pending) >= EXPORT_CHUNKS_AHEAD:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _runs(provider: DataProvider, train_ids: list[str], tree) -> list[str]:
    if train_ids:
        infos = []
        for train_id in train_ids:
            info = provider.job_brief(train_id)
            if info is None:
                raise TrainJobNotExistError(f"Can not find the train job {train_id}.")
            infos.append(info)
    else:
        infos = provider.list_jobs()
    if tree is not None:
        infos = matching_jobs(provider, infos, tree)
    if not infos:
        raise TrainJobNotExistError("No train job matches the query.")
    infos = [info for info in infos if info.summary_files]  # lineage or profiler output alone: no scalars
    if len(infos) > MAX_EXPORT_TRAIN_JOBS:
        raise ParamValueError(
            f"{len(infos)} train jobs chosen: one export takes at most {MAX_EXPORT_TRAIN_JOBS}; narrow the query."
        )
    return [info.train_id for info in infos]


def _require_loaded(provider: DataProvider, runs: list[str]) -> None:
    """Every run wholly read, else each one that is not is asked for and 50545007 answered."""
    loading = []
    for run in runs:
        if provider.job_data(run) is None or provider.job_status(run).cache_status != CacheStatus.CACHED:
            provider.cache_train_job(run)
            loading.append(run)
    if loading:
        raise DataLoadingError(f"train jobs still being read: {', '.join(loading)}; ask again in a moment.")


def _tag_pattern(text: str | None):
    if text is None:
        return None
    if len(text) > MAX_QUERY_PATTERN_LENGTH:
        raise ParamValueError(f"'tag_pattern' is longer than {MAX_QUERY_PATTERN_LENGTH} characters.")
    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(text, options)
    except re2.error as error:
        reason = error.args[0] if error.args else "not a pattern"
        reason = reason.decode(errors="replace") if isinstance(reason, bytes) else str(reason)
        raise ParamValueError(f"'tag_pattern' is not a regular expression: {reason}.") from None


def _found(pattern, tag: str) -> bool:
    return pattern is not None and pattern.search(tag) is not None
