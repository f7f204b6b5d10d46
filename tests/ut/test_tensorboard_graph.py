"""A TensorBoard ``GraphDef`` as MindSpore's graph (``format/tb_graph.py``): TensorFlow's input
names (control ``^``, output ``:N``), dtypes, output shapes and attributes, and the node tree the
graph answers are built from (``services/graph/model.py``)."""

import pytest
from tensorboardX import SummaryWriter
from tensorboardX.proto import event_pb2

from mindinsight.backend.api.routing import API_PREFIX
from mindinsight.format import tb_graph
from mindinsight.format.proto import tensorboard_event_pb2 as tb_pb
from mindinsight.format.proto import tensorboard_graph_pb2 as graph_pb
from mindinsight.services.graph.model import build_graph
from tests.helpers.apps import make_app


def shapes(*dims_list) -> graph_pb.AttrValue:
    return graph_pb.AttrValue(
        list=graph_pb.AttrValue.ListValue(
            shape=[
                tb_pb.TensorShapeProto(dim=[tb_pb.TensorShapeProto.Dim(size=size) for size in dims])
                for dims in dims_list
            ]
        )
    )


def tf_graph() -> graph_pb.GraphDef:
    """A TF1 layer: a placeholder, a variable read, a matmul, a split, an init op run after it."""
    float_type = graph_pb.AttrValue(type=tb_pb.DT_FLOAT)
    return graph_pb.GraphDef(
        node=[
            graph_pb.NodeDef(name="x", op="Placeholder", attr={"dtype": float_type, "_output_shapes": shapes([-1, 4])}),
            graph_pb.NodeDef(
                name="dense/kernel/read",
                op="Identity",
                attr={"T": float_type, "_output_shapes": shapes([4, 2])},
            ),
            graph_pb.NodeDef(
                name="dense/MatMul",
                op="MatMul",
                input=["x", "dense/kernel/read"],
                attr={
                    "T": float_type,
                    "transpose_a": graph_pb.AttrValue(b=False),
                    "_output_shapes": shapes([-1, 2]),
                },
            ),
            graph_pb.NodeDef(
                name="split",
                op="Split",
                input=["dense/MatMul"],
                attr={"num_split": graph_pb.AttrValue(i=2), "_output_shapes": shapes([-1, 1], [-1, 1])},
            ),
            graph_pb.NodeDef(name="out", op="Identity", input=["split:1", "^init", "missing"], attr={"T": float_type}),
            graph_pb.NodeDef(name="init", op="NoOp"),
        ]
    )


@pytest.mark.parametrize(
    ("written", "source"),
    [("a/b", ("a/b", False)), ("a/b:1", ("a/b", False)), ("^a/b", ("a/b", True)), ("a:b", ("a:b", False))],
)
def test_input_names_give_the_source_node(written, source):
    assert tb_graph.source_of(written) == source


def test_a_graph_def_maps_node_for_node():
    graph = build_graph(tb_graph.to_graph_proto(tf_graph()))
    top = {node["name"]: node for node in graph.level("")}
    assert {"x", "dense", "split", "out", "init"} <= set(top)
    assert top["dense"]["type"] == "name_scope"

    matmul = graph.node_dict("dense/MatMul")
    assert matmul["type"] == "MatMul"
    assert matmul["input"]["x"] == {
        "shape": [[-1, 4]],
        "edge_type": "data",
        "independent_layout": False,
        "data_type": "DT_TENSOR[DT_FLOAT32]",
    }
    assert matmul["input"]["dense/kernel/read"]["shape"] == [[4, 2]]
    assert "transpose_a" in matmul["attr"] and "false" in matmul["attr"]["transpose_a"]
    assert matmul["is_dynamic_shape_node"] is True  # a -1 dimension

    out = graph.node_dict("out")
    assert out["input"]["split"]["edge_type"] == "data"
    assert out["input"]["split"]["shape"] == [[-1, 1], [-1, 1]]  # both outputs of the split
    assert out["input"]["init"]["edge_type"] == "control"
    assert "missing" not in out["input"]  # an input naming no node of the graph
    assert "num_split" in graph.node_dict("split")["attr"]
    assert graph.node_dict("x")["attr"]["dtype"] == 'str_val: "DT_FLOAT"\n'


def test_an_output_of_unknown_dtype_names_no_type():
    graph_def = graph_pb.GraphDef(
        node=[
            graph_pb.NodeDef(name="input/x", op="IO Node", attr={"_output_shapes": shapes([1, 4])}),
            graph_pb.NodeDef(name="Net/linear", op="aten::linear", input=["input/x"]),
        ]
    )
    edge = build_graph(tb_graph.to_graph_proto(graph_def)).node_dict("Net/linear")["input"]["input/x"]
    assert edge["shape"] == [[1, 4]] and edge["data_type"] == ""


def test_an_undecodable_graph_def_is_dropped_and_the_rest_is_read(tmp_path):
    with SummaryWriter(str(tmp_path / "base" / "run")) as writer:
        writer._get_file_writer().add_event(event_pb2.Event(step=0, graph_def=b"\x0a\xff\xff\xff"))
        writer.add_scalar("loss", 1.0, 0)
    client = make_app(tmp_path / "base").test_client()
    plugins = client.get(API_PREFIX + "/datavisual/plugins", query_string={"train_id": "./run"}).get_json()
    assert plugins["plugins"]["graph"] == [] and plugins["plugins"]["scalar"] == ["loss"]
    nodes = client.get(API_PREFIX + "/datavisual/graphs/nodes", query_string={"train_id": "./run"})
    assert nodes.status_code == 400 and nodes.get_json()["error_code"] == "5054500C"  # GraphNotExistError
