"""TensorBoard hparams as lineage rows (``ingest/tb_hparams.py``, ``cache/tb_lineage.py``), on
logs tensorboardX writes: its ``add_hparams``, and the TF2 layout (the experiment at the top, each
session in its own run, metrics in the session's ``group`` sub-runs) from its hparams messages."""

import math
import os

import pytest
from tensorboardX import SummaryWriter
from tensorboardX.proto.api_pb2 import Experiment, MetricInfo, MetricName
from tensorboardX.proto.plugin_hparams_pb2 import HParamsPluginData
from tensorboardX.proto.summary_pb2 import Summary, SummaryMetadata
from tensorboardX.summary import hparams

from mindinsight.cache.tb_lineage import HParamsRuns
from mindinsight.conf import limits
from mindinsight.format.files import real_root
from mindinsight.ingest import tb_hparams
from mindinsight.ingest.discovery import list_summary_dirs
from mindinsight.ingest.lineage import MODEL_FIELDS


def lineages(base) -> tuple[dict, HParamsRuns]:
    runs, root = HParamsRuns(), real_root(str(base))
    briefs = {info.train_id: info for info in list_summary_dirs(str(base))}
    found = {train_id: runs.lineage(info, briefs, root) for train_id, info in briefs.items() if info.tfevents_files}
    return {train_id: item for train_id, item in found.items() if item is not None}, runs


def experiment_summary(metrics) -> Summary:
    experiment = Experiment(metric_infos=[MetricInfo(name=MetricName(group=g, tag=t)) for g, t in metrics])
    content = HParamsPluginData(experiment=experiment, version=0).SerializeToString()
    metadata = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name="hparams", content=content))
    return Summary(value=[Summary.Value(tag="_hparams_/experiment", metadata=metadata)])


def test_add_hparams_session_is_a_row_with_the_last_metric_values(tmp_path):
    with SummaryWriter(str(tmp_path / "exp" / "seed1")) as writer:
        for step in range(5):
            writer.add_scalar("loss", 1.0 / (step + 1), step)
        writer.add_hparams({"lr": 0.05, "depth": 3, "act": "gelu", "bn": True}, {"hparam/acc": 0.7}, name="hp")
        # tensorboardX names a file by the second and host only: a suffix keeps the first one
        hp = SummaryWriter(str(tmp_path / "exp" / "seed1" / "hp"), filename_suffix=".later")
        hp.add_scalar("hparam/acc", 0.75, 9)  # written later: the last value wins
        hp.close()
    found, _ = lineages(tmp_path)
    assert set(found) == {"./exp/seed1/hp"}
    row = found["./exp/seed1/hp"]
    model = row.dicts.model
    assert model["user_defined"] == {"lr": 0.05, "depth": 3.0, "act": "gelu", "bn": True}
    assert model["metric"] == {"hparam/acc": 0.75}
    assert all(model[key] is None for key in MODEL_FIELDS)
    assert row.dicts.dataset_graph == {} and row.complete
    assert [train_id for train_id, _ in row.depends] == ["./exp/seed1/hp"]


def test_tf2_layout_experiment_above_and_metrics_in_group_runs(tmp_path):
    with SummaryWriter(str(tmp_path / "tf")) as writer:
        writer.file_writer.add_summary(experiment_summary([("validation", "epoch_accuracy"), ("", "epoch_loss")]))
    _, session, _ = hparams({"units": 16, "optimizer": "adam"}, {})
    with SummaryWriter(str(tmp_path / "tf" / "run1")) as writer:
        writer.file_writer.add_summary(session)
        writer.add_scalar("epoch_loss", 0.5, 0)
        writer.add_scalar("epoch_loss", math.inf, 1)
    with SummaryWriter(str(tmp_path / "tf" / "run1" / "validation")) as writer:
        writer.add_scalar("epoch_accuracy", 0.6, 0)
        writer.add_scalar("epoch_accuracy", 0.8, 1)
    found, _ = lineages(tmp_path)
    assert set(found) == {"./tf/run1"}
    row = found["./tf/run1"]
    assert row.dicts.model["user_defined"] == {"units": 16.0, "optimizer": "adam"}
    # a metric of a group run is named group/tag; a non-finite value is answered as a string
    assert row.dicts.model["metric"] == {"validation/epoch_accuracy": 0.8, "epoch_loss": "inf"}
    assert {train_id for train_id, _ in row.depends} == {"./tf/run1", "./tf/run1/validation", "./tf"}


def test_without_an_experiment_every_scalar_of_the_session_is_a_metric(tmp_path):
    _, session, _ = hparams({"seed": 7}, {})
    with SummaryWriter(str(tmp_path / "run")) as writer:
        writer.file_writer.add_summary(session)
        writer.add_scalar("acc", 0.25, 0)
        writer.add_scalar("acc", 0.5, 1)
    found, _ = lineages(tmp_path)
    assert found["./run"].dicts.model["metric"] == {"acc": 0.5}


def test_runs_without_hparams_are_no_rows_and_are_never_parsed(tmp_path):
    with SummaryWriter(str(tmp_path / "plain" / "a")) as writer:
        for step in range(50):
            writer.add_scalar("loss", float(step), step)
    found, runs = lineages(tmp_path)
    assert found == {}
    assert runs._runs["./plain/a"].parsed is None and not runs._runs["./plain/a"].marked


@pytest.mark.parametrize("damage", ["truncated", "garbage"])
def test_a_damaged_session_file_keeps_what_can_be_read(tmp_path, damage):
    with SummaryWriter(str(tmp_path / "run")) as writer:
        writer.add_hparams({"lr": 0.1}, {"m": 1.0}, name="hp")
    (path,) = [p for p in (tmp_path / "run" / "hp").iterdir()]
    data = path.read_bytes()
    path.write_bytes(data[:-7] if damage == "truncated" else data + os.urandom(64))
    found, _ = lineages(tmp_path)
    assert found["./run/hp"].dicts.model["user_defined"] == {"lr": 0.1}


def test_the_search_for_hparams_reads_bounded_chunks_and_finds_a_mark_across_two(tmp_path, monkeypatch):
    """Event files are searched for the hparams tag in chunks of READ_CHUNK_BYTES, never mapped
    whole: a mark cut by a chunk boundary is found all the same."""
    run = tmp_path / "sweep"
    with SummaryWriter(str(run)) as writer:
        writer.add_hparams({"lr": 0.1}, {"hparam/acc": 0.5}, name="hp")
    (path,) = [p for p in (run / "hp").iterdir() if "tfevents" in p.name]
    content = path.read_bytes()
    at = content.index(b"_hparams_/")
    reads = []
    original = tb_hparams._stream_holds
    monkeypatch.setattr(tb_hparams, "_stream_holds", lambda stream, mark: original(_Reads(stream, reads), mark))
    for chunk in (at + 3, at + 5, 4096):  # the mark cut after 3 bytes, after 5; small chunks
        monkeypatch.setattr(limits, "READ_CHUNK_BYTES", chunk)
        reads.clear()
        found, _ = lineages(tmp_path)
        assert set(found) == {"./sweep/hp"}, chunk
        assert reads and set(reads) == {chunk}, chunk


class _Reads:
    """A stream whose reads are recorded (their sizes)."""

    def __init__(self, stream, reads: list):
        self._stream, self._reads = stream, reads

    def read(self, size: int = -1) -> bytes:
        self._reads.append(size)
        return self._stream.read(size)
