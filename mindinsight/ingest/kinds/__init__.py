"""The registry of data kinds: one module per kind, one table everything iterates.

Each module of this package declares ``KINDS``, the kinds it holds (graphs: the graph and its
optimized view); the registry finds them, so adding a kind is adding its module. The table
follows ``conf.plugins.PluginName``, the one list of plugin names: a plugin without a kind, a
kind without a plugin or a plugin declared twice stops the import.

The event decoders find a kind by its ``Summary.Value`` field (or ``Event`` field, or for
TensorBoard files its value field, tensor plugin name or event field), the loader
by the files it reads whole, the job data sizes reservoirs and tag limits from it.
"""

import importlib
import pkgutil

from mindinsight.conf.plugins import PluginName
from mindinsight.ingest.kinds.base import Kind


def _declared_kinds() -> dict[PluginName, Kind]:
    declared: dict[PluginName, Kind] = {}
    for module_info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        for kind in getattr(module, "KINDS", ()):
            if kind.plugin in declared:
                raise ImportError(f"{kind.plugin} is declared by two kinds")
            declared[kind.plugin] = kind
    missing, unknown = set(PluginName) - set(declared), set(declared) - set(PluginName)
    if missing or unknown:
        raise ImportError(f"plugins without a kind: {missing}; kinds without a plugin: {unknown}")
    return declared


_DECLARED = _declared_kinds()
KINDS: dict[PluginName, Kind] = {plugin: _DECLARED[plugin] for plugin in PluginName}

# Summary.Value oneof field -> the kind that stores it.
BY_VALUE_FIELD: dict[str, Kind] = {kind.value_field: kind for kind in KINDS.values() if kind.value_field}
# Event oneof field -> the kind whose samples are such whole fields.
BY_EVENT_FIELD: dict[str, Kind] = {kind.events.field: kind for kind in KINDS.values() if kind.events}
# TensorBoard: Summary.Value field, and tensor plugin name -> (the kind, its decode).
_TB_KINDS = [kind for kind in KINDS.values() if kind.tensorboard]
TB_BY_VALUE_FIELD: dict[str, tuple[Kind, object]] = {
    name: (kind, decode) for kind in _TB_KINDS for name, decode in kind.tensorboard.fields.items()
}
TB_BY_TENSOR_PLUGIN: dict[str, tuple[Kind, object]] = {
    name: (kind, decode) for kind in _TB_KINDS for name, decode in kind.tensorboard.plugins.items()
}
# TensorBoard: Event field -> (the kind whose samples are such whole events, its decode).
TB_BY_EVENT_FIELD: dict[str, tuple[Kind, object]] = {
    name: (kind, decode) for kind in _TB_KINDS for name, decode in kind.tensorboard.events.items()
}
# Kinds whose samples are files of their own.
FILE_KINDS: tuple[Kind, ...] = tuple(kind for kind in KINDS.values() if kind.files)

__all__ = [
    "KINDS",
    "BY_VALUE_FIELD",
    "BY_EVENT_FIELD",
    "TB_BY_VALUE_FIELD",
    "TB_BY_TENSOR_PLUGIN",
    "TB_BY_EVENT_FIELD",
    "FILE_KINDS",
    "Kind",
]
