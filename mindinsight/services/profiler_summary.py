"""A profiler output's meta info and tuning suggestions (``GET profile/profile_info``,
``GET profile/summary/propose``, ``GET profile/summary/cluster-propose``).

Suggestions are keyed as the original's web client expects: a ``<proposer>-proposer_type_label``
key opens each proposer's group, followed by its suggestion keys (the client translates them).
Proposers run in the original's order; the ones that analyse Ascend and GPU step-trace and
data-pipeline files are not built (MindSpore writes those files only on such devices). Without
both of those analyses the original itself shows only the common tutorial and MSAdvisor's
recommendation, which is what is answered here.
"""

from mindinsight import __version__
from mindinsight.cache.provider import DataProvider, ProfilerOutput
from mindinsight.errors import (
    ParamTypeError,
    ProfilerIOError,
    ProfilerParamValueError,
)
from mindinsight.services.profiler_ops import check_given

# MindSpore major versions whose profiler output this reader understands.
READABLE_MINDSPORE_MAJORS = (2,)
_TYPE_LABEL_SUFFIX = "-proposer_type_label"
# The keys the original keeps when the step-trace or pipeline analysis is missing.
SHOWN_SUGGESTIONS = ("common-proposer_type_label", "common-profiler_tutorial", "msadvisor-proposer")


def _readable(ms_version: str) -> bool:
    major = ms_version.split(".", 1)[0]
    return major.isdigit() and int(major) in READABLE_MINDSPORE_MAJORS


def profile_info(provider: DataProvider, train_id: str | None, profile: str | None) -> dict:
    """``{state, ms, mi}`` from the first ``profiler_info_<device>.json`` that records the
    MindSpore version, ``{}`` without one. ``state`` says whether this reader understands that
    version's output (the original compared it with its own version number instead)."""
    check_given(train_id, profile)
    meta = provider.read_profiler_version_info(provider.profiler_output(train_id, profile))
    ms_version = meta.get("ms_version", "") if isinstance(meta, dict) else ""
    if not isinstance(ms_version, str) or not ms_version:
        return {}
    return {"state": _readable(ms_version), "ms": ms_version, "mi": __version__}


def _common(_provider: DataProvider, _output: ProfilerOutput, _device: str) -> dict:
    return {"common-profiler_tutorial": None}


def _msadvisor(provider: DataProvider, output: ProfilerOutput, device: str) -> dict:
    """MSAdvisor's newest recommendation file, its ``model`` renamed as the original does."""
    recommendation = provider.read_msadvisor_recommendation(output, device)
    if recommendation is None:
        return {}
    if not isinstance(recommendation, dict):
        raise ProfilerIOError()
    recommendation["msadvisor-proposer"] = recommendation.pop("model", None)
    return recommendation


PROPOSERS = {"common": _common, "msadvisor": _msadvisor}


def propose(provider: DataProvider, train_id: str | None, profile: str | None, device_id: str | None) -> dict:
    """The tuning suggestions for one device of a profiler output, grouped by proposer."""
    check_given(train_id, profile)
    try:
        device = str(int("0" if device_id is None else device_id))
    except ValueError:
        raise ParamTypeError("device_id", "Integer") from None
    output = provider.profiler_output(train_id, profile)
    suggestions: dict = {}
    for name, proposer in PROPOSERS.items():
        found = proposer(provider, output, device)
        if found:
            suggestions[name + _TYPE_LABEL_SUFFIX] = None
            suggestions.update(found)
    return {key: value for key, value in suggestions.items() if key in SHOWN_SUGGESTIONS}


def cluster_propose(provider: DataProvider, train_id: str | None) -> dict:
    """Cluster tuning suggestions for the newest profiler output of ``train_id``.

    The original's cluster proposer analyses the cluster files of a multi-device Ascend
    training (``ascend_cluster_analyse_*``, with per-rank step traces, FLOPs and HCCL files);
    without them it finds nothing and answers ``{}``, as here. That analysis is not built: output
    holding such files is refused (50546080) rather than answered as if it had none."""
    if not train_id:
        raise ProfilerParamValueError("The file dir does not exist.")
    if provider.has_cluster_analysis(provider.newest_profiler_output(train_id)):
        raise ProfilerParamValueError("The cluster analysis of multi-device Ascend output is not supported.")
    return {}
