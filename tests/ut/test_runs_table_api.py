"""``GET datavisual/runs``, the runs table, over real MindSpore 2.10 logs: sorting on any column
(missing values last both ways), paging by rows, the query, the chosen columns, errors as JSON 400.

Expected orders are computed here from the lineage search's own answer and from the logs
(``tests.helpers.fixtures.scalar_series``), never by the code under test."""

import math
import os

import pytest

from tests.helpers.apps import make_app
from tests.helpers.fixtures import FIXTURES, MULTI_RUNS, copy_job, scalar_series

RUNS = "/v1/mindinsight/datavisual/runs"
LINEAGES = "/v1/mindinsight/lineagemgr/lineages"
LINEAGE_RUNS = [f"run_{index:02d}" for index in range(1, 13)]
LOSS_TAG = "loss/auto/scalar"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    base = tmp_path_factory.mktemp("runs_base")
    for name in LINEAGE_RUNS:
        copy_job(f"h_lineage_30_runs/{name}", base / name)
    for name in MULTI_RUNS:
        copy_job(f"c_multi_runs/{name}", base / name)
    copy_job("b_summary_ops", base / "b_summary_ops")  # scalars, no lineage
    for index, name in enumerate([*LINEAGE_RUNS, *MULTI_RUNS, "b_summary_ops"]):
        stamp = 1_700_000_000 + index * 100
        for path in (base / name).iterdir():
            os.utime(path, (stamp, stamp))
    return make_app(base, workspace=str(tmp_path_factory.mktemp("ws"))).test_client()


@pytest.fixture(scope="module")
def lineage(client):
    """``{train_id: model lineage}`` as the lineage search answers it."""
    answer = client.post(LINEAGES, json={}).get_json()
    return {item["summary_dir"]: item["model_lineage"] for item in answer["object"]}


def runs(client, status=200, **params):
    response = client.get(RUNS, query_string={"limit": 100, **params})
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


def ids(answer) -> list[str]:
    return [row["train_id"] for row in answer["rows"]]


def test_every_run_newest_first_with_its_hyper_parameters(client, lineage):
    answer = runs(client)
    assert answer["total"] == answer["runs"] == len(LINEAGE_RUNS) + len(MULTI_RUNS) + 1
    assert ids(answer)[0] == "./b_summary_ops"
    assert {"learning_rate", "optimizer", "batch_size"} <= set(answer["columns"])
    assert any(column.startswith("metric.") for column in answer["columns"])
    assert LOSS_TAG in answer["scalar_tags"]
    for row in answer["rows"]:
        model = lineage.get(row["train_id"])
        assert row["values"]["learning_rate"] == (model["learning_rate"] if model else None)
        assert row["values"]["optimizer"] == (model["optimizer"] if model else None)


@pytest.mark.parametrize("order", ["asc", "desc"])
def test_sorting_on_a_hyper_parameter_puts_missing_values_last(client, lineage, order):
    answer = runs(client, sort="learning_rate", order=order, columns=["learning_rate"])
    with_rate = sorted(
        (model["learning_rate"], name) for name, model in lineage.items() if model["learning_rate"] is not None
    )
    rates = [rate for rate, _ in with_rate]
    got = [row["values"]["learning_rate"] for row in answer["rows"]]
    assert got[: len(rates)] == (rates if order == "asc" else rates[::-1])
    assert got[len(rates) :] == [None] * (answer["total"] - len(rates))
    assert set(answer["rows"][0]["values"]) == {"learning_rate"}


@pytest.mark.parametrize("order", ["asc", "desc"])
def test_sorting_on_a_metric_summary(client, order):
    lasts = {f"./{name}": scalar_series(FIXTURES / "c_multi_runs" / name)[LOSS_TAG][-1][1] for name in MULTI_RUNS}
    answer = runs(client, sort="loss.last", order=order, columns=["loss.last", "loss.min", "loss.max"])
    want = sorted(lasts, key=lasts.get, reverse=order == "desc")
    assert ids(answer)[: len(want)] == want
    for row in answer["rows"][: len(want)]:
        values = [value for _, value in scalar_series(FIXTURES / "c_multi_runs" / row["train_id"][2:])[LOSS_TAG]]
        assert row["cached"] is True
        assert math.isclose(row["values"]["loss.last"], values[-1], rel_tol=1e-6)
        assert math.isclose(row["values"]["loss.min"], min(values), rel_tol=1e-6)
        assert math.isclose(row["values"]["loss.max"], max(values), rel_tol=1e-6)
    assert all(row["values"]["loss.last"] is None for row in answer["rows"][len(want) :])


def test_sorting_by_name_and_paging_by_rows(client):
    every = sorted(ids(runs(client, sort="name", order="asc")))
    assert ids(runs(client, sort="name", order="asc")) == every
    assert ids(runs(client, sort="name", order="desc")) == every[::-1]
    page = runs(client, sort="name", order="asc", offset=3, limit=4)
    assert ids(page) == every[3:7] and page["total"] == len(every)
    assert runs(client, offset=len(every), limit=5)["rows"] == []


def test_the_query_narrows_the_rows(client, lineage):
    query = 'optimizer == "Adam" and lr < 0.01'
    answer = runs(client, query=query, sort="name", order="asc")
    want = sorted(
        name
        for name, model in lineage.items()
        if model["optimizer"] == "Adam" and isinstance(model["learning_rate"], float) and model["learning_rate"] < 0.01
    )
    assert want and ids(answer) == want and answer["total"] == len(want)
    assert answer["runs"] > len(want)


@pytest.mark.parametrize(
    ("params", "code", "text"),
    [
        ({"sort": "no_such_column"}, "50540002", "Unknown column 'no_such_column'"),
        ({"columns": ["lr", "loss.median"]}, "50540002", "Unknown column 'lr'"),
        ({"order": "up"}, "50540002", "'order' should be asc or desc"),
        ({"limit": 0}, "50540002", ""),
        ({"limit": 1000}, "50540002", ""),
        ({"offset": -1}, "50540002", ""),
        ({"query": "lr <"}, "50540201", "line 1, column 5: the query ends early"),
        ({"query": 'name ~ "(a"'}, "50540202", "line 1, column 8"),
    ],
)
def test_mistakes_answer_json_400(client, params, code, text):
    answer = runs(client, status=400, **params)
    assert set(answer) == {"error_code", "error_msg"} and answer["error_code"] == code
    assert text in answer["error_msg"]
