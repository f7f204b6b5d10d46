"""Devices of a job's profiler output (``GET profile/devices``)."""

from mindinsight.ingest.profiler_dirs import device_ids, devices_info_file, locate
from mindinsight.ingest.profiler_files import read_json
from mindinsight.services.profiler_ops import check_given


def devices(base_dir: str, train_id: str | None, profile: str | None) -> dict:
    """``{device_list, profiler_mode}``: the device ids found and the context mode the first
    ``profiler_info_<device>.json`` records ("" without one, as MindSpore 2.x CPU output has)."""
    check_given(train_id, profile)
    output = locate(base_dir, train_id, profile)
    mode = ""
    info = devices_info_file(output)
    if info is not None:
        meta = read_json(info, output.root)
        mode = meta.get("context_mode", "") if isinstance(meta, dict) else ""
    return {"device_list": device_ids(output.path, output.root), "profiler_mode": mode}
