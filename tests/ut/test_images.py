"""Image endpoints on real MindSpore logs and on a restarted training written with our writer.

Facts relied on (the original's behaviour): ``image/metadata`` lists ``{wall_time, step,
width, height}`` of at most 10 kept steps per tag, the latest step always kept; an unknown
tag answers 5054500D. ``image/single-image`` answers the stored encoded bytes with a MIME type
sniffed from them; ``step=-1`` is the latest kept image; a step that is not kept (also a
negative one other than -1, or one beyond 64 bits) answers 5054500D, a non-integer step
50540001, a missing one 50540003.
"""

import io
import tracemalloc

import numpy as np
import pytest
from PIL import Image

from mindinsight.backend.context import data_manager
from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.services.images import sniff_mimetype
from mindinsight.summary.writer import SummaryWriter
from tests.helpers.apps import make_app
from tests.helpers.fixtures import FIXTURES, read_events

API = "/v1/mindinsight/datavisual/image"
JOB = "./b_summary_ops"
TAG = "input_image/image"


def error_of(response):
    assert response.status_code == 400, response.get_data(as_text=True)
    return response.get_json()


def written_images(tag: str) -> dict[int, bytes]:
    """``{step: encoded bytes}`` of one image tag as the fixture file holds it (last write wins)."""
    images = {}
    for path in sorted((FIXTURES / "b_summary_ops").glob("*_MS")):
        for event in read_events(path):
            for value in event.summary.value:
                if value.WhichOneof("value") == "image" and value.tag + "/image" == tag:
                    images[event.step] = value.image.encoded_image
    return images


def test_metadata_lists_the_kept_steps_of_the_written_images(client):
    written = written_images(TAG)
    answer = client.get(f"{API}/metadata", query_string={"train_id": JOB, "tag": TAG}).get_json()
    metadatas = answer["metadatas"]
    assert set(answer) == {"metadatas"}
    assert len(written) == 300 and len(metadatas) == limits.STEPS_PER_TAG[PluginName.IMAGE]
    steps = [item["step"] for item in metadatas]
    assert steps == sorted(steps) and set(steps) <= set(written) and steps[-1] == max(written)
    for item in metadatas:
        assert set(item) == {"wall_time", "step", "width", "height"}
        assert (item["width"], item["height"]) == (128, 32)
        assert isinstance(item["wall_time"], float)


def test_single_image_answers_the_stored_bytes_with_their_type(client):
    written = written_images(TAG)
    response = client.get(f"{API}/single-image", query_string={"train_id": JOB, "tag": TAG, "step": 300})
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    assert response.data == written[300]
    with Image.open(io.BytesIO(response.data)) as image:
        assert image.size == (128, 32)


def test_the_uis_cache_busting_parameter_is_ignored(client):
    query = {"train_id": JOB, "tag": TAG, "step": 300}
    plain = client.get(f"{API}/single-image", query_string=query)
    busted = client.get(f"{API}/single-image", query_string={**query, "wt": "1795343913.45"})
    assert busted.status_code == 200 and busted.data == plain.data


def test_step_minus_one_is_the_latest_image(client):
    steps = [item["step"] for item in client.get(f"{API}/metadata?train_id={JOB}&tag={TAG}").get_json()["metadatas"]]
    latest = client.get(f"{API}/single-image", query_string={"train_id": JOB, "tag": TAG, "step": -1})
    assert latest.status_code == 200 and latest.data == written_images(TAG)[steps[-1]]


def test_every_kept_step_is_served(client):
    written = written_images("rgb_pattern/image")
    query = {"train_id": JOB, "tag": "rgb_pattern/image"}
    for item in client.get(f"{API}/metadata", query_string=query).get_json()["metadatas"]:
        response = client.get(f"{API}/single-image", query_string={**query, "step": item["step"]})
        assert response.data == written[item["step"]]


