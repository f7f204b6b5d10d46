"""The tensors endpoint on real MindSpore logs, on logs of our writer, and its pure parts.

Facts relied on (the original's behaviour): ``train_id`` and ``tag`` are repeatable and
required; ``detail`` is absent, ``stats``, ``histogram`` or ``data`` (else 50540002, checked
after the tag); ``step`` is read only with ``detail=data`` (a non-numeric step is fine
otherwise), which also needs ``dims`` such as ``[0,:,:]`` with at most two ``:`` items and one
item per dimension. Unknown tag 50545012, step not kept 50545014, a selection over 100,000
values 50545013, a tensor over 10,000,000 elements 50545016 (its statistics are null). With
any NaN/Inf in a selection every value is a float or ``"NAN"``/``"INF"``/``"-INF"``.
"""

import json
import math
import tracemalloc

import numpy as np
import pytest

from mindinsight.backend.context import data_manager
from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir
from mindinsight.ingest.kinds.base import Rejected
from mindinsight.ingest.kinds.tensor import TensorSample, tensor_sample
from mindinsight.services.histograms import display_bins
from mindinsight.services.tensors import parse_dims, statistics
from mindinsight.summary.writer import SummaryWriter, tensor_proto
from tests.helpers.apps import make_app
from tests.helpers.fixtures import FIXTURES, read_events

API = "/v1/mindinsight/datavisual/tensors"
JOB = "./b_summary_ops"
FEATURES = "conv1_feature_map/tensor"
INTS = "int_tensor/tensor"
STAT_KEYS = ["max", "min", "avg", "count", "nan_count", "neg_inf_count", "pos_inf_count"]
OVERALL_KEYS = [
    "overall_max",
    "overall_min",
    "overall_avg",
    "overall_count",
    "overall_nan_count",
    "overall_neg_inf_count",
    "overall_pos_inf_count",
    "overall_zero_count",
    "overall_neg_zero_count",
    "overall_pos_zero_count",
]


def written_tensors(tag: str) -> dict[int, np.ndarray]:
    """``{step: values shaped by dims}`` of one tensor tag as the fixture file holds it."""
    tensors = {}
    for path in sorted((FIXTURES / "b_summary_ops").glob("*_MS")):
        for event in read_events(path):
            for value in event.summary.value:
                if value.WhichOneof("value") == "tensor" and value.tag + "/tensor" == tag:
                    tensor = value.tensor
                    tensors[event.step] = np.array(tensor.float_data, dtype=np.float32).reshape(tuple(tensor.dims))
    return tensors


def get(client, **query):
    response = client.get(API, query_string=query)
    return response.status_code, response.get_json()


def error(client, **query):
    status, body = get(client, **query)
    assert status == 400, body
    return body


def the_values(body):
    (item,) = body["tensors"]
    return item["values"]


# -- the four details on the real log -------------------------------------------------------


def test_steps_list_without_detail(client):
    status, body = get(client, train_id=JOB, tag=FEATURES)
    assert status == 200
    (item,) = body["tensors"]
    assert (item["train_id"], item["tag"]) == (JOB, FEATURES)
    written = written_tensors(FEATURES)
    steps = [value["step"] for value in item["values"]]
    assert len(steps) == limits.STEPS_PER_TAG[PluginName.TENSOR] and steps[-1] == max(written)
    assert steps == sorted(steps) and set(steps) <= set(written)
    for value in item["values"]:
        assert set(value) == {"wall_time", "step", "value"}
        assert value["value"] == {"dims": [4, 8, 8], "data_type": "DT_FLOAT32"}


def test_stats_are_those_of_the_written_tensor(client):
    written = written_tensors(FEATURES)
    for value in the_values(get(client, train_id=JOB, tag=FEATURES, detail="stats")[1]):
        stats = value["value"]["statistics"]
        array = written[value["step"]]
        assert list(stats) == STAT_KEYS + OVERALL_KEYS
        assert stats["count"] == stats["overall_count"] == array.size
        assert stats["max"] == stats["overall_max"] == float(array.max())
        assert stats["min"] == float(array.min())
        assert stats["avg"] == pytest.approx(float(array.astype(np.float64).mean()), rel=1e-12)
        assert stats["overall_zero_count"] == float((array == 0).sum())
        assert stats["overall_pos_zero_count"] == float((array > 0).sum())
        assert stats["overall_neg_zero_count"] == float((array < 0).sum())
        assert isinstance(stats["overall_zero_count"], float)


