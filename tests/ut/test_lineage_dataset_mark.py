"""``dataset_mark`` of ``lineagemgr/lineages`` numbered as the original MindInsight numbers it.

The expected marks were obtained from the original MindInsight 2.3.1 (``pip install
mindinsight==2.3.1`` in its own venv, ``mindinsight start`` on copies of the same fixture jobs
with the same modification times as set below, ``POST /v1/mindinsight/lineagemgr/lineages {}``).
Its rule: walk the jobs newest first by whole seconds of update time, then by name; the first
job with a dataset graph not seen before takes the next mark, starting at "2".
"""

import os

import pytest

from tests.helpers.apps import make_app
from tests.helpers.fixtures import copy_job

LINEAGES = "/v1/mindinsight/lineagemgr/lineages"
T0 = 1_700_000_000


def base_with(tmp_path, stamps: dict[str, float]):
    """h_lineage_30_runs jobs named in ``stamps`` with every file modified at its stamp."""
    base = tmp_path / "base"
    for name, stamp in stamps.items():
        copy_job(f"h_lineage_30_runs/{name}", base / name)
        for path in (base / name).iterdir():
            os.utime(path, (stamp, stamp))
    return base


def marks(tmp_path, stamps) -> list[tuple[str, str]]:
    client = make_app(base_with(tmp_path, stamps), workspace=str(tmp_path / "ws")).test_client()
    answer = client.post(LINEAGES, json={}).get_json()
    return [(item["summary_dir"], item["model_lineage"]["dataset_mark"]) for item in answer["object"]]


def test_four_pipelines_in_two_seconds_are_marked_as_the_original(tmp_path):
    # Four different data pipelines (batch sizes 16, 32, 64 and 8); run_02 and run_03 were
    # updated within one second, run_04 and run_06 within a later one. The original 2.3.1
    # answered run_06 "3", run_04 "2", run_03 "5", run_02 "4" (we answered 5, 4, 3, 2).
    stamps = {"run_02": T0 + 0.2, "run_03": T0 + 0.7, "run_04": T0 + 100.1, "run_06": T0 + 100.6}
    assert marks(tmp_path, stamps) == [("./run_06", "3"), ("./run_04", "2"), ("./run_03", "5"), ("./run_02", "4")]


# The original 2.3.1 on all 30 jobs, run_NN updated at T0 + 10 * NN, newest first. 16 pipelines.
ORIGINAL_30 = "2 3 4 5 6 5 7 8 8 6 9 10 10 8 6 10 7 5 9 10 5 7 10 10 10 10 10 10 6 8".split()
# Ours: the same up to "9"; the original then gives every further pipeline "10" (it takes the
# string max of the marks so far, and "9" > "10"), so different pipelines share a mark there.
# Those go on 10, 11, ... here, in the same order of first appearance.
OURS_30 = "2 3 4 5 6 5 7 8 8 6 9 10 11 8 6 12 7 5 9 13 5 7 12 14 15 16 11 17 6 8".split()


def test_thirty_runs_marked_as_the_original_and_distinct_past_nine(tmp_path):
    stamps = {f"run_{index:02d}": T0 + 10 * index for index in range(1, 31)}
    answer = marks(tmp_path, stamps)
    assert [train_id for train_id, _ in answer] == [f"./run_{index:02d}" for index in range(30, 0, -1)]
    got = [mark for _, mark in answer]
    assert got == OURS_30
    assert [mine for mine, theirs in zip(got, ORIGINAL_30) if int(theirs) < 10] == [
        theirs for theirs in ORIGINAL_30 if int(theirs) < 10
    ]


@pytest.mark.parametrize("order", ["names follow time", "names against time"])
def test_jobs_of_one_second_take_marks_in_name_order(tmp_path, order):
    # Within one second the original takes the jobs in name order, whichever was updated last.
    late, early = (T0 + 0.9, T0 + 0.1) if order == "names follow time" else (T0 + 0.1, T0 + 0.9)
    answer = dict(marks(tmp_path, {"run_02": early, "run_04": late}))
    assert answer == {"./run_02": "2", "./run_04": "3"}
