"""Profiler output discovery and ``POST profile/ops/search`` on real MindSpore 2.10 profiler
CSVs (a ResNet run: 18 operator types, 104 operators, CPU, device 0)."""

import csv
import shutil

import pytest

from mindinsight.errors import error_code
from mindinsight.ingest.discovery import list_summary_dirs
from mindinsight.ingest.profiler_dirs import device_ids, find_profiler_dir
from tests.helpers.apps import make_app
from tests.helpers.fixtures import FIXTURES, copy_job

URL = "/v1/mindinsight/profile/ops/search"
JOB = "./h_profiler_resnet"
PROFILE = "vm_23733_20261123203458746_ascend_ms"
FRAMEWORK = FIXTURES / "h_profiler_resnet" / PROFILE / "FRAMEWORK"


def csv_rows(name: str) -> list[list[str]]:
    with open(FRAMEWORK / name, newline="") as file:
        return list(csv.reader(file))[1:]


def search(client, body, profile=PROFILE, train_id=JOB):
    query = {k: v for k, v in (("profile", profile), ("train_id", train_id)) if v is not None}
    return client.post(URL, query_string=query, json=body)


def code(response) -> str:
    assert 400 <= response.status_code < 500, response.get_data(as_text=True)
    return response.get_json()["error_code"]


def test_train_jobs_report_profiler_only_jobs(client):
    jobs = client.get("/v1/mindinsight/datavisual/train-jobs?limit=99").get_json()["train_jobs"]
    job = next(j for j in jobs if j["train_id"] == JOB)
    assert job["profiler_dir"] == PROFILE and job["profiler_type"] == "cpu" and job["graph_mode"] == "static"
    assert job["summary_files"] == 0 and job["cache_status"] == "NOT_IN_CACHE"
    plain = next(j for j in jobs if j["train_id"] == "./b_summary_ops")
    assert plain["profiler_dir"] is None and plain["profiler_type"] == "" and "graph_mode" not in plain


@pytest.mark.parametrize("fixture", ["e_profiler_legacy", "e_profiler_new", "h_profiler_resnet"])
def test_both_mindspore_layouts_and_the_original_layout_are_found(tmp_path, fixture):
    job = copy_job(fixture, tmp_path / fixture)
    (name, kind) = find_profiler_dir(job)
    assert name.endswith("_ascend_ms") and kind == "cpu" and device_ids(job / name) == ["0"]
    # the original's layout: parsed files directly in a profiler* directory
    original = tmp_path / "orig"
    (original / "profiler").mkdir(parents=True)
    for csv_file in (job / name / "FRAMEWORK").glob("*.csv"):
        shutil.copy(csv_file, original / "profiler" / csv_file.name)
    assert find_profiler_dir(original) == ("profiler", "cpu")
    listed = {info.train_id: info for info in list_summary_dirs(str(tmp_path))}
    assert listed[f"./{fixture}"].profiler_dir == name and listed["./orig"].profiler_dir == "profiler"


def test_a_directory_named_like_profiler_without_output_is_not_one(tmp_path):
    (tmp_path / "job" / "profiler_empty").mkdir(parents=True)
    (tmp_path / "job" / "other").mkdir()
    assert find_profiler_dir(tmp_path / "job") is None
    assert list_summary_dirs(str(tmp_path)) == []


def test_operator_types_equal_the_csv(client):
    body = search(client, {"op_type": "cpu_op_type"}).get_json()
    assert body["col_name"] == [
        "op_type", "type_occurrences", "execution_frequency", "total_compute_time", "avg_time",
        "total_time_proportion",
    ]  # fmt: skip
    rows = csv_rows("cpu_op_type_info_0.csv")
    assert body["size"] == 18 == len(rows) == len(body["object"])
    assert [row[0] for row in body["object"]] == [row[0] for row in rows]  # file order without a sort
    # by hand: "Conv2DBackpropFilter,90,9,148.558,1.65065,0.265494" -> ms to µs, fraction to percent
    conv = next(row for row in body["object"] if row[0] == "Conv2DBackpropFilter")
    assert conv == ["Conv2DBackpropFilter", 90, 9, 148558.0, 1650.65, 26.549]
    # "BiasAddGrad,10,1,0.073587,0.0073587,0.00013151": values below 1 keep 6 decimals
    assert next(row for row in body["object"] if row[0] == "BiasAddGrad") == [
        "BiasAddGrad",
        10,
        1,
        73.587,
        7.359,
        0.013151,
    ]


