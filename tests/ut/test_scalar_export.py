"""``GET /datavisual/scalars/export`` in-process: every point the logs hold comes back, in every
format, filtered by the query language; and its errors (real MindSpore fixtures, and a log
written with our SummaryWriter)."""

import csv
import io
import json
import sys

import numpy as np
import pyarrow.parquet as pq
import pytest

from mindinsight.backend.context import data_provider
from mindinsight.conf.limits import EXPORT_CHUNK_POINTS
from mindinsight.summary.writer import SummaryWriter
from tests.helpers.apps import make_app
from tests.helpers.fixtures import copy_job, read_events

PATH = "/v1/mindinsight/datavisual/scalars/export"
WRITTEN = "./written"
# More points than one chunk, with NaN and ±Inf among them.
WRITTEN_POINTS = EXPORT_CHUNK_POINTS + 1234


def written_value(step: int) -> float:
    if step % 9973 == 0:
        return (float("nan"), float("inf"), float("-inf"))[step % 3]
    return np.sin(step * 0.001) * 3 + step * 1e-5


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    base = tmp_path_factory.mktemp("export_base")
    copy_job("b_summary_ops", base / "b_summary_ops")
    copy_job("a_lenet_collector", base / "a_lenet_collector")
    with SummaryWriter(base / "written", timestamp=1_700_000_000) as writer:
        for step in range(1, WRITTEN_POINTS + 1):
            values = {"big": written_value(step)}
            if step % 1000 == 0:
                values['odd, "quoted" tag'] = step / 7
            writer.add_values(step, values, wall_time=1_700_000_000 + step * 0.037)
    return make_app(base), base


def expected_points(base, train_ids) -> dict:
    """``{(run, tag): [(step, wall_time, float32 value)]}`` as the logs hold them, by step; of
    points of equal step the last written is the one kept (docs/BEHAVIOUR.md §4.1: MindSpore's
    SummaryCollector writes an epoch's last loss twice)."""
    points = {}
    for train_id in train_ids:
        for path in sorted((base / train_id[2:]).glob("*_MS")):
            for event in read_events(path):
                for value in event.summary.value:
                    if value.WhichOneof("value") == "scalar_value":
                        series = points.setdefault((train_id, value.tag + "/scalar"), {})
                        series[event.step] = (event.step, event.wall_time, np.float32(value.scalar_value))
    return {key: [series[step] for step in sorted(series)] for key, series in points.items()}


def same_value(a: np.float32, b: np.float32) -> bool:
    return bool(a == b or (np.isnan(a) and np.isnan(b)))


def assert_all_points(rows, expected):
    """``rows``: ``(run, tag, step, wall_time, value)`` as parsed; every expected point, once, exact."""
    got = {}
    for run, tag, step, wall_time, value in rows:
        got.setdefault((run, tag), []).append((int(step), float(wall_time), np.float32(value)))
    assert sorted(got) == sorted(expected)
    for key, points in expected.items():
        assert len(got[key]) == len(points), key
        for (step, wall, value), (g_step, g_wall, g_value) in zip(points, got[key]):
            assert (g_step, g_wall) == (step, wall), key
            assert same_value(g_value, value), (key, step, g_value, value)


def csv_rows(body: bytes):
    reader = csv.reader(io.StringIO(body.decode()))
    assert next(reader) == ["run", "tag", "step", "wall_time", "value"]
    return list(reader)


