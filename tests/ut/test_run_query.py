"""The query language over runs: parsing (precedence, literals, quoting, errors with positions)
and evaluation over columns of values (every operator, missing values, types)."""

import re
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindinsight.conf.limits import MAX_QUERY_DEPTH, MAX_QUERY_LENGTH, MAX_QUERY_PATTERN_LENGTH
from mindinsight.errors import QueryError, QuerySyntaxError, QueryValueError
from mindinsight.services.run_query import Comparison, Junction, Not, Position, fields, parse_query
from mindinsight.services.run_query_eval import evaluate

# Six runs; None is a missing value.
RUNS = {
    "name": ["./adam_a", "./adam_debug", "./sgd_b", "./sgd_debug_c", "./mom", "./x"],
    "optimizer": ["Adam", "Adam", "SGD", "SGD", "Momentum", None],
    "lr": [0.001, 0.01, 0.1, 0.05, None, 3],
    "epoch": [5, 10, 5, 1, 2, "5"],
    "flag": [True, False, True, None, False, 1],
    "loss.last": [0.1, 0.3, 0.15, float("nan"), 0.05, None],
}


def matching(text, runs=RUNS):
    tree = parse_query(text)
    names = runs["name"]

    def read(field):
        key = field.name + (f".{field.summary}" if field.summary else "")
        return runs.get(key, [None] * len(names))

    mask = evaluate(tree, len(names), read)
    return [name for name, keep in zip(names, mask) if keep]


def error_of(text):
    with pytest.raises(QueryError) as raised:
        parse_query(text)
    return raised.value


# -- parsing --------------------------------------------------------------------------------


def test_and_binds_tighter_than_or_and_not_tighter_than_and():
    tree = parse_query("a == 1 or b == 2 and not c == 3")
    assert isinstance(tree, Junction) and not tree.all
    first, second = tree.operands
    assert isinstance(first, Comparison) and first.field.path == ("a",)
    assert isinstance(second, Junction) and second.all
    assert isinstance(second.operands[1], Not)


def test_parentheses_override_precedence():
    tree = parse_query("(a == 1 or b == 2) and c == 3")
    assert isinstance(tree, Junction) and tree.all
    assert isinstance(tree.operands[0], Junction) and not tree.operands[0].all


def test_chains_are_flat():
    tree = parse_query("a == 1 and b == 2 and c == 3")
    assert tree.all and len(tree.operands) == 3


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("a == 3", 3),
        ("a == -3", -3),
        ("a == 0.5", 0.5),
        ("a == .5", 0.5),
        ("a == 1e-3", 0.001),
        ("a == -2.5E+2", -250.0),
        ("a == true", True),
        ("a == false", False),
        ('a == "Adam"', "Adam"),
        ("a == 'Adam'", "Adam"),
        (r'a == "say \"hi\""', 'say "hi"'),
        (r"a == 'it\'s'", "it's"),
        (r'a == "back\\slash"', "back\\slash"),
        (r'a ~ "\d+\.\w"', r"\d+\.\w"),  # other backslashes stay: patterns read as written
        ('a == "a and b or not c"', "a and b or not c"),
        ('a == ""', ""),
    ],
)
def test_literals(text, value):
    tree = parse_query(text)
    assert tree.value == value and type(tree.value) is type(value)


def test_integers_stay_integers():
    assert parse_query("a == 12345678901234567890").value == 12345678901234567890


@pytest.mark.parametrize(
    ("text", "path", "summary"),
    [
        ("lr < 1", ("lr",), None),
        ("loss.last < 1", ("loss",), "last"),
        ("loss.min < 1", ("loss",), "min"),
        ("loss.max < 1", ("loss",), "max"),
        ("eval.acc.last > 1", ("eval", "acc"), "last"),
        ("user_defined.seed == 1", ("user_defined", "seed"), None),
        ("`loss/scalar`.last < 1", ("loss/scalar",), "last"),
        ("`my param` == 1", ("my param",), None),
        ("`x`.`last` == 1", ("x", "last"), None),  # a quoted last is a name, not the summary
        ("last == 1", ("last",), None),
        ("andy == 1 and notes == 2 or order == 3", ("andy",), None),  # keywords inside names
    ],
)
def test_fields(text, path, summary):
    field = fields(parse_query(text))[0]
    assert (field.path, field.summary) == (path, summary)


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">=", "~"])
def test_every_operator_parses(op):
    assert parse_query(f'a {op} "x"').op == op


