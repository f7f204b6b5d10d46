"""Images and tensors served by the real server: real MindSpore logs, and a training that
restarts while the server watches (the new session replaces the old one from the restart
step on, docs/FORMATS.md §5 item 7, for images and tensors alike)."""

import io
import time

import numpy as np
import pytest
from PIL import Image

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.summary.writer import SummaryWriter, image_proto, tensor_proto
from tests.helpers.fixtures import read_events
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

JOB = "./b_summary_ops"


def written(job_dir, kind: str, tag: str) -> dict:
    """``{step: value}`` of one tag of ``kind`` in the job's files (last write wins)."""
    found = {}
    for path in sorted(job_dir.glob("*_MS")):
        for event in read_events(path):
            for value in event.summary.value:
                if value.WhichOneof("value") == kind and f"{value.tag}/{kind}" == tag:
                    found[event.step] = getattr(value, kind)
    return found


def test_images_of_a_real_log(fixture_server, fixture_base):
    tag = "input_image/image"
    images = written(fixture_base / "b_summary_ops", "image", tag)
    metadatas = fixture_server.get("/datavisual/image/metadata", params={"train_id": JOB, "tag": tag}).json()
    steps = [item["step"] for item in metadatas["metadatas"]]
    assert len(steps) == limits.STEPS_PER_TAG[PluginName.IMAGE] and steps[-1] == max(images)
    for step in steps:
        for _ in range(2):  # the second answer is the front's reused one: the same bytes
            response = fixture_server.get(
                "/datavisual/image/single-image", params={"train_id": JOB, "tag": tag, "step": step}
            )
            assert response.status_code == 200 and response.headers["Content-Type"] == "image/png"
            assert response.content == images[step].encoded_image and response.headers["ETag"]
            assert response.headers["Cache-Control"] == f"private, max-age={limits.IMAGE_MAX_AGE_SECONDS}"
    missing = fixture_server.get("/datavisual/image/single-image", params={"train_id": JOB, "tag": tag, "step": 1})
    assert missing.status_code == 400 and missing.json()["error_code"] == "5054500D"


def test_tensors_of_a_real_log(fixture_server, fixture_base):
    tag = "conv1_feature_map/tensor"
    tensors = written(fixture_base / "b_summary_ops", "tensor", tag)
    params = {"train_id": JOB, "tag": tag}
    values = fixture_server.get("/datavisual/tensors", params={**params, "detail": "stats"}).json()
    (item,) = values["tensors"]
    assert [value["step"] for value in item["values"]][-1] == 300
    for value in item["values"]:
        array = np.array(tensors[value["step"]].float_data, dtype=np.float32)
        assert value["value"]["statistics"]["overall_max"] == float(array.max())
    response = fixture_server.get(
        "/datavisual/tensors", params={**params, "detail": "data", "step": 300, "dims": "[2,:,:]"}
    )
    (value,) = response.json()["tensors"][0]["values"]
    expected = np.array(tensors[300].float_data, dtype=np.float32).reshape(4, 8, 8)[2]
    assert value["value"]["data"] == expected.tolist()
    bad = fixture_server.get("/datavisual/tensors", params={**params, "detail": "data", "step": 300, "dims": "[x]"})
    assert bad.status_code == 400 and bad.json()["error_code"] == "50540002"


def grey(session: int, step: int) -> np.ndarray:
    return np.full((3, 5), session * 100 + step % 50, dtype=np.uint8)


def write_session(job_dir, session: int, timestamp: int, steps) -> None:
    with SummaryWriter(job_dir, timestamp=timestamp) as writer:
        for step in steps:
            writer.add_values(
                step,
                {
                    "digits": image_proto(grey(session, step)),
                    "weights": tensor_proto(np.full((2, 2), session * 1000 + step, dtype=np.float32)),
                },
                wall_time=float(timestamp + step),
            )


@pytest.fixture
def restarting(tmp_path):
    base = tmp_path / "base"
    write_session(base / "run", 1, 1700000000, range(1, 51))
    with running_server(base, tmp_path / "workspace", reload_interval=1) as server:
        yield server, base / "run"


def latest_step(server, tag: str) -> int | None:
    response = server.get("/datavisual/image/metadata", params={"train_id": "./run", "tag": tag})
    return response.json()["metadatas"][-1]["step"] if response.status_code == 200 else None


def test_a_training_restarted_while_served(restarting):
    server, job_dir = restarting
    wait_for(lambda: latest_step(server, "digits/image") == 50)
    time.sleep(1.1)  # the restarted session's file is newer
    write_session(job_dir, 2, 1700000100, range(41, 91))
    wait_for(lambda: latest_step(server, "digits/image") == 90)
    params = {"train_id": "./run", "tag": "digits/image"}
    metadatas = server.get("/datavisual/image/metadata", params=params).json()["metadatas"]
    for item in metadatas:
        session = 2 if item["step"] >= 41 else 1
        data = server.get("/datavisual/image/single-image", params={**params, "step": item["step"]}).content
        with Image.open(io.BytesIO(data)) as image:
            assert (np.asarray(image) == session * 100 + item["step"] % 50).all(), item
    tensors = server.get(
        "/datavisual/tensors", params={"train_id": "./run", "tag": "weights/tensor", "detail": "stats"}
    ).json()
    values = tensors["tensors"][0]["values"]
    assert values[-1]["step"] == 90 and len(values) == limits.STEPS_PER_TAG[PluginName.TENSOR]
    for value in values:
        session = 2 if value["step"] >= 41 else 1
        assert value["value"]["statistics"]["max"] == session * 1000 + value["step"]
