"""Options several routes share are declared once on a ``Topic.group`` (``backend/api/routing.py``)."""

import pytest

from mindinsight.backend.api.args import TagArgs, TrainIdArgs
from mindinsight.backend.api.routing import Topic
from mindinsight.backend.view_marks import POOLED, REUSABLE
from mindinsight.errors import GraphNotExistError, NodeNotInGraphError, TrainJobNotExistError


def _declare(group, rule, **options):
    @group.get(rule, **options)
    def view(provider, train_id):
        """One line of summary."""

    return group.topic.routes[-1]


def test_a_route_adds_to_the_groups_errors_and_example_and_replaces_its_other_options():
    topic = Topic("demo")
    group = topic.group(
        serving=POOLED, args=TrainIdArgs(), errors=(TrainJobNotExistError,), example={"train_id": "./a"}
    )

    plain = _declare(group, "/plain")
    own = _declare(group, "/own", serving=REUSABLE, args=TagArgs(), errors=(GraphNotExistError,), example={"tag": "t"})

    assert (plain.serving, type(plain.args), plain.errors, plain.example) == (
        POOLED,
        TrainIdArgs,
        (TrainJobNotExistError,),
        {"train_id": "./a"},
    )
    assert (own.serving, type(own.args), own.errors, own.example) == (
        REUSABLE,
        TagArgs,
        (TrainJobNotExistError, GraphNotExistError),
        {"train_id": "./a", "tag": "t"},
    )
    assert (own.method, own.summary, own.endpoint) == ("GET", "One line of summary.", "api.demo.view")
    assert group.shared["errors"] == (TrainJobNotExistError,) and group.shared["example"] == {"train_id": "./a"}


def test_a_group_within_a_group_adds_to_it_as_a_route_would():
    topic = Topic("demo")
    outer = topic.group(serving=POOLED, errors=(TrainJobNotExistError,), example={"train_id": "./a"})
    inner = outer.group(args=TagArgs(), errors=(NodeNotInGraphError,), example={"tag": "t"})

    route = _declare(inner, "/inner", example={"train_id": "./b"})

    assert route.serving == POOLED and isinstance(route.args, TagArgs)
    assert route.errors == (TrainJobNotExistError, NodeNotInGraphError)
    assert route.example == {"train_id": "./b", "tag": "t"}
    assert _declare(outer, "/outer").errors == (TrainJobNotExistError,)


def test_a_group_keeps_the_checks_of_a_route_declaration():
    group = Topic("demo").group(serving=POOLED)
    with pytest.raises(ValueError, match="changes_state"):
        group.post("/search")
    with pytest.raises(ValueError, match="a GET may not change state"):
        group.get("/read", changes_state=True)