def test_whitespace_and_newlines_are_free():
    tree = parse_query('\n  optimizer=="Adam"\n\tand\n lr<0.01  ')
    assert tree.all and tree.operands[1].position == Position(4, 4, 29)


@pytest.mark.parametrize(
    ("text", "kind", "position", "words"),
    [
        ("a == ", QuerySyntaxError, (1, 6, 5), "ends early"),
        ("a ==", QuerySyntaxError, (1, 5, 4), "a number, a string, false or true"),
        ("(a == 1", QuerySyntaxError, (1, 8, 7), ")"),
        ("a == 1)", QuerySyntaxError, (1, 7, 6), "unexpected ')'"),
        ("a == 1 b == 2", QuerySyntaxError, (1, 8, 7), "unexpected 'b'"),
        ("a === 1", QuerySyntaxError, (1, 5, 4), "unexpected character '='"),
        ("a = 1", QuerySyntaxError, (1, 3, 2), "unexpected character '='"),
        ('a == "open', QuerySyntaxError, (1, 6, 5), 'unclosed quote "'),
        ("`open == 1", QuerySyntaxError, (1, 1, 0), "unclosed quote `"),
        ("a == 1 and\nb == ?", QuerySyntaxError, (2, 6, 16), "unexpected character '?'"),
        ("and a == 1", QuerySyntaxError, (1, 1, 0), "unexpected 'and'"),
        ("a == b", QuerySyntaxError, (1, 6, 5), "unexpected 'b'"),
        ("a", QuerySyntaxError, (1, 2, 1), "an operator"),
        ("not", QuerySyntaxError, (1, 4, 3), "ends early"),
        ("a. == 1", QuerySyntaxError, (1, 4, 3), "unexpected '=='"),
        ("a < true", QueryValueError, (1, 3, 2), "not true or false"),
        ("a ~ 3", QueryValueError, (1, 3, 2), "'~' takes a regular expression"),
        ('a ~ "("', QueryValueError, (1, 5, 4), "missing )"),
        ('a ~ "(?=x)"', QueryValueError, (1, 5, 4), "invalid regular expression"),
        (r'a ~ "(a)\1"', QueryValueError, (1, 5, 4), "invalid regular expression"),
        ("a == 1e999", QueryValueError, (1, 6, 5), "beyond the float range"),
    ],
)
def test_errors_name_the_position(text, kind, position, words):
    error = error_of(text)
    assert type(error) is kind
    assert (error.position.line, error.position.column, error.position.offset) == position
    assert words in error.message
    answer = error.to_json()
    assert answer["error_code"] == ("50540201" if kind is QuerySyntaxError else "50540202")
    assert answer["error_msg"].startswith(f"{error.prefix} Detail: line {position[0]}, column {position[1]}: ")


def test_a_blank_query_is_no_condition():
    for text in ("", "   \n\t"):
        assert parse_query(text) is None


