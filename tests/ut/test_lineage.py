"""Lineage search, tag/remark edits and dataset graphs over real MindSpore 2.10 lineage files.

Facts of the fixtures (written by MindSpore's SummaryCollector): run1 Momentum lr 0.01 bs 32
epoch 5, run2 Momentum lr 0.005 bs 16, run3 Adam lr 0.001 bs 32; each job's evaluation
lineage (metrics, test dataset) sits in a second ``_lineage`` file.
"""

import contextlib
import os
import sqlite3
import time

import pytest

from mindinsight.backend.context import lineage_store
from tests.helpers.apps import make_app
from tests.helpers.fixtures import MULTI_RUNS, copy_job

LINEAGES = "/v1/mindinsight/lineagemgr/lineages"
DATASET_GRAPH = "/v1/mindinsight/datasets/dataset_graph"
RUN1, RUN2, RUN3 = (f"./{name}" for name in MULTI_RUNS)
LENET = "./a_lenet_collector"
SEARCH_ERROR = "50542218"


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    base = tmp_path_factory.mktemp("lineage_base")
    for name in MULTI_RUNS:
        copy_job(f"c_multi_runs/{name}", base / name)
    copy_job("a_lenet_collector", base / "a_lenet_collector")
    copy_job("b_summary_ops", base / "b_summary_ops")  # no lineage at all
    # Distinct update times, oldest first: run1, run2, run3, lenet.
    for index, name in enumerate([*MULTI_RUNS, "a_lenet_collector"]):
        for path in (base / name).iterdir():
            stamp = 1_700_000_000 + index * 100
            os.utime(path, (stamp, stamp))
    return base


@pytest.fixture
def app(base, tmp_path):
    return make_app(base, workspace=str(tmp_path / "ws"))


@pytest.fixture
def client(app):
    return app.test_client()


def search(client, body, status=200):
    response = client.post(LINEAGES, json=body)
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


def dirs(answer):
    return [item["summary_dir"] for item in answer["object"]]


def test_empty_condition_lists_every_job_with_lineage_newest_first(client):
    answer = search(client, {})
    assert dirs(answer) == [LENET, RUN3, RUN2, RUN1]
    assert answer["count"] == 4
    run1 = next(item for item in answer["object"] if item["summary_dir"] == RUN1)
    assert list(run1) == ["summary_dir", "model_lineage", "dataset_graph", "added_info"]
    model = run1["model_lineage"]
    assert model["optimizer"] == "Momentum" and model["learning_rate"] == pytest.approx(0.01)
    assert model["batch_size"] == 32 and model["epoch"] == 5 and model["network"] == "LeNet5"
    assert model["train_dataset_count"] == 960 and model["test_dataset_count"] == 192  # from the 2nd file
    assert isinstance(model["model_size"], int) and model["model_size"] > 0
    assert set(model["metric"]) >= {"Accuracy", "Loss"}
    assert model["user_defined"]["run"] == MULTI_RUNS[0]
    assert run1["dataset_graph"]["op_type"] == "Batch" and isinstance(run1["dataset_graph"]["children"], list)
    assert run1["added_info"] == {}
    assert answer["customized"]["metric/Accuracy"] == {"label": "metric/Accuracy", "required": True, "type": "float"}
    assert answer["customized"]["user_defined/run"] == {"label": "user_defined/run", "required": False, "type": "str"}


def test_empty_body_and_null_body_mean_no_condition(client):
    assert dirs(client.post(LINEAGES).get_json()) == [LENET, RUN3, RUN2, RUN1]
    assert client.post(LINEAGES, data="null", content_type="application/json").get_json()["count"] == 4


@pytest.mark.parametrize(
    "condition, expected",
    [
        ({"summary_dir": {"in": [RUN1, RUN3]}}, [RUN3, RUN1]),
        ({"summary_dir": {"eq": RUN2}}, [RUN2]),
        ({"summary_dir": {"not_in": [RUN1, LENET]}}, [RUN3, RUN2]),
        ({"summary_dir": {"eq": "../"}}, []),
        ({"optimizer": {"eq": "Adam"}}, [RUN3]),
        ({"batch_size": {"lt": 32}}, [RUN2]),
        ({"batch_size": {"ge": 32}, "optimizer": {"eq": "Momentum"}}, [LENET, RUN1]),
        ({"learning_rate": {"gt": 0.004, "le": 0.005}}, [RUN2]),
        ({"learning_rate": {"in": [0.001]}}, [RUN3]),
        ({"metric/Accuracy": {"gt": 0}}, [LENET, RUN3, RUN2, RUN1]),
        ({"metric/no_such_metric": {"gt": 0}}, []),  # a missing value fails a comparison
        ({"user_defined/optimizer_family": {"eq": "Adam"}}, [RUN3]),
        ({"user_defined/run": {"lt": 5}}, []),  # incomparable types fail the row
        ({"loss_function": {"eq": "SoftmaxCrossEntropyWithLogits"}}, [LENET, RUN3, RUN2, RUN1]),
    ],
)
def test_field_conditions(client, condition, expected):
    answer = search(client, condition)
    assert dirs(answer) == expected and answer["count"] == len(expected)


