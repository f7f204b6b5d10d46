"""Devices of a job's profiler output (``GET profile/devices``)."""

import json

from mindinsight.errors import ProfilerIOError
from mindinsight.ingest.profiler_dirs import PROFILER_INFO_PREFIX, device_ids
from mindinsight.services.profiler_ops import check_given, profiler_path


def devices(base_dir: str, train_id: str | None, profile: str | None) -> dict:
    """``{device_list, profiler_mode}``: the device ids found and the context mode the first
    ``profiler_info_<device>.json`` records ("" without one, as MindSpore 2.x CPU output has)."""
    check_given(train_id, profile)
    directory = profiler_path(base_dir, train_id, profile)
    mode = ""
    for info in sorted(directory.glob(f"{PROFILER_INFO_PREFIX}*.json")):
        try:
            meta = json.loads(info.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise ProfilerIOError() from error
        mode = meta.get("context_mode", "") if isinstance(meta, dict) else ""
        break
    return {"device_list": device_ids(directory), "profiler_mode": mode}
