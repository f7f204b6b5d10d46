"""Building blocks of the answer shapes the routes declare: JSON Schema as OpenAPI 3.0 reads it.

A topic module writes each route's ``answer`` beside the route with these helpers; the
OpenAPI document (``backend/openapi.py``) publishes it, the route-walking test holds every
example answer to it, and ``build/api_types.py`` turns it into the UI's TypeScript types.
Objects are closed (``additionalProperties: false``) unless ``extra`` says what else they
hold, so a key added to an answer without its declaration fails the tests.
"""

COMPONENTS_PATH = "#/components/schemas/"

INTEGER = {"type": "integer"}
NUMBER = {"type": "number"}
STRING = {"type": "string"}
BOOLEAN = {"type": "boolean"}
ANY = {}  # any JSON value (free-form parts of the original's answers)
EMPTY_OBJECT = {"type": "object", "properties": {}, "additionalProperties": False}


def nullable(schema: dict) -> dict:
    """``schema`` or null (OpenAPI 3.0 spelling: not for a named shape, as a reference takes no
    other keyword beside it)."""
    if "$ref" in schema:
        raise TypeError("a reference cannot be nullable in OpenAPI 3.0: inline the shape")
    return {**schema, "nullable": True}


def enum(*values: str) -> dict:
    return {"type": "string", "enum": list(values)}


def array(items: dict, **bounds) -> dict:
    """An array of ``items``; ``bounds``: minItems / maxItems."""
    return {"type": "array", "items": items, **bounds}


def number_row(size: int) -> dict:
    """A fixed-length row of numbers, e.g. a histogram bucket ``[left, width, count]``."""
    return array(NUMBER, minItems=size, maxItems=size)


def obj(required: dict | None = None, optional: dict | None = None, *, extra: dict | bool = False) -> dict:
    """An object with ``required`` and ``optional`` properties; ``extra``: the schema of any
    other key's value (``True``: anything, ``False``: no other key)."""
    required = required or {}
    schema = {"type": "object", "properties": {**required, **(optional or {})}, "additionalProperties": extra}
    if required:
        schema["required"] = list(required)
    return schema


def map_of(values: dict) -> dict:
    """An object keyed by data (a tag, a node name, a metric name), every value ``values``."""
    return {"type": "object", "additionalProperties": values}


def one_of(*schemas: dict) -> dict:
    return {"oneOf": list(schemas)}


def or_empty(schema: dict) -> dict:
    """``schema`` or ``{}`` (where the original answers an empty object for nothing to show)."""
    return one_of(schema, EMPTY_OBJECT)


def ref(name: str) -> dict:
    """A reference to the named shape ``name`` (for a shape that holds itself)."""
    return {"$ref": COMPONENTS_PATH + name}


class Named(dict):
    """A shape published once under ``name`` in the document's components; used in place it
    is the reference to it (and one TypeScript interface in the UI)."""

    def __init__(self, name: str, schema: dict):
        super().__init__(ref(name))
        self.name = name
        self.schema = schema


def named(name: str, schema: dict) -> Named:
    return Named(name, schema)


def named_shapes(schema, found: dict[str, dict] | None = None) -> dict[str, dict]:
    """Every ``Named`` shape inside ``schema`` (itself included), by name."""
    found = {} if found is None else found
    if isinstance(schema, Named):
        known = found.get(schema.name)
        if known is not None:
            if known != schema.schema:
                raise ValueError(f"two answer shapes are named {schema.name}")
            return found
        found[schema.name] = schema.schema
        named_shapes(schema.schema, found)
    elif isinstance(schema, dict):
        for value in schema.values():
            named_shapes(value, found)
    elif isinstance(schema, list):
        for value in schema:
            named_shapes(value, found)
    return found
