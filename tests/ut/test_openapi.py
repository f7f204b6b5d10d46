"""The OpenAPI document: valid, generated from the declarations, and true to the server."""

import pytest
from openapi_spec_validator import validate

from mindinsight.backend.api import all_routes
from mindinsight.backend.api.routing import API_PREFIX
from mindinsight.backend.openapi import FRONT_ERRORS, STATE_CHANGE_ERRORS, build_document, operation_errors
from mindinsight.backend.view_marks import REUSABLE, mark_of
from mindinsight.errors import ParamMissError, error_code
from tests.helpers.apps import make_app

DOC_PATH = API_PREFIX + "/openapi.json"
ROUTES = all_routes()
AUTOMATIC_METHODS = {"HEAD", "OPTIONS"}  # Flask answers these for every rule on its own


def code_of(error_class) -> str:
    return error_code(error_class.module, error_class.value)


def route_id(route):
    return f"{route.method} {route.rule}"


@pytest.fixture(scope="module")
def document(loaded_app):
    response = loaded_app.test_client().get(DOC_PATH)
    assert response.status_code == 200 and response.is_json
    return response.get_json()


def operation_of(document, route) -> dict:
    return document["paths"][route.path][route.method.lower()]


def documented_codes(operation, status: int) -> set[str]:
    response = operation["responses"].get(str(status))
    if response is None:
        return set()
    return set(response["content"]["application/json"]["schema"]["allOf"][1]["properties"]["error_code"]["enum"])


def send(client, route, params):
    query = {k: v for k, v in params.items() if not (route.body and k in route.body.fields)}
    body = {k: v for k, v in params.items() if route.body and k in route.body.fields}
    return client.open(route.path, method=route.method, query_string=query, json=body if route.body else None)


def test_document_is_valid_openapi(document):
    validate(document)
    assert document["openapi"].startswith("3.")


def test_document_has_exactly_the_flask_api_rules(loaded_app, document):
    flask_rules = {
        (rule.rule, method)
        for rule in loaded_app.url_map.iter_rules()
        if rule.rule.startswith(API_PREFIX + "/")
        for method in rule.methods - AUTOMATIC_METHODS
    }
    documented = {(path, method.upper()) for path, operations in document["paths"].items() for method in operations}
    assert documented == flask_rules
    assert (DOC_PATH, "GET") in documented


def test_served_document_is_generated_from_the_declarations(document):
    assert document == build_document(all_routes())


def test_document_route_is_declared_reusable(loaded_app):
    route = next(route for route in ROUTES if route.path == DOC_PATH)
    assert route.serving == REUSABLE
    assert mark_of(loaded_app.view_functions[route.endpoint]) == REUSABLE


def test_url_path_prefix_is_the_server_url(tmp_path):
    app = make_app(tmp_path, url_path_prefix="/mi/")
    document = app.test_client().get("/mi" + DOC_PATH).get_json()
    validate(document)
    assert document["servers"] == [{"url": "/mi"}]
    assert DOC_PATH in document["paths"]


@pytest.mark.parametrize("route", ROUTES, ids=route_id)
def test_parameters_and_body_follow_the_schemas(document, route):
    operation = operation_of(document, route)
    fields = route.args.fields if route.args else {}
    parameters = {p["name"]: p for p in operation.get("parameters", [])}
    assert set(parameters) == set(fields)
    for name, field in fields.items():
        assert parameters[name]["in"] == "query"
        assert parameters[name]["required"] is field.required
        assert "type" in parameters[name]["schema"], name
    if route.body is None:
        assert "requestBody" not in operation
    else:
        ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        body = document["components"]["schemas"][ref.rsplit("/", 1)[1]]
        assert set(body["properties"]) == set(route.body.fields)
        assert set(body.get("required", [])) == {n for n, f in route.body.fields.items() if f.required}
    assert operation["summary"] and operation["operationId"]


@pytest.mark.parametrize("route", ROUTES, ids=route_id)
def test_error_responses_list_the_route_parameter_and_front_codes(document, route):
    operation = operation_of(document, route)
    statuses = [int(status) for status in operation["responses"] if status != "200"]
    listed = set().union(*(documented_codes(operation, status) for status in statuses))
    assert listed == {code_of(error) for error in operation_errors(route)}
    assert {code_of(error) for error in (*route.errors, *FRONT_ERRORS)} <= listed
    assert ({code_of(e) for e in STATE_CHANGE_ERRORS} <= listed) == route.changes_state
    required = [f for s in (route.args, route.body) if s is not None for f in s.fields.values() if f.required]
    assert (code_of(ParamMissError) in listed) == bool(required)


@pytest.mark.parametrize("route", ROUTES, ids=route_id)
def test_answer_is_a_declared_shape_or_the_media_type(document, route):
    content = operation_of(document, route)["responses"]["200"]["content"]
    assert list(content) == list(route.media_types)
    for media in route.media_types:
        schema = content[media]["schema"]
        if media == "application/json":
            shape = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
            # An answer is an object; a file that may also be JSON (an export) may be an array.
            assert shape.get("type") == "object" or "oneOf" in shape or len(route.media_types) > 1, shape
        else:  # bytes as stored (an image, an exported file)
            assert schema == {"type": "string", "format": "binary"}


def integer_parameters(document):
    for route in ROUTES:
        for parameter in operation_of(document, route).get("parameters", []):
            if parameter["schema"]["type"] == "integer":
                yield route, parameter


def test_documented_integer_bounds_are_the_server_bounds(client, document):
    checked = 0
    for route, parameter in integer_parameters(document):
        name, schema = parameter["name"], parameter["schema"]
        operation = operation_of(document, route)
        for bound, step in (("minimum", -1), ("maximum", 1)):
            if bound not in schema:
                continue
            inside = send(client, route, {**route.example, name: schema[bound]})
            assert inside.status_code == 200, (route_id(route), name, inside.get_json())
            outside = send(client, route, {**route.example, name: schema[bound] + step})
            assert outside.status_code == 400, (route_id(route), name)
            assert outside.get_json()["error_code"] in documented_codes(operation, 400)
            checked += 1
    assert checked >= 3  # train-jobs offset >= 0, 1 <= limit <= 999


def test_text_parameters_document_the_length_and_nul_the_server_refuses(client, document):
    for route in ROUTES:
        operation = operation_of(document, route)
        for parameter in operation.get("parameters", []):
            schema = parameter["schema"].get("items", parameter["schema"])
            if schema["type"] != "string":
                continue
            for bad in ("a\x00b", "x" * (schema["maxLength"] + 1)):
                response = send(client, route, {**route.example, parameter["name"]: bad})
                assert response.status_code == 400, (route_id(route), parameter["name"])
                assert response.get_json()["error_code"] in documented_codes(operation, 400)