def test_sorting_by_field_metric_and_both_directions(client):
    lrs = search(client, {"sorted_name": "learning_rate"})
    values = [item["model_lineage"]["learning_rate"] for item in lrs["object"]]
    assert values == sorted(values)
    down = search(client, {"sorted_name": "metric/Accuracy", "sorted_type": "descending"})
    accuracies = [item["model_lineage"]["metric"]["Accuracy"] for item in down["object"]]
    assert accuracies == sorted(accuracies, reverse=True)
    # nulls first ascending: a user-defined key only run jobs carry
    by_run = search(client, {"sorted_name": "user_defined/run", "sorted_type": "ascending"})
    assert dirs(by_run)[0] == LENET and dirs(by_run)[1:] == [RUN1, RUN2, RUN3]


def test_paging_offset_is_a_page_index(client):
    page = search(client, {"limit": 2, "offset": 1})
    assert dirs(page) == [RUN2, RUN1] and page["count"] == 4
    assert dirs(search(client, {"offset": 0})) == [LENET, RUN3, RUN2, RUN1]  # limit 10 by default
    assert dirs(search(client, {"limit": 1})) == [LENET]
    assert search(client, {"limit": 3, "offset": 5})["object"] == []


def test_customized_describes_the_page_only(client):
    page = search(client, {"summary_dir": {"eq": LENET}})
    assert "user_defined/run" not in page["customized"]
    assert page["customized"]["user_defined/version"]["type"] == "int"


def test_lineage_type_picks_the_parts(client):
    model = search(client, {"lineage_type": {"eq": "model"}, "limit": 1})["object"][0]
    assert list(model) == ["summary_dir", "model_lineage", "added_info"]
    dataset = search(client, {"lineage_type": {"in": ["dataset"]}, "limit": 1})["object"][0]
    assert list(dataset) == ["summary_dir", "dataset_graph", "added_info"]


def test_dataset_mark_groups_identical_graphs(client):
    answer = search(client, {"lineage_type": {"eq": "model"}})
    marks = {item["summary_dir"]: item["model_lineage"]["dataset_mark"] for item in answer["object"]}
    graphs = {item["summary_dir"]: item["dataset_graph"] for item in search(client, {})["object"]}
    assert all(isinstance(mark, str) and int(mark) >= 2 for mark in marks.values())
    for first in marks:
        for second in marks:
            assert (marks[first] == marks[second]) == (graphs[first] == graphs[second])
    some_mark = marks[RUN1]
    assert RUN1 in dirs(search(client, {"dataset_mark": {"eq": some_mark}}))


@pytest.mark.parametrize(
    "condition, message",
    [
        ({"limit": 0}, "Invalid input limit. 0 < limit <= 100"),
        ({"limit": 101}, "Invalid input limit. 0 < limit <= 100"),
        ({"limit": -1}, "Invalid input limit. 0 < limit <= 100"),
        ({"limit": "5"}, "TypeError. The limit must be int."),
        ({"limit": True}, "TypeError. The limit must be int."),
        ({"offset": 100001}, "Invalid input offset. 0 <= offset <= 100000"),
        ({"offset": 1.5}, "TypeError. The offset must be int."),
        ({"no_such_field": {"eq": 1}}, "ValueError. The search attribute not supported."),
        ({"metric/": {"eq": 1}}, "ValueError. The search attribute not supported."),
        ({"epoch": 5}, "TypeError. The search_condition element epoch should be dict."),
        ({"epoch": {"like": 5}}, "ValueError. The compare condition should be in"),
        ({"epoch": {"gt": -1}}, "The parameter epoch is invalid."),
        ({"epoch": {"gt": 2**63}}, "The parameter epoch is invalid."),
        ({"batch_size": {"eq": True}}, "The parameter batch_size is invalid."),
        ({"model_size": {"in": 5}}, "The parameter model_size is invalid."),
        ({"optimizer": {"gt": "Adam"}}, "The parameter optimizer is invalid. Its operation should be"),
        ({"network": {"eq": 3}}, "The parameter network is invalid. It should be a dict"),
        ({"learning_rate": {"gt": "x"}}, "The parameter learning_rate is invalid."),
        ({"loss": {"lt": None}}, "The parameter loss is invalid. It should be a float."),
        ({"metric/Accuracy": {"gt": "x"}}, "The parameter metric/Accuracy is invalid."),
        ({"sorted_name": "nope"}, "ValueError. The sorted_name must be in"),
        ({"sorted_name": 3}, "ValueError. The sorted_name must be in"),
        ({"sorted_type": "ascending"}, "ValueError. The sorted_name must exist when sorted_type exists."),
        ({"sorted_name": "epoch", "sorted_type": "up"}, "ValueError. The sorted_type must be ascending or descending."),
        ({"lineage_type": {"eq": "graph"}}, "The parameter lineage_type is invalid."),
        ({"lineage_type": "model"}, "The parameter lineage_type is invalid."),
        ({"dataset_mark": {"eq": 2}}, "The parameter dataset_mark is invalid."),
        ([1, 2], "TypeError. Invalid search_condition type, it should be dict."),
    ],
)
def test_invalid_conditions_answer_50542218(client, condition, message):
    answer = search(client, condition, status=400)
    assert answer["error_code"] == SEARCH_ERROR
    assert answer["error_msg"].startswith("Search_condition param error: " + message), answer["error_msg"]


