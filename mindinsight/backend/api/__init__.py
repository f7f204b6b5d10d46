"""Every REST topic, in one list the app factory, the tests and the OpenAPI document iterate."""

from mindinsight.backend.api import (
    graphs,
    histograms,
    images,
    landscapes,
    lineage,
    openapi,
    profiler,
    scalars,
    tensors,
    train_jobs,
    ui_config,
)
from mindinsight.backend.api.routing import ApiRoute, Topic, register_routes

TOPICS: list[Topic] = [
    m.TOPIC
    for m in (
        train_jobs,
        scalars,
        images,
        histograms,
        tensors,
        graphs,
        landscapes,
        lineage,
        profiler,
        ui_config,
        openapi,
    )
]


def all_routes() -> list[ApiRoute]:
    """Every declared API route."""
    return [route for topic in TOPICS for route in topic.routes]


__all__ = ["TOPICS", "all_routes", "register_routes"]