def test_operator_details_equal_the_csv(client):
    body = search(client, {"op_type": "cpu_op_info"}).get_json()
    rows = csv_rows("cpu_op_detail_info_0.csv")
    assert body["size"] == 104 == len(rows)
    first = body["object"][0]
    assert first[:5] == [*rows[0][:4], int(rows[0][4])] and first[-1] == rows[0][8]
    assert first[5] == round(float(rows[0][5]) * 1000, 3) and first[7] == round(float(rows[0][7]), 6)


def test_sorting_both_ways(client):
    def column(sort):
        body = search(client, {"op_type": "cpu_op_type", "sort_condition": sort}).get_json()
        return [row[3] for row in body["object"]]

    expected = sorted(float(row[3]) * 1000 for row in csv_rows("cpu_op_type_info_0.csv"))
    descending = column({"name": "total_compute_time"})  # descending by default
    assert descending == sorted(descending, reverse=True) and descending[0] == pytest.approx(expected[-1])
    assert column({"name": "total_compute_time", "type": "ascending"}) == descending[::-1]
    names = search(client, {"op_type": "cpu_op_type", "sort_condition": {"name": "op_type", "type": "ascending"}})
    assert [row[0] for row in names.get_json()["object"]] == sorted(
        row[0] for row in csv_rows("cpu_op_type_info_0.csv")
    )


def test_fuzzy_and_exact_filters(client):
    conv = search(
        client, {"op_type": "cpu_op_info", "filter_condition": {"op_type": {"partial_match_str_in": ["conv2d"]}}}
    )
    expected = [row for row in csv_rows("cpu_op_detail_info_0.csv") if "conv2d" in row[1].lower()]
    body = conv.get_json()
    assert body["size"] == len(expected) > 0 and all("conv2d" in row[1].lower() for row in body["object"])
    exact = search(client, {"op_type": "cpu_op_type", "filter_condition": {"op_type": {"in": ["Conv2D", "ReLU"]}}})
    assert sorted(row[0] for row in exact.get_json()["object"]) == sorted(
        row[0] for row in csv_rows("cpu_op_type_info_0.csv") if row[0] in ("Conv2D", "ReLU")
    )
    name = search(client, {"op_type": "cpu_op_info", "filter_condition": {"op_name": {"not_in": ["Conv2D-op0"]}}})
    kept = [row for row in csv_rows("cpu_op_detail_info_0.csv") if row[2] != "Conv2D-op0"]
    assert name.get_json()["size"] == len(kept) < 104


def test_paging_uses_page_index_and_size_counts_all_rows(client):
    every = search(client, {"op_type": "cpu_op_info"}).get_json()["object"]
    page = search(client, {"op_type": "cpu_op_info", "group_condition": {"limit": 10, "offset": 2}}).get_json()
    assert page["object"] == every[20:30] and page["size"] == 104
    last = search(client, {"op_type": "cpu_op_info", "group_condition": {"limit": 100, "offset": 1}}).get_json()
    assert last["object"] == every[100:]
    default_limit = search(client, {"op_type": "cpu_op_info", "group_condition": {"offset": 1}}).get_json()
    assert default_limit["object"] == every[10:20]


def test_views_without_files_answer_no_rows(client):
    body = search(client, {"op_type": "aicore_type"}).get_json()
    assert body == {"col_name": ["op_type", "total_time", "execution_frequency", "percent"], "object": [], "size": 0}
    assert search(client, {"op_type": "cpu_op_type", "device_id": "3"}).get_json()["size"] == 0