def test_malformed_json_answers_50540002(client):
    response = client.post(LINEAGES, data=b"{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json() == {
        "error_code": "50540002",
        "error_msg": "Invalid parameter value. Json data parse failed.",
    }


def test_tag_and_remark_are_merged_and_sortable(client):
    assert client.put(LINEAGES, query_string={"train_id": RUN2}, json={"tag": 3}).get_json() == {"status": "success"}
    client.put(LINEAGES, query_string={"train_id": RUN2}, json={"remark": "lr halved"})
    client.put(LINEAGES, query_string={"train_id": RUN3}, json={"tag": 7, "remark": ""})
    answer = search(client, {"sorted_name": "tag", "sorted_type": "descending"})
    assert dirs(answer)[:2] == [RUN3, RUN2]
    assert answer["object"][1]["added_info"] == {"tag": 3, "remark": "lr halved"}
    assert dirs(search(client, {"sorted_name": "tag"}))[-2:] == [RUN2, RUN3]  # no tag sorts first


def test_tags_are_stored_in_the_workspace_for_the_next_app(base, tmp_path):
    workspace = str(tmp_path / "ws")
    make_app(base, workspace=workspace).test_client().put(LINEAGES, query_string={"train_id": RUN1}, json={"tag": 2})
    with contextlib.closing(sqlite3.connect(tmp_path / "ws" / "lineage" / "edits.db")) as database:
        stored = database.execute("SELECT train_id, tag, remark FROM mindinsight_added_info").fetchall()
    assert stored == [(RUN1, 2, None)]
    app = make_app(base, workspace=workspace)
    lineage_store(app).added_info.poll()  # what the lineage thread does at start
    answer = search(app.test_client(), {"summary_dir": {"eq": RUN1}})
    assert answer["object"][0]["added_info"] == {"tag": 2}


@pytest.mark.parametrize(
    "train_id, body, code, message",
    [
        (RUN1, {"tag": 11}, "50542081", "ValueError. The tag should in [0, 10]."),
        (RUN1, {"tag": -1}, "50542081", "ValueError. The tag should in [0, 10]."),
        (RUN1, {"tag": "1"}, "50542081", "ValueError. 'tag' must be int."),
        (RUN1, {"remark": 5}, "50542081", "ValueError. 'remark' must be str."),
        (RUN1, {"remark": "x" * 129}, "50542081", "ValueError. The length of remark should in [0, 128]."),
        (RUN1, {"color": "red"}, "50542081", "ValueError. Keys of added_info must be in ['tag', 'remark']."),
        (RUN1, [1, 2], "50540002", "Invalid parameter value. The request body should be a dict."),
        ("run1", {"tag": 1}, "50540002", "Invalid parameter value. Summary dir should be relative path"),
        ("./a/b", {"tag": 1}, "50540002", "Invalid parameter value. Summary dir should be relative path"),
        ("./b_summary_ops", {"tag": 1}, "50540002", "Invalid parameter value. Cannot update the lineage"),
        ("./no_such_job", {"tag": 1}, "50545005", "Train job is not exist."),
    ],
)
def test_bad_edits(client, train_id, body, code, message):
    response = client.put(LINEAGES, query_string={"train_id": train_id}, json=body)
    assert response.status_code == 400
    answer = response.get_json()
    assert answer["error_code"] == code and answer["error_msg"].startswith(message), answer