def test_a_non_numeric_step_is_ignored_without_detail_data(client):
    assert get(client, train_id=JOB, tag=FEATURES, detail="stats", step="abc") == get(
        client, train_id=JOB, tag=FEATURES, detail="stats"
    )


def test_histogram_buckets_share_one_grid_and_count_every_value(client):
    values = the_values(get(client, train_id=JOB, tag="custom_tensor/tensor", detail="histogram")[1])
    grids = {tuple((left, width) for left, width, _ in value["value"]["histogram_buckets"]) for value in values}
    assert len(grids) == 1
    (grid,) = grids
    assert len(grid) == display_bins(256) == 27  # 256 finite values per step
    lows = [value["value"]["statistics"]["min"] for value in values]
    highs = [value["value"]["statistics"]["max"] for value in values]
    assert grid[0][0] == pytest.approx(min(lows)) and grid[-1][0] + grid[-1][1] == pytest.approx(max(highs))
    for value in values:
        counts = [count for *_, count in value["value"]["histogram_buckets"]]
        # counts spread over the finer display grid round up, so they never lose a value
        assert sum(counts) >= 256 and all(isinstance(count, int) for count in counts)


def test_data_is_the_numpy_selection_of_the_step(client):
    written = written_tensors(FEATURES)
    status, body = get(client, train_id=JOB, tag=FEATURES, detail="data", step=300, dims="[1,:,2:5]")
    assert status == 200
    (value,) = the_values(body)
    assert value["step"] == 300 and value["value"]["dims"] == [4, 8, 8]
    expected = written[300][1, :, 2:5]
    assert value["value"]["data"] == expected.tolist()
    stats = value["value"]["statistics"]
    assert stats["count"] == expected.size and stats["max"] == float(expected.max())
    assert stats["overall_count"] == 256 and stats["overall_max"] == float(written[300].max())


@pytest.mark.parametrize("dims, index", [("[-1,0,:]", (-1, 0, slice(None))), ("[0,0,0]", (0, 0, 0))])
def test_data_takes_negative_indexes_and_single_values(client, dims, index):
    (value,) = the_values(get(client, train_id=JOB, tag=FEATURES, detail="data", step=300, dims=dims)[1])
    assert value["value"]["data"] == written_tensors(FEATURES)[300][index].tolist()


def test_integer_tensors_are_shown_with_their_values(client):
    (value,) = the_values(get(client, train_id=JOB, tag=INTS, detail="data", step=300, dims="[:,:]")[1])
    assert value["value"]["data_type"] == "DT_INT32"
    expected = written_tensors(INTS)[300].astype(np.int64).tolist()
    assert value["value"]["data"] == expected and all(isinstance(v, int) for row in expected for v in row)
    assert value["value"]["statistics"]["max"] == max(max(row) for row in expected)


def test_several_jobs_and_tags_answer_in_query_order(client):
    status, body = get(client, train_id=[JOB, JOB], tag=[INTS, FEATURES])
    assert status == 200
    assert [(item["train_id"], item["tag"]) for item in body["tensors"]] == [(JOB, INTS), (JOB, FEATURES)] * 2


# -- errors, as the original answers them ----------------------------------------------------


@pytest.mark.parametrize(
    "query, code, message",
    [
        (
            {"tag": "nope/tensor"},
            "50545012",
            "Tensor value is not exist. Detail: Invalid parameter value. "
            "Can not find any data in this train job by given tag.",
        ),
        (
            {"tag": "loss_op/scalar"},
            "50545012",
            "Tensor value is not exist. Detail: there is no tensor data in this tag: loss_op/scalar",
        ),
        ({"detail": "foo"}, "50540002", "Invalid parameter value. Can not support this value: foo of detail."),
        ({"detail": "data", "step": "1"}, "50540003", "Param missing. 'dims' is required."),
        ({"detail": "data", "dims": "[0,:,:]"}, "50540003", "Param missing. 'step' is required."),
        (
            {"detail": "data", "step": "300", "dims": "[x]"},
            "50540002",
            "Invalid parameter value. Invalid shape. Convert int from str failed. input_str: x",
        ),
        (
            {"detail": "data", "step": "abc", "dims": "[0,:,:]"},
            "50540001",
            "Invalid parameter type. 'step' expect Integer type.",
        ),
        (
            {"detail": "data", "step": "1", "dims": "[0,:,:]"},
            "50545014",
            "Tensor data not in cache. Detail: this step: 1 data may has been dropped.",
        ),
        (
            {"detail": "data", "step": "300", "dims": "[:,:,:]"},
            "50540002",
            "Invalid parameter value. Invalid shape. At most 2 dimensions are specified. Received: :,:,:",
        ),
        (
            {"detail": "data", "step": "300", "dims": "[0,:]"},
            "50540002",
            "Invalid parameter value. Invalid dims. The length of param dims and tensor shape should be the same.",
        ),
        (
            {"detail": "data", "step": "300", "dims": "0,:,:"},
            "50540002",
            "Invalid parameter value. Invalid shape. The type of shape should be str and start with `[` and "
            "end with `]`. Received: 0,:,:.",
        ),
    ],
)
def test_errors(client, query, code, message):
    assert error(client, **{"train_id": JOB, "tag": FEATURES, **query}) == {"error_code": code, "error_msg": message}