def test_the_original_layout_answers_too(tmp_path):
    (tmp_path / "job" / "profiler").mkdir(parents=True)
    for csv_file in FRAMEWORK.glob("*.csv"):
        shutil.copy(csv_file, tmp_path / "job" / "profiler" / csv_file.name)
    client = make_app(tmp_path).test_client()
    jobs = client.get("/v1/mindinsight/datavisual/train-jobs").get_json()["train_jobs"]
    assert [(j["train_id"], j["profiler_dir"], j["profiler_type"]) for j in jobs] == [("./job", "profiler", "cpu")]
    for profile in ("profiler", "./profiler"):  # the original's train-jobs said "./profiler"
        assert search(client, {"op_type": "cpu_op_type"}, profile=profile, train_id="./job").get_json()["size"] == 18


P = 6  # profiler module


@pytest.mark.parametrize(
    "body, expected",
    [
        ({}, error_code(P, 0x183)),
        ({"op_type": "nope"}, error_code(P, 0x183)),
        ({"op_type": "cpu_op_type", "device_id": 0}, error_code(P, 0x182)),
        ({"op_type": "cpu_op_type", "device_id": "a"}, "50540001"),
        ({"op_type": "cpu_op_type", "group_condition": []}, error_code(P, 0x184)),
        ({"op_type": "cpu_op_type", "group_condition": {"limit": 0}}, error_code(P, 0x184)),
        ({"op_type": "cpu_op_type", "group_condition": {"limit": 101}}, error_code(P, 0x184)),
        ({"op_type": "cpu_op_type", "group_condition": {"limit": True}}, error_code(P, 0x184)),
        ({"op_type": "cpu_op_type", "group_condition": {"offset": 1_000_001}}, error_code(P, 0x184)),
        ({"op_type": "cpu_op_type", "sort_condition": {"name": "op_name"}}, error_code(P, 0x185)),
        ({"op_type": "cpu_op_type", "sort_condition": {"name": "op_type", "type": "up"}}, error_code(P, 0x185)),
        ({"op_type": "cpu_op_type", "sort_condition": "x"}, error_code(P, 0x185)),
        ({"op_type": "cpu_op_type", "filter_condition": []}, error_code(P, 0x186)),
        ({"op_type": "cpu_op_type", "filter_condition": {"op_type": {"like": ["a"]}}}, error_code(P, 0x186)),
        ({"op_type": "cpu_op_type", "filter_condition": {"op_type": {"in": "a"}}}, error_code(P, 0x186)),
        ({"op_type": "cpu_op_type", "filter_condition": {"op_name": {"in": [1]}}}, error_code(P, 0x186)),
    ],
)
def test_search_condition_errors(client, body, expected):
    assert code(search(client, body)) == expected


def test_error_codes_are_the_documented_ones():
    assert error_code(P, 0x183) == "50546183" and error_code(P, 0x083) == "50546083"


@pytest.mark.parametrize(
    "profile, train_id, expected",
    [
        (None, JOB, "50540002"),
        (PROFILE, None, "50540002"),
        ("..", JOB, "50540002"),
        ("../b_summary_ops", JOB, "50540002"),
        (PROFILE, "../etc", "50540002"),
        (PROFILE, "./a/b", "50540002"),
        (PROFILE, "h_profiler_resnet", "50540002"),
        (PROFILE, "./no_such_job", "50545005"),
        ("profiler", JOB, "50546083"),
    ],
)
def test_path_errors(client, profile, train_id, expected):
    assert code(search(client, {"op_type": "cpu_op_type"}, profile=profile, train_id=train_id)) == expected


def test_a_symlink_out_of_the_base_dir_is_refused(tmp_path):
    outside = tmp_path / "outside"
    (outside / "profiler").mkdir(parents=True)
    shutil.copy(FRAMEWORK / "cpu_op_type_info_0.csv", outside / "profiler")
    base = tmp_path / "base"
    (base / "job").mkdir(parents=True)
    (base / "job" / "profiler").symlink_to(outside / "profiler")
    client = make_app(base).test_client()
    assert code(search(client, {"op_type": "cpu_op_type"}, profile="profiler", train_id="./job")) == "50540002"


