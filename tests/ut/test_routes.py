"""Walk every declared API route: shapes of answers and errors, serving marks and the README stay in step."""

import json
from pathlib import Path

import pytest
from openapi_schema_validator import OAS30Validator

from mindinsight.backend.api import all_routes
from mindinsight.backend.api.routing import API_PREFIX, JSON
from mindinsight.backend.view_marks import MARKS, mark_of
from mindinsight.errors import (
    ParamMissError,
    ParamTypeError,
    ParamValueError,
    QueryStringContainsNullByteError,
    TrainJobNotExistError,
    error_code,
)

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()
ROUTES = all_routes()
UNKNOWN_JOB = "./no_such_job"
JSON_ROUTES = [route for route in ROUTES if route.media_type == JSON]
JOB_ROUTES = [route for route in ROUTES if {"train_id", "train_ids"} & set(route.example)]


def code_of(error_class) -> str:
    return error_code(error_class.module, error_class.value)


PARAM_CODES = {
    code_of(error) for error in (ParamValueError, ParamTypeError, ParamMissError, QueryStringContainsNullByteError)
}


def route_id(route):
    return f"{route.method} {route.rule}"


def send(client, route, params):
    if route.method == "GET":
        return client.get(route.path, query_string=params)
    query = {k: v for k, v in params.items() if route.args and k in route.args.fields}
    body = {k: v for k, v in params.items() if route.body and k in route.body.fields}
    return client.open(route.path, method=route.method, query_string=query, json=body)


def documented_codes(route) -> set[str]:
    return PARAM_CODES | {code_of(error) for error in route.errors}


def assert_json_error(response, codes):
    assert 400 <= response.status_code < 500, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) == {"error_code", "error_msg"} and body["error_msg"]
    assert body["error_code"] in codes


def test_routes_are_declared_once_and_registered(loaded_app):
    keys = [(route.method, route.rule) for route in ROUTES]
    assert len(keys) == len(set(keys))
    rules = {(rule.rule, method) for rule in loaded_app.url_map.iter_rules() for method in rule.methods}
    for route in ROUTES:
        assert (route.path, route.method) in rules, route_id(route)


@pytest.mark.parametrize("route", ROUTES, ids=route_id)
def test_route_carries_a_serving_mark(loaded_app, route):
    assert mark_of(loaded_app.view_functions[route.endpoint]) in MARKS


@pytest.mark.parametrize("route", ROUTES, ids=route_id)
def test_readme_lists_the_route(route):
    assert route.rule.lstrip("/") in README, f"README does not list {route_id(route)}"


@pytest.mark.parametrize("route", ROUTES, ids=route_id)
def test_example_answers_200(client, route):
    response = send(client, route, route.example)
    assert response.status_code == 200, response.get_data(as_text=True)
    if route.media_type == "application/json":
        assert response.is_json
    else:  # e.g. image/*: the declared family
        families = {media.split("/")[0] for media in route.media_types}
        assert response.mimetype.split("/")[0] in families, response.mimetype


@pytest.fixture(scope="module")
def document(loaded_app):
    return loaded_app.test_client().get(API_PREFIX + "/openapi.json").get_json()


def declared_answer(document, route) -> OAS30Validator:
    """A validator of the 200 answer the served document declares for ``route``."""
    schema = document["paths"][route.path][route.method.lower()]["responses"]["200"]["content"][JSON]["schema"]
    return OAS30Validator({**schema, "components": document["components"]})


@pytest.mark.parametrize("route", JSON_ROUTES, ids=route_id)
def test_json_route_declares_its_answer_shape(route):
    assert route.answer is not None, f"{route_id(route)} declares no answer shape"


@pytest.mark.parametrize("route", JSON_ROUTES, ids=route_id)
def test_example_answer_has_the_declared_shape(client, document, route):
    response = send(client, route, route.example)
    assert response.status_code == 200, response.get_data(as_text=True)
    answer = json.loads(response.get_data())
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in declared_answer(document, route).iter_errors(answer)
    ]
    assert not errors, errors[:5]


def test_answer_shapes_refuse_what_they_do_not_declare(document):
    """The check above can fail: a missing key, an undeclared key and a wrong type are refused."""
    route = next(route for route in ROUTES if route.rule == "/datavisual/scalar/metadata")
    validator = declared_answer(document, route)
    point = {"wall_time": 1.5, "step": 1, "value": 0.25}
    assert validator.is_valid({"metadatas": [point]})
    assert validator.is_valid({"metadatas": [{**point, "value": None, "non_finite": "NaN"}]})
    assert not validator.is_valid({})
    assert not validator.is_valid({"metadatas": [{**point, "extra": 1}]})
    assert not validator.is_valid({"metadatas": [{**point, "step": "1"}]})
    assert not validator.is_valid({"metadatas": [{"wall_time": 1.5, "step": 1}]})


def takes_train_ids(route) -> bool:
    names = {*(route.args.fields if route.args else {}), *(route.body.fields if route.body else {})}
    return bool({"train_id", "train_ids"} & names)


@pytest.mark.parametrize("route", ROUTES, ids=route_id)
def test_example_names_a_train_job_when_the_route_takes_one(route):
    # Otherwise the unknown-train-id walk below would silently leave the route out.
    assert (route in JOB_ROUTES) == takes_train_ids(route)


@pytest.mark.parametrize("route", JOB_ROUTES, ids=route_id)
def test_unknown_train_id(client, route):
    params = dict(route.example)
    for name in ("train_id", "train_ids"):
        if name in params:
            params[name] = [UNKNOWN_JOB] if isinstance(params[name], list) else UNKNOWN_JOB
    response = send(client, route, params)
    if TrainJobNotExistError in route.errors:
        assert_json_error(response, {code_of(TrainJobNotExistError)})
    else:  # routes over several jobs leave unknown ones out, as the original does
        assert response.status_code == 200


@pytest.mark.parametrize("route", ROUTES, ids=route_id)
def test_missing_required_parameter(client, route):
    required = [
        name
        for schema in (route.args, route.body)
        if schema is not None
        for name, field in schema.fields.items()
        if field.required
    ]
    for name in required:
        params = {k: v for k, v in route.example.items() if k != name}
        response = send(client, route, params)
        assert_json_error(response, {code_of(ParamMissError)})
        assert name in response.get_json()["error_msg"]


@pytest.mark.parametrize("route", ROUTES, ids=route_id)
def test_bad_values_answer_documented_codes(client, route):
    for name in [*(route.args.fields if route.args else {}), *(route.body.fields if route.body else {})]:
        for bad in ("\x00", "x" * 5000, [1, 2]):
            params = {**route.example, name: bad}
            response = send(client, route, params)
            if response.status_code != 200:
                assert_json_error(response, documented_codes(route))


def test_compact_scalars_answer_has_the_declared_shape(client, document):
    """``compact=true`` answers columns, which the declared shape of datavisual/scalars holds."""
    route = next(route for route in ROUTES if route.rule == "/datavisual/scalars")
    query = "train_id=./b_summary_ops&tag=nan_inf_scalar/scalar&compact=true"
    answer = client.get(f"{API_PREFIX}/datavisual/scalars?{query}").get_json()
    assert answer["scalars"][0]["non_finite"]
    validator = declared_answer(document, route)
    assert not list(validator.iter_errors(answer))
    assert not validator.is_valid({"scalars": [{**answer["scalars"][0], "steps": ["1"]}]})
