"""Incremental loading of a job: real fixtures and logs made with our writer."""

import os
import time

import numpy as np

from mindinsight.conf.plugins import PluginName
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.format.records import frame
from mindinsight.ingest.loader import JobLoader
from mindinsight.summary import SummaryWriter
from mindinsight.summary.writer import histogram_proto, tensor_proto
from tests.helpers.fixtures import B_SUMMARY_OPS_SCALAR_TAGS
from tests.ut.conftest import summary_file


def load_fully(loader: JobLoader, chunk: int = 1 << 20) -> None:
    while not loader.load(chunk).done:
        pass


def test_b_summary_ops_contents(fixture_job):
    loader = JobLoader(str(fixture_job("b_summary_ops")))
    load_fully(loader, chunk=64 * 1024)
    tags = loader.data.all_tags()
    assert tags["scalar"] == list(B_SUMMARY_OPS_SCALAR_TAGS)
    assert tags["image"] == ["input_image/image", "rgb_pattern/image"]
    assert tags["histogram"] == ["conv1_out/histogram", "fc1_out/histogram", "fc3.weight/histogram"]
    assert tags["tensor"] == ["conv1_feature_map/tensor", "custom_tensor/tensor", "int_tensor/tensor"]
    assert tags["graph"] == ["events.out.events.summary.1795343856.0.vm_MS"]
    assert tags["optimized_graph"] == ["events.out.events.summary.1795343856.0.vm_MS (optimized)"]
    scalar = loader.data.samples(PluginName.SCALAR, "nan_inf_scalar/scalar")
    assert scalar["step"].tolist() == list(range(1, 301))
    assert np.isnan(scalar["value"][149]) and np.isposinf(scalar["value"][150])
    images = loader.data.samples(PluginName.IMAGE, "input_image/image")
    assert len(images["step"]) == 10 and images["step"][-1] == 300
    assert images["image"][-1][:8] == b"\x89PNG\r\n\x1a\n"
    assert (images["width"][-1], images["height"][-1]) == (128, 32)
    assert len(loader.data.samples(PluginName.HISTOGRAM, "conv1_out/histogram")["step"]) == 50
    tensors = loader.data.samples(PluginName.TENSOR, "conv1_feature_map/tensor")
    assert len(tensors["step"]) == 20 and tensors["tensor"][-1].dims == (4, 8, 8)


def test_chunk_size_does_not_change_the_result(fixture_job):
    small, large = JobLoader(str(fixture_job("a_lenet_collector"))), None
    load_fully(small, chunk=32 * 1024)
    large = JobLoader(small.job_dir)
    load_fully(large, chunk=64 << 20)
    for plugin in PluginName:
        for tag in small.data.tags(plugin):
            a, b = small.data.samples(plugin, tag), large.data.samples(plugin, tag)
            assert np.array_equal(a["step"], b["step"]) and np.array_equal(a["wall_time"], b["wall_time"])


def test_two_sessions_restart(fixture_job):
    loader = JobLoader(str(fixture_job("g_two_sessions")))
    load_fully(loader)
    samples = loader.data.samples(PluginName.SCALAR, "loss/scalar")
    assert samples["step"].tolist() == list(range(1, 91))
    newer = int(sorted(os.listdir(loader.job_dir))[-1].split(".")[4])
    assert set(samples["file_ts"][40:].tolist()) == {newer}


def test_pb_graph_files(fixture_job):
    loader = JobLoader(str(fixture_job("f_save_graphs")))
    load_fully(loader)
    assert loader.data.tags(PluginName.GRAPH)[0] == "ms_output_optimize.pb"
    assert len(loader.data.tags(PluginName.GRAPH)) == 4
    graph = loader.data.samples(PluginName.GRAPH, "ms_output_optimize.pb")["graph"][0]
    assert len(graph.node) > 0


def test_landscape_and_lineage(fixture_job):
    loader = JobLoader(str(fixture_job("d_landscape_epoch")))
    load_fully(loader)
    assert len(loader.data.tags(PluginName.LOSS_LANDSCAPE)) == 3
    assert loader.data.lineage.train_lineage.hyper_parameters.optimizer == "Adam"


