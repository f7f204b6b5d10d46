"""Values a log holds and the product does not keep are reported per job (train-jobs'
``unshown_values`` and ``dropped_values``, ingest/dropped_values.py), bounded whatever the
files name, and counted again from zero when a job is read again from scratch."""

import json
import re
from collections import Counter
from pathlib import Path

from tensorboardX import SummaryWriter as TensorBoardWriter
from tensorboardX.proto.tensor_pb2 import TensorProto
from tensorboardX.proto.types_pb2 import DT_FLOAT
from tensorboardX.summary import hparams

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.ingest.dropped_values import DroppedValues
from mindinsight.ingest.kinds.base import REFUSALS, Rejected
from mindinsight.ingest.loader import JobLoader
from mindinsight.summary import SummaryWriter
from tests.helpers import kinds_not_kept
from tests.helpers.apps import make_app

API = "/v1/mindinsight/datavisual/train-jobs"


def listed(app) -> dict:
    return {job["train_id"]: job for job in app.test_client().get(API).get_json()["train_jobs"]}


def test_kinds_not_shown_and_values_refused_are_reported(tmp_path):
    kinds_not_kept.write_run(str(tmp_path / "run"))
    job = listed(make_app(tmp_path))["./run"]
    assert job["unshown_values"] == kinds_not_kept.UNSHOWN
    assert job["dropped_values"] == kinds_not_kept.DROPPED
    assert job["plugins"]["scalar"] == ["loss"] and job["plugins"]["histogram"] == []
    assert job["is_integrity"] is True and job["skipped_records"] == 0  # nothing is damaged


def test_hyper_parameters_are_not_reported_as_unshown(tmp_path):
    """The hparams plugin's values go to the lineage pages (read apart), not to a tag: as
    ``add_hparams`` writes them (no value), and as TF2 does (a null float tensor)."""
    with TensorBoardWriter(str(tmp_path / "sweep")) as writer:
        writer.add_scalar("loss", 0.5, 0)
        writer.add_hparams({"lr": 0.1, "optimizer": "sgd"}, {"hparam/accuracy": 0.9})
    _, session, _ = hparams({"units": 16}, {})
    for value in session.value:
        value.tensor.CopyFrom(TensorProto(dtype=DT_FLOAT, float_val=[0.0]))
    with TensorBoardWriter(str(tmp_path / "tf2")) as writer:
        writer.file_writer.add_summary(session)
        writer.add_scalar("loss", 0.5, 0)
    jobs = listed(make_app(tmp_path))
    assert len(jobs) == 3  # the run, the session add_hparams writes beside it, the TF2 run
    for job in jobs.values():
        assert job["unshown_values"] == [] and job["dropped_values"] == [], job["train_id"]


def test_mindspore_values_refused_are_reported_with_the_reason(tmp_path):
    buckets = limits.MAX_HISTOGRAM_INPUT_BUCKETS + 1
    with SummaryWriter(str(tmp_path / "job"), timestamp=1700000000) as writer:
        for step in (1, 2):
            event = summary_pb.Event(wall_time=1.7e9 + step, step=step)
            event.summary.value.add(tag="loss", scalar_value=0.5)
            histogram = event.summary.value.add(tag="weights").histogram
            for left in range(buckets):  # more buckets than the original takes: it drops them too
                histogram.buckets.add(left=float(left), width=1.0, count=1)
            writer.write_event(event)
    job = listed(make_app(tmp_path))["./job"]
    reason = f"more than {limits.MAX_HISTOGRAM_INPUT_BUCKETS} buckets"
    assert job["dropped_values"] == [
        {
            "plugin": "histogram",
            "tag": "weights/histogram",
            "reason": reason,
            "reason_code": "too_many_buckets",
            "reason_args": {"buckets": limits.MAX_HISTOGRAM_INPUT_BUCKETS},
            "count": 2,
        }
    ]
    assert job["unshown_values"] == [] and job["plugins"]["histogram"] == []


def test_the_report_is_bounded_whatever_the_names():
    report = DroppedValues()
    long_name = "x" * 10_000
    report.add_unshown(Counter({(f"plugin_{index}", long_name): 2 for index in range(limits.MAX_REPORTED_KEYS + 50)}))
    report.add_unshown(Counter({("plugin_0", long_name): 1, ("one_more", "t"): 5}))
    why = Rejected.because("not_a_scalar", error=long_name)
    report.add_dropped(Counter({(PluginName.IMAGE, f"tag_{index}", why): 1 for index in range(300)}))
    unshown, dropped = report.unshown(), report.dropped()
    assert len(unshown) == len(dropped) == limits.MAX_REPORTED_KEYS + 1
    # the keys first met are kept, and go on counting; the values of the others are counted together
    assert unshown[0] == {"plugin": "plugin_0", "tag": unshown[0]["tag"], "count": 3}
    assert unshown[-1] == {"plugin": None, "tag": None, "count": 50 * 2 + 5}
    other = {"plugin": None, "tag": None, "reason": None, "reason_code": None, "reason_args": None}
    assert dropped[-1] == {**other, "count": 300 - limits.MAX_REPORTED_KEYS}
    assert max(len(entry["tag"]) for entry in unshown[:-1]) == limits.MAX_REPORTED_NAME_CHARS
    # the arguments of a reason are names from the files too: cut alike
    assert len(dropped[0]["reason_args"]["error"]) == limits.MAX_REPORTED_NAME_CHARS
    assert dropped[0]["reason"] == "not a scalar: " + dropped[0]["reason_args"]["error"]
    again = DroppedValues()
    again.restore(report.state())
    assert (again.unshown(), again.dropped()) == (unshown, dropped)


