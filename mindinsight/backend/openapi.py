"""The OpenAPI 3 document of the REST API, generated from the route declarations.

Nothing here is written per route: every ``ApiRoute`` (``backend/api``) gives its path,
method, summary, query parameters (its ``args`` schema), JSON body (its ``body`` schema) and
the errors a caller can cause (its ``errors`` plus what its parameter fields raise, see the
field classes of ``backend/params.py``). apispec's marshmallow plugin turns the schemas into
parameters and bodies; ``_param_field_properties`` tells it the OpenAPI type of our own
field classes. Each error response lists the exact ``error_code`` values it may carry. A
route's ``answer`` shape becomes the component ``<View>Answer`` (or its own name when it is a
``Named`` shape), with every named shape inside it; a route without one (an image) answers
its media type.
"""

from collections import defaultdict

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import EXCLUDE, Schema

import mindinsight
from mindinsight.backend.api.shapes import Named, named_shapes
from mindinsight.backend.params import BoolText, IntParam, StringList, Text, TextList
from mindinsight.conf.limits import MAX_PARAM_LENGTH, MAX_REQUEST_BODY_BYTES, MAX_URL_LENGTH
from mindinsight.errors import (
    AccessTokenError,
    CrossOriginRequestError,
    HostNotAllowedError,
    MethodNotAllowedError,
    ParamMissError,
    RequestBodyTooLargeError,
    RouteNotFoundError,
    UrlTooLongError,
    error_code,
)

OPENAPI_VERSION = "3.0.3"
ERROR_SCHEMA = "Error"
_STATUS_TEXT = {
    400: "Bad request",
    401: "Access token missing or wrong (only when the server runs with one)",
    403: "Refused: a host the server does not answer to, or a state change from another site's page",
    404: "Not found",
    405: "Method not allowed",
    413: f"Request body longer than {MAX_REQUEST_BODY_BYTES} bytes",
    414: f"Path and query string longer than {MAX_URL_LENGTH} bytes",
}
# Answered by the serving front (serving.py, access.py) before any route runs.
FRONT_ERRORS = (AccessTokenError, HostNotAllowedError, UrlTooLongError)
STATE_CHANGE_ERRORS = (CrossOriginRequestError,)  # routes declared with changes_state
BODY_ERRORS = (RequestBodyTooLargeError,)  # routes that take a body
TOKEN_SCHEME = "accessToken"


# Text parameters refuse NUL characters (50545011 in a query, 50540002 in a body).
_NO_NUL = "^[^\\u0000]*$"
_TEXT = {"type": "string", "maxLength": MAX_PARAM_LENGTH, "pattern": _NO_NUL}


def _text_schema(field) -> dict:
    # A required value that is empty counts as missing (50540003), so it needs one character.
    return {**_TEXT, "minLength": 1} if field.required else dict(_TEXT)


def _param_field_properties(self, field, **kwargs) -> dict:
    """apispec attribute function: the OpenAPI type of a ``backend.params`` field."""
    if isinstance(field, IntParam):
        bounds = {"minimum": field.minimum, "maximum": field.maximum}
        return {"type": "integer", **{key: value for key, value in bounds.items() if value is not None}}
    if isinstance(field, BoolText):  # the server also takes any case (TRUE, False)
        return {"type": "boolean"}
    if isinstance(field, TextList):
        return {"type": "array", "items": dict(_TEXT)}
    if isinstance(field, StringList):
        return {"type": "array", "items": {"type": "string", "pattern": _NO_NUL}}
    if isinstance(field, Text):
        return _text_schema(field)
    return {}


def _empty_means_absent(self, field, **kwargs) -> dict:
    """apispec parameter function: an empty optional query value counts as not given."""
    return {} if field.required else {"allowEmptyValue": True}


def _schema_fields(*schemas: Schema | None) -> list:
    return [field for schema in schemas if schema is not None for field in schema.fields.values()]


def route_errors(route) -> list:
    """Every error class a caller can cause on ``route``: its own and its parameters'."""
    found = list(route.errors)
    for field in _schema_fields(route.args, route.body):
        found += [*getattr(field, "errors", ()), *((ParamMissError,) if field.required else ())]
    return list(dict.fromkeys(found))


def operation_errors(route) -> list:
    """``route_errors`` and what the serving front answers before the route runs."""
    front = [
        *FRONT_ERRORS,
        *(STATE_CHANGE_ERRORS if route.changes_state else ()),
        *(BODY_ERRORS if route.body is not None else ()),
    ]
    return route_errors(route) + [error for error in front if error not in route.errors]