@pytest.mark.parametrize("dims", ["[4,:,:]", "[0,::0,:]", "[0,1:2:3:4,:]", f"[{10**30},:,:]"])
def test_unusable_dims_are_value_errors(client, dims):
    assert error(client, train_id=JOB, tag=FEATURES, detail="data", step=300, dims=dims)["error_code"] == "50540002"


@pytest.mark.parametrize("missing", ["train_id", "tag"])
def test_train_id_and_tag_are_required(client, missing):
    query = {"train_id": JOB, "tag": FEATURES}
    del query[missing]
    assert error(client, **query) == {"error_code": "50540003", "error_msg": f"Param missing. '{missing}' is required."}


def test_unknown_job(client):
    assert error(client, train_id="./nope", tag=FEATURES)["error_code"] == "50545005"


# -- pure parts ------------------------------------------------------------------------------


def test_parse_dims():
    assert parse_dims("[0, 0, 1:10, :]") == (0, 0, slice(1, 10), slice(None))
    assert parse_dims(" [-1,::2] ") == (-1, slice(None, None, 2))
    assert parse_dims("[]") == ()


def test_statistics_of_floats_with_nan_and_inf():
    stats = statistics(np.array([1.0, -2.0, 0.0, np.nan, np.inf, -np.inf, np.inf], dtype=np.float32))
    assert (stats.max, stats.min, stats.avg) == (1.0, -2.0, pytest.approx(-1 / 3))
    assert (stats.count, stats.nan_count, stats.pos_inf_count, stats.neg_inf_count) == (7, 1, 2, 1)
    assert (stats.neg_count, stats.pos_count, stats.zero_count) == (1, 1, 1)
    empty = statistics(np.array([np.nan], dtype=np.float32))
    assert (empty.max, empty.min, empty.avg, empty.count, empty.nan_count) == (0.0, 0.0, 0.0, 1, 1)


def test_tensor_sample_reads_every_layout():
    values = np.arange(6, dtype=np.float32).reshape(2, 3)
    packed = tensor_sample(tensor_proto(values))
    assert packed.array().dtype == np.float32 and (packed.array() == values).all()
    for field, dtype in (("double_data", np.float64), ("int64_data", np.int64), ("int32_data", np.int32)):
        proto = anf_ir.TensorProto(dims=[2, 3], data_type=anf_ir.DT_FLOAT64)
        getattr(proto, field).extend(values.astype(dtype).ravel().tolist())
        assert (tensor_sample(proto).array() == values).all(), field
    raw = anf_ir.TensorProto(dims=[2, 3], data_type=anf_ir.DT_INT16, raw_data=values.astype("<i2").tobytes())
    assert tensor_sample(raw).array().tolist() == values.astype(int).tolist()
    # a tensor whose values do not fill its dims cannot be shaped: dropped, as the original does,
    # and said why (train-jobs' dropped_values)
    refused = tensor_sample(anf_ir.TensorProto(dims=[2, 3], float_data=[1.0]))
    assert refused == Rejected.because("values_do_not_fill_dims", count=1, dims="[2, 3]")
    assert refused.reason == "1 values for dims [2, 3]"
    empty = tensor_sample(anf_ir.TensorProto(dims=[2, 3], data_type=anf_ir.DT_FLOAT32))
    assert empty.array().size == 0


