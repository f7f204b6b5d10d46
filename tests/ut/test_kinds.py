"""The registry of data kinds covers every plugin name, and the decoder follows it."""

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.ingest.event_decoder import decode_payloads
from mindinsight.ingest.kinds import BY_VALUE_FIELD, KINDS


def test_every_plugin_has_one_kind():
    assert set(KINDS) == set(PluginName)
    for plugin, kind in KINDS.items():
        assert kind.plugin is plugin
        assert kind.payload, plugin


def test_every_summary_value_field_has_a_kind():
    oneof = summary_pb.Summary.Value.DESCRIPTOR.oneofs_by_name["value"]
    stored = {field.name for field in oneof.fields}
    assert set(BY_VALUE_FIELD) <= stored
    assert {"scalar_value", "image", "histogram", "tensor", "loss_landscape"} <= set(BY_VALUE_FIELD)


def test_kind_limits_come_from_conf():
    assert KINDS[PluginName.SCALAR].steps_per_tag == limits.STEPS_PER_TAG[PluginName.SCALAR]
    assert KINDS[PluginName.TENSOR].max_tags == limits.MAX_TAGS_PER_PLUGIN[PluginName.TENSOR]


def test_decoder_uses_each_kind_payload_columns():
    event = summary_pb.Event(step=3, wall_time=1.5)
    event.summary.value.add(tag="loss", scalar_value=0.5)
    image = event.summary.value.add(tag="img").image
    image.width, image.height, image.encoded_image = 2, 1, b"png"
    batch = decode_payloads([event.SerializeToString()]).finish()
    for (plugin, tag), columns in batch.series.items():
        assert list(columns) == ["step", "wall_time", *KINDS[plugin].payload], tag
    assert batch.series[(PluginName.IMAGE, "img/image")]["image"][0] == b"png"


def test_histogram_over_the_bucket_limit_is_dropped():
    event = summary_pb.Event(step=1, wall_time=1.0)
    histogram = event.summary.value.add(tag="w").histogram
    for index in range(limits.MAX_HISTOGRAM_INPUT_BUCKETS + 1):
        histogram.buckets.add(left=index, width=1, count=1)
    assert decode_payloads([event.SerializeToString()]).series == {}


def _code_names(module) -> set[str]:
    """Every identifier, attribute and string constant of a module's code (docstrings aside)."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(module))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            names.add(node.value)
        elif isinstance(node, ast.alias):
            names.add(node.name)
    return names


def test_loader_and_decoder_leave_graphs_to_the_graph_kind():
    from mindinsight.ingest import event_decoder, loader

    for module in (loader, event_decoder):
        graph_names = sorted(name for name in _code_names(module) if "graph" in name.lower() or ".pb" in name)
        assert graph_names == [], module.__name__


def test_whole_event_and_file_kinds_come_from_the_registry():
    from mindinsight.ingest.kinds import BY_EVENT_FIELD, FILE_KINDS

    assert BY_EVENT_FIELD == {"graph_def": KINDS[PluginName.GRAPH]}
    assert FILE_KINDS == (KINDS[PluginName.GRAPH],)
    assert list(KINDS) == list(PluginName)
