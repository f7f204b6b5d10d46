"""The query language over runs: text -> a checked tree of conditions (pure; no data, no files).

``optimizer == "Adam" and lr < 0.01 and loss.last < 0.2 and not name ~ "debug"``

A query is comparisons ``<field> <op> <literal>`` joined by ``and``, ``or``, ``not`` (in that
order of precedence, loosest first) and parentheses. Operators: ``== != < <= > >=`` and ``~``
(the field contains a match of a regular expression, RE2 syntax). Literals: strings in double or
single quotes (``\\"``, ``\\'`` and ``\\\\`` are escapes, any other backslash stays, so
``"\\d+"`` is the pattern ``\\d+``), numbers (``3``, ``-1e-3``), ``true`` and ``false``. A field
is a dotted path of names (letters, digits, ``_``) or backquoted names (`` `loss/scalar` ``);
one ending in ``.last``, ``.min`` or ``.max`` is that summary of the scalar tag before it.
What the other fields name, and how values compare, is ``run_query_eval``'s part.

The grammar is parsed by lark (``run_query_parser``; LALR(1): one pass, linear in the text, a
parse table built once, at the first query); a mistake raises ``QuerySyntaxError`` (50540201)
naming line, column and offset, an unusable comparison ``QueryValueError`` (50540202) with the same position.
"""

from dataclasses import dataclass

from mindinsight.conf.limits import MAX_QUERY_LENGTH
from mindinsight.errors import QueryValueError

SUMMARIES = ("last", "min", "max")
ORDERING = ("<", "<=", ">", ">=")


@dataclass(frozen=True)
class Position:
    """Where something starts in the query text: 1-based line and column, 0-based offset."""

    line: int
    column: int
    offset: int

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}"


@dataclass(frozen=True)
class Field:
    """A field: ``path`` its names; ``summary`` last/min/max of the scalar tag ``path`` names."""

    path: tuple[str, ...]
    summary: str | None
    position: Position

    @property
    def name(self) -> str:
        """The path joined by dots (the scalar tag's name when ``summary`` is set)."""
        return ".".join(self.path)


@dataclass(frozen=True)
class Comparison:
    field: Field
    op: str
    value: object  # str, int, float or bool
    position: Position  # of the operator
    pattern: object = None  # the compiled RE2 pattern of ``~`` (an ``re2.Set`` of it)


@dataclass(frozen=True)
class Not:
    operand: object
    depth: int


@dataclass(frozen=True)
class Junction:
    """``and`` (``all`` True) or ``or`` of two or more operands."""

    all: bool
    operands: tuple
    depth: int


def parse_query(text: str):
    """The checked tree of ``text`` (``Comparison``, ``Not``, ``Junction``), None for a blank
    text (no condition: every run matches); raises ``QuerySyntaxError`` / ``QueryValueError``
    with the position of the mistake."""
    if not isinstance(text, str):
        raise QueryValueError("The query should be a string.", None)
    if len(text) > MAX_QUERY_LENGTH:
        raise QueryValueError(f"The query is longer than {MAX_QUERY_LENGTH} characters.", None)
    if not text.strip():
        return None
    # The parser (lark, RE2 and a parse table: 0.1..0.2 s) is made at the first query, not
    # while the server starts.
    from mindinsight.services.run_query_parser import parse

    return parse(text)


def fields(tree) -> list[Field]:
    """Every field the query names, in order of appearance (repeats kept)."""
    found, stack = [], [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Comparison):
            found.append(node.field)
        elif isinstance(node, Not):
            stack.append(node.operand)
        else:
            stack.extend(reversed(node.operands))
    return found