def test_bounds():
    assert "longer than" in error_of("a == 1 or " * (MAX_QUERY_LENGTH // 10) + "a == 1 ").message
    assert "nested deeper" in error_of("not " * (MAX_QUERY_DEPTH + 1) + "a == 1").message
    assert parse_query("not " * (MAX_QUERY_DEPTH - 1) + "a == 1")
    assert parse_query("(" * 1000 + "a == 1" + ")" * 1000)  # parentheses alone add no depth
    long_pattern = 'a ~ "' + "x" * (MAX_QUERY_PATTERN_LENGTH + 1) + '"'
    assert "longer than" in error_of(long_pattern).message
    assert error_of(None).position is None


HOSTILE_PATTERNS = ["(a+)+$", "(a|a)*$", "(a|aa)+$", "(.*a){20}$", "^(a?){25}a{25}$", "(x+x+)+y"]


@pytest.mark.parametrize("pattern", HOSTILE_PATTERNS)
def test_hostile_patterns_answer_fast(pattern):
    """Patterns that take a backtracking engine exponential time on these names: RE2 runs in
    time linear in the name."""
    names = ["a" * 3000 + "!", "x" * 3000, "a" * 25]
    start = time.perf_counter()
    matching(f'name ~ "{pattern}"', {"name": names})
    assert time.perf_counter() - start < 0.5


def test_an_oversized_automaton_is_refused_not_built():
    start = time.perf_counter()
    error = error_of('name ~ "((a{100}){100}){100}"')
    assert type(error) is QueryValueError and time.perf_counter() - start < 0.5


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from([*"ab_.`\"'\\()=!<>~ \n0123456789e-+", " and ", " or ", "not ", "true", "name"])).map(
        "".join
    )
    | st.text()
)
def test_any_text_parses_or_raises_a_query_error(text):
    try:
        parse_query(text)
    except QueryError as error:
        assert error.to_json()["error_code"] in ("50540201", "50540202")
        return
    if text.strip():
        matching(text)  # a tree that parses also runs


# -- evaluation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ('optimizer == "Adam"', ["./adam_a", "./adam_debug"]),
        ('optimizer != "Adam"', ["./sgd_b", "./sgd_debug_c", "./mom"]),  # the missing one fails
        ('optimizer < "Momentum"', ["./adam_a", "./adam_debug"]),
        ('optimizer >= "Momentum"', ["./sgd_b", "./sgd_debug_c", "./mom"]),
        ("lr < 0.01", ["./adam_a"]),
        ("lr <= 0.01", ["./adam_a", "./adam_debug"]),
        ("lr > 0.05", ["./sgd_b", "./x"]),
        ("lr >= 0.05", ["./sgd_b", "./sgd_debug_c", "./x"]),
        ("lr == 3", ["./x"]),
        ("lr == 3.0", ["./x"]),  # ints and floats are numbers alike
        ("lr != 0.1", ["./adam_a", "./adam_debug", "./sgd_debug_c", "./x"]),
        ("epoch == 5", ["./adam_a", "./sgd_b"]),  # the string "5" is not the number 5
        ('epoch == "5"', ["./x"]),
        ("flag == true", ["./adam_a", "./sgd_b"]),  # 1 is not true
        ("flag == false", ["./adam_debug", "./mom"]),
        ("flag != true", ["./adam_debug", "./mom"]),
        ('name ~ "debug"', ["./adam_debug", "./sgd_debug_c"]),
        ('name ~ "^\\./sgd"', ["./sgd_b", "./sgd_debug_c"]),
        ('optimizer ~ "^(?i)adam$"', ["./adam_a", "./adam_debug"]),
        ('lr ~ "0"', []),  # ~ searches strings only
        ("loss.last < 0.2", ["./adam_a", "./sgd_b", "./mom"]),  # NaN fails
        ("not loss.last < 0.2", ["./adam_debug", "./sgd_debug_c", "./x"]),
        ("unknown == 1", []),
        ("not unknown == 1", RUNS["name"]),
        (
            'optimizer == "Adam" and lr < 0.02 and loss.last < 0.2 and not name ~ "debug"',
            ["./adam_a"],
        ),
        ('optimizer == "SGD" or lr > 1', ["./sgd_b", "./sgd_debug_c", "./x"]),
        ('(optimizer == "SGD" or optimizer == "Adam") and epoch == 5', ["./adam_a", "./sgd_b"]),
        ('optimizer == "SGD" or optimizer == "Adam" and epoch == 5', ["./adam_a", "./sgd_b", "./sgd_debug_c"]),
        ("not not lr == 3", ["./x"]),
    ],
)
def test_evaluation(text, names):
    assert matching(text) == names


