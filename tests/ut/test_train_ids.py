"""The one train-id rule (``ingest/train_ids.py``) and the errors each route family maps it to."""

import pytest

from mindinsight.errors import ParamValueError
from mindinsight.ingest.profiler_dirs import job_path
from mindinsight.ingest.train_ids import NOT_ONE_LEVEL, TrainIdProblem, is_valid_train_id, train_id_problem

CASES = {
    "./": None,
    "./run": None,
    "./a.b c": None,
    "run": TrainIdProblem.NOT_RELATIVE,
    "": TrainIdProblem.NOT_RELATIVE,
    "/abs": TrainIdProblem.NOT_RELATIVE,
    "../up": TrainIdProblem.NOT_RELATIVE,
    "./a/b": TrainIdProblem.NESTED,
    "./a/": TrainIdProblem.NESTED,
    "./..": TrainIdProblem.DOT_OR_NUL,
    "./.": TrainIdProblem.DOT_OR_NUL,
    "./a\x00b": TrainIdProblem.DOT_OR_NUL,
    "./a\\b": TrainIdProblem.BACKSLASH,
    "./..\\x": TrainIdProblem.BACKSLASH,
}


# Nested ids the one-level rule refuses but a TensorBoard run deeper down is listed under.
NESTED_RUNS = {"./a/b"}


@pytest.mark.parametrize("train_id", CASES, ids=repr)
def test_rule(train_id):
    assert train_id_problem(train_id) is CASES[train_id]
    assert is_valid_train_id(train_id) is (CASES[train_id] is None or train_id in NESTED_RUNS)


@pytest.mark.parametrize("train_id", CASES, ids=repr)
def test_profiler_refuses_what_is_no_one_level_name(train_id, tmp_path):
    problem = CASES[train_id]
    if problem in (*NOT_ONE_LEVEL, TrainIdProblem.DOT_OR_NUL):
        with pytest.raises(ParamValueError):
            job_path(str(tmp_path), train_id)
    else:  # the directory decides (none of these exists)
        assert job_path(str(tmp_path), train_id).startswith(str(tmp_path))
