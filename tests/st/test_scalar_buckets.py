"""``/datavisual/scalar/buckets`` on the real server over a log our writer grows while it runs:
a spike the 1,000-point sample drops is in the buckets at every zoom, with the true min and max
of each bucket's points (the values the test wrote), including the points appended after the
first answer; bad parameters answer JSON 4xx, never 500."""

import numpy as np
import pytest

from mindinsight.summary.writer import SummaryWriter
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

JOB = "./live"
TAG = "loss/scalar"
FIRST, SECOND = 6_000, 3_000  # steps written before the server starts, then while it runs
SPIKES = {4_321: 99.0, 7_775: -99.0}  # one in each part, both thinned out of the sample


def written_values() -> np.ndarray:
    values = np.random.default_rng(5).normal(1.0, 0.05, FIRST + SECOND).astype(np.float32)
    for step, value in SPIKES.items():
        values[step - 1] = value
    return values


def buckets(server, **params):
    return server.get("/datavisual/scalar/buckets", params={"train_id": JOB, "tag": TAG, **params})


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    root = tmp_path_factory.mktemp("buckets")
    values = written_values()
    writer = SummaryWriter(root / "base" / "live")
    for step in range(1, FIRST + 1):
        writer.add_values(step, {"loss": float(values[step - 1])})
    writer.flush()
    with running_server(root / "base", root / "ws", reload_interval=1) as server:
        wait_for(lambda: buckets(server, width=10).ok and buckets(server, width=10).json()["count"] == FIRST)
        first_answer = buckets(server, width=100).json()
        for step in range(FIRST + 1, FIRST + SECOND + 1):
            writer.add_values(step, {"loss": float(values[step - 1])})
        writer.close()
        total = FIRST + SECOND
        wait_for(lambda: buckets(server, width=10).json()["count"] == total)
        yield server, first_answer, np.arange(1, total + 1), values


def check(answer, steps, values):
    assert answer["count"] == sum(bucket["count"] for bucket in answer["buckets"])
    for bucket in answer["buckets"]:
        inside = (steps >= bucket["first"]["step"]) & (steps <= bucket["last"]["step"])
        assert bucket["count"] == int(inside.sum())
        assert bucket["min"]["value"] == float(values[inside].min())
        assert bucket["max"]["value"] == float(values[inside].max())


def test_the_sample_drops_the_spikes_the_buckets_keep(live):
    server, first_answer, steps, values = live
    kept = server.get("/datavisual/scalar/metadata", params={"train_id": JOB, "tag": TAG}).json()["metadatas"]
    assert len(kept) == 1000 and not set(SPIKES) & {point["step"] for point in kept}
    check(first_answer, steps[:FIRST], values[:FIRST])
    assert max(bucket["max"]["value"] for bucket in first_answer["buckets"]) == 99.0
    for zoom in (
        {"width": 640},
        {"width": 3},
        {"start": 7_000, "end": 8_000, "width": 200},
        {"start": 7_770, "width": 5},
    ):
        answer = buckets(server, **zoom).json()
        check(answer, steps, values)
        spikes_in_range = [v for s, v in SPIKES.items() if answer["start"] <= s <= answer["end"]]
        extremes = {bucket["max"]["value"] for bucket in answer["buckets"]} | {
            bucket["min"]["value"] for bucket in answer["buckets"]
        }
        assert set(spikes_in_range) <= extremes


@pytest.mark.parametrize(
    "params, code",
    [({"width": 0}, "50540002"), ({"width": "x"}, "50540001"), ({"width": 4, "start": 9, "end": 1}, "50545019")],
)
def test_bad_parameters_answer_json_4xx(live, params, code):
    server = live[0]
    response = buckets(server, **params)
    assert response.status_code == 400 and response.json()["error_code"] == code
