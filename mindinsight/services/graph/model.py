"""A computational graph as a tree of nodes by name scope, built once from a ``GraphProto``.

Build steps (the original's, docs/BEHAVIOUR.md §5):
1. op nodes are named ``<scope>/<op_type>-op<id>`` (``full_name`` wins when set); parameters and
   consts keep their own names; inputs are resolved from ids to names with the source's output
   shapes and data type, and mirrored as outputs of op sources;
2. every parameter is copied into each scope that consumes it (``<scope>/<param>``);
3. in one scope, ``min_group`` or more nodes of one type (consts excepted) are moved under an
   ``aggregation_scope`` node ``<type>[<count>]_<n>``; parameter groups get an independent layout
   and proxy edges to their consumers (or the consumers' scopes);
4. every ``/`` prefix becomes a ``name_scope`` node holding the edges that cross its border; a leaf
   whose name equals a scope path is renamed ``(<base>)``;
5. consts are copied into each consuming scope, and each scope counts its direct children.

The readability-optimized view first drops the gradient and optimizer ops (full name starting
``Gradients`` or holding ``optimizer``, instance name holding ``opt``), removes the pass-through
ops (``Load``, ``TupleGetItem``, ``MakeTuple``, ``UpdateState``) joining their sources to their
consumers, removes ops left without edges, and lifts the ops of a scope holding only several ops
of one type named in the scope (``.../conv1-Conv2d/Conv2D-op0`` -> ``.../Conv2D-op0``).
"""

from collections import defaultdict

from google.protobuf import text_format

from mindinsight.cache.memo import Derived
from mindinsight.conf import limits
from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir

NAME_SCOPE = "name_scope"
AGGREGATION_SCOPE = "aggregation_scope"
PARAMETER = "Parameter"
CONST = "Const"
# Characters the original refuses in node names (they break the UI's SVG ids).
INVALID_NAME_CHARACTERS = frozenset('<>"')
DYNAMIC_SHAPE_ATTRS = ("input_is_dynamic_shape", "output_is_dynamic_shape")
EDGE_KINDS = ("input", "output", "proxy_input", "proxy_output")
# Float fields of the attribute and const messages (their text differs between printers).
FLOAT_FIELDS = ("float_val", "double_val", "float_data", "double_data")
PASS_THROUGH_TYPES = frozenset({"Load", "TupleGetItem", "MakeTuple", "UpdateState"})


class InvalidGraphError(ValueError):
    """The graph holds a node name the UI cannot show."""


class GraphNode:
    """One node: an op, a parameter, a const or a scope."""

    __slots__ = (
        "name",
        "type",
        "full_name",
        "attr",
        "input",
        "output",
        "proxy_input",
        "proxy_output",
        "output_i",
        "subnode_count",
        "independent_layout",
        "is_dynamic_shape_node",
        "output_shape",
        "output_data_type",
    )

    def __init__(self, name: str, node_type: str, full_name: str = ""):
        self.name, self.type, self.full_name = name, node_type, full_name
        self.attr: dict = {}
        self.input: dict = {}
        self.output: dict = {}
        self.proxy_input: dict = {}
        self.proxy_output: dict = {}
        self.output_i = 0
        self.subnode_count = 0
        self.independent_layout = False
        self.is_dynamic_shape_node = False
        self.output_shape: list = []
        self.output_data_type = ""

    @property
    def scope(self) -> str:
        return self.name.rpartition("/")[0]

    @property
    def is_scope(self) -> bool:
        return self.type in (NAME_SCOPE, AGGREGATION_SCOPE)

    def copy_as(self, name: str) -> "GraphNode":
        """A copy of this node under another name, without edges."""
        node = GraphNode(name, self.type, self.full_name)
        node.attr = dict(self.attr)
        node.output_i, node.is_dynamic_shape_node = self.output_i, self.is_dynamic_shape_node
        node.output_shape, node.output_data_type = self.output_shape, self.output_data_type
        return node

    def to_dict(self) -> dict:
        """The node as the REST API shows it."""
        return {
            "name": self.name,
            "type": self.type,
            "is_dynamic_shape_node": self.is_dynamic_shape_node,
            "attr": self.attr,
            "input": self.input,
            "output": self.output,
            "output_i": self.output_i,
            "proxy_input": self.proxy_input,
            "proxy_output": self.proxy_output,
            "subnode_count": self.subnode_count,
            "independent_layout": self.independent_layout,
            "stack_info": [],
        }


