"""The parser of the query language of ``run_query``: lark grammar, tokens -> checked tree.

Apart from ``run_query`` so that lark, RE2 and the parse table are made at the first query,
not while the server starts (``parse_query`` imports this module).
"""

import re

import re2
from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from mindinsight.conf.limits import MAX_QUERY_DEPTH, MAX_QUERY_PATTERN_LENGTH
from mindinsight.errors import QuerySyntaxError, QueryValueError
from mindinsight.services.run_query import ORDERING, SUMMARIES, Comparison, Field, Junction, Not, Position

GRAMMAR = r"""
?start: or_expr
?or_expr: and_expr (_OR and_expr)*
?and_expr: not_expr (_AND not_expr)*
?not_expr: NOT not_expr -> negation
         | atom
?atom: comparison
     | LPAR or_expr _RPAR -> group
comparison: field OP literal
field: name ("." name)*
?name: NAME | QUOTED_NAME
?literal: STRING | NUMBER | TRUE | FALSE

_OR: "or"
_AND: "and"
NOT: "not"
TRUE: "true"
FALSE: "false"
LPAR: "("
_RPAR: ")"
OP: "==" | "!=" | "<=" | ">=" | "<" | ">" | "~"
NAME: /[A-Za-z_][A-Za-z0-9_]*/
QUOTED_NAME: /`[^`]+`/
STRING: /"(?:[^"\\]|\\.)*"/ | /'(?:[^'\\]|\\.)*'/
NUMBER: /[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/

%import common.WS
%ignore WS
"""

# What each terminal is, for "expected ..." in messages.
_WORDS = {
    "NAME": "a field name",
    "QUOTED_NAME": "a `quoted` field name",
    "STRING": "a string",
    "NUMBER": "a number",
    "TRUE": "true",
    "FALSE": "false",
    "OP": "an operator (== != < <= > >= ~)",
    "_OR": "or",
    "_AND": "and",
    "NOT": "not",
    "LPAR": "(",
    "_RPAR": ")",
    "DOT": ".",
    "$END": "the end of the query",
}
_ESCAPE = re.compile(r"""\\(["'\\])""")


def _position(token: Token) -> Position:
    return Position(token.line, token.column, token.start_pos)


def _depth(node) -> int:
    return 1 if isinstance(node, Comparison) else node.depth


def _nested(node, position: Position):
    if _depth(node) > MAX_QUERY_DEPTH:
        raise QueryValueError(f"{position}: the query is nested deeper than {MAX_QUERY_DEPTH} levels.", position)
    return node


def _string(token: Token) -> str:
    return _ESCAPE.sub(r"\1", token[1:-1])


def _number(token: Token):
    text = str(token)
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise QueryValueError(f"{_position(token)}: the number {text} is beyond the float range.", _position(token))
    return value


def _literal(token: Token):
    kind = token.type
    if kind == "STRING":
        return _string(token)
    if kind == "NUMBER":
        return _number(token)
    return kind == "TRUE"


def _pattern(text: str, position: Position):
    if len(text) > MAX_QUERY_PATTERN_LENGTH:
        raise QueryValueError(
            f"{position}: the regular expression is longer than {MAX_QUERY_PATTERN_LENGTH} characters.", position
        )
    options = re2.Options()
    options.log_errors = False
    try:
        re2.compile(text, options)  # for its message when the pattern is invalid
        # A set of one pattern answers "does it match" by RE2's DFA alone, several times faster
        # than a search, which also finds where.
        searcher = re2.Set.SearchSet(options)
        searcher.Add(text)
        searcher.Compile()
        return searcher
    except re2.error as error:
        reason = error.args[0] if error.args else "not a pattern"
        reason = reason.decode(errors="replace") if isinstance(reason, bytes) else str(reason)
        raise QueryValueError(f"{position}: invalid regular expression: {reason}.", position) from None


class _Build(Transformer):
    """Builds the tree bottom-up while lark reduces (no recursion over the tree, so any depth
    the text allows is built; too deep a tree is refused here)."""

    @v_args(inline=True)
    def comparison(self, field: Field, op: Token, literal: Token):
        position = _position(op)
        value = _literal(literal)
        pattern = None
        if op == "~":
            if not isinstance(value, str):
                raise QueryValueError(f"{position}: '~' takes a regular expression in quotes.", position)
            pattern = _pattern(value, _position(literal))
        elif op in ORDERING and isinstance(value, bool):
            raise QueryValueError(f"{position}: '{op}' compares numbers or strings, not true or false.", position)
        return Comparison(field, str(op), value, position, pattern)

    def field(self, names: list[Token]):
        path = tuple(name[1:-1] if name.type == "QUOTED_NAME" else str(name) for name in names)
        position = _position(names[0])
        if len(path) > 1 and names[-1].type == "NAME" and path[-1] in SUMMARIES:
            return Field(path[:-1], path[-1], position)
        return Field(path, None, position)

    @v_args(inline=True)
    def negation(self, keyword: Token, operand):
        return _nested(Not(operand, _depth(operand) + 1), _position(keyword))

    @v_args(inline=True)
    def group(self, paren: Token, operand):
        return _nested(operand, _position(paren))

    def or_expr(self, operands: list):
        return Junction(False, tuple(operands), max(map(_depth, operands)) + 1)

    def and_expr(self, operands: list):
        return Junction(True, tuple(operands), max(map(_depth, operands)) + 1)


# The basic lexer: keywords are keywords everywhere (a field named `and` is written `` `and` ``).
_PARSER = Lark(GRAMMAR, parser="lalr", lexer="basic", transformer=_Build(), maybe_placeholders=False)


def _expected(names) -> str:
    words = sorted({_WORDS.get(name, name) for name in names})
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1] if words else "nothing"


def _syntax_error(error: UnexpectedInput, text: str) -> QuerySyntaxError:
    if isinstance(error, UnexpectedEOF) or (isinstance(error, UnexpectedToken) and error.token.type == "$END"):
        lines = text.split("\n")
        position = Position(len(lines), len(lines[-1]) + 1, len(text))
        return QuerySyntaxError(f"{position}: the query ends early; expected {_expected(error.expected)}.", position)
    position = Position(error.line, error.column, error.pos_in_stream)
    if isinstance(error, UnexpectedCharacters):
        found = text[error.pos_in_stream]
        if found in "\"'`":
            return QuerySyntaxError(f"{position}: unclosed quote {found}.", position)
        return QuerySyntaxError(f"{position}: unexpected character {found!r}.", position)
    return QuerySyntaxError(
        f"{position}: unexpected {str(error.token)!r}; expected {_expected(error.expected)}.", position
    )


def parse(text: str):
    """The checked tree of a non-blank ``text`` (see ``run_query.parse_query``)."""
    try:
        return _PARSER.parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(error, text) from None
    except VisitError as error:  # a QueryValueError raised while building
        raise error.orig_exc from None
