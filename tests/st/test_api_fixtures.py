"""The datavisual REST API of a real server on real MindSpore 2.10 logs."""

import math
from urllib.parse import quote

import pytest
import requests

from tests.helpers.fixtures import B_SUMMARY_OPS_SCALAR_TAGS, MULTI_RUNS, read_events, scalar_series
from tests.st.conftest import JOBS

JOB_IDS = {"./" + name.split("/")[-1] for name in JOBS}
SECURITY_HEADERS = {
    "X-Frame-Options": "SAMEORIGIN",
    "X-Content-Type-Options": "nosniff",
    "X-XSS-Protection": "1; mode=block",
    "Cache-Control": "no-store",
}


def expected_value(value: float):
    return value if math.isfinite(value) else None


def kept_points(points):
    """What the server keeps of one file's ``(step, value)`` series: a repeated step replaces
    the earlier sample (docs/FORMATS.md §5, item 7: same file), the rest sorted by step."""
    by_step = {}
    for step, value in points:
        by_step[step] = expected_value(value)
    return sorted(by_step.items())


def tags_in_file(job_dir, kind: str, plugin: str) -> list[str]:
    tags = {
        v.tag + "/" + plugin
        for path in job_dir.glob("*_MS")
        for e in read_events(path)
        for v in e.summary.value
        if v.WhichOneof("value") == kind
    }
    return sorted(tags)


def test_train_jobs_lists_every_job_with_its_files(fixture_server, fixture_base):
    body = fixture_server.get("/datavisual/train-jobs").json()
    assert body["total"] == 5 and body["load_status"] == "loaded"
    assert {job["train_id"] for job in body["train_jobs"]} == JOB_IDS
    for job in body["train_jobs"]:
        job_dir = fixture_base / job["train_id"][2:]
        assert job["relative_path"] == job["train_id"]
        assert job["summary_files"] == len(list(job_dir.glob("*_MS")))
        assert job["lineage_files"] == len(list(job_dir.glob("*_lineage")))
        assert job["cache_status"] == "CACHED" and job["is_integrity"] is True
        assert job["plugins"]["scalar"] == sorted(scalar_series(job_dir))


def test_train_jobs_page_index_paging(fixture_server):
    everything = [j["train_id"] for j in fixture_server.get("/datavisual/train-jobs").json()["train_jobs"]]
    pages = [
        fixture_server.get("/datavisual/train-jobs", params={"offset": page, "limit": 2}).json() for page in range(3)
    ]
    assert [j["train_id"] for page in pages for j in page["train_jobs"]] == everything
    assert [len(page["train_jobs"]) for page in pages] == [2, 2, 1]


def test_plugins_of_b_summary_ops_match_the_file(fixture_server, fixture_base):
    plugins = fixture_server.get("/datavisual/plugins", params={"train_id": "./b_summary_ops"}).json()["plugins"]
    job_dir = fixture_base / "b_summary_ops"
    assert plugins["scalar"] == list(B_SUMMARY_OPS_SCALAR_TAGS)
    assert plugins["image"] == tags_in_file(job_dir, "image", "image")
    assert plugins["histogram"] == tags_in_file(job_dir, "histogram", "histogram")
    assert plugins["tensor"] == tags_in_file(job_dir, "tensor", "tensor")
    assert plugins["graph"] == [next(job_dir.glob("*_MS")).name]


@pytest.mark.parametrize("job", sorted(JOB_IDS))
def test_scalar_metadata_equals_file_contents(fixture_server, fixture_base, job):
    for tag, points in scalar_series(fixture_base / job[2:]).items():
        answer = fixture_server.get("/datavisual/scalar/metadata", params={"train_id": job, "tag": tag}).json()
        got = [(p["step"], p["value"]) for p in answer["metadatas"]]
        assert got == kept_points(points), tag


def test_b_summary_ops_nan_and_inf_are_null(fixture_server):
    answer = fixture_server.get(
        "/datavisual/scalar/metadata", params={"train_id": "./b_summary_ops", "tag": "nan_inf_scalar/scalar"}
    ).json()
    points = {p["step"]: p["value"] for p in answer["metadatas"]}
    assert sorted(points) == list(range(1, 301))
    assert points[150] is None and points[151] is None
    assert all(value is not None for step, value in points.items() if step not in (150, 151))
    # Strict JSON: no bare NaN/Infinity tokens that browsers' JSON.parse rejects (the names
    # appear only as the strings of our additive `non_finite` field).
    raw = fixture_server.get(
        "/datavisual/scalar/metadata", params={"train_id": "./b_summary_ops", "tag": "nan_inf_scalar/scalar"}
    ).text
    assert ":NaN" not in raw and ":Infinity" not in raw and ":-Infinity" not in raw
    assert raw.count('"non_finite":"NaN"') == 1 and raw.count('"non_finite":"Infinity"') == 1


