"""Validation of a lineage search condition (the body of ``POST /lineagemgr/lineages``).

A condition is a JSON object: field conditions ``{field: {operator: value}}`` and the
page/sort keys ``limit``, ``offset``, ``sorted_name``, ``sorted_type``, ``lineage_type``.
Every problem raises ``LineageSearchConditionParamError`` (50542218) with the original's
inner message, checked in the original's order: the body's type, ``limit``/``offset`` types,
``sorted_name``/``sorted_type``; then each field condition in body order; then value checks
per field; then the ``limit``/``offset`` ranges.
"""

from mindinsight.conf.limits import LINEAGE_MAX_PAGE_LIMIT, LINEAGE_MAX_PAGE_OFFSET
from mindinsight.errors import LineageSearchConditionParamError

METRIC_PREFIX = "metric/"
USER_DEFINED_PREFIX = "user_defined/"
OPERATORS = ("eq", "lt", "gt", "le", "ge", "in", "not_in")
STRING_OPERATORS = ("in", "eq", "not_in")
PAGE_KEYS = ("limit", "offset", "sorted_name", "sorted_type", "lineage_type")
LINEAGE_TYPES = ("dataset", "model")
SORTED_TYPES = ("ascending", "descending", None)
MAX_INT64 = 2**63 - 1

STRING_FIELDS = (
    "summary_dir",
    "loss_function",
    "train_dataset_path",
    "test_dataset_path",
    "network",
    "optimizer",
    "dataset_mark",
)
INT_FIELDS = ("train_dataset_count", "test_dataset_count", "epoch", "batch_size", "device_num", "model_size")
NUMBER_FIELDS = ("learning_rate", "loss")
# The filterable fields in the original's order (its FIELD_MAPPING).
FIELDS = (
    "summary_dir",
    "loss_function",
    "train_dataset_path",
    "train_dataset_count",
    "test_dataset_path",
    "test_dataset_count",
    "network",
    "optimizer",
    "learning_rate",
    "epoch",
    "batch_size",
    "device_num",
    "loss",
    "model_size",
    "dataset_mark",
)

_DICT_STRING = "It should be a dict and the value should be a string."
_DICT_COUNT = "It should be a dict and the value should be a integer between 0 and pow(2, 63) -1."
# The original's message for an invalid value of each key.
FIELD_MESSAGES = {
    "summary_dir": f"The parameter summary_dir is invalid. {_DICT_STRING}",
    "loss_function": f"The parameter loss_function is invalid. {_DICT_STRING}",
    "train_dataset_path": f"The parameter train_dataset_path is invalid. {_DICT_STRING}",
    "train_dataset_count": f"The parameter train_dataset_count is invalid. {_DICT_COUNT}",
    "test_dataset_path": f"The parameter test_dataset_path is invalid. {_DICT_STRING}",
    "test_dataset_count": f"The parameter test_dataset_count is invalid. {_DICT_COUNT}",
    "network": f"The parameter network is invalid. {_DICT_STRING}",
    "optimizer": f"The parameter optimizer is invalid. {_DICT_STRING}",
    "learning_rate": "The parameter learning_rate is invalid. "
    "It should be a dict and the value should be a float or a integer.",
    "epoch": "The parameter epoch is invalid. It should be a positive integer.",
    "batch_size": "The parameter batch_size is invalid. It should be a non-negative integer.",
    "device_num": "The parameter device_num is invalid. It should be a non-negative integer.",
    "loss": "The parameter loss is invalid. It should be a float.",
    "model_size": "The parameter model_size is invalid. It should be an integer between 0 and pow(2, 63) -1.",
    "dataset_mark": "The parameter dataset_mark is invalid. It should be a string.",
    "lineage_type": "The parameter lineage_type is invalid. It should be 'dataset' or 'model'.",
    "limit": f"Invalid input limit. 0 < limit <= {LINEAGE_MAX_PAGE_LIMIT}",
    "offset": f"Invalid input offset. 0 <= offset <= {LINEAGE_MAX_PAGE_OFFSET}",
}
_OPERATION_MESSAGE = "Its operation should be `eq`, `in` or `not_in`."


class _Invalid(Exception):
    """A field's value check failed; ``operation`` marks an operator problem."""

    def __init__(self, operation: bool = False):
        super().__init__()
        self.operation = operation


