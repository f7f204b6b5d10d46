"""Train-job listing, plugin tags and detail-cache requests."""

import time

from mindinsight.cache.provider import CacheStatus, DataProvider, SummaryDirInfo
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import PluginNotAvailableError, StorageUnavailableError, TrainJobNotExistError
from mindinsight.services.jobs import cached_job_data
from mindinsight.services.run_query import parse_query
from mindinsight.services.run_query_fields import RunFields, matching_runs


def format_time(timestamp: float) -> str:
    """Local time as ``YYYY-MM-DD HH:MM:SS`` (the original's format)."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(timestamp))


def _train_job_item(provider: DataProvider, info: SummaryDirInfo) -> dict:
    # Read before "plugins": CACHED here means the tag lists below are complete (the scalar
    # page relies on it to take them from this answer).
    status = provider.job_status(info.train_id)
    item = {
        "train_id": info.train_id,
        "relative_path": info.train_id,
        "create_time": format_time(info.create_time),
        "update_time": format_time(info.update_time),
        "profiler_dir": info.profiler_dir,
        "profiler_type": info.profiler_type,
        "cache_status": status.cache_status.value,
        "summary_files": info.summary_files,
        "graph_files": info.graph_files,
        "lineage_files": info.lineage_files,
        "dump_dir": None,
        "is_integrity": status.is_integrity,
        # Ours: damaged records skipped (checksum, length, a payload that is no event; 0 for a sound job).
        "skipped_records": status.skipped_records,
        # Ours: files the server could not read (path relative to the base dir, and why).
        "unreadable_files": [{"path": path, "reason": reason} for path, reason in status.unreadable_files.items()],
        # Ours: values read and not kept, of a kind not shown (a TensorBoard plugin such as
        # pr_curves) or refused (an image over its bound, with the reason); names None: others.
        "unshown_values": status.unshown,
        "dropped_values": status.dropped,
        "plugins": provider.list_tags(info.train_id),
    }
    if info.profiler_dir:  # only jobs with profiler output say which graph mode it profiled
        item["graph_mode"] = provider.job_graph_mode(info)
    return item


def matching_jobs(provider: DataProvider, infos: list[SummaryDirInfo], tree) -> list[SummaryDirInfo]:
    """The jobs of ``infos`` a parsed query (``run_query.parse_query``) matches, in their order."""
    lineage = provider.read_lineages()
    records = {record.train_id: record for record in lineage.records}
    train_ids = [info.train_id for info in infos]
    models = [records[name].dicts.model if name in records else None for name in train_ids]
    marks = [lineage.dataset_marks.get(name) for name in train_ids]
    mask = matching_runs(tree, RunFields(provider, train_ids, models, marks))
    return [info for info, keep in zip(infos, mask) if keep]


def list_train_jobs(
    provider: DataProvider, offset: int, limit: int, train_id: str | None = None, query: str | None = None
) -> dict:
    """One page of train jobs (``offset`` is a page index), newest update first; with ``query``
    only the jobs it matches (``total`` counts those)."""
    tree = parse_query(query) if query is not None else None  # None: no condition
    if train_id is not None:
        info = provider.job_brief(train_id)
        infos = [info] if info else []
    else:
        infos = provider.list_jobs()
    if tree is not None:
        infos = matching_jobs(provider, infos, tree)
    start = offset * limit
    page = infos[start : start + limit] if start < len(infos) else []
    answer = {
        "name": provider.base_dir_name,
        "total": len(infos),
        "load_status": provider.brief_status.value,
        # Ours: the number of base-dir entries the scan read when it stopped at its limit of
        # entries or of jobs (jobs among the rest are not listed), else null.
        "scan_stopped_at": provider.scan_stopped_at,
        "train_jobs": [_train_job_item(provider, info) for info in page],
    }
    if provider.storage_problem is not None:
        # Ours: the object store cannot be listed now; the jobs above are those read before.
        answer["storage_error"] = StorageUnavailableError(provider.storage_problem).to_json()
    return answer


def plugins(provider: DataProvider, train_id: str, manual_update: bool) -> dict:
    """Tags per plugin; ``manual_update`` puts the job into the detail cache first."""
    if provider.job_brief(train_id) is None:
        raise TrainJobNotExistError("Can not find the train job in data manager.")
    if manual_update:
        provider.cache_train_job(train_id)
    return {"plugins": provider.list_tags(train_id)}


def single_job(provider: DataProvider, train_id: str, plugin_name: str) -> dict:
    """Tags of one plugin of a cached job."""
    if not PluginName.is_valid(plugin_name):
        raise PluginNotAvailableError(f"'plugin_name' only can be one of {PluginName.names()}")
    data = cached_job_data(provider, train_id)
    return {"train_jobs": [{"id": train_id, "name": train_id, "tags": data.tags(PluginName(plugin_name))}]}


def cache_train_jobs(provider: DataProvider, train_ids: list[str]) -> dict:
    """Put jobs into the detail cache; report each known job's status before the request."""
    results = []
    for train_id in train_ids:
        previous = provider.cache_train_job(train_id)
        if previous is not None:
            results.append({"train_id": train_id, "cache_status": previous.value})
    return {"cache_result": results}


__all__ = ["CacheStatus", "list_train_jobs", "plugins", "single_job", "cache_train_jobs"]