def test_a_changed_file_is_read_again(tmp_path):
    job = copy_job("h_profiler_resnet", tmp_path / "job")
    client = make_app(tmp_path).test_client()
    first = search(client, {"op_type": "cpu_op_type"}, train_id="./job").get_json()
    path = job / PROFILE / "FRAMEWORK" / "cpu_op_type_info_0.csv"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:5]) + "\n")
    second = search(client, {"op_type": "cpu_op_type"}, train_id="./job").get_json()
    assert first["size"] == 18 and second["size"] == 4 and second["object"] == first["object"][:4]


def test_devices(client, tmp_path):
    body = client.get("/v1/mindinsight/profile/devices", query_string={"profile": PROFILE, "train_id": JOB})
    assert body.get_json() == {"device_list": ["0"], "profiler_mode": ""}
    missing = client.get("/v1/mindinsight/profile/devices", query_string={"train_id": JOB})
    assert code(missing) == "50540002"
    unknown = client.get("/v1/mindinsight/profile/devices", query_string={"profile": "profiler", "train_id": JOB})
    assert code(unknown) == "50546083"
    # the original's layout with its per-device meta files
    profiler = tmp_path / "job" / "profiler"
    profiler.mkdir(parents=True)
    shutil.copy(FRAMEWORK / "cpu_op_type_info_0.csv", profiler)
    (profiler / "profiler_info_1.json").write_text('{"context_mode": "graph"}')
    own = make_app(tmp_path).test_client()
    answer = own.get("/v1/mindinsight/profile/devices", query_string={"profile": "profiler", "train_id": "./job"})
    assert answer.get_json() == {"device_list": ["0", "1"], "profiler_mode": "graph"}


def test_messages_follow_the_original():
    from mindinsight.errors import ProfilerParamTypeError
    from mindinsight.services.profiler_ops import validate_condition

    with pytest.raises(ProfilerParamTypeError) as raised:
        validate_condition(["cpu_op_type"])
    assert raised.value.to_json() == {
        "error_code": "50546082",
        "error_msg": "Param type error. Invalid search_condition type, it should be dict.",
    }


def test_error_message_names_the_wrong_part(client):
    body = search(client, {"op_type": "cpu_op_type", "sort_condition": {"name": "op_name"}}).get_json()
    assert body["error_msg"].startswith("The sort_condition in search_condition error, The sorted_name must be in [")


def test_propose_answers_the_common_suggestion_as_the_original_does_for_cpu_output(client):
    query = {"profile": PROFILE, "train_id": JOB}
    answer = client.get("/v1/mindinsight/profile/summary/propose", query_string=query)
    # the original's answer on this output copied into its own profiler/ layout
    assert list(answer.get_json().items()) == [("common-proposer_type_label", None), ("common-profiler_tutorial", None)]


@pytest.mark.parametrize(
    "query, expected",
    [
        ({"train_id": JOB}, "50540002"),
        ({"profile": PROFILE}, "50540002"),
        ({"profile": PROFILE, "train_id": JOB, "device_id": "x"}, "50540001"),
        ({"train_id": JOB, "device_id": "x"}, "50540002"),  # the missing name is reported first
        ({"profile": PROFILE, "train_id": "./no_such_job"}, "50545005"),
        ({"profile": "profiler", "train_id": JOB}, "50546083"),
        ({"profile": "..", "train_id": JOB}, "50540002"),
    ],
)
def test_propose_errors(client, query, expected):
    assert code(client.get("/v1/mindinsight/profile/summary/propose", query_string=query)) == expected


