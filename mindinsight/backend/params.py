"""Query/body parameter parsing with marshmallow, raising the original's error codes.

Fields raise ``MindInsightError`` subclasses directly, so a blueprint gets either clean
values or the exact documented error: missing/empty/null -> 50540003, not an integer ->
50540001, out of range -> 50540002, a NUL byte -> 50545011, an over-long value -> 50540002.
Each field class lists what it raises in ``errors`` (the OpenAPI document shows them).
"""

import json

from marshmallow import Schema, fields

from mindinsight.conf.limits import MAX_PARAM_LENGTH
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
    """A repeated query parameter (``?train_id=a&train_id=b``) as a list of strings."""

    errors = _TEXT_ERRORS

    def _deserialize(self, value, attr, data, **kwargs):
        return [_check_text(attr, str(item)) for item in value]


class IntParam(fields.Field):
    """An integer parameter with an optional inclusive range."""

    errors = (*_TEXT_ERRORS, ParamTypeError)

    def __init__(self, minimum=None, maximum=None, range_message=None, **kwargs):
        super().__init__(**kwargs)
        self.minimum, self.maximum, self.range_message = minimum, maximum, range_message

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

    def load_raw(self, raw: bytes) -> dict:
        if not raw.strip():
            return {"body": None}
        try:
            return {"body": json.loads(raw)}
        except ValueError:  # also bad UTF-8 (UnicodeDecodeError is a ValueError)
            raise ParamValueError("Json data parse failed.") from None


def load_body(schema: Schema, body, raw: bytes = b"") -> dict:
    """Parse a JSON request body (None when absent or not JSON) with ``schema``; a missing
    body or a required field that is missing or null raises ``ParamMissError``. A
    ``FreeFormBody`` gets the request's ``raw`` bytes instead."""
    if isinstance(schema, FreeFormBody):
        return schema.load_raw(raw)
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
