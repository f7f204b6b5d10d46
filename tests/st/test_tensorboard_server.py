"""TensorBoard runs served by the real server (docs/FORMATS.md §8): logs written by
``torch.utils.tensorboard`` (tests/fixtures/tensorboard, expected.json is what the writer was
given) and a live ``tensorboardX`` run, nested at any depth, answered on the original's routes."""

import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from tensorboardX import SummaryWriter

from tests.helpers.server import running_server
from tests.st.conftest import wait_for

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tensorboard"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())
LIVE = "./live/tbx/seed3"


@pytest.fixture(scope="module")
def tb_server(tmp_path_factory):
    base = tmp_path_factory.mktemp("tb") / "base"
    shutil.copytree(FIXTURES / "torch", base)
    with running_server(base, tmp_path_factory.mktemp("tb_ws"), reload_interval=1) as server:
        server.base = base
        yield server


def loaded(server) -> dict:
    body = server.get("/datavisual/train-jobs", params={"limit": 999}).json()
    cached = body["load_status"] == "loaded" and all(job["cache_status"] == "CACHED" for job in body["train_jobs"])
    return body if cached else None


def scalar_points(server, train_id: str, tag: str) -> list:
    response = server.get("/datavisual/scalar/metadata", params={"train_id": train_id, "tag": tag})
    assert response.status_code == 200, response.text
    return [[item["step"], item["value"]] for item in response.json()["metadatas"]]


def test_train_jobs_list_every_run_by_its_relative_path(tb_server):
    body = wait_for(lambda: loaded(tb_server))
    jobs = {job["train_id"]: job for job in body["train_jobs"]}
    assert set(EXPECTED) <= set(jobs)
    assert jobs["./restarted"]["summary_files"] == 2 and jobs["./exp/seed1"]["is_integrity"]
    assert jobs["./exp/seed1"]["relative_path"] == "./exp/seed1"


def test_plugins_name_the_written_tags(tb_server):
    wait_for(lambda: loaded(tb_server))
    plugins = tb_server.get("/datavisual/plugins", params={"train_id": "./exp/seed1"}).json()["plugins"]
    given = EXPECTED["./exp/seed1"]
    assert plugins["scalar"] == sorted(given["scalars"])
    assert plugins["histogram"] == sorted(given["histograms"])
    assert plugins["image"] == sorted(given["images"])


@pytest.mark.parametrize("train_id", sorted(EXPECTED))
def test_scalars_equal_what_the_writer_was_given(tb_server, train_id):
    wait_for(lambda: loaded(tb_server))
    for tag, points in EXPECTED[train_id]["scalars"].items():
        assert scalar_points(tb_server, train_id, tag) == points, tag


def assert_holds(buckets: list, count: int) -> None:
    """The answer re-bins onto one grid and rounds each bin's share up (docs/BEHAVIOUR.md §4.2)."""
    assert count <= sum(bucket[2] for bucket in buckets) < count + len(buckets)


def test_histograms_hold_every_value_given(tb_server):
    wait_for(lambda: loaded(tb_server))
    for tag, per_step in EXPECTED["./exp/seed1"]["histograms"].items():
        response = tb_server.get("/datavisual/histograms", params={"train_id": "./exp/seed1", "tag": tag})
        assert response.status_code == 200, response.text
        answer = response.json()["histograms"]
        assert [str(item["step"]) for item in answer] == list(per_step)
        for item, (count, low, high) in zip(answer, per_step.values()):
            assert_holds(item["buckets"], count)
            first, last = item["buckets"][0], item["buckets"][-1]
            assert first[0] <= low + 1e-9 and last[0] + last[1] >= high - 1e-9


def test_single_images_are_the_pixels_given(tb_server):
    wait_for(lambda: loaded(tb_server))
    for tag, given in EXPECTED["./exp/seed1"]["images"].items():
        listed = tb_server.get("/datavisual/image/metadata", params={"train_id": "./exp/seed1", "tag": tag}).json()
        pixels = np.asarray(given["pixels"], dtype=np.uint8)
        assert [(m["step"], m["height"], m["width"]) for m in listed["metadatas"]] == [
            (given["step"], *pixels.shape[:2])
        ]
        params = {"train_id": "./exp/seed1", "tag": tag, "step": given["step"]}
        response = tb_server.get("/datavisual/image/single-image", params=params)
        assert response.status_code == 200, response.text
        assert np.array_equal(np.asarray(Image.open(io.BytesIO(response.content)).convert("RGB")), pixels)


def test_a_live_tensorboardx_run_is_served_as_it_grows(tb_server):
    wait_for(lambda: loaded(tb_server))
    writer = SummaryWriter(str(tb_server.base / LIVE[2:]), flush_secs=0.05)
    try:
        for step in range(5):
            writer.add_scalar("eval/acc", step / 10, step)
        writer.add_histogram("layer/w", np.arange(100.0), 4)

        def points():
            response = tb_server.get("/datavisual/scalar/metadata", params={"train_id": LIVE, "tag": "eval/acc"})
            return response.ok and len(response.json()["metadatas"]) == 5 and response.json()["metadatas"]

        served = wait_for(points)
        assert [(m["step"], m["value"]) for m in served] == [(s, float(np.float32(s / 10))) for s in range(5)]
        writer.add_scalar("eval/acc", 0.9, 5)
        wait_for(lambda: scalar_points(tb_server, LIVE, "eval/acc")[-1:] == [[5, float(np.float32(0.9))]])
        histograms = tb_server.get("/datavisual/histograms", params={"train_id": LIVE, "tag": "layer/w"}).json()
        assert_holds(histograms["histograms"][0]["buckets"], 100)
    finally:
        writer.close()


def test_nested_ids_keep_the_original_answers_where_it_takes_one_level(tb_server):
    wait_for(lambda: loaded(tb_server))
    response = tb_server.get("/datavisual/plugins", params={"train_id": "./exp/nope"})
    assert response.status_code == 400 and response.json()["error_code"] == "50545005"


def test_a_nested_run_has_no_data_pipeline_rather_than_a_bad_id(tb_server):
    # The dashboard's data-graph card asks every job for its pipeline: a nested TensorBoard run
    # answers "none recorded" as a top-level job without lineage does; a nested id naming no
    # run keeps the original's refusal.
    wait_for(lambda: loaded(tb_server))
    answer = tb_server.get("/datasets/dataset_graph", params={"train_id": "./exp/seed1"})
    assert answer.status_code == 200 and answer.json() == {}
    refused = tb_server.get("/datasets/dataset_graph", params={"train_id": "./exp/nope"})
    assert refused.status_code == 400 and refused.json()["error_code"] == "50540002"
