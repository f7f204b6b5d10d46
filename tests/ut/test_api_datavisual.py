"""The datavisual REST endpoints in-process (Flask test client) on real fixtures."""

import pytest

from tests.helpers.apps import LOADED_JOBS

API = "/v1/mindinsight/datavisual"
LISTED_JOBS = len(LOADED_JOBS) + 1  # and the lineage-only job


def error_of(response):
    return response.status_code, response.get_json()["error_code"]


def test_train_jobs_listing(client):
    body = client.get(f"{API}/train-jobs").get_json()
    assert body["total"] == LISTED_JOBS and body["load_status"] == "loaded" and body["name"].startswith("loaded_base")
    job = next(j for j in body["train_jobs"] if j["train_id"] == "./b_summary_ops")
    assert list(job) == [
        "train_id",
        "relative_path",
        "create_time",
        "update_time",
        "profiler_dir",
        "profiler_type",
        "cache_status",
        "summary_files",
        "graph_files",
        "lineage_files",
        "dump_dir",
        "is_integrity",
        "skipped_records",
        "unreadable_files",
        "unshown_values",
        "dropped_values",
        "plugins",
    ]
    assert job["cache_status"] == "CACHED" and job["summary_files"] == 1 and job["is_integrity"] is True
    assert job["skipped_records"] == 0 and job["unreadable_files"] == []
    assert job["unshown_values"] == [] and job["dropped_values"] == []
    assert len(job["plugins"]["scalar"]) == 6
    assert list(job["plugins"]) == [
        "image",
        "scalar",
        "graph",
        "optimized_graph",
        "histogram",
        "tensor",
        "loss_landscape",
        "text",  # ours: TensorBoard's text plugin, after the original's kinds
    ]
    lineage_only = next(j for j in body["train_jobs"] if j["train_id"] == "./lineage_only")
    assert lineage_only["cache_status"] == "NOT_IN_CACHE" and lineage_only["lineage_files"] == 1


def test_train_jobs_paging_uses_page_index(client):
    everything = [j["train_id"] for j in client.get(f"{API}/train-jobs?limit=999").get_json()["train_jobs"]]
    page = client.get(f"{API}/train-jobs?offset=1&limit=2").get_json()
    assert [j["train_id"] for j in page["train_jobs"]] == everything[2:4] and page["total"] == LISTED_JOBS
    assert client.get(f"{API}/train-jobs?offset=99999999999999999999").get_json()["train_jobs"] == []
    filtered = client.get(f"{API}/train-jobs?train_id=./a_lenet_collector").get_json()
    assert filtered["total"] == 1 and filtered["train_jobs"][0]["train_id"] == "./a_lenet_collector"
    assert client.get(f"{API}/train-jobs?train_id=..%2Fetc").get_json()["total"] == 0


@pytest.mark.parametrize(
    "query,expected",
    [
        ("limit=0", (400, "50540002")),
        ("limit=99999999", (400, "50540002")),
        ("offset=-1", (400, "50540002")),
        ("offset=abc", (400, "50540001")),
        ("train_id=.%2Fx%00", (400, "50545011")),
    ],
)
def test_train_jobs_bad_params(client, query, expected):
    assert error_of(client.get(f"{API}/train-jobs?{query}")) == expected


def test_plugins(client):
    plugins = client.get(f"{API}/plugins?train_id=./b_summary_ops").get_json()["plugins"]
    assert plugins["image"] == ["input_image/image", "rgb_pattern/image"]
    empty = client.get(f"{API}/plugins?train_id=./lineage_only&manual_update=TRUE").get_json()["plugins"]
    assert all(tags == [] for tags in empty.values())


@pytest.mark.parametrize(
    "query,expected",
    [
        ("", (400, "50540003")),
        ("train_id=", (400, "50540003")),
        ("train_id=.%2Fnope", (400, "50545005")),
        ("train_id=..%2F", (400, "50545005")),
        ("train_id=.%2F..%2F..%2Fetc", (400, "50545005")),
        ("train_id=%2Fetc", (400, "50545005")),
        ("train_id=.%2Fb_summary_ops&manual_update=maybe", (400, "50540002")),
        ("train_id=.%2Fb_summary_ops%00", (400, "50545011")),
        ("train_id=.%2F" + "a" * 5000, (400, "50540002")),
    ],
)
def test_plugins_bad_params(client, query, expected):
    assert error_of(client.get(f"{API}/plugins?{query}")) == expected


def test_null_byte_message(client):
    body = client.get(f"{API}/plugins?train_id=.%2Frun%00").get_json()
    assert (
        body["error_msg"]
        == "Query string contains null byte error. Detail: train job id: ./run\x00 contains null byte."
    )


def test_single_job(client):
    body = client.get(f"{API}/single-job?train_id=./a_lenet_collector&plugin_name=image").get_json()
    assert body == {
        "train_jobs": [{"id": "./a_lenet_collector", "name": "./a_lenet_collector", "tags": ["input_data/auto/image"]}]
    }
    assert error_of(client.get(f"{API}/single-job?train_id=./b_summary_ops&plugin_name=foo")) == (400, "5054500B")
    assert error_of(client.get(f"{API}/single-job?train_id=./b_summary_ops")) == (400, "50540003")
    assert error_of(client.get(f"{API}/single-job?plugin_name=scalar")) == (400, "50540003")
    assert error_of(client.get(f"{API}/single-job?train_id=./lineage_only&plugin_name=scalar")) == (400, "50545005")