def test_lineage_from_two_files(fixture_job):
    loader = JobLoader(str(fixture_job("a_lenet_collector")))
    load_fully(loader)
    lineage = loader.data.lineage
    assert lineage.train_lineage.algorithm.network == "LeNet5"
    assert '"Accuracy"' in lineage.evaluation_lineage.metric
    assert lineage.user_defined == {
        "fixture": "a_lenet_collector",
        "owner": "vision-team",
        "version": 1,
        "dropout": 0.0,
    }


def test_appended_records_are_read_on_the_next_load(tmp_path):
    writer = SummaryWriter(tmp_path, timestamp=100)
    for step in range(1, 11):
        writer.add_scalar("loss", step / 10, step)
    writer.flush()
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    assert loader.data.samples(PluginName.SCALAR, "loss/scalar")["step"][-1] == 10
    size_before = os.path.getsize(writer.path)
    for step in range(11, 21):
        writer.add_scalar("loss", step / 10, step)
    writer.close()
    result = loader.load()
    assert result.bytes_read == os.path.getsize(writer.path) - size_before
    assert loader.data.samples(PluginName.SCALAR, "loss/scalar")["step"].tolist() == list(range(1, 21))
    assert loader.load().bytes_read == 0


def test_partial_tail_of_the_newest_file_waits_without_alarm(tmp_path):
    with SummaryWriter(tmp_path, timestamp=100) as writer:
        writer.add_scalar("loss", 1.0, 1)
    event = summary_pb.Event(wall_time=1.0, step=2)
    event.summary.value.add(tag="loss", scalar_value=2.0)
    tail = frame(event.SerializeToString())
    with open(writer.path, "ab") as stream:
        stream.write(tail[:10])
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    assert loader.is_integrity and loader.corrupt_records == 0  # MindSpore is still writing it
    assert loader.data.samples(PluginName.SCALAR, "loss/scalar")["step"].tolist() == [1]
    with open(writer.path, "ab") as stream:
        stream.write(tail[10:])
    load_fully(loader)
    assert loader.is_integrity
    assert loader.data.samples(PluginName.SCALAR, "loss/scalar")["step"].tolist() == [1, 2]


def test_file_deleted_between_listing_and_reading(tmp_path, monkeypatch):
    with SummaryWriter(tmp_path, timestamp=100) as first:
        first.add_scalar("old", 1.0, 1)
    with SummaryWriter(tmp_path, timestamp=200) as second:
        second.add_scalar("new", 1.0, 1)
    real_scandir = os.scandir

    def scandir_then_delete(path):
        entries = list(real_scandir(path))
        if os.path.exists(first.path):
            os.remove(first.path)
        return iter(entries)

    monkeypatch.setattr(os, "scandir", scandir_then_delete)
    loader = JobLoader(str(tmp_path))
    load_fully(loader)  # must not raise
    monkeypatch.setattr(os, "scandir", real_scandir)
    load_fully(loader)
    assert loader.data.tags(PluginName.SCALAR) == ["new/scalar"]


def test_stale_partial_tail_is_given_up(tmp_path):
    with SummaryWriter(tmp_path, timestamp=100) as writer:
        writer.add_scalar("loss", 1.0, 1)
    with open(writer.path, "ab") as stream:
        stream.write(frame(b"x" * 50)[:20])
    old = time.time() - 3600
    os.utime(writer.path, (old, old))
    with SummaryWriter(tmp_path, timestamp=200) as newer:
        newer.add_scalar("loss", 2.0, 2)
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    assert loader.data.samples(PluginName.SCALAR, "loss/scalar")["step"].tolist() == [1, 2]
    assert not loader.is_integrity


def test_corrupt_record_loses_nothing_valid(fixture_job):
    job = fixture_job("g_max_file_size")
    path = summary_file(job)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    loader = JobLoader(str(job))
    load_fully(loader)
    steps = loader.data.samples(PluginName.SCALAR, "loss/scalar")["step"].tolist()
    assert loader.corrupt_records == 1
    assert len(steps) == 37 and steps[0] == 1 and steps[-1] == 38


def test_undecodable_payload_is_skipped_and_counted(tmp_path):
    with SummaryWriter(tmp_path, timestamp=100) as writer:
        writer.add_scalar("loss", 1.0, 1)
        writer.write_raw(b"\xff\xff\xff\xff not a protobuf")
        writer.add_scalar("loss", 2.0, 2)
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    assert loader.data.samples(PluginName.SCALAR, "loss/scalar")["step"].tolist() == [1, 2]
    assert loader.corrupt_records == 1 and not loader.is_integrity  # reported as a damaged record


