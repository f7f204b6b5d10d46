"""The query language through the REST API, over real MindSpore 2.10 logs: the lineage search's
``query`` body field, ``train-jobs?query=`` and the optimizer-target search; errors as JSON 4xx
with the mistake's position; random text never answers 500.

The expected runs are computed here from the unfiltered lineage answer (or, for scalar
summaries, from the logs by ``tests.helpers.fixtures.scalar_series``), never by the code under test.
"""

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers.apps import make_app
from tests.helpers.fixtures import FIXTURES, MULTI_RUNS, copy_job, scalar_series

LINEAGES = "/v1/mindinsight/lineagemgr/lineages"
TRAIN_JOBS = "/v1/mindinsight/datavisual/train-jobs"
TARGETS = "/v1/mindinsight/optimizer/targets/search"
LINEAGE_RUNS = [f"run_{index:02d}" for index in range(1, 31)]
LOSS_TAG = "loss/auto/scalar"  # what MindSpore's SummaryCollector names the loss


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    base = tmp_path_factory.mktemp("query_base")
    for name in LINEAGE_RUNS:
        copy_job(f"h_lineage_30_runs/{name}", base / name)
    for name in MULTI_RUNS:
        copy_job(f"c_multi_runs/{name}", base / name)
    copy_job("b_summary_ops", base / "b_summary_ops")  # scalars, no lineage
    # The jobs with scalars newest, so they are the ones in the detail cache.
    for index, name in enumerate([*LINEAGE_RUNS, *MULTI_RUNS, "b_summary_ops"]):
        stamp = 1_700_000_000 + index * 100
        for path in (base / name).iterdir():
            os.utime(path, (stamp, stamp))
    return base


@pytest.fixture(scope="module")
def client(base, tmp_path_factory):
    return make_app(base, workspace=str(tmp_path_factory.mktemp("ws"))).test_client()


@pytest.fixture(scope="module")
def rows(client):
    """Every job's model lineage by summary dir, as the search answers it without a query."""
    answer = client.post(LINEAGES, json={}).get_json()
    return {item["summary_dir"]: item["model_lineage"] for item in answer["object"]}


@pytest.fixture(scope="module")
def losses():
    """``{train_id: (last, min, max)}`` of the loss of the multi runs, read from the logs."""
    found = {}
    for name in MULTI_RUNS:
        values = [value for _, value in scalar_series(FIXTURES / "c_multi_runs" / name)[LOSS_TAG]]
        found[f"./{name}"] = (values[-1], min(values), max(values))
    return found


def search(client, body, status=200):
    response = client.post(LINEAGES, json=body)
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


def found(client, query, **extra):
    return [item["summary_dir"] for item in search(client, {"query": query, **extra})["object"]]


def listed(client, query, **params):
    response = client.get(TRAIN_JOBS, query_string={"query": query, "limit": 100, **params})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def expected(rows, keep):
    return [name for name, model in rows.items() if keep(name, model)]


QUERIES = [
    ('optimizer == "Adam" and lr < 0.01', lambda n, m: m["optimizer"] == "Adam" and (m["learning_rate"] or 1) < 0.01),
    ('optimizer == "Adam" or optimizer == "SGD"', lambda n, m: m["optimizer"] in ("Adam", "SGD")),
    ('not optimizer ~ "^Adam"', lambda n, m: not m["optimizer"].startswith("Adam")),
    ("not lr > 0", lambda n, m: m["learning_rate"] is None),
    (
        "learning_rate >= 0.05 and batch_size <= 16",
        lambda n, m: (m["learning_rate"] or 0) >= 0.05 and m["batch_size"] <= 16,
    ),
    ('network == "MLP" and epoch != 1', lambda n, m: m["network"] == "MLP" and m["epoch"] != 1),
    (
        'loss_function ~ "(?i)crossentropy" and device_num == 1',
        lambda n, m: "crossentropy" in m["loss_function"].lower(),
    ),
    ('name ~ "run_0[1-5]$"', lambda n, m: n in {f"./run_0{i}" for i in range(1, 6)}),
    ('owner == "alice"', lambda n, m: m["user_defined"].get("owner") == "alice"),
    ("user_defined.seed >= 11", lambda n, m: m["user_defined"].get("seed", -1) >= 11),
    ("priority < 3", lambda n, m: m["user_defined"].get("priority", 9) < 3),
    ("metric.Accuracy > 0.5", lambda n, m: m["metric"]["Accuracy"] > 0.5),
    ("Accuracy > 0.15 and not Accuracy > 0.5", lambda n, m: 0.15 < m["metric"]["Accuracy"] <= 0.5),
    ('`note` ~ "ablation"', lambda n, m: "ablation" in m["user_defined"].get("note", "")),
    ("loss < 1", lambda n, m: m["loss"] < 1),  # the lineage's own loss field
    ('dataset_mark == "2"', lambda n, m: m["dataset_mark"] == "2"),
]


@pytest.mark.parametrize(("query", "keep"), QUERIES, ids=[query for query, _ in QUERIES])
def test_lineage_query_narrows_the_rows(client, rows, query, keep):
    names = expected(rows, keep)
    assert 0 < len(names) < len(rows)
    assert found(client, query) == names
    assert search(client, {"query": query})["count"] == len(names)


@pytest.mark.parametrize(("query", "keep"), QUERIES[:6], ids=[query for query, _ in QUERIES[:6]])
def test_train_jobs_query_narrows_the_list(client, rows, query, keep):
    answer = listed(client, query)
    names = expected(rows, keep)
    if query.startswith("not "):  # a job without lineage has no optimizer, no lr: "not" keeps it
        names.append("./b_summary_ops")
    assert sorted(job["train_id"] for job in answer["train_jobs"]) == sorted(names)
    assert answer["total"] == len(names)