def test_each_field_is_read_once():
    reads = []

    def read(field):
        reads.append(field.name)
        return RUNS.get(field.name, [None] * 6)

    evaluate(parse_query('optimizer == "Adam" or optimizer == "SGD" and optimizer ~ "M"'), 6, read)
    assert reads == ["optimizer"]


def test_integers_beyond_the_float_range_compare_as_infinities():
    runs = {"name": ["./a", "./b", "./c"], "x": [10**400, -(10**400), 7]}
    assert matching("x > 1e300", runs) == ["./a"]
    assert matching("x < -1e300", runs) == ["./b"]
    assert matching("x == 7", runs) == ["./c"]


def test_strings_compare_exactly():
    runs = {"name": ["./a", "./b", "./c"], "x": ["a\x00", "a", "ä"]}
    assert matching('x == "a"', runs) == ["./b"]
    assert matching('x > "a"', runs) == ["./a", "./c"]


def test_no_runs():
    assert evaluate(parse_query("a == 1"), 0, lambda field: []).shape == (0,)


def test_answers_a_mask():
    mask = evaluate(parse_query("lr < 1"), 6, lambda field: RUNS["lr"])
    assert mask.dtype == np.bool_ and mask.tolist() == [True, True, True, True, False, False]


# -- evaluation against a row-at-a-time reading of the same rules ---------------------------

_FIELDS = ("optimizer", "lr", "epoch", "flag", "name", "loss.last")
_VALUES = ('"Adam"', '"SGD"', '"M"', "0.01", "0.05", "5", "true", "false", '"5"')


def _naive(node, row: dict) -> bool:
    """One run at a time: missing or other-typed values fail every comparison."""
    if isinstance(node, Not):
        return not _naive(node.operand, row)
    if isinstance(node, Junction):
        results = [_naive(operand, row) for operand in node.operands]
        return all(results) if node.all else any(results)
    key = node.field.name + (f".{node.field.summary}" if node.field.summary else "")
    value, literal = row.get(key), node.value
    if node.op == "~":
        return isinstance(value, str) and re.search(literal, value) is not None
    if isinstance(literal, bool):
        return isinstance(value, bool) and ((value is literal) == (node.op == "=="))
    if isinstance(literal, str):
        if not isinstance(value, str):
            return False
    elif not (type(value) in (int, float) and value == value):
        return False
    return {
        "==": value == literal,
        "!=": value != literal,
        "<": value < literal,
        "<=": value <= literal,
        ">": value > literal,
        ">=": value >= literal,
    }[node.op]


@st.composite
def _queries(draw, depth=0):
    kind = draw(st.sampled_from(["cmp", "cmp", "not", "and", "or", "group"] if depth < 4 else ["cmp"]))
    if kind == "cmp":
        op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "~"]))
        if op == "~":
            value = draw(st.sampled_from(['"^A"', '"debug"', '"d$"', '"[0-9]"']))
        else:
            value = draw(st.sampled_from(_VALUES))
            if op not in ("==", "!=") and value in ("true", "false"):
                op = "=="
        return f"{draw(st.sampled_from(_FIELDS))} {op} {value}"
    if kind == "not":
        return f"not {draw(_queries(depth + 1))}"
    if kind == "group":
        return f"({draw(_queries(depth + 1))})"
    return f" {kind} ".join(draw(st.lists(_queries(depth + 1), min_size=2, max_size=4)))


@settings(max_examples=300, deadline=None)
@given(_queries())
def test_evaluation_agrees_with_a_run_at_a_time_reading(text):
    rows = [{key: values[index] for key, values in RUNS.items()} for index in range(len(RUNS["name"]))]
    tree = parse_query(text)
    assert matching(text) == [row["name"] for row in rows if _naive(tree, row)]