def join_name(scope: str, base: str) -> str:
    return f"{scope}/{base}" if scope else base


def check_name(name: str) -> str:
    bad = INVALID_NAME_CHARACTERS.intersection(name)
    if bad:
        raise InvalidGraphError(f"invalid characters {sorted(bad)} in graph node name {name!r}")
    return name


def _enum_name(message, field: str, value: int) -> str:
    values = message.DESCRIPTOR.fields_by_name[field].enum_type.values_by_number
    return values[value].name if value in values else str(value)


def type_shapes(type_proto) -> list[list[int]]:
    """Output shapes a ``TypeProto`` describes (one per tensor; ``[]`` for a scalar)."""
    if type_proto.HasField("data_type") and type_proto.data_type not in (anf_ir.DT_TENSOR, anf_ir.DT_TUPLE):
        return [[]]
    shapes = []
    if type_proto.HasField("tensor_type"):
        shapes.append([dim.size for dim in type_proto.tensor_type.shape.dim])
    if type_proto.HasField("sequence_type"):
        for element in type_proto.sequence_type.elem_types:
            shapes.extend(type_shapes(element))
    return shapes


def type_name(type_proto) -> str:
    """``DT_TENSOR[DT_FLOAT32]``, ``DT_TUPLE['DT_TENSOR[DT_FLOAT32]', ...]`` or a plain type name;
    ``""`` for a type that names none (a TensorBoard graph's output of unknown dtype)."""
    if not type_proto.HasField("data_type"):
        return ""
    name = _enum_name(type_proto, "data_type", type_proto.data_type)
    if type_proto.data_type == anf_ir.DT_TENSOR:
        tensor_type = type_proto.tensor_type
        return f"{name}[{_enum_name(tensor_type, 'elem_type', tensor_type.elem_type)}]"
    if type_proto.data_type == anf_ir.DT_TUPLE:
        return f"{name}{[type_name(element) for element in type_proto.sequence_type.elem_types]}"
    return name


def _as_text(message) -> str:
    """Protobuf text of ``message`` as the original shows it. The fast C printer writes floats
    as ``1`` where the original (pure-Python printer) writes ``1.0``; text holding a float
    field is printed again by the Python printer."""
    text = str(message)
    if any(field in text for field in FLOAT_FIELDS):
        return text_format.MessageToString(message)
    return text


def _is_dynamic(shapes: list) -> bool:
    return any(dim in (-1, -2) for shape in shapes for dim in shape)


class GraphModel:
    """Nodes by name, and the names of each scope's direct children (``""`` = top level)."""

    def __init__(self, nodes: dict[str, GraphNode]):
        self.nodes = nodes
        self.children: dict[str, list[str]] = defaultdict(list)
        for name, node in nodes.items():
            self.children[node.scope].append(name)
        for scope, names in self.children.items():
            if scope in nodes:
                nodes[scope].subnode_count = len(names)
        self.children = dict(self.children)
        self._dicts: dict[str, dict] = {}
        self._answers: dict[tuple[str, str], Derived] = {}
        # (lower-cased name, name) of every node, for the case-insensitive search
        self.lowered_names = [(name.lower(), name) for name in nodes]

    def node_dict(self, name: str) -> dict:
        """The API form of one node, made once."""
        found = self._dicts.get(name)
        if found is None:
            found = self._dicts[name] = self.nodes[name].to_dict()
        return found

    def level(self, scope: str) -> list[dict]:
        """The direct children of ``scope`` (``""``: the top level)."""
        return [self.node_dict(name) for name in self.children.get(scope, ())]

    def kept_answer(self, kind: str, scope: str, make) -> Derived:
        """``Derived(make())`` made once per (kind, scope): the backend then serializes it once
        (a scope's level can hold thousands of inherited edges)."""
        key = (kind, scope)
        found = self._answers.get(key)
        if found is None:
            found = self._answers[key] = Derived(make())
        return found


