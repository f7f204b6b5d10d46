"""The one rule a train id follows, in one place.

A train id names a job directory: ``./`` for the summary base dir itself, ``./<name>`` for one of
its direct sub-directories, and ``./<a>/<b>...`` for a TensorBoard run deeper down (its path relative
to the base dir, docs/FORMATS.md §8). Every route that takes a train id checks it here; as the original
answered a bad one differently per route, the rule says *why* an id is refused
(``TrainIdProblem``) and each route maps that to its documented error.
"""

from enum import Enum


def train_id_for(name: str | None) -> str:
    """The train id of the base dir's sub-directory ``name``, a relative path with ``/``
    (None or "": the base dir)."""
    return "./" if not name else "./" + name


class TrainIdProblem(Enum):
    """Why a string is not a train id (see ``train_id_problem``); routes answer each with
    their own documented error."""

    NOT_RELATIVE = "no leading ./"
    NESTED = "a / after the leading ./"
    DOT_OR_NUL = "a dot segment or a NUL"  # ./. ./.. or a NUL anywhere in the name
    BACKSLASH = "a backslash in the name"  # no job is ever listed under such a name


def train_id_problem(train_id: str) -> TrainIdProblem | None:
    """The one train-id rule: ``./`` (the base dir) or ``./<name>`` with a plain name; None when
    ``train_id`` follows it, else the first way it does not."""
    if not train_id.startswith("./"):
        return TrainIdProblem.NOT_RELATIVE
    if "/" in train_id[2:]:
        return TrainIdProblem.NESTED
    name = train_id[2:]
    if name in (".", "..") or "\x00" in train_id:
        return TrainIdProblem.DOT_OR_NUL
    if "\\" in name:
        return TrainIdProblem.BACKSLASH
    return None


def is_valid_train_id(train_id: str) -> bool:
    """Whether ``train_id`` can name a listed job: it follows the one-level rule
    (``train_id_problem``), or it is a nested run's ``./<a>/<b>...`` each of whose names would.
    Routes of the original that take only one level (lineage, profiler) keep refusing nested ids."""
    problem = train_id_problem(train_id)
    if problem is not TrainIdProblem.NESTED:
        return problem is None
    return all(name and train_id_problem("./" + name) is None for name in train_id[2:].split("/"))


# The problems that make an id no relative path of one level ("./" or "./<name>").
NOT_ONE_LEVEL = (TrainIdProblem.NOT_RELATIVE, TrainIdProblem.NESTED)