def test_vanished_file_resets_the_job(tmp_path):
    with SummaryWriter(tmp_path, timestamp=100) as first:
        first.add_scalar("old", 1.0, 1)
    with SummaryWriter(tmp_path, timestamp=200) as second:
        second.add_scalar("new", 1.0, 1)
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    assert loader.data.tags(PluginName.SCALAR) == ["new/scalar", "old/scalar"]
    os.remove(first.path)
    load_fully(loader)
    assert loader.data.tags(PluginName.SCALAR) == ["new/scalar"]


def test_newest_summary_graph_replaces_older(tmp_path):
    from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir

    graph = anf_ir.GraphProto(name="g")
    graph.node.add(name="1", op_type="Conv2D", scope="Default")
    with SummaryWriter(tmp_path, timestamp=100) as first:
        first.add_graph(graph)
    with SummaryWriter(tmp_path, timestamp=200) as second:
        second.add_graph(graph)
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    assert loader.data.tags(PluginName.GRAPH) == [os.path.basename(second.path)]


def test_pb_graphs_stay_beside_the_newest_summary_graph(tmp_path):
    from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir

    graph = anf_ir.GraphProto(name="g")
    graph.node.add(name="1", op_type="Conv2D", scope="Default")
    (tmp_path / "ms_output_optimize.pb").write_bytes(anf_ir.ModelProto(graph=graph).SerializeToString())
    with SummaryWriter(tmp_path, timestamp=100) as first:
        first.add_graph(graph)
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    with SummaryWriter(tmp_path, timestamp=200) as second:
        second.add_graph(graph, step=3)
    load_fully(loader)
    newest = os.path.basename(second.path)
    assert loader.data.tags(PluginName.GRAPH) == ["ms_output_optimize.pb", newest]
    assert loader.data.tags(PluginName.OPTIMIZED_GRAPH) == [
        "ms_output_optimize.pb (optimized)",
        newest + " (optimized)",
    ]
    assert loader.data.samples(PluginName.GRAPH, newest)["step"].tolist() == [3]
    assert loader.data.samples(PluginName.OPTIMIZED_GRAPH, newest + " (optimized)")["graph"][0] == graph


def test_tensor_tag_limit_evicts_the_oldest(tmp_path):
    with SummaryWriter(tmp_path, timestamp=100) as writer:
        for index in range(8):
            writer.add_tensor(f"t{index}", np.zeros((2, 2)), 1)
        writer.add_tensor("t0", np.zeros((2, 2)), 2)  # evicted earlier: not re-admitted
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    assert loader.data.tags(PluginName.TENSOR) == [f"t{index}/tensor" for index in range(2, 8)]


def test_total_tag_limit(tmp_path):
    with SummaryWriter(tmp_path, timestamp=100) as writer:
        writer.add_tensor("first", np.zeros((2, 2)), 1)
        writer.add_values(1, {f"s{index:03d}": 1.0 for index in range(310)})
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    tags = loader.data.all_tags()
    assert sum(len(names) for names in tags.values()) == 300
    assert tags["tensor"] == [] and tags["scalar"][-1] == "s309/scalar"


def test_histogram_with_too_many_buckets_is_dropped(tmp_path):
    with SummaryWriter(tmp_path, timestamp=100) as writer:
        writer.add_values(1, {"h": histogram_proto(np.arange(1000), bins=10)})
        writer.add_values(2, {"h": histogram_proto(np.arange(1000), bins=91)})
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    assert loader.data.samples(PluginName.HISTOGRAM, "h/histogram")["step"].tolist() == [1]


def test_oversized_tensor_is_flagged_not_stored(tmp_path, monkeypatch):
    monkeypatch.setattr("mindinsight.conf.limits.MAX_TENSOR_ELEMENTS", 10)
    with SummaryWriter(tmp_path, timestamp=100) as writer:
        writer.add_values(1, {"big": tensor_proto(np.zeros((4, 4)))})
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    sample = loader.data.samples(PluginName.TENSOR, "big/tensor")["tensor"][0]
    assert sample.too_large and sample.proto is None and sample.dims == (4, 4)
