"""Questions asked of a built graph: one level, every leaf below a scope, the path to a node,
and the node-name search (docs/BEHAVIOUR.md §5)."""

from mindinsight.services.graph.model import GraphModel


def all_leaves(graph: GraphModel, scope: str) -> list[dict]:
    """Every non-scope node below ``scope``, depth first in listing order."""
    found = []
    pending = list(reversed(graph.children.get(scope, ())))
    while pending:
        name = pending.pop()
        if graph.nodes[name].is_scope:
            pending.extend(reversed(graph.children.get(name, ())))
        else:
            found.append(graph.node_dict(name))
    return found


def path_levels(graph: GraphModel, name: str) -> dict:
    """``{nodes, scope_name, children}``: the top level, then one level per ``/`` of ``name``."""
    answer = {"nodes": graph.level(""), "scope_name": "", "children": {}}
    current = answer["children"]
    index = name.find("/")
    while index != -1:
        scope = name[:index]
        current.update({"nodes": graph.level(scope), "scope_name": scope, "children": {}})
        current = current["children"]
        index = name.find("/", index + 1)
    return answer


def matching_names(graph: GraphModel, pattern: str) -> list[str]:
    """Names holding ``pattern`` (any case) in their last segment; nothing for ``''`` or ``/``."""
    if not pattern or pattern == "/":
        return []
    pattern = pattern.lower()
    found = []
    for lowered, name in graph.lowered_names:
        if pattern not in lowered:
            continue
        at = lowered.rfind(pattern)
        if at >= 0 and lowered.find("/", at + len(pattern)) == -1:
            found.append(name)
    return found


def name_tree(graph: GraphModel, names: list[str]) -> list[dict]:
    """The names grouped into a tree of ``{name, type, is_dynamic_shape_node, nodes}`` by scope.

    A scope found itself is shown without children (the original's tree: a name added as a
    leaf replaces what was under it), as scopes are listed after the nodes inside them."""
    roots: dict[str, dict] = {}
    for name in names:
        node = graph.nodes[name]
        level, path = roots, ""
        parts = name.split("/")
        for depth, part in enumerate(parts):
            path = f"{path}/{part}" if path else part
            last = depth == len(parts) - 1
            item = level.get(part)
            if item is None or last:
                source = node if last else graph.nodes.get(path)
                item = level[part] = {
                    "name": path,
                    "type": source.type if source is not None else None,
                    "is_dynamic_shape_node": node.is_dynamic_shape_node,
                    # a matched scope listed after its matched children replaces them, as the original's
                    "nodes": {},
                }
            level = item["nodes"]
    return _as_lists(roots)


def _as_lists(level: dict[str, dict]) -> list[dict]:
    return [dict(item, nodes=_as_lists(item["nodes"])) for item in level.values()]


def search(graph: GraphModel, pattern: str, offset: int, limit: int) -> list[dict]:
    """Page ``offset`` (of ``limit`` names) of the matching names, as a scope tree."""
    names = matching_names(graph, pattern)
    start = offset * limit
    return name_tree(graph, names[start : start + limit])
