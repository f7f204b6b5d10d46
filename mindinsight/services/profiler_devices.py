"""Devices of a job's profiler output (``GET profile/devices``)."""

from mindinsight.cache.provider import DataProvider
from mindinsight.services.profiler_ops import check_given


def devices(provider: DataProvider, train_id: str | None, profile: str | None) -> dict:
    """``{device_list, profiler_mode}``: the device ids found and the context mode the first
    ``profiler_info_<device>.json`` records ("" without one, as MindSpore 2.x CPU output has)."""
    check_given(train_id, profile)
    output = provider.profiler_output(train_id, profile)
    meta = provider.read_profiler_devices_info(output)
    mode = meta.get("context_mode", "") if isinstance(meta, dict) else ""
    return {"device_list": provider.list_profiler_devices(output), "profiler_mode": mode}
