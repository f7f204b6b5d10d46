"""The cached scalar/metadata answer: the bytes jsonify makes, renewed when the tag changes."""
from flask import jsonify

from mindinsight.backend.application import create_app
from mindinsight.conf.settings import Settings
from mindinsight.services.datavisual import scalars
from mindinsight.summary import SummaryWriter

API = "/v1/mindinsight/datavisual"


def make_app(base):
    app = create_app(Settings(summary_base_dir=str(base), reload_interval=0).resolved(), start_loading=False)
    manager = app.extensions["mindinsight.data_manager"]
    manager.load_all_now()
    return app, manager


def test_cached_body_equals_jsonify_and_follows_new_samples(tmp_path):
    job = tmp_path / "run"
    writer = SummaryWriter(job, timestamp=100)
    for step in range(1, 50):
        writer.add_values(step, {"loss": 1.0 / step, "odd": [float("nan"), float("inf"), 2.5][step % 3],
                                 "ünï": step * 0.1})
    writer.flush()
    app, manager = make_app(tmp_path)
    client = app.test_client()
    for tag in ("loss/scalar", "odd/scalar", "ünï/scalar"):
        response = client.get(f"{API}/scalar/metadata", query_string={"train_id": "./run", "tag": tag})
        with app.app_context():
            expected = jsonify(scalars.scalar_metadata(manager, "./run", tag)).get_data()
        assert response.status_code == 200 and response.mimetype == "application/json"
        assert response.get_data() == expected
    first = client.get(f"{API}/scalar/metadata", query_string={"train_id": "./run", "tag": "loss/scalar"})
    assert len(first.get_json()["metadatas"]) == 49
    again = client.get(f"{API}/scalar/metadata", query_string={"train_id": "./run", "tag": "loss/scalar"})
    assert again.get_data() == first.get_data()

    writer.add_values(50, {"loss": 0.125})
    writer.close()
    manager.load_pass()
    after = client.get(f"{API}/scalar/metadata", query_string={"train_id": "./run", "tag": "loss/scalar"})
    points = after.get_json()["metadatas"]
    assert len(points) == 50 and points[-1]["step"] == 50 and points[-1]["value"] == 0.125


def test_cache_is_bounded():
    cache = scalars._BodyCache(3)

    class Data:
        pass

    datas = [Data() for _ in range(5)]
    samples = {}
    for index, data in enumerate(datas):
        assert cache.get(data, "t", samples, lambda i=index: str(i).encode()) == str(index).encode()
    assert len(cache._entries) == 3
    assert cache.get(datas[-1], "t", samples, lambda: b"rebuilt") == b"4"
    assert cache.get(datas[-1], "t", {}, lambda: b"rebuilt") == b"rebuilt"