def test_histograms_keep_the_file_steps_on_one_grid(fixture_server, fixture_base):
    job_dir = fixture_base / "a_lenet_collector"
    written = {}
    for path in sorted(job_dir.glob("*_MS")):
        for event in read_events(path):
            for value in event.summary.value:
                if value.WhichOneof("value") == "histogram":
                    written.setdefault(value.tag + "/histogram", {})[event.step] = sum(
                        bucket.count for bucket in value.histogram.buckets
                    )
    assert written
    for tag, counts in written.items():
        answer = fixture_server.get(
            "/datavisual/histograms", params={"train_id": "./a_lenet_collector", "tag": tag}
        ).json()
        steps = [item["step"] for item in answer["histograms"]]
        assert steps == sorted(steps) and set(steps) <= set(counts) and steps[-1] == max(counts), tag
        assert len(steps) == min(50, len(counts))
        assert len({tuple(b[0] for b in item["buckets"]) for item in answer["histograms"]}) == 1
        for item in answer["histograms"]:
            assert sum(b[2] for b in item["buckets"]) >= counts[item["step"]]
    missing = fixture_server.get("/datavisual/histograms", params={"train_id": "./a_lenet_collector", "tag": "x"})
    assert (missing.status_code, missing.json()["error_code"]) == (400, "5054500F")


def test_scalars_across_runs(fixture_server, fixture_base):
    params = [("train_id", "./" + run) for run in MULTI_RUNS] + [("tag", "loss/auto/scalar")]
    scalars = fixture_server.get("/datavisual/scalars", params=params).json()["scalars"]
    assert [s["train_id"] for s in scalars] == ["./" + run for run in MULTI_RUNS]
    for entry in scalars:
        expected = scalar_series(fixture_base / entry["train_id"][2:])["loss/auto/scalar"]
        assert [(v["step"], v["value"]) for v in entry["values"]] == kept_points(expected)


def test_single_job_and_caches(fixture_server):
    body = fixture_server.get(
        "/datavisual/single-job", params={"train_id": "./b_summary_ops", "plugin_name": "scalar"}
    ).json()
    assert body["train_jobs"][0]["id"] == "./b_summary_ops" and len(body["train_jobs"][0]["tags"]) == 6
    caches = fixture_server.post(
        "/datavisual/train-job-caches", json={"train_ids": ["./b_summary_ops", "./missing"]}
    ).json()
    assert caches == {"cache_result": [{"train_id": "./b_summary_ops", "cache_status": "CACHED"}]}


BAD_REQUESTS = [
    ("GET", "/datavisual/plugins", "", 400, "50540003"),
    ("GET", "/datavisual/plugins", "train_id=./nope", 400, "50545005"),
    ("GET", "/datavisual/plugins", "train_id=../", 400, "50545005"),
    ("GET", "/datavisual/plugins", "train_id=" + quote("./../summary_base/b_summary_ops", safe=""), 400, "50545005"),
    ("GET", "/datavisual/plugins", "train_id=" + quote("/etc", safe=""), 400, "50545005"),
    ("GET", "/datavisual/plugins", "train_id=./b_summary_ops%00", 400, "50545011"),
    ("GET", "/datavisual/plugins", "train_id=./" + "a" * 5000, 400, "50540002"),
    ("GET", "/datavisual/plugins", "train_id=./b_summary_ops&manual_update=sometimes", 400, "50540002"),
    ("GET", "/datavisual/train-jobs", "offset=abc", 400, "50540001"),
    ("GET", "/datavisual/train-jobs", "limit=0", 400, "50540002"),
    ("GET", "/datavisual/single-job", "train_id=./b_summary_ops&plugin_name=nope", 400, "5054500B"),
    ("GET", "/datavisual/single-job", "plugin_name=scalar", 400, "50540003"),
    ("GET", "/datavisual/scalar/metadata", "train_id=./b_summary_ops&tag=nope/scalar", 400, "5054500E"),
    ("GET", "/datavisual/scalar/metadata", "train_id=./b_summary_ops", 400, "50540003"),
    ("GET", "/datavisual/scalar/metadata", "train_id=" + quote("../../etc", safe="") + "&tag=a", 400, "50545005"),
    ("GET", "/datavisual/scalar/metadata", "train_id=./b_summary_ops&tag=a%00", 400, "50545011"),
    ("GET", "/datavisual/nope", "", 404, "50545001"),
    ("POST", "/datavisual/train-jobs", "", 405, "50545002"),
]


@pytest.mark.parametrize("method,path,query,status,code", BAD_REQUESTS)
def test_bad_inputs_get_json_errors(fixture_server, method, path, query, status, code):
    response = requests.request(method, f"{fixture_server.api}{path}?{query}", timeout=30)
    assert response.status_code == status
    body = response.json()
    assert body["error_code"] == code and body["error_msg"]
    assert "Traceback" not in response.text


def test_bad_cache_requests(fixture_server):
    for kwargs, code in (
        ({}, "50540003"),
        ({"json": {"train_ids": "./b_summary_ops"}}, "50540001"),
        ({"json": {"train_ids": [3]}}, "50540001"),
        ({"data": "{broken", "headers": {"Content-Type": "application/json"}}, "50540003"),
    ):
        response = fixture_server.post("/datavisual/train-job-caches", **kwargs)
        assert (response.status_code, response.json()["error_code"]) == (400, code)


def test_security_headers_on_api_and_page(fixture_server):
    for url in (
        fixture_server.api + "/datavisual/train-jobs",
        fixture_server.api + "/datavisual/nope",
        fixture_server.api + "/ui-config",
    ):
        response = requests.get(url, timeout=30)
        for name, value in SECURITY_HEADERS.items():
            assert response.headers[name] == value, (url, name)
        assert "default-src 'self'" in response.headers["Content-Security-Policy"]
        assert response.headers["Server"] == "unknown"