def test_image_answers_are_cacheable_by_the_browser(client):
    query = {"train_id": JOB, "tag": TAG, "step": 300}
    response = client.get(f"{API}/single-image", query_string=query)
    assert response.headers["Cache-Control"] == f"private, max-age={limits.IMAGE_MAX_AGE_SECONDS}"
    assert "Pragma" not in response.headers
    etag = response.headers["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    again = client.get(f"{API}/single-image", query_string=query, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    latest = client.get(f"{API}/single-image", query_string={**query, "step": -1})
    assert latest.headers["Cache-Control"] == "private, max-age=0"  # the latest moves on: revalidate
    metadata = client.get(f"{API}/metadata", query_string={"train_id": JOB, "tag": TAG})
    assert metadata.headers["Cache-Control"] == "no-store"  # JSON answers keep the default
    other = client.get(f"{API}/single-image", query_string={**query, "tag": "rgb_pattern/image", "step": -1})
    assert other.headers["ETag"] != etag


@pytest.mark.parametrize(
    "step, code, message",
    [
        ("99999", "5054500D", "Image is not exist. Detail: Can not find the step with given train job id and tag."),
        ("-5", "5054500D", "Image is not exist. Detail: Can not find the step with given train job id and tag."),
        (
            "99999999999999999999999",
            "5054500D",
            "Image is not exist. Detail: Can not find the step with given train job id and tag.",
        ),
        ("abc", "50540001", "Invalid parameter type. 'step' expect Integer type."),
        ("1.5", "50540001", "Invalid parameter type. 'step' expect Integer type."),
    ],
)
def test_single_image_bad_steps(client, step, code, message):
    answer = error_of(client.get(f"{API}/single-image", query_string={"train_id": JOB, "tag": TAG, "step": step}))
    assert answer == {"error_code": code, "error_msg": message}


def test_single_image_without_step(client):
    answer = error_of(client.get(f"{API}/single-image", query_string={"train_id": JOB, "tag": TAG}))
    assert answer == {"error_code": "50540003", "error_msg": "Param missing. 'step' is required."}


@pytest.mark.parametrize("path, extra", [("metadata", {}), ("single-image", {"step": 1})])
def test_unknown_tag_and_job(client, path, extra):
    for tag in ("nope/image", "loss_op/scalar"):
        answer = error_of(client.get(f"{API}/{path}", query_string={"train_id": JOB, "tag": tag, **extra}))
        assert answer == {
            "error_code": "5054500D",
            "error_msg": "Image is not exist. Detail: Invalid parameter value. "
            "Can not find any data in this train job by given tag.",
        }
    answer = error_of(client.get(f"{API}/{path}", query_string={"train_id": "./nope", "tag": TAG, **extra}))
    assert answer["error_code"] == "50545005"


@pytest.mark.parametrize(
    "data, mimetype",
    [
        (b"\x89PNG\r\n\x1a\n....", "image/png"),
        (b"\xff\xd8\xff\xe0..JFIF", "image/jpeg"),
        (b"GIF89a...", "image/gif"),
        (b"GIF87a...", "image/gif"),
        (b"BM6\x00\x00", "image/bmp"),
        (b"RIFF\x00\x00WEBP", "application/octet-stream"),
        (b"", "application/octet-stream"),
    ],
)
def test_sniff_mimetype(data, mimetype):
    assert sniff_mimetype(data) == mimetype


def pattern(session: int, step: int) -> np.ndarray:
    """A 4x6 grey image that names its session and step in its pixels."""
    return np.full((4, 6), session * 100 + step % 50, dtype=np.uint8)


@pytest.fixture(scope="module")
def restarted(tmp_path_factory):
    """A training restarted in the same dir: file 1 steps 1..50, file 2 (newer) steps 41..90."""
    base = tmp_path_factory.mktemp("restart_base")
    for session, (timestamp, steps) in enumerate(((1700000000, range(1, 51)), (1700000100, range(41, 91))), 1):
        with SummaryWriter(base / "run", timestamp=timestamp) as writer:
            for step in steps:
                writer.add_image("digits", pattern(session, step), step, wall_time=timestamp + step)
                writer.add_tensor("weights", np.full((2, 3), session * 1000 + step, dtype=np.float32), step)
    app = make_app(base)
    return app.test_client(), data_manager(app)


def pixels(data: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image)


def test_restarted_training_keeps_the_new_session_from_the_restart_step(restarted):
    client, _ = restarted
    query = {"train_id": "./run", "tag": "digits/image"}
    metadatas = client.get(f"{API}/metadata", query_string=query).get_json()["metadatas"]
    steps = [item["step"] for item in metadatas]
    assert len(steps) == limits.STEPS_PER_TAG[PluginName.IMAGE] and steps[-1] == 90
    assert steps == sorted(set(steps))
    for item in metadatas:
        session = 2 if item["step"] >= 41 else 1
        assert item["wall_time"] == (1700000100 if session == 2 else 1700000000) + item["step"]
        image = client.get(f"{API}/single-image", query_string={**query, "step": item["step"]})
        assert (pixels(image.data) == session * 100 + item["step"] % 50).all()
    latest = client.get(f"{API}/single-image", query_string={**query, "step": -1})
    assert (pixels(latest.data) == 200 + 90 % 50).all()


def test_large_image_is_kept_and_served_whole(tmp_path):
    """An image over 10 MB is stored and served as written (the original has no image size limit),
    and loading it holds no extra copies (tracemalloc peak of the load)."""
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 256, size=(2000, 2000, 3), dtype=np.uint8)  # PNG cannot compress noise: ~12 MB
    buffer = io.BytesIO()
    Image.fromarray(noise).save(buffer, format="PNG", compress_level=0)
    encoded = buffer.getvalue()
    assert len(encoded) > 10 * 1024 * 1024
    with SummaryWriter(tmp_path / "base" / "big") as writer:
        for step in range(1, 4):
            writer.add_image("big", encoded, step)
    tracemalloc.start()
    client = make_app(tmp_path / "base").test_client()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # the three kept images plus the record being read and its parsed bytes: no other copy
    assert peak < 6 * len(encoded), peak
    response = client.get(f"{API}/single-image", query_string={"train_id": "./big", "tag": "big/image", "step": 3})
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert response.data == encoded