def _fail(message: str):
    raise LineageSearchConditionParamError(message)


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_customized(name) -> bool:
    """``metric/<x>`` or ``user_defined/<x>`` with a non-empty ``<x>``."""
    return isinstance(name, str) and any(
        name.startswith(prefix) and len(name) > len(prefix) for prefix in (METRIC_PREFIX, USER_DEFINED_PREFIX)
    )


def validate_condition(condition) -> dict:
    """``condition`` itself when valid (None counts as ``{}``); else raise 50542218."""
    if condition is None:
        return {}
    if not isinstance(condition, dict):
        _fail("TypeError. Invalid search_condition type, it should be dict.")
    _check_page_types(condition)
    for name, value in condition.items():
        if name not in PAGE_KEYS:
            _check_field_condition(name, value)
    for name, value in condition.items():
        _check_value(name, value)
    return condition


def _check_page_types(condition: dict) -> None:
    for name in ("limit", "offset"):
        if name in condition and not (isinstance(condition[name], int) and not isinstance(condition[name], bool)):
            _fail(f"TypeError. The {name} must be int.")
    if "sorted_name" in condition:
        name = condition["sorted_name"]
        if not (isinstance(name, str) and (name in FIELDS or name == "tag" or is_customized(name))):
            _fail(f"ValueError. The sorted_name must be in {list(FIELDS)} or start with `metric/` or `user_defined/`.")
    if "sorted_type" in condition:
        if "sorted_name" not in condition:
            _fail("ValueError. The sorted_name must exist when sorted_type exists.")
        if not any(condition["sorted_type"] is kind or condition["sorted_type"] == kind for kind in SORTED_TYPES):
            _fail("ValueError. The sorted_type must be ascending or descending.")


def _check_field_condition(name: str, value) -> None:
    """The shape every field condition shares: a known field, an object of known operators."""
    known = name in FIELDS or name.startswith((METRIC_PREFIX, USER_DEFINED_PREFIX))
    if not known or name == METRIC_PREFIX:
        _fail("ValueError. The search attribute not supported.")
    if not isinstance(value, dict):
        _fail(f"TypeError. The search_condition element {name} should be dict.")
    if any(operator not in OPERATORS for operator in value):
        _fail("ValueError. The compare condition should be in ('eq', 'lt', 'gt', 'le', 'ge', 'in', 'not_in').")
    if name.startswith(METRIC_PREFIX):
        try:
            _check_numbers(value)
        except _Invalid:
            _fail(f"The parameter {name} is invalid. It should be a dict and the value should be a float or a integer")


def _check_value(name: str, value) -> None:
    try:
        if name in STRING_FIELDS:
            _check_dict(value)
            _check_string_operators(value)
            _check_typed(value, str)
        elif name in INT_FIELDS:
            _check_dict(value)
            _check_typed(value, int)
        elif name in NUMBER_FIELDS:
            _check_dict(value)
            _check_numbers(value)
        elif name == "lineage_type":
            _check_dict(value)
            _check_string_operators(value)
            _check_typed(value, str)
            kinds = value.get("in", []) if "in" in value else []
            kinds = [*kinds, *(value[op] for op in value if op != "in")]
            if not all(kind in LINEAGE_TYPES for kind in kinds):
                raise _Invalid()
        elif name == "limit" and not 0 < value <= LINEAGE_MAX_PAGE_LIMIT:
            raise _Invalid()
        elif name == "offset" and not 0 <= value <= LINEAGE_MAX_PAGE_OFFSET:
            raise _Invalid()
    except _Invalid as invalid:
        if invalid.operation:
            _fail(f"The parameter {name} is invalid. {_OPERATION_MESSAGE}")
        _fail(FIELD_MESSAGES[name])


def _check_dict(value) -> None:
    if not isinstance(value, dict):
        raise _Invalid()


def _check_string_operators(value: dict) -> None:
    if any(operator not in STRING_OPERATORS for operator in value):
        raise _Invalid(operation=True)


def _check_typed(value: dict, kind: type) -> None:
    for operator, operand in value.items():
        if operator in ("in", "not_in"):
            if not isinstance(operand, list):
                raise _Invalid()
            continue
        if not isinstance(operand, kind) or isinstance(operand, bool):
            raise _Invalid()
        if kind is int and not 0 <= operand <= MAX_INT64:
            raise _Invalid()


def _check_numbers(value: dict) -> None:
    for operator, operand in value.items():
        if operator == "in":
            if not isinstance(operand, list):
                raise _Invalid()
        elif not is_number(operand):
            raise _Invalid()