def test_bad_edit_json_and_missing_train_id(client):
    response = client.put(LINEAGES, query_string={"train_id": RUN1}, data=b"{", content_type="application/json")
    assert response.get_json()["error_code"] == "50540002"
    assert client.put(LINEAGES, json={"tag": 1}).get_json()["error_code"] == "50540003"


def test_dataset_graph(client):
    answer = client.get(DATASET_GRAPH, query_string={"train_id": RUN1}).get_json()
    assert answer["summary_dir"] == RUN1 and answer["dataset_graph"]["op_type"] == "Batch"
    leaf = answer["dataset_graph"]
    while leaf["children"]:
        leaf = leaf["children"][0]
    assert leaf["op_type"] == "MnistDataset" and leaf["sampler"]["sampler_name"] == "SequentialSampler"
    assert client.get(DATASET_GRAPH, query_string={"train_id": "./b_summary_ops"}).get_json() == {}
    assert client.get(DATASET_GRAPH, query_string={"train_id": "./no_such_job"}).get_json() == {}


def test_dataset_graph_refuses_bad_and_missing_train_ids(client):
    bad = client.get(DATASET_GRAPH, query_string={"train_id": "../"})
    assert bad.status_code == 400 and bad.get_json()["error_code"] == "50540002"
    missing = client.get(DATASET_GRAPH)
    assert missing.status_code == 400 and missing.get_json()["error_code"] == "50540003"


def test_lineage_covers_jobs_beyond_the_detail_cache(base, tmp_path):
    from mindinsight.backend.application import create_app
    from mindinsight.backend.context import data_manager
    from mindinsight.conf.settings import Settings

    settings = Settings(summary_base_dir=str(base), workspace=str(tmp_path), reload_interval=0).resolved()
    app = create_app(settings, start_loading=False)
    manager = data_manager(app)
    manager.capacity = 1
    manager.refresh_briefs()
    assert search(app.test_client(), {})["count"] == 4


def test_changed_lineage_files_are_parsed_again_and_unchanged_ones_kept(tmp_path):
    base = tmp_path / "base"
    copy_job(f"c_multi_runs/{MULTI_RUNS[0]}", base / "job")
    app = make_app(base, workspace=str(tmp_path / "ws"))
    from mindinsight.backend.context import lineage_store

    store = lineage_store(app)
    client = app.test_client()
    assert search(client, {})["object"][0]["model_lineage"]["test_dataset_count"] == 192
    kept = store.record("./job")
    app_manager = store.manager
    app_manager.refresh_briefs()
    assert store.record("./job") is kept  # nothing changed: the same parse
    # Drop the evaluation lineage file: the job loses its metrics at the next query.
    evaluation = sorted((base / "job").glob("*_lineage"))[-1]
    evaluation.unlink()
    time.sleep(0.01)
    app_manager.refresh_briefs()
    model = search(client, {})["object"][0]["model_lineage"]
    assert model["metric"] == {} and model["test_dataset_count"] is None


TARGETS = "/v1/mindinsight/optimizer/targets/search"


def test_optimizer_targets_rank_hyper_parameters_by_pearson_r(client):
    answer = client.post(TARGETS, json={}).get_json()
    meta = answer["metadata"]
    assert meta["train_ids"] == [LENET, RUN3, RUN2, RUN1]
    names = [item["name"] for item in meta["possible_hyper_parameters"]]
    assert names[:3] == ["learning_rate", "epoch", "batch_size"]
    assert "device_num" not in names and "loss" not in names  # not tunable
    assert {"name": "[U]run", "unselected": True, "reason_code": 1} in meta["unrecognized_params"]
    targets = {target["name"]: target for target in answer["targets"]}
    assert [target["name"] for target in answer["targets"]] == sorted(targets)
    assert "[M]Accuracy" in targets and "loss" in targets
    accuracy = targets["[M]Accuracy"]
    assert len(accuracy["buckets"]) == 5 and sum(bucket[2] for bucket in accuracy["buckets"]) == 4
    lr = next(item for item in accuracy["hyper_parameters"] if item["name"] == "learning_rate")
    rates = [item["data"] for item in meta["possible_hyper_parameters"] if item["name"] == "learning_rate"][0]
    import numpy as np

    assert lr["importance"] == pytest.approx(abs(np.corrcoef(rates, accuracy["data"])[0, 1]))
    importances = [item["importance"] for item in accuracy["hyper_parameters"]]
    assert importances == sorted(importances, reverse=True)
    # a user-defined number only the three runs carry: 3 samples are enough
    lr_x1000 = next(item for item in accuracy["hyper_parameters"] if item["name"] == "[U]lr_x1000")
    assert "reason_code" not in lr_x1000 and lr_x1000["importance"] > 0.5