def test_conditions_sorting_and_paging_apply_with_a_query(client, rows):
    query = "batch_size >= 32"
    names = expected(rows, lambda n, m: m["batch_size"] >= 32 and m["optimizer"] == "Momentum")
    body = {"query": query, "optimizer": {"eq": "Momentum"}, "sorted_name": "learning_rate", "limit": 2, "offset": 0}
    answer = search(client, body)
    assert answer["count"] == len(names)
    assert [item["summary_dir"] for item in answer["object"]] == sorted(
        names, key=lambda name: (rows[name]["learning_rate"] is not None, rows[name]["learning_rate"] or 0)
    )[:2]


def test_bodies_without_a_query_answer_as_before(client):
    everything = search(client, {})
    assert search(client, {"query": None}) == everything
    assert search(client, {"query": " \n"}) == everything  # a blank query box matches every run
    plain = search(client, {"optimizer": {"eq": "Adam"}, "limit": 3})
    assert search(client, {"optimizer": {"eq": "Adam"}, "limit": 3, "query": None}) == plain
    # the original's condition errors are unchanged, and checked before the query
    answer = search(client, {"query": "(", "nonsense": {"eq": 1}}, status=400)
    assert answer["error_code"] == "50542218"


def test_train_jobs_without_a_query_answer_as_before(client):
    plain = client.get(TRAIN_JOBS, query_string={"limit": 100}).get_json()
    assert client.get(TRAIN_JOBS, query_string={"limit": 100, "query": ""}).get_json() == plain
    assert plain["total"] == len(LINEAGE_RUNS) + len(MULTI_RUNS) + 1
    paged = listed(client, 'name ~ "run"', limit=5, offset=1)
    assert paged["total"] == len(LINEAGE_RUNS) + len(MULTI_RUNS)
    assert len(paged["train_jobs"]) == 5
    for limit in (0, 1000):
        answer = client.get(TRAIN_JOBS, query_string={"limit": limit, "query": "lr < 1"})
        assert answer.status_code == 400 and answer.get_json()["error_code"] == "50540002"


def test_metric_summaries_compare_the_logged_points(client, losses):
    lasts = sorted(losses.values())
    for stat, index in (("last", 0), ("min", 1), ("max", 2)):
        values = sorted(summary[index] for summary in losses.values())
        between = (values[0] + values[1]) / 2
        want = sorted(name for name, summary in losses.items() if summary[index] < between)
        assert sorted(found(client, f"loss.{stat} < {between!r}")) == want
        assert sorted(job["train_id"] for job in listed(client, f"loss.{stat} < {between!r}")["train_jobs"]) == want
        quoted = f"`{LOSS_TAG}`.{stat} >= {between!r}"
        assert sorted(found(client, quoted)) == sorted(set(losses) - set(want))
    assert lasts  # three runs with a loss


def test_scalar_tags_of_jobs_without_lineage(client):
    series = scalar_series(FIXTURES / "b_summary_ops")["accuracy/scalar"]
    last = series[-1][1]
    assert listed(client, f"accuracy.last == {last!r}")["train_jobs"][0]["train_id"] == "./b_summary_ops"
    assert listed(client, f"accuracy.last == {last!r} and name ~ 'summary'")["total"] == 1
    assert found(client, f"accuracy.last == {last!r}") == []  # the lineage search lists jobs with lineage


def test_optimizer_targets_take_the_query(client, rows):
    answer = client.post(TARGETS, json={"query": 'optimizer == "Momentum"'})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    names = expected(rows, lambda n, m: m["optimizer"] == "Momentum")
    assert sorted(answer.get_json()["metadata"]["train_ids"]) == sorted(names)


@pytest.mark.parametrize(
    ("query", "code", "position"),
    [
        ("lr <", "50540201", {"line": 1, "column": 5, "offset": 4}),
        ('optimizer == "Adam" and and', "50540201", {"line": 1, "column": 25, "offset": 24}),
        ('name ~ "(a"', "50540202", {"line": 1, "column": 8, "offset": 7}),
        ("lr < true", "50540202", {"line": 1, "column": 4, "offset": 3}),
    ],
)
def test_errors_answer_json_with_the_position(client, query, code, position):
    for response in (
        client.post(LINEAGES, json={"query": query}),
        client.get(TRAIN_JOBS, query_string={"query": query}),
        client.post(TARGETS, json={"query": query}),
    ):
        assert response.status_code == 400
        answer = response.get_json()
        assert set(answer) == {"error_code", "error_msg"} and answer["error_code"] == code
        assert f"Detail: line {position['line']}, column {position['column']}: " in answer["error_msg"]


@pytest.mark.parametrize("query", [5, True, ["a == 1"], {"a": 1}])
def test_a_query_that_is_not_a_string(client, query):
    answer = search(client, {"query": query}, status=400)
    assert answer == {"error_code": "50540202", "error_msg": "Query value error. Detail: The query should be a string."}


def test_a_hostile_pattern_answers_at_once(client):
    answer = listed(client, 'name ~ "(a+)+$" or name ~ "(.*a){25}$"')
    assert answer["total"] == 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.sampled_from([*"ab._`\"'\\()=!<>~ 019e-", " and ", " or ", "not ", "lr", "loss.last", "name"])).map(
        "".join
    )
    | st.text(max_size=60)
)
def test_random_text_never_answers_500(client, text):
    for response in (
        client.post(LINEAGES, json={"query": text}),
        client.get(TRAIN_JOBS, query_string={"query": text}),
    ):
        assert response.status_code in (200, 400), (text, response.get_data(as_text=True))
        if response.status_code == 400:
            assert response.get_json()["error_code"] in (
                "50540201",
                "50540202",
                "50540002",
                "50545011",
            )  # 50545011: a NUL in a URL
