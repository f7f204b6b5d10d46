"""A profiler output's meta info and tuning suggestions (``GET profile/profile_info``,
``GET profile/summary/propose``, ``GET profile/summary/cluster-propose``).

Suggestions are keyed as the original's web client expects: a ``<proposer>-proposer_type_label``
key opens each proposer's group, followed by its suggestion keys (the client translates them).
Proposers run in the original's order; the ones that analyse Ascend and GPU step-trace and
data-pipeline files are not built (MindSpore writes those files only on such devices). Without
both of those analyses the original itself shows only the common tutorial and MSAdvisor's
recommendation, which is what is answered here.
"""

from pathlib import Path

from mindinsight import __version__
from mindinsight.errors import (
    ParamTypeError,
    ProfilerDirNotFoundError,
    ProfilerIOError,
    ProfilerParamValueError,
    TrainJobNotExistError,
)
from mindinsight.format.files import real_root
from mindinsight.ingest.profiler_dirs import (
    ProfilerOutput,
    find_profiler_dir,
    has_cluster_files,
    job_path,
    locate,
    newest_msadvisor_file,
    version_info_file,
)
from mindinsight.ingest.profiler_files import read_json
from mindinsight.services.profiler_ops import check_given

# MindSpore major versions whose profiler output this reader understands.
READABLE_MINDSPORE_MAJORS = (2,)
_TYPE_LABEL_SUFFIX = "-proposer_type_label"
# The keys the original keeps when the step-trace or pipeline analysis is missing.
_ALWAYS_SHOWN = ("common-proposer_type_label", "common-profiler_tutorial", "msadvisor-proposer")


def _readable(ms_version: str) -> bool:
    major = ms_version.split(".", 1)[0]
    return major.isdigit() and int(major) in READABLE_MINDSPORE_MAJORS


def profile_info(base_dir: str, train_id: str | None, profile: str | None) -> dict:
    """``{state, ms, mi}`` from the first ``profiler_info_<device>.json`` that records the
    MindSpore version, ``{}`` without one. ``state`` says whether this reader understands that
    version's output (the original compared it with its own version number instead)."""
    check_given(train_id, profile)
    output = locate(base_dir, train_id, profile)
    info_file = version_info_file(output)
    if info_file is None:
        return {}
    meta = read_json(info_file, output.root)
    ms_version = meta.get("ms_version", "") if isinstance(meta, dict) else ""
    if not isinstance(ms_version, str) or not ms_version:
        return {}
    return {"state": _readable(ms_version), "ms": ms_version, "mi": __version__}


def _common(_output: ProfilerOutput, _device: str) -> dict:
    return {"common-profiler_tutorial": None}


def _msadvisor(output: ProfilerOutput, device: str) -> dict:
    """MSAdvisor's newest recommendation file, its ``model`` renamed as the original does."""
    newest = newest_msadvisor_file(output, device)
    if newest is None:
        return {}
    recommendation = read_json(newest, output.root)
    if not isinstance(recommendation, dict):
        raise ProfilerIOError()
    recommendation["msadvisor-proposer"] = recommendation.pop("model", None)
    return recommendation


PROPOSERS = {"common": _common, "msadvisor": _msadvisor}


def propose(base_dir: str, train_id: str | None, profile: str | None, device_id: str | None) -> dict:
    """The tuning suggestions for one device of a profiler output, grouped by proposer."""
    check_given(train_id, profile)
    try:
        device = str(int("0" if device_id is None else device_id))
    except ValueError:
        raise ParamTypeError("device_id", "Integer") from None
    output = locate(base_dir, train_id, profile)
    suggestions: dict = {}
    for name, proposer in PROPOSERS.items():
        found = proposer(output, device)
        if found:
            suggestions[name + _TYPE_LABEL_SUFFIX] = None
            suggestions.update(found)
    return {key: value for key, value in suggestions.items() if key in _ALWAYS_SHOWN}


def cluster_propose(base_dir: str, train_id: str | None) -> dict:
    """Cluster tuning suggestions for the newest profiler output of ``train_id``.

    The original's cluster proposer analyses the cluster files of a multi-device Ascend
    training (``ascend_cluster_analyse_*``, with per-rank step traces, FLOPs and HCCL files);
    without them it finds nothing and answers ``{}``, as here. That analysis is not built: output
    holding such files is refused (50546080) rather than answered as if it had none."""
    if not train_id:
        raise ProfilerParamValueError("The file dir does not exist.")
    job = Path(job_path(base_dir, train_id))
    if not job.is_dir():
        raise TrainJobNotExistError(train_id)
    root = real_root(base_dir)
    found = find_profiler_dir(job, root)
    if found is None:
        raise ProfilerDirNotFoundError(str(job))
    if has_cluster_files(job / found[0], root):
        raise ProfilerParamValueError("The cluster analysis of multi-device Ascend output is not supported.")
    return {}