def test_optimizer_targets_reason_codes(client):
    two = client.post(TARGETS, json={"summary_dir": {"in": [RUN1, RUN2]}}).get_json()
    for target in two["targets"]:
        assert all(item == {**item, "importance": 0, "reason_code": 2} for item in target["hyper_parameters"])
    constant = client.post(TARGETS, json={"optimizer": {"eq": "Momentum"}, "batch_size": {"eq": 32}}).get_json()
    assert constant["metadata"]["train_ids"] == [LENET, RUN1]
    three = client.post(TARGETS, json={"summary_dir": {"in": [RUN1, RUN3, LENET]}}).get_json()
    batch = [
        item
        for target in three["targets"]
        if None not in target["data"]  # a target all three jobs have
        for item in target["hyper_parameters"]
        if item["name"] == "batch_size"  # 32 in all three: r is not a number
    ]
    assert batch and all(item["importance"] == 0 and item["reason_code"] == 3 for item in batch)


def test_optimizer_targets_validate_the_condition(client):
    response = client.post(TARGETS, json={"limit": 0})
    assert response.status_code == 400 and response.get_json()["error_code"] == SEARCH_ERROR
    assert client.post(TARGETS, data=b"[", content_type="application/json").get_json()["error_code"] == "50540002"


# -- 30 MindSpore trainings (tests/fixtures/.../h_lineage_30_runs: only their _lineage files) --
# 12 optimizers, lr 0.0003-1.0 (run_23 and run_24 have no learning_rate), batch 8/16/32/64,
# custom lineage in 16 runs with 4 key sets, evaluation metrics Accuracy and Loss in a 2nd file.


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    base = tmp_path_factory.mktemp("sweep_base")
    for index in range(1, 31):
        copy_job(f"h_lineage_30_runs/run_{index:02d}", base / f"run_{index:02d}")
    app = make_app(base, workspace=str(tmp_path_factory.mktemp("sweep_ws")))
    return app.test_client()


def test_sweep_lists_thirty_runs_and_pages_them(sweep):
    assert search(sweep, {})["count"] == 30
    page = search(sweep, {"sorted_name": "summary_dir", "limit": 7, "offset": 4})
    assert dirs(page) == ["./run_29", "./run_30"] and page["count"] == 30


def test_sweep_missing_learning_rate_sorts_first_and_fails_comparisons(sweep):
    ascending = search(sweep, {"sorted_name": "learning_rate", "lineage_type": {"eq": "model"}})
    assert sorted(dirs(ascending)[:2]) == ["./run_23", "./run_24"]
    rates = [item["model_lineage"]["learning_rate"] for item in ascending["object"][2:]]
    assert rates == sorted(rates) and rates[-1] == 1.0
    small = search(sweep, {"learning_rate": {"lt": 0.001}, "sorted_name": "summary_dir"})
    assert dirs(small) == ["./run_08", "./run_18", "./run_27"]
    descending = search(sweep, {"sorted_name": "learning_rate", "sorted_type": "descending"})
    assert sorted(dirs(descending)[-2:]) == ["./run_23", "./run_24"]


def test_sweep_string_and_user_defined_conditions(sweep):
    adams = search(sweep, {"optimizer": {"in": ["Adam", "LazyAdam"]}, "batch_size": {"le": 16}})
    assert sorted(dirs(adams)) == ["./run_20", "./run_24", "./run_28", "./run_30"]
    alice = search(sweep, {"user_defined/owner": {"eq": "alice"}, "sorted_name": "user_defined/seed"})
    assert dirs(alice) == ["./run_01", "./run_05", "./run_11", "./run_18", "./run_30"]
    customized = search(sweep, {})["customized"]
    assert customized["user_defined/priority"]["type"] == "int"
    assert customized["user_defined/gpu_hours"]["type"] == "float"
    assert customized["metric/Accuracy"]["required"] is True


def test_sweep_targets_use_every_run_with_both_values(sweep):
    answer = sweep.post("/v1/mindinsight/optimizer/targets/search", json={}).get_json()
    accuracy = next(target for target in answer["targets"] if target["name"] == "[M]Accuracy")
    lr = next(item for item in accuracy["hyper_parameters"] if item["name"] == "learning_rate")
    assert "reason_code" not in lr and 0 <= lr["importance"] <= 1
    rates = next(
        item["data"] for item in answer["metadata"]["possible_hyper_parameters"] if item["name"] == "learning_rate"
    )
    assert rates.count(None) == 2