def test_bool_tensor_statistics_count_true_and_false():
    proto = tensor_proto(np.array([[True, False, True]]))
    sample = tensor_sample(proto)
    assert sample.array().dtype == np.bool_
    stats = statistics(sample.array())
    assert (stats.is_bool, stats.pos_count, stats.zero_count) == (True, 2, 1)


# -- logs of our writer ------------------------------------------------------------------------


def write_log(base, name, steps, build, tag="t", timestamp=None):
    with SummaryWriter(base / name, timestamp=timestamp) as writer:
        for step in steps:
            writer.add_tensor(tag, build(step), step, wall_time=float(step))


@pytest.fixture(scope="module")
def odd_values(tmp_path_factory):
    base = tmp_path_factory.mktemp("odd_base")
    special = np.array([[1.5, np.nan], [np.inf, -np.inf]], dtype=np.float32)
    write_log(base, "odd", [1, 2], lambda step: special if step == 2 else np.where(np.isfinite(special), step, special))
    write_log(base, "wide", [1], lambda step: np.zeros((2, 400, 300), dtype=np.float32))
    return make_app(base).test_client()


def test_nan_and_inf_become_strings_and_every_value_a_float(odd_values):
    status, body = get(odd_values, train_id="./odd", tag="t/tensor", detail="data", step=2, dims="[:,:]")
    assert status == 200
    (value,) = the_values(body)
    assert value["value"]["data"] == [[1.5, "NAN"], ["INF", "-INF"]]
    stats = value["value"]["statistics"]
    assert (stats["nan_count"], stats["pos_inf_count"], stats["neg_inf_count"]) == (1, 1, 1)
    assert (stats["max"], stats["min"], stats["count"]) == (1.5, 1.5, 4)


def test_stats_and_histogram_skip_nan_and_inf(odd_values):
    values = the_values(get(odd_values, train_id="./odd", tag="t/tensor", detail="histogram")[1])
    assert [value["step"] for value in values] == [1, 2]
    assert [value["value"]["statistics"]["count"] for value in values] == [4, 4]
    assert [value["value"]["statistics"]["max"] for value in values] == [1.0, 1.5]  # finite values only
    # one finite value per step: 2 bins over [1.0, 1.5]; step 1's value, widened by 0.5 either
    # side as the original does, spreads over both bins
    assert [[count for *_, count in value["value"]["histogram_buckets"]] for value in values][0] == [1, 1]
    json.dumps(values, allow_nan=False)


def test_a_selection_over_the_response_limit(odd_values):
    answer = error(odd_values, train_id="./wide", tag="t/tensor", detail="data", step=1, dims="[0,:,:]")
    size = 400 * 300
    assert answer == {
        "error_code": "50545013",
        "error_msg": "Response data exceed max value. Detail: the size of response data: "
        f"{size} exceed max value: {limits.MAX_TENSOR_RESPONSE_VALUES}.",
    }
    status, _ = get(odd_values, train_id="./wide", tag="t/tensor", detail="data", step=1, dims="[0,0:250,:]")
    assert status == 200 and 250 * 300 <= limits.MAX_TENSOR_RESPONSE_VALUES


def test_reservoir_keeps_twenty_steps_and_six_tags_with_the_latest(tmp_path):
    with SummaryWriter(tmp_path / "base" / "many") as writer:
        for step in range(1, 101):
            writer.add_values(step, {f"tag{n}": tensor_proto(np.full((2,), step, dtype=np.float32)) for n in range(8)})
    client = make_app(tmp_path / "base").test_client()
    manager_tags = client.get("/v1/mindinsight/datavisual/plugins?train_id=./many").get_json()["plugins"]["tensor"]
    assert len(manager_tags) == limits.MAX_TAGS_PER_PLUGIN[PluginName.TENSOR]
    values = the_values(get(client, train_id="./many", tag=manager_tags[-1], detail="stats")[1])
    steps = [value["step"] for value in values]
    assert len(steps) == limits.STEPS_PER_TAG[PluginName.TENSOR] and steps[-1] == 100
    for value in values:
        assert value["value"]["statistics"]["max"] == value["step"]


