"""Train-job listing, plugin tags and detail-cache requests."""

import os
import time
from pathlib import Path

from mindinsight.cache.data_manager import CacheStatus, DataManager
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import PluginNotAvailableError, TrainJobNotExistError
from mindinsight.ingest.discovery import SummaryDirInfo
from mindinsight.ingest.profiler_dirs import graph_mode
from mindinsight.services.jobs import cached_job_data


def format_time(timestamp: float) -> str:
    """Local time as ``YYYY-MM-DD HH:MM:SS`` (the original's format)."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(timestamp))


def empty_plugins() -> dict:
    return {name: [] for name in PluginName.names()}


def job_plugins(manager: DataManager, train_id: str) -> dict:
    """Tags per plugin of a cached job; every list empty when it is not cached."""
    data = manager.job_data(train_id)
    return data.all_tags() if data is not None else empty_plugins()


def _train_job_item(manager: DataManager, info: SummaryDirInfo) -> dict:
    item = {
        "train_id": info.train_id,
        "relative_path": info.train_id,
        "create_time": format_time(info.create_time),
        "update_time": format_time(info.update_time),
        "profiler_dir": info.profiler_dir,
        "profiler_type": info.profiler_type,
        # Read before "plugins": CACHED here means the tag lists below are complete (the scalar
        # page relies on it to take them from this answer).
        "cache_status": manager.cache_status(info.train_id).value,
        "summary_files": info.summary_files,
        "graph_files": info.graph_files,
        "lineage_files": info.lineage_files,
        "dump_dir": None,
        "is_integrity": manager.is_integrity(info.train_id),
        # Ours: records skipped for a CRC mismatch or a broken length (0 for a sound job).
        "skipped_records": manager.skipped_records(info.train_id),
        # Ours: files the server could not read (path relative to the base dir, and why).
        "unreadable_files": _unreadable_files(manager, info),
        "plugins": job_plugins(manager, info.train_id),
    }
    if info.profiler_dir:  # only jobs with profiler output say which graph mode it profiled
        item["graph_mode"] = graph_mode(Path(info.path) / info.profiler_dir)
    return item


def _unreadable_files(manager: DataManager, info: SummaryDirInfo) -> list[dict]:
    job_dir = info.train_id[2:]  # "" for the base dir itself
    return [
        {"path": os.path.join(job_dir, name), "reason": reason}
        for name, reason in manager.unreadable_files(info.train_id).items()
    ]


def list_train_jobs(manager: DataManager, offset: int, limit: int, train_id: str | None = None) -> dict:
    """One page of train jobs (``offset`` is a page index), newest update first."""
    if train_id is not None:
        info = manager.brief(train_id)
        infos = [info] if info else []
    else:
        infos = manager.briefs()
    start = offset * limit
    page = infos[start : start + limit] if start < len(infos) else []
    return {
        "name": os.path.basename(manager.summary_base_dir.rstrip(os.sep)) or manager.summary_base_dir,
        "total": len(infos),
        "load_status": manager.brief_status.value,
        # Ours: the number of base-dir entries the scan read when it stopped at its limit (jobs
        # among the rest are not listed), else null.
        "scan_stopped_at": manager.scan_stopped_at,
        "train_jobs": [_train_job_item(manager, info) for info in page],
    }


def plugins(manager: DataManager, train_id: str, manual_update: bool) -> dict:
    """Tags per plugin; ``manual_update`` puts the job into the detail cache first."""
    if manager.brief(train_id) is None:
        raise TrainJobNotExistError("Can not find the train job in data manager.")
    if manual_update:
        manager.cache_train_job(train_id)
    return {"plugins": job_plugins(manager, train_id)}


def single_job(manager: DataManager, train_id: str, plugin_name: str) -> dict:
    """Tags of one plugin of a cached job."""
    if not PluginName.is_valid(plugin_name):
        raise PluginNotAvailableError(f"'plugin_name' only can be one of {PluginName.names()}")
    data = cached_job_data(manager, train_id)
    return {"train_jobs": [{"id": train_id, "name": train_id, "tags": data.tags(PluginName(plugin_name))}]}


def cache_train_jobs(manager: DataManager, train_ids: list[str]) -> dict:
    """Put jobs into the detail cache; report each known job's status before the request."""
    results = []
    for train_id in train_ids:
        previous = manager.cache_train_job(train_id)
        if previous is not None:
            results.append({"train_id": train_id, "cache_status": previous.value})
    return {"cache_result": results}


__all__ = ["CacheStatus", "list_train_jobs", "plugins", "single_job", "cache_train_jobs"]