def test_scalar_metadata_values(client):
    points = client.get(f"{API}/scalar/metadata?train_id=./b_summary_ops&tag=nan_inf_scalar/scalar").get_json()
    points = points["metadatas"]
    assert [p["step"] for p in points] == list(range(1, 301))
    assert points[149]["value"] is None and points[150]["value"] is None
    # Beyond the original: which non-finite value it was (MindSpore wrote NaN at 150, +Inf at 151).
    assert (points[149]["non_finite"], points[150]["non_finite"]) == ("NaN", "Infinity")
    assert "non_finite" not in points[148]
    assert points[148]["value"] == pytest.approx(14.9) and list(points[0]) == ["wall_time", "step", "value"]


@pytest.mark.parametrize(
    "query,expected",
    [
        ("train_id=.%2Fb_summary_ops&tag=nope%2Fscalar", (400, "5054500E")),
        ("train_id=.%2Fb_summary_ops", (400, "50540003")),
        ("tag=a", (400, "50540003")),
        ("train_id=&tag=a", (400, "50540003")),
        ("train_id=..%2F&tag=a", (400, "50545005")),
        ("train_id=.%2F..%2Fb_summary_ops&tag=loss_op%2Fscalar", (400, "50545005")),
        ("train_id=.%2Fb_summary_ops&tag=input_image%2Fimage", (400, "50540001")),
        ("train_id=.%2Flineage_only&tag=a", (400, "50545005")),
    ],
)
def test_scalar_metadata_errors(client, query, expected):
    assert error_of(client.get(f"{API}/scalar/metadata?{query}")) == expected


def test_scalars_comparison(client):
    run1, run2 = "./run1_momentum_lr0.01_bs32", "./run2_momentum_lr0.005_bs16"
    body = client.get(
        f"{API}/scalars?train_id={run1}&train_id={run2}&train_id=./nope&tag=loss/auto/scalar&tag=nope/scalar"
    ).get_json()
    assert [(s["train_id"], s["tag"]) for s in body["scalars"]] == [
        (run1, "loss/auto/scalar"),
        (run2, "loss/auto/scalar"),
    ]
    assert body["scalars"][1]["values"][-1]["step"] == 240
    for query in ("", "?train_id=./b_summary_ops", "?train_id=..%2F&tag=loss_op/scalar"):
        assert client.get(f"{API}/scalars{query}").get_json() == {"scalars": []}


def test_scalars_comparison_compact_gives_the_same_points_as_columns(client):
    """``compact=true`` (ours, for the comparison page): each series as columns of the very points
    the original's answer gives; without it the answer is the original's."""
    run1, tag = "./run1_momentum_lr0.01_bs32", "loss/auto/scalar"
    wanted = f"train_id={run1}&train_id=./b_summary_ops&tag={tag}&tag=nan_inf_scalar/scalar"
    full = client.get(f"{API}/scalars?{wanted}").get_json()["scalars"]
    compact = client.get(f"{API}/scalars?{wanted}&compact=true").get_json()["scalars"]
    assert client.get(f"{API}/scalars?{wanted}&compact=false").get_json()["scalars"] == full
    assert [(s["train_id"], s["tag"]) for s in compact] == [(s["train_id"], s["tag"]) for s in full]
    for columns, points in zip(compact, full):
        assert "values" in points and "steps" not in points
        assert columns["steps"] == [p["step"] for p in points["values"]]
        assert columns["values"] == [p["value"] for p in points["values"]]
        assert columns["wall_times"] == [p["wall_time"] for p in points["values"]]
        named = {str(i): p["non_finite"] for i, p in enumerate(points["values"]) if "non_finite" in p}
        assert columns.get("non_finite", {}) == named
    assert compact[1]["non_finite"] == {"149": "NaN", "150": "Infinity"}
    assert error_of(client.get(f"{API}/scalars?{wanted}&compact=yes")) == (400, "50540002")


def test_train_job_caches(client):
    body = client.post(f"{API}/train-job-caches", json={"train_ids": ["./b_summary_ops", "./nope", "../x"]}).get_json()
    assert body == {"cache_result": [{"train_id": "./b_summary_ops", "cache_status": "CACHED"}]}
    assert error_of(client.post(f"{API}/train-job-caches")) == (400, "50540003")
    assert error_of(client.post(f"{API}/train-job-caches", json={"train_ids": "./x"})) == (400, "50540001")
    assert error_of(client.post(f"{API}/train-job-caches", json={"train_ids": [1]})) == (400, "50540001")
    assert error_of(client.post(f"{API}/train-job-caches", data="{not json", content_type="application/json")) == (
        400,
        "50540003",
    )


def test_routing_errors_and_headers(client):
    assert error_of(client.get(f"{API}/nope")) == (404, "50545001")
    assert error_of(client.post(f"{API}/train-jobs")) == (405, "50545002")
    response = client.get("/v1/mindinsight/ui-config")
    assert response.get_json() == {"enable_debugger": False}
    assert response.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Cache-Control"] == "no-store"
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]


def test_static_path_cannot_escape(client):
    response = client.get("/static/..%2F..%2F..%2F..%2Fetc%2Fpasswd")
    assert response.status_code == 404 and response.get_json()["error_code"] == "50545001"


def test_unexpected_error_is_json_500(client, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("bug")

    monkeypatch.setattr("mindinsight.services.train_jobs.list_train_jobs", boom)
    response = client.get(f"{API}/train-jobs")
    assert response.status_code == 500
    assert response.get_json() == {"error_code": "50540000", "error_msg": "System error."}
