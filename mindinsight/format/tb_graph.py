"""A TensorBoard ``GraphDef`` (``proto/tensorboard_graph.proto``) as MindSpore's ``GraphProto``.

The graph page and its REST answers are built from MindSpore's graph (``anf_ir.GraphProto``);
a TensorFlow or PyTorch graph maps onto it node for node:

* a ``NodeDef`` becomes an op node named as written (``full_name``), its name scopes the ``/``
  prefixes of the name, its type the ``op``;
* ``input`` names its sources: ``^node`` is a control edge, ``node:1`` an edge from output 1 (the
  page draws one edge per pair of nodes); inputs naming no node of the graph are left out;
* ``_output_shapes`` and the ``T`` / ``dtype`` attribute give the output's shape and type;
* the other attributes are shown as text: strings, numbers, booleans, types, shapes, lists.

Not mapped: function libraries (``FunctionDef`` bodies), devices and tensor attribute values
(shown by dtype and shape only).
"""

from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir
from mindinsight.format.proto import tensorboard_event_pb2 as tb_pb
from mindinsight.format.proto import tensorboard_graph_pb2 as graph_pb

# TensorFlow dtype -> MindSpore's
_DTYPES = {
    tb_pb.DT_FLOAT: anf_ir.DT_FLOAT32,
    tb_pb.DT_DOUBLE: anf_ir.DT_FLOAT64,
    tb_pb.DT_HALF: anf_ir.DT_FLOAT16,
    tb_pb.DT_INT8: anf_ir.DT_INT8,
    tb_pb.DT_INT16: anf_ir.DT_INT16,
    tb_pb.DT_INT32: anf_ir.DT_INT32,
    tb_pb.DT_INT64: anf_ir.DT_INT64,
    tb_pb.DT_UINT8: anf_ir.DT_UINT8,
    tb_pb.DT_UINT16: anf_ir.DT_UINT16,
    tb_pb.DT_UINT32: anf_ir.DT_UINT32,
    tb_pb.DT_UINT64: anf_ir.DT_UINT64,
    tb_pb.DT_BOOL: anf_ir.DT_BOOL,
    tb_pb.DT_STRING: anf_ir.DT_STRING,
}
OUTPUT_SHAPES_ATTR = "_output_shapes"
DTYPE_ATTRS = ("T", "dtype")


def parse_graph_def(payload: bytes) -> graph_pb.GraphDef:
    """The ``GraphDef`` of an ``Event.graph_def``; raises protobuf's ``DecodeError``."""
    return graph_pb.GraphDef.FromString(payload)


def source_of(input_name: str) -> tuple[str, bool]:
    """The node an ``input`` entry names and whether it is a control input:
    ``^a/b`` -> (``a/b``, True), ``a/b:1`` -> (``a/b``, False)."""
    control = input_name.startswith("^")
    name = input_name[1:] if control else input_name
    base, colon, output = name.rpartition(":")
    if colon and output.isdigit():
        name = base
    return name, control


def _shape(shape) -> list[int]:
    return [] if shape.unknown_rank else [dim.size for dim in shape.dim]


def _dtype_name(dtype: int) -> str:
    values = tb_pb.DataType.DESCRIPTOR.values_by_number
    return values[dtype].name if dtype in values else str(dtype)


def _attr_value(value) -> anf_ir.ValueProto | None:
    """One attribute as MindSpore's ``ValueProto``; None for what is not shown."""
    which = value.WhichOneof("value")
    if which == "s":
        return anf_ir.ValueProto(str_val=value.s.decode("utf-8", errors="replace"))
    if which == "i":
        return anf_ir.ValueProto(int_val=value.i)
    if which == "f":
        return anf_ir.ValueProto(float_val=value.f)
    if which == "b":
        return anf_ir.ValueProto(bool_val=value.b)
    if which == "type":
        return anf_ir.ValueProto(str_val=_dtype_name(value.type))
    if which == "shape":
        return anf_ir.ValueProto(str_val=str(_shape(value.shape)))
    if which == "tensor":
        tensor = value.tensor
        return anf_ir.ValueProto(
            dtype=anf_ir.DT_STRING, str_val=f"{_dtype_name(tensor.dtype)} {_shape(tensor.tensor_shape)}"
        )
    if which == "list":
        items = value.list
        listed = (
            [item.decode("utf-8", errors="replace") for item in items.s]
            + list(items.i)
            + list(items.f)
            + list(items.b)
            + [_dtype_name(item) for item in items.type]
            + [_shape(item) for item in items.shape]
        )
        return anf_ir.ValueProto(str_val=str(listed))
    return None


def _output_type(node) -> anf_ir.TypeProto:
    dtype = next((node.attr[name].type for name in DTYPE_ATTRS if name in node.attr), tb_pb.DT_INVALID)
    elem_type = _DTYPES.get(dtype, anf_ir.DT_UNDEFINED)
    shapes = (
        [_shape(shape) for shape in node.attr[OUTPUT_SHAPES_ATTR].list.shape] if OUTPUT_SHAPES_ATTR in node.attr else []
    )
    if not shapes and elem_type == anf_ir.DT_UNDEFINED:
        return anf_ir.TypeProto()  # nothing known of the output
    # An unknown dtype (PyTorch's graphs give none) leaves data_type unset: the answers then
    # name no type rather than DT_TENSOR[DT_UNDEFINED].
    tensors = [
        anf_ir.TypeProto(
            data_type=anf_ir.DT_TENSOR if elem_type != anf_ir.DT_UNDEFINED else None,
            tensor_type=anf_ir.TypeProto.Tensor(
                elem_type=elem_type,
                shape=anf_ir.TensorShapeProto(dim=[anf_ir.TensorShapeProto.Dimension(size=size) for size in shape]),
            ),
        )
        for shape in shapes or [[]]
    ]
    if len(tensors) == 1:
        return tensors[0]
    return anf_ir.TypeProto(data_type=anf_ir.DT_TUPLE, sequence_type=anf_ir.TypeProto.Sequence(elem_types=tensors))


def to_graph_proto(graph_def: graph_pb.GraphDef) -> anf_ir.GraphProto:
    """``graph_def`` as MindSpore's graph: nodes keyed by their index, named by ``full_name``."""
    ids = {node.name: str(index) for index, node in enumerate(graph_def.node) if node.name}
    graph = anf_ir.GraphProto()
    for node in graph_def.node:
        if not node.name:
            continue
        proto = graph.node.add(
            name=ids[node.name], full_name=node.name, op_type=node.op, scope=node.name.rpartition("/")[0]
        )
        for input_name in node.input:
            source, control = source_of(input_name)
            if source in ids and source != node.name:
                edge_type = anf_ir.InputProto.CONTROL_EDGE if control else anf_ir.InputProto.DATA_EDGE
                proto.input.add(name=ids[source], type=edge_type)
        for name in sorted(node.attr):
            if name == OUTPUT_SHAPES_ATTR:
                continue
            value = _attr_value(node.attr[name])
            if value is not None:
                proto.attribute.add(name=name, value=value)
        proto.output_type.CopyFrom(_output_type(node))
    return graph
