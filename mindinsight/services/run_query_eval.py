"""A parsed query (``run_query``) run over a table of runs, a column at a time (numpy masks).

Comparisons compare like with like: a number literal matches values that are numbers (ints
and floats alike, booleans are not numbers), a string literal values that are strings (ordered
by code point), ``true``/``false`` values that are booleans; ``~`` searches strings. A run whose
value is missing, NaN or of another type fails the comparison whatever the operator, ``!=``
included; ``not`` turns that failure into a match (``not lr == 0.1`` holds for a run without
``lr``).
"""

import operator
from collections.abc import Callable, Sequence

import numpy as np

from mindinsight.services.run_query import Comparison, Field, Not

_OPERATORS = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


# Exact types: bool (a subclass of int) is no number here.
_NUMBER_TYPES = frozenset((int, float))


def _clamped(value) -> float:
    try:
        return float(value)
    except OverflowError:
        return np.inf if value > 0 else -np.inf


class _Columns:
    """The values of each field the query names, read once and kept in the typed forms the
    comparisons need."""

    def __init__(self, size: int, read: Callable[[Field], Sequence]):
        self.size, self._read = size, read
        self._raw: dict = {}
        self._typed: dict = {}

    def raw(self, field: Field) -> Sequence:
        key = (field.path, field.summary)
        if key not in self._raw:
            self._raw[key] = self._read(field)
        return self._raw[key]

    def numbers(self, field: Field) -> np.ndarray:
        """float64 values, NaN where the value is not a number."""
        key = (field.path, field.summary, "number")
        if key not in self._typed:
            numbers = _NUMBER_TYPES
            values = [value if type(value) in numbers else np.nan for value in self.raw(field)]
            try:
                column = np.array(values, np.float64)
            except OverflowError:  # an int beyond the float range (a metric written as JSON may hold one)
                column = np.array([_clamped(value) for value in values], np.float64)
            self._typed[key] = column
        return self._typed[key]


def _search(node: Comparison, columns: _Columns, within: np.ndarray) -> np.ndarray:
    """``~`` over the rows of ``within`` only (the others: False), once per distinct value (a
    hyper-parameter holds few)."""
    raw, found = columns.raw(node.field), np.zeros(columns.size, dtype=bool)
    match = node.pattern.Match  # an RE2 set of this one pattern: a yes/no answer, no submatches
    known: dict = {}
    for index in np.flatnonzero(within).tolist():
        item = raw[index]
        if type(item) is not str:
            continue
        hit = known.get(item)
        if hit is None:
            hit = known[item] = match(item) is not None
        found[index] = hit
    return found


def _compare(node: Comparison, columns: _Columns, within: np.ndarray) -> np.ndarray:
    value = node.value
    if node.pattern is not None:
        return _search(node, columns, within)
    compare = _OPERATORS[node.op]
    if isinstance(value, bool):  # == and != only (the parser refuses the others)
        raw = columns.raw(node.field)
        same = np.fromiter((item is value for item in raw), dtype=bool, count=columns.size)
        if node.op == "==":
            return same
        return np.fromiter((isinstance(item, bool) for item in raw), dtype=bool, count=columns.size) & ~same
    if isinstance(value, str):  # compared in Python: exact (numpy's fixed-width strings drop trailing NULs)
        raw = columns.raw(node.field)
        return np.fromiter((type(item) is str and compare(item, value) for item in raw), dtype=bool, count=columns.size)
    numbers = columns.numbers(node.field)
    with np.errstate(invalid="ignore"):
        return compare(numbers, value) & ~np.isnan(numbers)


def _cost(node) -> int:
    """A pattern search runs per value in Python; the other comparisons are numpy array ops."""
    if isinstance(node, Comparison):
        return 20 if node.pattern is not None else 1
    if isinstance(node, Not):
        return _cost(node.operand)
    return sum(map(_cost, node.operands))


def _evaluate(node, columns: _Columns, within: np.ndarray) -> np.ndarray:
    """The mask of ``node``, right on the rows of ``within`` (the others are left undefined):
    ``and`` asks each operand only about the rows still in, ``or`` about the rows not yet in,
    cheap operands first, so a pattern searches few values."""
    if isinstance(node, Comparison):
        return _compare(node, columns, within)
    if isinstance(node, Not):
        return ~_evaluate(node.operand, columns, within)
    operands = sorted(node.operands, key=_cost)
    if node.all:
        result = within.copy()
        for operand in operands:
            result &= _evaluate(operand, columns, result)
        return result
    result = np.zeros(columns.size, dtype=bool)
    for operand in operands:
        result |= _evaluate(operand, columns, within & ~result)
    return result


def evaluate(tree, size: int, read: Callable[[Field], Sequence]) -> np.ndarray:
    """The boolean mask of the ``size`` runs matching ``tree``; ``read(field)`` gives a field's
    value for every run, in run order (None where a run has none). Each field is read once."""
    if size == 0:
        return np.zeros(0, dtype=bool)
    return _evaluate(tree, _Columns(size, read), np.ones(size, dtype=bool))
