"""Loss landscape endpoints on a real MindSpore 2.10 log (two PCA interval landscapes over epochs
[1..4] and [5..8], one random-direction final landscape in a separate ``_MS`` file)."""

import numpy as np
import pytest

from mindinsight.errors import LandscapeNotExistError, ParamMissError, ParamValueError, TrainJobNotExistError
from mindinsight.services.landscapes import interval_id
from tests.helpers.apps import make_app
from tests.helpers.fixtures import FIXTURES, copy_job, read_events

API = "/v1/mindinsight/datavisual/landscape"
JOB = "./d_landscape_epoch"


def written_landscapes() -> list:
    """Every LossLandscape message of the fixture's summary files, read with protobuf directly."""
    found = []
    for path in sorted((FIXTURES / "d_landscape_epoch").glob("*_MS")):
        for event in read_events(path):
            found.extend(v.loss_landscape for v in event.summary.value if v.HasField("loss_landscape"))
    return found


def as_list(tensor) -> list:
    return np.asarray(tensor.float_data, dtype=np.float32).reshape(tuple(tensor.dims)).tolist()


def intervals(client, train_id=JOB):
    return client.get(f"{API}/intervals", query_string={"train_id": train_id})


def landscapes(client, **params):
    return client.get(f"{API}/landscapes", query_string=params)


def test_fixture_holds_two_interval_landscapes_and_one_final():
    written = written_landscapes()
    assert sorted(list(w.loss_path.intervals) for w in written) == [[], [1, 2, 3, 4], [5, 6, 7, 8]]


def test_intervals_list_first_and_last_value_sorted(client):
    body = intervals(client).get_json()
    assert [entry["value"] for entry in body["intervals"]] == [[1, 4], [5, 8]]
    assert [entry["id"] for entry in body["intervals"]] == [interval_id([1, 2, 3, 4]), interval_id([5, 6, 7, 8])]
    assert len({entry["id"] for entry in body["intervals"]}) == 2


def test_interval_ids_depend_only_on_the_intervals():
    assert interval_id([1, 2, 3]) == interval_id((1, 2, 3)) != interval_id([1, 2, 4])
    int(interval_id([1, 2, 3]))  # a decimal string like the original's


def test_interval_ids_are_equal_across_app_builds(tmp_path):
    def ids(name):
        base = tmp_path / name
        copy_job("d_landscape_epoch", base / "d_landscape_epoch")
        return [entry["id"] for entry in intervals(make_app(base).test_client()).get_json()["intervals"]]

    assert ids("first") == ids("second")


@pytest.mark.parametrize("wanted", [[1, 2, 3, 4], [5, 6, 7, 8]])
def test_interval_landscape_equals_the_written_event(client, wanted):
    written = next(w for w in written_landscapes() if list(w.loss_path.intervals) == wanted)
    body = landscapes(client, train_id=JOB, type="interval", interval_id=interval_id(wanted)).get_json()
    (landscape,) = body["landscapes"]
    assert list(landscape) == ["train_id", "points", "path", "metadata", "convergence_point"]
    assert landscape["train_id"] == JOB
    for axis in "xyz":
        assert landscape["points"][axis] == as_list(getattr(written.landscape, axis))
        assert landscape["path"][axis] == as_list(getattr(written.loss_path.points, axis))
    assert np.shape(landscape["points"]["z"]) == (5, 5)
    assert landscape["path"]["intervals"] == wanted
    assert landscape["convergence_point"] == [
        float(np.float32(getattr(written.convergence_point, axis).float_data[0])) for axis in "xyz"
    ]
    metadata = landscape["metadata"]
    assert metadata["decomposition"] == "PCA" == written.metadata.decomposition
    assert metadata["unit"] == "epoch" and metadata["step_per_epoch"] == written.metadata.step_per_epoch
    # lineage of the job's _lineage file, formatted as the original (6-digit exponent)
    assert metadata["network"] == "LeNet5" and metadata["optimizer"] == "Adam"
    assert metadata["learning_rate"] == "1.000000e-03" and metadata["metric"] == {}
    assert metadata["loss"].endswith("e-04")


def test_hand_checked_values(client):
    body = landscapes(client, train_id=JOB, type="interval", interval_id=interval_id([1, 2, 3, 4])).get_json()
    path = body["landscapes"][0]["path"]
    assert path["x"][-1] == 0.0 and path["z"][-1] == pytest.approx(0.00448399968)


def test_final_landscape_has_no_path(client):
    written = next(w for w in written_landscapes() if not w.loss_path.intervals)
    (landscape,) = landscapes(client, train_id=JOB, type="final").get_json()["landscapes"]
    assert "path" not in landscape and landscape["metadata"]["decomposition"] == "Random"
    assert landscape["points"]["z"] == as_list(written.landscape.z)
    assert landscape["points"]["x"] == [-1.0, -0.5, 0.0, 0.5, 1.0]


def test_several_jobs_with_per_item_errors(client):
    body = landscapes(
        client, train_id=[JOB, "d_landscape_epoch", "./no_such_job", "./a_lenet_collector"], type="final"
    ).get_json()
    items = body["landscapes"]
    assert items[0]["train_id"] == JOB and "points" in items[0]
    assert items[1:] == [
        {"error_code": ParamValueError().code, "train_id": "d_landscape_epoch"},
        {"error_code": TrainJobNotExistError().code, "train_id": "./no_such_job"},
        {"error_code": LandscapeNotExistError().code, "train_id": "./a_lenet_collector"},
    ]
    assert body["landscapes"][1]["error_code"] == "50540002" and items[3]["error_code"] == "50545017"


@pytest.mark.parametrize(
    "params",
    [
        {"type": "interval", "interval_id": "0"},
        {"type": "interval"},
        {"type": "training", "interval_id": interval_id([1, 2, 3, 4])},
    ],
)
def test_no_matching_landscape(client, params):
    body = landscapes(client, train_id=JOB, **params).get_json()
    assert body == {"landscapes": [{"error_code": "50545017", "train_id": JOB}]}


def test_no_train_id_gives_no_landscapes(client):
    assert landscapes(client).get_json() == {"landscapes": []}


def test_intervals_errors(client):
    missing = client.get(f"{API}/intervals")
    assert missing.status_code == 400 and missing.get_json()["error_code"] == ParamMissError("train_id").code
    unknown = intervals(client, "./no_such_job")
    assert unknown.status_code == 400 and unknown.get_json()["error_code"] == "50545005"
    assert intervals(client, "./a_lenet_collector").get_json() == {"intervals": []}
