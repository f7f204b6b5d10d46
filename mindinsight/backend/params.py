"""Query/body parameter parsing with marshmallow, raising the original's error codes.

Fields raise ``MindInsightError`` subclasses directly, so a blueprint gets either clean
values or the exact documented error: missing/empty/null -> 50540003, not an integer ->
50540001, out of range -> 50540002, a NUL byte -> 50545011, an over-long value -> 50540002.
Each field class lists what it raises in ``errors`` (the OpenAPI document shows them).

A field whose value decides how large the answer grows (a repeated parameter, a page size) says
so with ``sizes_answer``: the routing refuses to run such a route on the event loop.
Every JSON request body is parsed here (``load_body``), once, with its nesting bounded.
"""

import json

from marshmallow import Schema, fields

from mindinsight.conf.limits import MAX_JSON_BODY_DEPTH, MAX_PARAM_LENGTH
from mindinsight.errors import ParamMissError, ParamTypeError, ParamValueError, QueryStringContainsNullByteError


def _check_text(name: str, value: str) -> str:
    if "\x00" in value:
        label = "train job id" if name == "train_id" else name
        raise QueryStringContainsNullByteError(f"{label}: {value} contains null byte.")
    if len(value) > MAX_PARAM_LENGTH:
        raise ParamValueError(f"'{name}' is longer than {MAX_PARAM_LENGTH} characters.")
    return value


_TEXT_ERRORS = (QueryStringContainsNullByteError, ParamValueError)


class Text(fields.String):
    """A string parameter (NUL and length checked)."""

    errors = _TEXT_ERRORS

    def _deserialize(self, value, attr, data, **kwargs):
        return _check_text(attr, str(value))


class TextList(fields.Field):
    """A repeated query parameter (``?train_id=a&train_id=b``) as a list of strings.

    With ``max_distinct`` repeated values count once (the list keeps the first of each, in
    order) and more distinct values than that are refused (50540002)."""

    errors = _TEXT_ERRORS
    sizes_answer = True

    def __init__(self, max_distinct: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self.max_distinct = max_distinct

    def _deserialize(self, value, attr, data, **kwargs):
        values = [_check_text(attr, str(item)) for item in value]
        if self.max_distinct is None:
            return values
        distinct = list(dict.fromkeys(values))
        if len(distinct) > self.max_distinct:
            raise ParamValueError(
                f"'{attr}' may hold at most {self.max_distinct} distinct values, got {len(distinct)}."
            )
        return distinct


class IntParam(fields.Field):
    """An integer parameter with an optional inclusive range; ``sizes_answer`` when it is a page
    size or the like (the answer grows with it)."""

    errors = (*_TEXT_ERRORS, ParamTypeError)

    def __init__(self, minimum=None, maximum=None, range_message=None, sizes_answer=False, **kwargs):
        super().__init__(**kwargs)
        self.minimum, self.maximum, self.range_message = minimum, maximum, range_message
        self.sizes_answer = sizes_answer

    def _deserialize(self, value, attr, data, **kwargs):
        text = _check_text(attr, str(value)).strip()
        try:
            number = int(text)
        except ValueError:
            raise ParamTypeError(attr, "Integer") from None
        if (self.minimum is not None and number < self.minimum) or (self.maximum is not None and number > self.maximum):
            raise ParamValueError(
                self.range_message.format(name=attr)
                if self.range_message
                else f"'{attr}' should in [{self.minimum}, {self.maximum}]."
            )
        return number


class BoolText(fields.Field):
    """``true``/``false`` in any case."""

    errors = _TEXT_ERRORS

    def _deserialize(self, value, attr, data, **kwargs):
        text = _check_text(attr, str(value)).lower()
        if text not in ("true", "false"):
            raise ParamValueError(f"The value of {attr} must be 'false' or 'true'.")
        return text == "true"


class StringList(fields.Field):
    """A JSON body field holding a list of strings (NUL bytes refused)."""

    errors = (ParamTypeError, ParamValueError)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ParamTypeError(attr, "<class 'list'>")
        if any("\x00" in item for item in value):
            raise ParamValueError(f"'{attr}' contains a null byte.")
        return value


def load_args(schema: Schema, args) -> dict:
    """Parse ``args`` (a werkzeug MultiDict) with ``schema``; required fields that are
    missing or empty raise ``ParamMissError`` in the schema's field order. A ``TextList``
    field takes every value of a repeated parameter."""
    raw = {}
    for name, field in schema.fields.items():
        values = args.getlist(name) if isinstance(field, TextList) else args.get(name)
        empty = values in (None, "", [])
        if empty:
            if field.required:
                raise ParamMissError(name)
            continue
        raw[name] = values
    return schema.load(raw)


class JsonValue(fields.Field):
    """Any JSON value; a ``FreeFormBody`` field, declared for the OpenAPI document only."""

    errors = ()


class FreeFormBody(Schema):
    """A JSON body handed whole to the view as ``body`` (any JSON value; an empty body is
    ``None``), for routes that check it themselves; its declared fields only describe it.
    A body that is not JSON raises ``ParamValueError`` "Json data parse failed."."""

    errors = (ParamValueError,)


_NOT_JSON = object()


def _nests_deeper_than(value, limit: int) -> bool:
    """Whether arrays / objects in ``value`` nest more than ``limit`` levels (walked without recursion)."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False


def parse_json_body(raw: bytes):
    """The JSON value of a request body: None when it is empty, ``_NOT_JSON`` when it is not JSON.

    A body nesting deeper than ``MAX_JSON_BODY_DEPTH`` raises ``ParamValueError``: the parser
    and everything that walks the value later recurse, and Python's recursion limit would turn
    a deep body into a 500 (``RecursionError``)."""
    if not raw.strip():
        return None
    too_deep = ParamValueError(f"Json data parse failed: it nests deeper than {MAX_JSON_BODY_DEPTH} levels.")
    try:
        value = json.loads(raw)
    except ValueError:  # also bad UTF-8 (UnicodeDecodeError is a ValueError)
        return _NOT_JSON
    except RecursionError:
        raise too_deep from None
    if _nests_deeper_than(value, MAX_JSON_BODY_DEPTH):
        raise too_deep
    return value


def load_body(schema: Schema, raw: bytes, is_json: bool = True) -> dict:
    """Parse the request body ``raw`` with ``schema``; a body that nests too deep raises
    ``ParamValueError`` for any schema. A ``FreeFormBody`` gets the parsed value whole (a body
    that is not JSON raises ``ParamValueError``). Otherwise a body that is absent, not JSON or
    not declared JSON (``is_json``, as Flask's ``get_json(silent=True)``) counts as empty, and
    a required field that is missing or null raises ``ParamMissError``."""
    free_form = isinstance(schema, FreeFormBody)
    body = parse_json_body(raw) if free_form or is_json else None
    if free_form:
        if body is _NOT_JSON:
            raise ParamValueError("Json data parse failed.")
        return {"body": body}
    if not isinstance(body, dict):
        body = {}
    raw = {}
    for name, field in schema.fields.items():
        # null counts as not given: marshmallow would refuse it with its own, undocumented error
        if body.get(name) is None:
            if field.required:
                raise ParamMissError(name)
            continue
        raw[name] = body[name]
    return schema.load(raw)