def test_a_job_read_again_from_scratch_counts_again_from_zero(tmp_path):
    kinds_not_kept.write_run(str(tmp_path / "run"))
    loader = JobLoader(str(tmp_path / "run"))
    while not loader.load().done:
        pass
    assert loader.dropped.unshown() == kinds_not_kept.UNSHOWN
    loader.reset()
    assert not loader.dropped
    while not loader.load().done:
        pass
    assert loader.dropped.unshown() == kinds_not_kept.UNSHOWN  # not twice the counts


def test_tags_over_the_job_limit_are_reported_with_their_values(tmp_path):
    """The oldest tags make room for newer ones (the original's rule): each is reported with the
    samples it held then and every value of it read after."""
    extra = 3
    with TensorBoardWriter(str(tmp_path / "wide")) as writer:
        for step in range(2):
            for index in range(limits.MAX_TAGS_PER_JOB + extra):
                writer.add_scalar(f"layer_{index:03d}/mean", float(index), step)
    job = listed(make_app(tmp_path))["./wide"]
    reason = {
        "reason": f"over the {limits.MAX_TAGS_PER_JOB} tags a job keeps",
        "reason_code": "over_job_tags",
        "reason_args": {"limit": limits.MAX_TAGS_PER_JOB},
    }
    let_go = [{"plugin": "scalar", "tag": f"layer_{index:03d}/mean", **reason, "count": 2} for index in range(extra)]
    assert job["dropped_values"] == let_go
    assert len(job["plugins"]["scalar"]) == limits.MAX_TAGS_PER_JOB
    assert job["plugins"]["scalar"][0] == f"layer_{extra:03d}/mean"


def test_a_tag_too_long_to_be_asked_for_is_refused_and_reported(tmp_path):
    """No request can name a tag over limits.MAX_TAG_CHARS (a query value that long is refused),
    so its values are not kept: reported, and never listed as a tag nobody can open."""
    long_tag = "w" * (limits.MAX_TAG_CHARS + 1)
    longest = "k" * limits.MAX_TAG_CHARS
    with TensorBoardWriter(str(tmp_path / "long")) as writer:
        for step in range(3):
            writer.add_scalar(long_tag, 1.0, step)
            writer.add_scalar(longest, 2.0, step)
    job = listed(make_app(tmp_path))["./long"]
    assert job["plugins"]["scalar"] == [longest]
    reason = f"a tag name over {limits.MAX_TAG_CHARS} characters"
    [dropped] = job["dropped_values"]
    assert dropped == {
        "plugin": "scalar",
        "tag": long_tag[: limits.MAX_REPORTED_NAME_CHARS - 1] + "…",
        "reason": reason,
        "reason_code": "tag_too_long",
        "reason_args": {"chars": limits.MAX_TAG_CHARS},
        "count": 3,
    }


def test_the_step_stats_torch_writes_with_a_graph_are_named_as_not_shown():
    """``torch.utils.tensorboard``'s ``add_graph`` writes the graph (shown) and the run metadata
    of one step, "step1" (not shown)."""
    torch_runs = Path(__file__).resolve().parents[1] / "fixtures" / "tensorboard" / "torch"
    loader = JobLoader(str(torch_runs / "model"), root=str(torch_runs))
    while not loader.load().done:
        pass
    assert loader.data.tags(PluginName.GRAPH)
    assert loader.dropped.unshown() == [{"plugin": "run_metadata", "tag": "step1", "count": 1}]
    assert loader.dropped.dropped() == []


def test_the_ui_says_every_reason_in_each_language():
    """The dashboard says a refusal by its code (``reason_code``, ``reason_args``): every locale
    has a message per code of ``REFUSALS``, with the same arguments as its English text."""
    locales = Path(__file__).resolve().parents[2] / "ui" / "src" / "locales"
    placeholders = re.compile(r"\{(\w+)\}")
    for locale_file in sorted(locales.glob("*/dataNotices.json")):
        messages = json.loads(locale_file.read_text())["reasons"]
        assert sorted(messages) == sorted(REFUSALS), locale_file
        for code, text in REFUSALS.items():
            assert set(placeholders.findall(messages[code])) == set(placeholders.findall(text)), (locale_file, code)
