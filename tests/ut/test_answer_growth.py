"""Answers that grow with their query never run on the event loop; JSON bodies nest boundedly."""

import json

import pytest
from marshmallow import Schema

from mindinsight.backend.api import all_routes
from mindinsight.backend.api.routing import Topic
from mindinsight.backend.params import IntParam, TextList, parse_json_body
from mindinsight.backend.view_marks import IN_MEMORY, ON_LOOP_MARKS, REUSABLE, REUSABLE_POOLED
from mindinsight.conf.limits import MAX_JSON_BODY_DEPTH
from mindinsight.errors import ParamValueError
from tests.ut.test_serving import API, request, served  # noqa: F401, F811  (a fixture)


class Repeated(Schema):
    train_id = TextList()


class Paged(Schema):
    limit = IntParam(minimum=1, maximum=999, sizes_answer=True)


@pytest.mark.parametrize("mark", [IN_MEMORY, REUSABLE])
@pytest.mark.parametrize("args", [Repeated(), Paged()])
def test_a_route_whose_answer_grows_cannot_run_on_the_loop(mark, args):
    with pytest.raises(ValueError, match="grows with"):
        Topic("t").get("/grows", serving=mark, args=args)
    Topic("t").get("/grows", serving=REUSABLE_POOLED, args=args)  # allowed


def test_no_declared_route_that_grows_with_its_query_runs_on_the_loop():
    for route in all_routes():
        fields = route.args.fields.items() if route.args else ()
        sizing = [name for name, arg in fields if getattr(arg, "sizes_answer", False)]
        if sizing:
            assert route.serving not in ON_LOOP_MARKS, route.path
    assert {route.rule: route.serving for route in all_routes()}["/datavisual/scalars"] == REUSABLE_POOLED


def test_a_pooled_reusable_answer_is_kept_and_served_again(served):  # noqa: F811
    query = b"train_id=./job&train_id=./job&tag=loss/scalar"
    first = request(served, API + "/scalars", query)
    calls = served.counter.calls
    again = request(served, API + "/scalars", query)
    assert first[0] == again[0] == 200 and first[2] == again[2]
    assert served.counter.calls == calls
    assert len(json.loads(first[2])["scalars"]) == 1  # the repeated train_id counted once


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def test_json_bodies_nest_at_most_the_limit():
    assert parse_json_body(nested(MAX_JSON_BODY_DEPTH)) is not None
    for depth in (MAX_JSON_BODY_DEPTH + 1, 100_000):
        with pytest.raises(ParamValueError, match="nests deeper"):
            parse_json_body(nested(depth))