def json_rows(body: bytes):
    rows = []
    for item in json.loads(body):
        value = item["value"]
        if value is None:
            value = {"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}[item["non_finite"]]
        rows.append((item["run"], item["tag"], item["step"], item["wall_time"], float(value)))
    return rows


def parquet_rows(body: bytes):
    table = pq.read_table(io.BytesIO(body))
    assert table.schema.names == ["run", "tag", "step", "wall_time", "value"]
    assert str(table.schema.field("value").type) == "float"
    return list(zip(*(table.column(name).to_pylist() for name in table.schema.names)))


PARSERS = {"csv": csv_rows, "json": json_rows, "parquet": parquet_rows}
RUNS = ["./b_summary_ops", "./a_lenet_collector", WRITTEN]


@pytest.mark.parametrize("fmt", ["csv", "json", "parquet"])
def test_every_point_comes_back(exported, fmt):
    app, base = exported
    response = app.test_client().get(PATH, query_string={"train_id": RUNS, "format": fmt})
    assert response.status_code == 200, response.get_data()[:300]
    assert response.headers["Content-Disposition"].startswith(f'attachment; filename="scalars.{fmt}"')
    assert response.is_streamed
    expected = expected_points(base, RUNS)
    assert sum(map(len, expected.values())) > WRITTEN_POINTS
    assert int(response.headers["X-Export-Points"]) == sum(map(len, expected.values()))
    assert_all_points(PARSERS[fmt](response.get_data()), expected)


def test_text_without_pyarrow_is_the_same(exported, monkeypatch):
    """Without pyarrow CSV and JSON are made with numpy alone, to the same points; Parquet is refused."""
    app, base = exported
    for name in ("pyarrow", "pyarrow.compute", "pyarrow.parquet"):
        monkeypatch.setitem(sys.modules, name, None)  # what `import pyarrow` meets when it is not installed
    client = app.test_client()
    expected = expected_points(base, [WRITTEN])
    for fmt in ("csv", "json"):
        response = client.get(PATH, query_string={"train_id": WRITTEN, "format": fmt})
        assert response.status_code == 200
        assert_all_points(PARSERS[fmt](response.get_data()), expected)
    response = client.get(PATH, query_string={"train_id": WRITTEN, "format": "parquet"})
    assert response.status_code == 400
    assert response.get_json()["error_code"] == "5054501C"
    assert "pip install 'mindinsight[parquet]'" in response.get_json()["error_msg"]


def test_the_query_and_tags_choose_the_series(exported):
    app, base = exported
    client = app.test_client()
    body = client.get(PATH, query_string={"query": 'name ~ "written|lenet"', "tag_pattern": "^big|loss"}).get_data()
    keys = {(run, tag) for run, tag, *_ in csv_rows(body)}
    assert keys == {(WRITTEN, "big/scalar"), ("./a_lenet_collector", "loss/auto/scalar")}
    body = client.get(PATH, query_string={"train_id": RUNS, "tag": ["big/scalar", "nope"], "format": "json"})
    assert {(row[0], row[1]) for row in json_rows(body.get_data())} == {(WRITTEN, "big/scalar")}
    # The query narrows the runs given, as /datavisual/train-jobs does.
    body = client.get(PATH, query_string={"train_id": RUNS, "query": 'not name == "./written"'}).get_data()
    assert {run for run, *_ in csv_rows(body)} == {"./b_summary_ops", "./a_lenet_collector"}


@pytest.mark.parametrize(
    "query, code",
    [
        ({"train_id": "./no_such_job"}, "50545005"),
        ({"query": 'name == "./no_such_job"'}, "50545005"),
        ({"format": "xlsx"}, "50540002"),
        ({"query": "name =="}, "50540201"),
        ({"query": 'name ~ "("'}, "50540202"),
        ({"tag_pattern": "(unclosed"}, "50540002"),
        ({"train_id": WRITTEN, "tag": "no such tag"}, "5054500E"),
        ({"train_id": [f"./job{i}" for i in range(16)]}, "50540002"),
    ],
)
def test_errors_are_json(exported, query, code):
    app, _ = exported
    response = app.test_client().get(PATH, query_string=query)
    assert 400 <= response.status_code < 500
    assert response.get_json()["error_code"] == code, response.get_json()


def test_points_dropped_for_the_memory_bound_are_refused_not_cut(tmp_path):
    with SummaryWriter(tmp_path / "job") as writer:
        for step in range(1, 11):
            writer.add_scalar("loss", 1 / step, step)
    app = make_app(tmp_path)
    with app.app_context():
        scalars = data_provider().cached_job("./job").full_scalars
    client = app.test_client()
    assert client.get(PATH).status_code == 200
    scalars.drop(too_large=False)  # what the memory bound does to the least recently used job
    response = client.get(PATH)
    assert response.status_code == 503
    assert response.get_json()["error_code"] == "5054501A"
    assert scalars.reread_wanted
    scalars.drop(too_large=True)
    assert client.get(PATH).get_json()["error_code"] == "5054501B"