def _error_responses(errors) -> dict:
    by_status = defaultdict(list)
    for error in errors:
        by_status[error.http_status].append(error)
    responses = {}
    for status, classes in sorted(by_status.items()):
        codes = sorted({_code(error) for error in classes})
        names = ", ".join(f"{_code(error)} {error.__name__}" for error in sorted(classes, key=_code))
        responses[str(status)] = {
            "description": f"{_STATUS_TEXT.get(status, 'Error')}: {names}.",
            "content": {
                "application/json": {
                    "schema": {
                        "allOf": [
                            {"$ref": f"#/components/schemas/{ERROR_SCHEMA}"},
                            {"type": "object", "properties": {"error_code": {"type": "string", "enum": codes}}},
                        ]
                    }
                }
            },
        }
    return responses


def _code(error_class) -> str:
    return error_code(error_class.module, error_class.value)


def answer_shape(route) -> Named | None:
    """The route's declared answer as a named shape: its own name or ``<View>Answer``."""
    if route.answer is None or isinstance(route.answer, Named):
        return route.answer
    return Named("".join(part.title() for part in route.view.__name__.split("_")) + "Answer", route.answer)


def _answer_schema(route, media_type: str) -> dict:
    if media_type != "application/json":
        return {"type": "string", "format": "binary"}
    return answer_shape(route) or {"type": "object"}


def _operation(route, converter) -> dict:
    operation = {
        "operationId": f"{route.topic}.{route.view.__name__}",
        "tags": [route.topic],
        "summary": route.summary.replace("``", "`"),  # docstrings quote code reST-style
        "responses": {
            "200": {
                "description": "OK",
                "content": {media: {"schema": _answer_schema(route, media)} for media in route.media_types},
            },
            **_error_responses(operation_errors(route)),
        },
    }
    if route.args is not None and route.args.fields:
        operation["parameters"] = converter.schema2parameters(route.args, location="query")
        for parameter in operation["parameters"]:
            if parameter["name"] in route.example:
                parameter["example"] = route.example[parameter["name"]]
    if route.body is not None:
        # load_body reads the declared fields only and ignores any other property.
        body = {"schema": type(route.body)(unknown=EXCLUDE)}
        example = {name: value for name, value in route.example.items() if name in route.body.fields}
        if example:
            body["example"] = example
        operation["requestBody"] = {"required": True, "content": {"application/json": body}}
    return operation


def build_document(routes, url_path_prefix: str = "") -> dict:
    """The OpenAPI document of ``routes`` served below ``url_path_prefix``."""
    plugin = MarshmallowPlugin()
    spec = APISpec(
        title="MindInsight REST API",
        version=mindinsight.__version__,
        openapi_version=OPENAPI_VERSION,
        plugins=[plugin],
        info={
            "description": (
                "Every error answers a JSON body {error_code, error_msg}. Any path outside these "
                f"answers 404 with {_code(RouteNotFoundError)}, any other method 405 with "
                f"{_code(MethodNotAllowedError)}."
            )
        },
        servers=[{"url": url_path_prefix.rstrip("/") or "/"}],
        # No token needed unless the server runs with one: the empty alternative.
        security=[{}, {TOKEN_SCHEME: []}],
    )
    plugin.converter.add_attribute_function(_param_field_properties)
    plugin.converter.add_parameter_attribute_function(_empty_means_absent)
    spec.components.schema(
        ERROR_SCHEMA,
        {
            "type": "object",
            "required": ["error_code", "error_msg"],
            "properties": {
                "error_code": {"type": "string", "pattern": "^[0-9A-F]{8}$"},
                "error_msg": {"type": "string"},
            },
            "additionalProperties": False,
        },
    )
    spec.components.security_scheme(
        TOKEN_SCHEME,
        {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "Only when the server runs with an access token (--token, or the one `mindinsight start` "
                "makes up for a host beyond loopback); also taken as ?token= or the cookie that sets."
            ),
        },
    )
    shapes: dict[str, dict] = {}
    for route in routes:
        named_shapes(answer_shape(route), shapes)
    for name, schema in shapes.items():
        spec.components.schema(name, schema)
    operations = defaultdict(dict)
    for route in routes:
        operations[route.path][route.method.lower()] = _operation(route, plugin.converter)
    for path, methods in operations.items():
        spec.path(path=path, operations=methods)
    return spec.to_dict()
