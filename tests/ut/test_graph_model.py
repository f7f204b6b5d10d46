"""The graph model on small GraphProtos made here, for cases the fixture graphs lack: dynamic
shapes, oversized attributes, names the UI cannot show, a leaf named like a scope, and the
original's parameter copies per consuming scope."""

import pytest

from mindinsight.conf.limits import MAX_GRAPH_ATTR_BYTES
from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir
from mindinsight.services.graph import queries
from mindinsight.services.graph.model import InvalidGraphError, build_graph


def tensor_type(*dims: int) -> anf_ir.TypeProto:
    kind = anf_ir.TypeProto(data_type=anf_ir.DT_TENSOR)
    kind.tensor_type.elem_type = anf_ir.DT_FLOAT32
    for size in dims:
        kind.tensor_type.shape.dim.add(size=size)
    return kind


def graph(*ops, parameters=()) -> anf_ir.GraphProto:
    """``ops``: (id, op_type, scope, [input ids], output dims)."""
    proto = anf_ir.GraphProto()
    for node_id, op_type, scope, inputs, dims in ops:
        node = proto.node.add(name=node_id, op_type=op_type, scope=scope)
        node.output_type.CopyFrom(tensor_type(*dims))
        for source in inputs:
            node.input.add(name=source, type=anf_ir.InputProto.DATA_EDGE)
    for name in parameters:
        proto.parameters.add(name=name).type.CopyFrom(tensor_type(3, 3))
    return proto


def test_dynamic_shapes_mark_the_node_and_its_consumers():
    model = build_graph(graph(("1", "Shape", "Default", [], (-1, 4)), ("2", "ReLU", "Default", ["1"], (2, 4))))
    assert model.nodes["Default/Shape-op1"].is_dynamic_shape_node
    assert model.nodes["Default/ReLU-op2"].is_dynamic_shape_node  # an input shape holds -1
    edge = model.nodes["Default/ReLU-op2"].input["Default/Shape-op1"]
    assert edge == {"shape": [[-1, 4]], "edge_type": "data", "independent_layout": False,
                    "data_type": "DT_TENSOR[DT_FLOAT32]"}  # fmt: skip


def test_oversized_attributes_are_left_out():
    proto = graph(("1", "Conv2D", "Default", [], (1,)))
    proto.node[0].attribute.add(name="small").value.CopyFrom(anf_ir.ValueProto(dtype=anf_ir.DT_STRING, str_val="x"))
    big = "y" * (MAX_GRAPH_ATTR_BYTES + 1)
    proto.node[0].attribute.add(name="big").value.CopyFrom(anf_ir.ValueProto(dtype=anf_ir.DT_STRING, str_val=big))
    scale = anf_ir.ValueProto(dtype=anf_ir.DT_FLOAT32, float_val=1.0)
    proto.node[0].attribute.add(name="scale").value.CopyFrom(scale)
    attr = build_graph(proto).nodes["Default/Conv2D-op1"].attr
    # floats as the original prints them (1.0, not 1)
    assert attr == {"small": 'dtype: DT_STRING\nstr_val: "x"\n', "scale": "dtype: DT_FLOAT32\nfloat_val: 1.0\n"}


@pytest.mark.parametrize("bad", ["<", ">", '"'])
def test_names_the_ui_cannot_show_refuse_the_graph(bad):
    with pytest.raises(InvalidGraphError):
        build_graph(graph(("1", "ReLU", f"Default/a{bad}b", [], (1,))))


def test_a_leaf_named_like_a_scope_is_renamed_in_parentheses():
    proto = graph(("1", "ReLU", "Default", [], (1,)), ("2", "ReLU", "Default/ReLU-op1", ["1"], (1,)))
    model = build_graph(proto)
    assert model.nodes["Default/(ReLU-op1)"].type == "ReLU"
    assert model.nodes["Default/ReLU-op1"].type == "name_scope"
    assert "Default/(ReLU-op1)" in model.nodes["Default/ReLU-op1/ReLU-op2"].input


def test_parameters_are_copied_into_each_consuming_scope_and_grouped():
    ops = [("1", "MatMul", "Default/a", ["w"], (3,)), ("2", "MatMul", "Default/b", ["w", "1"], (3,))]
    model = build_graph(graph(*ops, parameters=["w", "unused"]))
    assert {"Default/a/w", "Default/b/w"} <= set(model.nodes)
    assert "w" not in model.nodes and "unused" not in model.nodes
    assert model.nodes["Default/a/w"].output == {
        "Default/a/MatMul-op1": model.nodes["Default/a/MatMul-op1"].input["Default/a/w"]
    }
    five = [(str(i), "Add", "Default", [f"p{i}"], (1,)) for i in range(5)]
    grouped = build_graph(graph(*five, parameters=[f"p{i}" for i in range(5)]))
    names = [n for n in grouped.children["Default"]]
    assert names == ["Default/Add[5]_0", "Default/Parameter[5]_1"]
    group = grouped.nodes["Default/Parameter[5]_1"]
    assert group.independent_layout and group.subnode_count == 5
    assert set(group.proxy_output) == {"Default/Add[5]_0"}
    # any case, within the last name segment ("op3" holds "p3" too)
    assert queries.matching_names(grouped, "P3") == ["Default/Add[5]_0/Add-op3", "Default/Parameter[5]_1/p3"]
    assert queries.matching_names(grouped, "Parameter[5]") == ["Default/Parameter[5]_1"]
