"""Every REST topic, in one list the app factory, the tests and the OpenAPI document iterate.

Each module of this package that declares a ``TOPIC`` is a topic: the list finds them, so
adding a topic is adding its module (as adding a kind is adding its ``ingest/kinds`` module).
The original's topics come first in ``ORIGINAL_ORDER``, which is the order of the paths in the
OpenAPI document (and so of ``ui/src/api/answers.d.ts``); topics added since follow, by module
name.
"""

import importlib
import pkgutil
from types import ModuleType

from mindinsight.backend.api.routing import ApiRoute, Topic, register_routes

ORIGINAL_ORDER = (
    "train_jobs",
    "scalars",
    "images",
    "histograms",
    "tensors",
    "graphs",
    "landscapes",
    "lineage",
    "profiler",
    "ui_config",
    "openapi",
)


def topic_modules(package: str, path: list[str], order: tuple[str, ...] = ()) -> list[ModuleType]:
    """The modules of ``package`` (found on ``path``) that declare a ``TOPIC``: those named in
    ``order`` first, in that order, then the others by name."""
    modules = [importlib.import_module(f"{package}.{info.name}") for info in pkgutil.iter_modules(path)]
    declaring = {
        module.__name__.rpartition(".")[2]: module
        for module in modules
        if isinstance(getattr(module, "TOPIC", None), Topic)
    }
    missing = [name for name in order if name not in declaring]
    if missing:
        raise ImportError(f"topics in the order without a module declaring TOPIC: {missing}")
    return [declaring[name] for name in (*order, *sorted(set(declaring) - set(order)))]


def _topics() -> list[Topic]:
    topics = [module.TOPIC for module in topic_modules(__name__, __path__, ORIGINAL_ORDER)]
    names = [topic.name for topic in topics]
    if len(set(names)) != len(names):
        raise ImportError(f"two topic modules declare a topic of the same name: {names}")
    return topics


TOPICS: list[Topic] = _topics()


def all_routes() -> list[ApiRoute]:
    """Every declared API route."""
    return [route for topic in TOPICS for route in topic.routes]


__all__ = ["ORIGINAL_ORDER", "TOPICS", "all_routes", "register_routes", "topic_modules"]