def test_propose_shows_the_msadvisor_recommendation_of_the_asked_device(tmp_path):
    profiler = tmp_path / "job" / "profiler"
    profiler.mkdir(parents=True)
    shutil.copy(FRAMEWORK / "cpu_op_type_info_0.csv", profiler)
    folder = profiler / "msadvisor" / "device_1" / "recommendation"
    folder.mkdir(parents=True)
    (folder / "result.json").write_text('{"model": [{"name": "AICPUModel", "score": 3}], "extra": 1}')
    client = make_app(tmp_path).test_client()
    url = "/v1/mindinsight/profile/summary/propose"
    one = client.get(url, query_string={"profile": "profiler", "train_id": "./job", "device_id": "1"}).get_json()
    assert list(one) == ["common-proposer_type_label", "common-profiler_tutorial", "msadvisor-proposer"]
    assert one["msadvisor-proposer"] == [{"name": "AICPUModel", "score": 3}]
    zero = client.get(url, query_string={"profile": "profiler", "train_id": "./job"}).get_json()
    assert "msadvisor-proposer" not in zero
    (folder / "result.json").write_text("{not json")
    broken = client.get(url, query_string={"profile": "profiler", "train_id": "./job", "device_id": "1"})
    assert code(broken) == "50546085"


def test_profile_info(client, tmp_path):
    url = "/v1/mindinsight/profile/profile_info"
    # MindSpore 2.10's CPU output records no version: the original answers {} then
    assert client.get(url, query_string={"profile": PROFILE, "train_id": JOB}).get_json() == {}
    assert code(client.get(url, query_string={"train_id": JOB})) == "50540002"
    assert code(client.get(url, query_string={"profile": "profiler", "train_id": JOB})) == "50546083"
    assert code(client.get(url, query_string={"profile": PROFILE, "train_id": "./none"})) == "50545005"
    profiler = tmp_path / "job" / "profiler"
    profiler.mkdir(parents=True)
    shutil.copy(FRAMEWORK / "cpu_op_type_info_0.csv", profiler)
    (profiler / "profiler_info_0.json").write_text('{"ms_version": "2.3.1", "context_mode": "graph"}')
    own = make_app(tmp_path).test_client()
    answer = own.get(url, query_string={"profile": "profiler", "train_id": "./job"}).get_json()
    assert answer["state"] is True and answer["ms"] == "2.3.1" and answer["mi"]
    (profiler / "profiler_info_0.json").write_text('{"ms_version": "1.10.1"}')
    old = own.get(url, query_string={"profile": "profiler", "train_id": "./job"}).get_json()
    assert old["state"] is False and old["ms"] == "1.10.1"
    (profiler / "profiler_info_0.json").write_text('{"context_mode": "graph"}')
    assert own.get(url, query_string={"profile": "profiler", "train_id": "./job"}).get_json() == {}
    (profiler / "profiler_info_0.json").write_text("[")
    assert code(own.get(url, query_string={"profile": "profiler", "train_id": "./job"})) == "50546085"


def test_cluster_propose(client, tmp_path):
    url = "/v1/mindinsight/profile/summary/cluster-propose"
    # single-device CPU output: no cluster files, nothing to analyse, as the original answers
    assert client.get(url, query_string={"train_id": JOB}).get_json() == {}
    assert code(client.get(url)) == "50546080"
    assert code(client.get(url, query_string={"train_id": "./no_such_job"})) == "50545005"
    assert code(client.get(url, query_string={"train_id": "./b_summary_ops"})) == "50546083"  # no profiler output
    assert code(client.get(url, query_string={"train_id": "../outside"})) == "50540002"
    profiler = tmp_path / "job" / "profiler"
    profiler.mkdir(parents=True)
    shutil.copy(FRAMEWORK / "cpu_op_type_info_0.csv", profiler)
    own = make_app(tmp_path).test_client()
    assert own.get(url, query_string={"train_id": "./job"}).get_json() == {}
    (profiler / "ascend_cluster_analyse_data-parallel_1_8_0.csv").write_text("step,time\n")
    refused = own.get(url, query_string={"train_id": "./job"})
    assert code(refused) == "50546080" and "not supported" in refused.get_json()["error_msg"]
