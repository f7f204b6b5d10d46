"""Derived answers: kept while a tag's samples are unchanged, serialized once per change."""

from flask import jsonify

from mindinsight.backend.context import data_manager, data_provider
from mindinsight.backend.json_answers import json_response
from mindinsight.cache.memo import Derived, DerivedValues
from mindinsight.conf.plugins import PluginName
from mindinsight.services import scalars
from mindinsight.summary import SummaryWriter
from tests.helpers.apps import make_app

API = "/v1/mindinsight/datavisual"


def test_body_equals_jsonify_and_follows_new_samples(tmp_path):
    job = tmp_path / "run"
    writer = SummaryWriter(job, timestamp=100)
    for step in range(1, 50):
        writer.add_values(
            step, {"loss": 1.0 / step, "odd": [float("nan"), float("inf"), 2.5][step % 3], "ünï": step * 0.1}
        )
    writer.flush()
    app = make_app(tmp_path)
    manager, provider = data_manager(app), data_provider(app)
    client = app.test_client()
    for tag in ("loss/scalar", "odd/scalar", "ünï/scalar"):
        response = client.get(f"{API}/scalar/metadata", query_string={"train_id": "./run", "tag": tag})
        with app.app_context():
            expected = jsonify(dict(scalars.scalar_metadata(provider, "./run", tag))).get_data()
        assert response.status_code == 200 and response.mimetype == "application/json"
        assert response.get_data() == expected
    first_answer = scalars.scalar_metadata(provider, "./run", "loss/scalar")
    assert scalars.scalar_metadata(provider, "./run", "loss/scalar") is first_answer
    first = client.get(f"{API}/scalar/metadata", query_string={"train_id": "./run", "tag": "loss/scalar"})
    assert len(first.get_json()["metadatas"]) == 49

    writer.add_values(50, {"loss": 0.125})
    writer.close()
    manager.load_pass()
    assert scalars.scalar_metadata(provider, "./run", "loss/scalar") is not first_answer
    after = client.get(f"{API}/scalar/metadata", query_string={"train_id": "./run", "tag": "loss/scalar"})
    points = after.get_json()["metadatas"]
    assert len(points) == 50 and points[-1]["step"] == 50 and points[-1]["value"] == 0.125


class FakeData:
    def __init__(self):
        self.current = {"step": [1]}

    def samples(self, plugin, tag):
        return self.current if tag == "t" else None


def test_memo_rebuilds_only_when_samples_change_and_is_bounded():
    memo = DerivedValues(size=2)
    data = FakeData()
    builds = []

    def build(samples):
        builds.append(samples)
        return Derived(n=len(builds))

    first = memo.get(data, PluginName.SCALAR, "t", "x", build)
    assert memo.get(data, PluginName.SCALAR, "t", "x", build) is first and len(builds) == 1
    data.current = {"step": [1, 2]}
    assert memo.get(data, PluginName.SCALAR, "t", "x", build) is not first and len(builds) == 2
    assert memo.get(data, PluginName.SCALAR, "missing", "x", build) is None
    others = [FakeData() for _ in range(3)]
    for other in others:
        memo.get(other, PluginName.SCALAR, "t", "x", build)
    assert len(memo._entries) == 2


def test_memo_forgets_a_tags_values_of_older_samples():
    """Issue 17: each new latest image step is a new name; the values built from older samples
    must not stay (each kept those samples, with their images, alive)."""
    memo = DerivedValues(size=256)
    data = FakeData()
    for step in range(50):
        data.current = {"step": [step]}
        memo.get(data, PluginName.IMAGE, "t", f"image:{step}", lambda samples: Derived(step=samples["step"][0]))
        memo.get(data, PluginName.IMAGE, "t", "metadata", lambda samples: Derived(step=samples["step"][0]))
    assert [key[3] for key in memo._entries] == ["image:49", "metadata"]
    assert all(entry[1] is data.current for entry in memo._entries.values())


def test_serialized_derived_answer_is_reused_per_object(loaded_app):
    payload = Derived(metadatas=[{"step": 1}])
    with loaded_app.app_context():
        one = json_response(payload).get_data()
        payload["metadatas"].append({"step": 2})  # never done to a live answer: proves reuse
        assert json_response(payload).get_data() == one
        assert json_response(dict(payload)).get_data() != one


def test_comparison_series_are_serialized_once_per_change(tmp_path):
    """A compact comparison answer is its series' kept texts joined: byte for byte what one
    ``json.dumps`` gives, each series the same object until its own samples change."""
    writers = {}
    for run in ("a", "b"):
        writers[run] = SummaryWriter(tmp_path / run, timestamp=100)
        for step in range(1, 30):
            writers[run].add_values(step, {"loss": 1.0 / step, "odd": [float("nan"), 2.5][step % 2]})
        writers[run].flush()
    app = make_app(tmp_path)
    manager, provider = data_manager(app), data_provider(app)
    client = app.test_client()
    ids, tags = ["./a", "./b"], ["loss/scalar", "odd/scalar"]
    query = {"train_id": ids, "tag": tags, "compact": "true"}
    first = scalars.scalars_comparison(provider, ids, tags, compact=True)["scalars"]
    assert [(series["train_id"], series["tag"]) for series in first] == [(i, t) for i in ids for t in tags]
    with app.app_context():
        expected = jsonify({"scalars": [dict(series) for series in first]}).get_data()
    assert client.get(f"{API}/scalars", query_string=query).get_data() == expected
    again = scalars.scalars_comparison(provider, ids, tags, compact=True)["scalars"]
    assert all(new is old for new, old in zip(again, first))

    writers["b"].add_values(30, {"loss": 0.5, "odd": 1.0})
    writers["b"].close()
    manager.load_pass()
    after = scalars.scalars_comparison(provider, ids, tags, compact=True)["scalars"]
    assert after[0] is first[0] and after[1] is first[1]  # run a: unchanged
    assert after[2] is not first[2] and after[2]["steps"][-1] == 30
    answer = client.get(f"{API}/scalars", query_string=query).get_json()["scalars"]
    assert answer[2]["values"][-1] == 0.5 and answer[3]["non_finite"] == {str(i): "NaN" for i in range(1, 29, 2)}
