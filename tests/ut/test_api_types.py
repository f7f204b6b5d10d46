"""ui/src/api/answers.d.ts is what build/api_types.py makes from the OpenAPI document now."""

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "build" / "api_types.py"


@pytest.fixture(scope="module")
def api_types() -> dict:
    return runpy.run_path(str(SCRIPT))


def test_committed_answer_types_are_current():
    result = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_every_json_answer_has_its_type(api_types):
    document = api_types["document"]()
    text = api_types["render"](document)
    for operations in document["paths"].values():
        for operation in operations.values():
            schema = operation["responses"]["200"]["content"].get("application/json", {}).get("schema")
            if schema is not None:
                name = schema["$ref"].rsplit("/", 1)[1]
                assert f"export interface {name} " in text or f"export type {name} = " in text, name


def test_a_changed_declaration_changes_the_types(api_types):
    document = api_types["document"]()
    before = api_types["render"](document)
    document["components"]["schemas"]["ScalarPoint"]["properties"]["value"] = {"type": "string"}
    after = api_types["render"](document)
    assert "  value: number | null\n" in before
    assert "  value: string\n" in after


def test_schema_forms_and_their_types(api_types):
    ts_type = api_types["ts_type"]
    number = {"type": "number"}
    assert ts_type({"type": "array", "items": number, "minItems": 3, "maxItems": 3}) == "[number, number, number]"
    assert ts_type({"type": "array", "items": {**number, "nullable": True}}) == "(number | null)[]"
    assert ts_type({"type": "string", "enum": ["a", "b"]}) == "'a' | 'b'"
    assert ts_type({"oneOf": [{"$ref": "#/components/schemas/A"}, number]}) == "A | number"
    assert ts_type({"type": "object", "additionalProperties": number}) == "Record<string, number>"
    assert ts_type({"type": "object", "properties": {}, "additionalProperties": False}) == "Record<string, never>"
    closed = {"type": "object", "properties": {"a-b": number, "c": number}, "required": ["c"]}
    assert ts_type({**closed, "additionalProperties": False}) == "{\n  'a-b'?: number\n  c: number\n}"
    assert ts_type({**closed, "additionalProperties": True}).endswith("  [key: string]: unknown\n}")
    assert ts_type({}) == "unknown"