def test_restarted_training_shows_the_new_session_from_the_restart_step(tmp_path):
    base = tmp_path / "base"
    write_log(
        base, "run", range(1, 51), lambda step: np.full((2, 3), 1000 + step, dtype=np.float32), timestamp=1700000000
    )
    write_log(
        base, "run", range(41, 91), lambda step: np.full((2, 3), 2000 + step, dtype=np.float32), timestamp=1700000100
    )
    client = make_app(base).test_client()
    values = the_values(get(client, train_id="./run", tag="t/tensor", detail="stats")[1])
    steps = [value["step"] for value in values]
    assert steps == sorted(set(steps)) and steps[-1] == 90 and len(steps) == limits.STEPS_PER_TAG[PluginName.TENSOR]
    for value in values:
        session = 2000 if value["step"] >= 41 else 1000
        assert value["value"]["statistics"]["max"] == session + value["step"]
        (data,) = the_values(
            get(client, train_id="./run", tag="t/tensor", detail="data", step=value["step"], dims="[0,:]")[1]
        )
        assert data["value"]["data"] == [float(session + value["step"])] * 3


def float_tensor(values: np.ndarray):
    """A float32 TensorProto built from its wire form (field 3, packed): extending
    ``float_data`` by 10 M numpy values one at a time would take many seconds."""
    header = anf_ir.TensorProto(dims=list(values.shape), data_type=anf_ir.DT_FLOAT32).SerializeToString()
    data = values.astype("<f4").tobytes()
    length, varint = len(data), bytearray()
    while length >= 0x80:
        varint.append(length & 0x7F | 0x80)
        length >>= 7
    varint.append(length)
    return anf_ir.TensorProto.FromString(header + b"\x1a" + bytes(varint) + data)


def test_a_tensor_over_the_element_limit_keeps_its_shape_only(tmp_path):
    """A tensor of 10,000,001 values: listed with dims, null statistics, 50545016 for its values,
    and the load holds no copy of it (tracemalloc peak of loading the log, bytes)."""
    too_large = limits.MAX_TENSOR_ELEMENTS + 1
    proto = float_tensor(np.ones(too_large, dtype=np.float32))
    with SummaryWriter(tmp_path / "base" / "huge") as writer:
        writer.add_values(1, {"big": proto, "small": tensor_proto(np.ones((2, 2), dtype=np.float32))})
    del proto
    payload = too_large * 4
    tracemalloc.start()
    client = make_app(tmp_path / "base").test_client()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    manager = data_manager(client.application)
    (sample,) = manager.job_data("./huge").samples(PluginName.TENSOR, "big/tensor")["tensor"]
    assert isinstance(sample, TensorSample) and sample.too_large and sample.serialized is None
    # the record is read and parsed once; nothing of it is kept or copied again
    assert peak < 3 * payload, peak
    (value,) = the_values(get(client, train_id="./huge", tag="big/tensor", detail="stats")[1])
    assert value["value"] == {"dims": [too_large], "data_type": "DT_FLOAT32", "statistics": None}
    for detail, extra in (("data", {"step": 1, "dims": "[0:5]"}), ("histogram", {})):
        answer = error(client, train_id="./huge", tag="big/tensor", detail=detail, **extra)
        assert answer == {"error_code": "50545016", "error_msg": "Tensor is too large to show on UI. Detail: Step: 1"}
    small = the_values(get(client, train_id="./huge", tag="small/tensor", detail="stats")[1])
    assert small[0]["value"]["statistics"]["count"] == 4


def test_a_tensor_at_the_element_limit_is_read_without_a_copy(tmp_path):
    """10,000,000 float32 values (the largest kept): the load keeps one serialized copy and
    reading it is a view on those bytes."""
    shape = (10, 1000, 1000)
    assert math.prod(shape) == limits.MAX_TENSOR_ELEMENTS
    rng = np.random.default_rng(0)
    values = rng.standard_normal(shape, dtype=np.float32)
    proto = float_tensor(values)
    with SummaryWriter(tmp_path / "base" / "limit") as writer:
        writer.add_values(7, {"w": proto})
    del proto
    payload = values.nbytes
    tracemalloc.start()
    client = make_app(tmp_path / "base").test_client()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 4 * payload, peak
    (sample,) = data_manager(client.application).job_data("./limit").samples(PluginName.TENSOR, "w/tensor")["tensor"]
    array = sample.array()
    assert not array.flags.owndata and array.shape == shape  # a view on the stored bytes
    (value,) = the_values(get(client, train_id="./limit", tag="w/tensor", detail="data", step=7, dims="[3,0:50,:]")[1])
    assert value["value"]["data"] == values[3, 0:50, :].tolist()
    assert value["value"]["statistics"]["overall_count"] == limits.MAX_TENSOR_ELEMENTS
    assert value["value"]["statistics"]["overall_max"] == float(values.max())