class _Builder:
    """Runs the build steps over one ``GraphProto``."""

    def __init__(self, proto, min_group: int, readable: bool):
        self.proto = proto
        self.min_group = min_group
        self.readable = readable
        self.nodes: dict[str, GraphNode] = {}
        self.id_to_name: dict[str, str] = {}
        self.variables: dict[str, dict[str, GraphNode]] = {PARAMETER: {}, CONST: {}}

    def build(self) -> GraphModel:
        self._parse()
        if self.readable:
            self._bypass_pass_through("input")
        self._mirror_outputs()
        if self.readable:
            self._bypass_pass_through("output")
            self._drop_pass_through_ops()
            self._drop_unconnected_ops()
            self._lift_single_type_scopes()
        self._copy_variables_into_scopes(PARAMETER)
        self._aggregate()
        self._independent_layout()
        self._rename_scope_conflicts()
        self._build_name_scopes()
        self._copy_variables_into_scopes(CONST)
        return GraphModel(self.nodes)

    # -- step 1 --------------------------------------------------------------------------
    def _parse(self) -> None:
        pending_inputs: dict[str, list[tuple[str, str]]] = {}
        for node_proto in self.proto.node:
            if not node_proto.name or (self.readable and _is_training_only(node_proto)):
                continue
            node_id = node_proto.name.rpartition("/")[2].split("op")[-1]
            name = node_proto.full_name or join_name(node_proto.scope, f"{node_proto.op_type}-op{node_id}")
            node = GraphNode(check_name(name), node_proto.op_type, node_proto.full_name)
            for attribute in node_proto.attribute:
                if attribute.value.ByteSize() > limits.MAX_GRAPH_ATTR_BYTES:
                    continue
                if attribute.name in DYNAMIC_SHAPE_ATTRS and attribute.value.bool_val:
                    node.is_dynamic_shape_node = True
                node.attr[attribute.name] = _as_text(attribute.value)
            node.output_i = node_proto.output_i
            node.output_shape = type_shapes(node_proto.output_type)
            node.output_data_type = type_name(node_proto.output_type)
            node.is_dynamic_shape_node = node.is_dynamic_shape_node or _is_dynamic(node.output_shape)
            pending_inputs[name] = [
                (item.name.split("op")[-1] if "/" in item.name else item.name, "control" if item.type else "data")
                for item in node_proto.input
                if item.name
            ]
            self._add(node, node_id)
        for parameter in self.proto.parameters:
            if not parameter.name:
                continue
            node = GraphNode(check_name(parameter.name), PARAMETER)
            node.output_shape = type_shapes(parameter.type)
            node.output_data_type = type_name(parameter.type)
            node.attr = {"type": node.output_data_type, "shape": str(node.output_shape)}
            self._add(node, parameter.name)
            self.variables[PARAMETER][node.name] = node
        for const in self.proto.const_vals:
            if not const.key:
                continue
            node = GraphNode(check_name(const.key), CONST, const.full_name)
            value = const.value
            if value.ByteSize() > limits.MAX_GRAPH_ATTR_BYTES:
                node.attr = {const.key: "dtype: " + _enum_name(value, "dtype", value.dtype)}
            else:
                node.attr = {const.key: _as_text(value)}
            # a const's edges carry its shape and no data type, as the original's
            node.output_shape = [list(value.tensor_val.dims)] if value.dtype == anf_ir.DT_TENSOR else [[]]
            self._add(node, const.key)
            self.variables[CONST][node.name] = node
        for name, inputs in pending_inputs.items():
            node = self.nodes[name]
            for source_id, edge_type in inputs:
                source = self.nodes.get(self.id_to_name.get(source_id, ""))
                if source is None:
                    continue
                edge = {
                    "shape": source.output_shape,
                    "edge_type": edge_type,
                    "independent_layout": False,
                    "data_type": source.output_data_type,
                }
                node.input[source.name] = edge
                node.is_dynamic_shape_node = node.is_dynamic_shape_node or _is_dynamic(source.output_shape)

    # -- readability-optimized view --------------------------------------------------------
    def _ops(self) -> list[GraphNode]:
        return [node for node in self.nodes.values() if node.type not in (PARAMETER, CONST)]

    def _bypass_pass_through(self, kind: str) -> None:
        """One pass in topological order, as the original: a pass-through source already holds
        its own sources; a pass-through consumer's consumers are taken as they are."""
        for node in self._ops():
            if any(self._is_pass_through(name) for name in getattr(node, kind)):
                setattr(node, kind, self._bypass(getattr(node, kind), kind))

    def _drop_pass_through_ops(self) -> None:
        for node in self._ops():
            if node.type in PASS_THROUGH_TYPES:
                del self.nodes[node.name]
        for node in self.nodes.values():  # edges to the removed ops that no bypass replaced
            for kind in ("input", "output"):
                edges = getattr(node, kind)
                if any(name not in self.nodes for name in edges):
                    setattr(node, kind, {name: edge for name, edge in edges.items() if name in self.nodes})

    def _is_pass_through(self, name: str) -> bool:
        node = self.nodes.get(name)
        return node is not None and node.type in PASS_THROUGH_TYPES

    def _bypass(self, edges: dict, kind: str) -> dict:
        """``edges`` with each pass-through neighbour replaced by its own neighbours (listed
        last, each edge with the shape and data type of that far node, as the original)."""
        kept = {name: edge for name, edge in edges.items() if not self._is_pass_through(name)}
        for name in edges:
            if not self._is_pass_through(name):
                continue
            for far_name, far_edge in getattr(self.nodes[name], kind).items():
                far = self.nodes.get(far_name)
                if far is not None:
                    kept[far_name] = dict(far_edge, shape=far.output_shape, data_type=far.output_data_type)
        return kept

    def _drop_unconnected_ops(self) -> None:
        for node in self._ops():
            if not node.input and not node.output:
                del self.nodes[node.name]

    def _lift_single_type_scopes(self) -> None:
        types: dict[str, set] = defaultdict(set)
        counts: dict[str, int] = defaultdict(int)
        for node in self._ops():
            if "/" in node.scope:
                types[node.scope].add(node.type)
                counts[node.scope] += 1
        lifted = {
            scope
            for scope, kinds in types.items()
            if len(kinds) == 1
            and counts[scope] > 1
            and next(iter(kinds)) in scope
            and not any(other.startswith(scope + "/") for other in types)
        }
        renames = {
            node.name: join_name(node.scope.rpartition("/")[0], node.name.rpartition("/")[2])
            for node in self._ops()
            if node.scope in lifted
        }
        if renames:
            self._rename(renames, move_to_end=True)

    def _mirror_outputs(self) -> None:
        """Each input edge is also an output of its source (the same edge object), unless the
        source is a parameter or a const."""
        for node in self.nodes.values():
            for source_name, edge in node.input.items():
                source = self.nodes[source_name]
                if source.type not in (PARAMETER, CONST):
                    source.output[node.name] = edge

    def _add(self, node: GraphNode, node_id: str) -> None:
        self.nodes[node.name] = node
        self.id_to_name[node_id] = node.name

    # -- steps 2 and 5 -----------------------------------------------------------------------
    def _copy_variables_into_scopes(self, kind: str) -> None:
        originals = self.variables[kind]
        copies: dict[str, GraphNode] = {}
        for node in list(self.nodes.values()):
            if node.type in (PARAMETER, CONST) or node.is_scope:
                continue
            for source_name, edge in list(node.input.items()):
                original = originals.get(source_name)
                if original is None:
                    continue
                copy_name = join_name(node.scope, source_name)
                copy = copies.get(copy_name)
                if copy is None:
                    copy = copies[copy_name] = original.copy_as(copy_name)
                copy.output[node.name] = dict(edge)
                del node.input[source_name]
                node.input[copy_name] = dict(edge)
        for name in originals:
            if name not in copies:
                self.nodes.pop(name, None)
        self.nodes.update(copies)

    # -- step 3 ----------------------------------------------------------------------------
    def _aggregate(self) -> None:
        groups: dict[tuple[str, str], list[GraphNode]] = defaultdict(list)
        for node in self.nodes.values():
            if node.type != CONST:
                groups[(node.scope, node.type)].append(node)
        renames: dict[str, str] = {}
        scopes: list[tuple[GraphNode, list[GraphNode]]] = []
        index = 0
        for (scope, node_type), members in groups.items():
            if len(members) < self.min_group:
                continue
            group = GraphNode(join_name(scope, f"{node_type}[{len(members)}]_{index}"), AGGREGATION_SCOPE)
            index += 1
            for member in members:
                renames[member.name] = join_name(group.name, member.name.rpartition("/")[2])
            scopes.append((group, members))
        if not renames:
            return
        # grouped nodes move to the end of the listing, each group's node after its members
        self._rename(renames, move_to_end=True, insert_after={members[-1].name: g for g, members in scopes})
        for group, members in scopes:
            self._inherit_edges(group, members)

    def _independent_layout(self) -> None:
        for group in [n for n in self.nodes.values() if n.type == AGGREGATION_SCOPE]:
            if PARAMETER not in group.name.rpartition("/")[2]:
                continue
            group.independent_layout = True
            for target_name, edge in group.output.items():
                proxy = {"edge_type": edge["edge_type"]}
                target = self.nodes[target_name]
                target.proxy_input[group.name] = proxy
                if target.scope == group.scope:
                    group.proxy_output[target_name] = proxy
                else:
                    group.proxy_output[target.scope] = proxy
                    if target.scope in self.nodes:
                        self.nodes[target.scope].proxy_input[group.name] = proxy
            for member in self.children_of(group.name):
                member.independent_layout = True
                for target_name, edge in member.output.items():
                    target = self.nodes[target_name]
                    proxy = {"edge_type": edge["edge_type"]}
                    member.proxy_output[target_name if target.scope == group.scope else target.scope] = proxy
                    # in place: the scopes that inherited this edge show the flag too, as the original's
                    target.input[member.name]["independent_layout"] = True

    def children_of(self, scope: str) -> list[GraphNode]:
        return [node for node in self.nodes.values() if node.scope == scope]

    # -- step 4 ----------------------------------------------------------------------------
    def _scope_paths(self) -> dict[str, str]:
        """Every ``/`` prefix of every name -> the prefix above it."""
        paths: dict[str, str] = {}
        for name in self.nodes:
            parts = name.split("/")
            for depth in range(1, len(parts)):
                paths.setdefault("/".join(parts[:depth]), "/".join(parts[: depth - 1]))
        return paths

    def _rename_scope_conflicts(self) -> None:
        paths = self._scope_paths()
        renames = {
            name: join_name(node.scope, f"({name.rpartition('/')[2]})")
            for name, node in self.nodes.items()
            if name in paths and node.type != AGGREGATION_SCOPE
        }
        if renames:
            self._rename(renames, move_to_end=True)

    def _build_name_scopes(self) -> None:
        scopes: dict[str, GraphNode] = {}
        members: dict[str, list[GraphNode]] = defaultdict(list)
        for name, node in self.nodes.items():
            parts = name.split("/")
            for depth in range(1, len(parts)):
                path = "/".join(parts[:depth])
                existing = self.nodes.get(path)
                if existing is not None and existing.type == AGGREGATION_SCOPE:
                    continue
                if path not in scopes:
                    scopes[path] = GraphNode(path, NAME_SCOPE)
                members[path].append(node)
        for path, scope in scopes.items():
            self._inherit_edges(scope, members[path])
        self.nodes.update(scopes)

    # -- helpers ---------------------------------------------------------------------------
    def _inherit_edges(self, parent: GraphNode, members: list[GraphNode]) -> None:
        """Give ``parent`` the edges of ``members`` that leave it (not those from consts)."""
        inside = parent.name + "/"
        for kind in EDGE_KINDS:
            target_edges = getattr(parent, kind)
            for member in members:
                for target_name, edge in getattr(member, kind).items():
                    if target_name.startswith(inside):
                        continue
                    target = self.nodes.get(target_name)
                    if target is not None and target.type == CONST:
                        continue
                    target_edges[target_name] = edge

    def _rename(self, renames: dict[str, str], move_to_end: bool = False, insert_after: dict | None = None) -> None:
        """Rename nodes, and every edge pointing at them. ``move_to_end``: renamed nodes are
        listed last, in ``renames`` order (the original re-inserts each renamed node), each
        followed by its ``insert_after`` node if any."""
        insert_after = insert_after or {}
        old_nodes = self.nodes
        for node in old_nodes.values():
            for kind in EDGE_KINDS:
                edges = getattr(node, kind)
                if any(target in renames for target in edges):
                    setattr(node, kind, {renames.get(target, target): edge for target, edge in edges.items()})
        renamed: dict[str, GraphNode] = {}
        for name, node in old_nodes.items():
            if move_to_end and name in renames:
                continue
            node.name = renames.get(name, name)
            renamed[node.name] = node
        if move_to_end:
            for old_name, new_name in renames.items():
                node = old_nodes[old_name]
                node.name = new_name
                renamed[new_name] = node
                follower = insert_after.get(old_name)
                if follower is not None:
                    renamed[follower.name] = follower
        self.nodes = renamed
        for kind in (PARAMETER, CONST):
            self.variables[kind] = {renames.get(n, n): v for n, v in self.variables[kind].items()}


def _is_training_only(node_proto) -> bool:
    full_name = node_proto.full_name
    return full_name.startswith("Gradients") or "optimizer" in full_name or "opt" in node_proto.instance_name


def build_graph(proto, readable: bool = False) -> GraphModel:
    """The node tree of one ``GraphProto`` (``readable``: the readability-optimized view);
    raises ``InvalidGraphError`` for unusable names."""
    min_group = limits.MIN_OPTIMIZED_GRAPH_GROUP_NODES if readable else limits.MIN_GRAPH_GROUP_NODES
    return _Builder(proto, min_group, readable).build()
