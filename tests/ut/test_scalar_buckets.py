"""Full-fidelity scalar points (``ingest/full_scalars.py``) and ``/datavisual/scalar/buckets``:
every bucket holds the true min and max of the points it covers, checked against the values the
test wrote, at several zoom levels; the 1,000-point reservoir's answers are unchanged; bad
parameters answer JSON 4xx; the memory bound drops whole jobs and reads them again on demand."""

import json

import numpy as np
import pytest

from mindinsight.backend.context import data_manager
from mindinsight.cache.provider import DataProvider
from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.ingest import full_scalars
from mindinsight.ingest.full_scalars import BLOCK, FullScalarBudget, FullSeries
from mindinsight.ingest.job_data import JobData
from mindinsight.ingest.reservoir import Reservoir
from mindinsight.services import scalar_buckets
from mindinsight.summary.writer import SummaryWriter
from tests.helpers.apps import make_app

BUCKETS = "/v1/mindinsight/datavisual/scalar/buckets"
METADATA = "/v1/mindinsight/datavisual/scalar/metadata"
STEPS = 20_000
SPIKE_STEP = 12_345


def spiky_values(count: int, seed: int = 7) -> np.ndarray:
    """A noisy loss with one spike, a NaN and both infinities (float32, as written)."""
    values = (np.linspace(3, 0.5, count) + np.random.default_rng(seed).normal(0, 0.01, count)).astype(np.float32)
    values[SPIKE_STEP - 1] = 50.0
    values[100] = np.nan
    values[200] = np.inf
    values[300] = -np.inf
    return values


@pytest.fixture(scope="module")
def spiky(tmp_path_factory):
    """An app over a log written by our writer: ``loss`` at steps 1..20,000 and ``lr`` beside it."""
    base = tmp_path_factory.mktemp("buckets") / "base"
    values = spiky_values(STEPS)
    with SummaryWriter(base / "spiky") as writer:
        for step, value in enumerate(values.tolist(), start=1):
            writer.add_values(step, {"loss": float(value), "lr": 0.1})
    return make_app(base).test_client(), np.arange(1, STEPS + 1), values


def ask(client, **params):
    response = client.get(BUCKETS, query_string={"train_id": "./spiky", "tag": "loss/scalar", **params})
    return response.status_code, json.loads(response.text)


def check_buckets(answer: dict, steps: np.ndarray, values: np.ndarray) -> None:
    """Every bucket against the raw points (sorted by step) of its own step span; together they
    cover the range."""
    in_range = (steps >= answer["start"]) & (steps <= answer["end"])
    assert answer["count"] == int(in_range.sum()) == sum(bucket["count"] for bucket in answer["buckets"])
    covered = 0
    for bucket in answer["buckets"]:
        lo, hi = (
            np.searchsorted(steps, bucket["first"]["step"]),
            np.searchsorted(steps, bucket["last"]["step"], "right"),
        )
        raw_steps, raw = steps[lo:hi], values[lo:hi]
        covered += raw.size
        assert bucket["count"] == raw.size
        assert (bucket["nan"], bucket["inf"], bucket["neg_inf"]) == (
            int(np.isnan(raw).sum()),
            int((raw == np.inf).sum()),
            int((raw == -np.inf).sum()),
        )
        finite = np.isfinite(raw)
        if not finite.any():
            assert bucket["min"] is None and bucket["max"] is None
            continue
        low, high = raw[finite].min(), raw[finite].max()
        assert bucket["min"]["value"] == float(low) and bucket["max"]["value"] == float(high)
        assert raw[raw_steps == bucket["min"]["step"]][0] == low
        assert raw[raw_steps == bucket["max"]["step"]][0] == high
        first = raw[0]
        assert bucket["first"]["value"] == (float(first) if np.isfinite(first) else None)
    assert covered == answer["count"]


def test_the_reservoir_drops_the_spike_and_answers_as_before(spiky):
    client, steps, values = spiky
    answer = client.get(METADATA, query_string={"train_id": "./spiky", "tag": "loss/scalar"}).json["metadatas"]
    assert len(answer) == limits.STEPS_PER_TAG[PluginName.SCALAR]
    assert SPIKE_STEP not in {point["step"] for point in answer}
    assert max(point["value"] for point in answer if point["value"] is not None) < 10


@pytest.mark.parametrize(
    "zoom",
    [
        {"width": "800"},  # the whole tag
        {"width": "37"},
        {"width": "1"},
        {"start": "12000", "end": "12700", "width": "50"},  # around the spike
        {"start": "12340", "end": "12350", "width": "8192"},  # a point per bucket
        {"start": "1", "end": "400", "width": "3"},  # NaN and both infinities
    ],
)
def test_every_bucket_holds_the_true_min_and_max(spiky, zoom):
    client, steps, values = spiky
    status, answer = ask(client, **zoom)
    assert status == 200
    check_buckets(answer, steps, values)
    if int(zoom.get("start", 1)) <= SPIKE_STEP <= int(zoom.get("end", STEPS)):
        assert max(bucket["max"]["value"] for bucket in answer["buckets"] if bucket["max"]) == 50.0


def test_non_finite_points_are_counted_and_named(spiky):
    client, _steps, _values = spiky
    _status, answer = ask(client, start="101", end="101", width="1")
    (bucket,) = answer["buckets"]
    assert bucket["nan"] == 1 and bucket["min"] is None and bucket["max"] is None
    assert bucket["first"] == {"step": 101, "value": None, "non_finite": "NaN"}
    _status, answer = ask(client, start="150", end="250", width="1")
    assert answer["buckets"][0]["inf"] == 1 and np.isfinite(answer["buckets"][0]["max"]["value"])


def test_an_empty_range_answers_no_buckets(spiky):
    client, _steps, _values = spiky
    assert ask(client, start=str(STEPS + 1), end=str(STEPS + 50), width="10") == (
        200,
        {"start": STEPS + 1, "end": STEPS + 50, "width": 10, "count": 0, "buckets": []},
    )


@pytest.mark.parametrize(
    "params, status, code",
    [
        ({"width": "0"}, 400, "50540002"),
        ({"width": str(limits.MAX_SCALAR_BUCKETS + 1)}, 400, "50540002"),
        ({"width": "wide"}, 400, "50540001"),
        ({}, 400, "50540003"),
        ({"width": "5", "start": "9", "end": "2"}, 400, "50545019"),
        ({"width": "5", "start": str(2**63)}, 400, "50540002"),
        ({"width": "5", "end": "1.5"}, 400, "50540001"),
        ({"width": "5", "tag": "nope/scalar"}, 400, "5054500E"),
        ({"width": "5", "train_id": "./nope"}, 400, "50545005"),
    ],
)
def test_bad_parameters_answer_json_errors(spiky, params, status, code):
    client, _steps, _values = spiky
    got, answer = ask(client, **params)
    assert (got, answer["error_code"]) == (status, code) and answer["error_msg"]


def test_fixture_buckets_equal_the_points_the_original_answers(fixture_job):
    """A real MindSpore 2.10 log: its 300 points are all in the reservoir, so the original's
    ``scalar/metadata`` answer is the raw truth to check every zoom against."""
    base = fixture_job("b_summary_ops").parent
    client = make_app(base).test_client()
    query = {"train_id": "./b_summary_ops", "tag": "loss_op/scalar"}
    points = client.get(METADATA, query_string=query).json["metadatas"]
    steps = np.array([p["step"] for p in points])
    values = np.array([np.nan if p["value"] is None else p["value"] for p in points], dtype=np.float32)
    for zoom in ({"width": "7"}, {"width": "300"}, {"start": "50", "end": "70", "width": "4"}):
        answer = client.get(BUCKETS, query_string={**query, **zoom}).json
        check_buckets(answer, steps, values)


def test_millions_of_points_use_block_summaries_and_stay_exact():
    """Past a million points a range is reduced from block summaries plus its raw ends."""
    data = JobData(FullScalarBudget(1 << 30))
    count = 3_000_000
    rng = np.random.default_rng(3)
    values = rng.normal(0, 1, count).astype(np.float32)
    values[rng.choice(count, 20, replace=False)] = rng.choice([np.nan, np.inf, -np.inf, 80.0, -80.0], 20)
    steps = np.arange(count, dtype=np.int64) * 2 + 5
    for lo in range(0, count, 700_001):  # uneven batches: blocks straddle them
        hi = min(lo + 700_001, count)
        data.add_batch(
            PluginName.SCALAR,
            "big",
            {
                "step": steps[lo:hi],
                "wall_time": np.zeros(hi - lo),
                "file_ts": np.zeros(hi - lo, dtype=np.int64),
                "value": values[lo:hi],
            },
        )
    view = data.scalar_points("big")
    assert view.blocks["count"].size == count // BLOCK
    for start, end, width in ((None, None, 1000), (1001, 4_000_001, 333), (7, 3_100_000, 1)):
        answer = scalar_buckets.scalar_buckets(_OneJob(data), "./big", "big", start, end, width)
        check_buckets(answer, steps, values)
    assert data.samples(PluginName.SCALAR, "big")["step"].size == limits.STEPS_PER_TAG[PluginName.SCALAR]


class _OneJob(DataProvider):
    """The provider over one ``JobData`` (its real reading methods, no data manager)."""

    def __init__(self, data):  # noqa: D107 - no manager: only the per-tag methods are used
        self._data = data

    def cached_job(self, train_id):
        return self._data


def test_every_point_is_kept_with_the_reservoirs_restart_rules():
    """Batches with restarts (same file and newer files) and SessionLog drops: the full series
    holds exactly what a reservoir that keeps everything holds."""
    rng = np.random.default_rng(1)
    for trial in range(80):
        reservoir, series = Reservoir(0, {"value": np.float32}), FullSeries()
        job = JobData(FullScalarBudget(1 << 30))  # the same batches through a job (shared timelines)
        step = file_ts = 0
        for _ in range(int(rng.integers(1, 8))):
            size = int(rng.integers(1, 700))
            if rng.random() < 0.3:
                step = max(0, step - int(rng.integers(0, 600)))
            file_ts += int(rng.random() < 0.3)
            steps = (step + np.cumsum(rng.integers(0 if rng.random() < 0.1 else 1, 3, size))).astype(np.int64)
            step = int(steps[-1])
            columns = {
                "step": steps,
                "wall_time": rng.random(size),
                "file_ts": np.full(size, file_ts, dtype=np.int64),
                "value": rng.standard_normal(size).astype(np.float32),
            }
            reservoir.add_batch(columns)
            series.add((columns["step"], columns["wall_time"], columns["file_ts"]), columns["value"])
            job.add_batch(PluginName.SCALAR, "loss", dict(columns))
            if rng.random() < 0.1:
                cut = int(rng.integers(0, step + 1))
                reservoir.drop_from(cut)
                series.drop_from(cut)
                job.drop_from_step(cut)
        kept = reservoir.samples()
        for view in (series.view(), job.scalar_points("loss")):
            got_steps, got_values = view.points(0, view.total)
            assert np.array_equal(kept["step"], got_steps) and np.array_equal(kept["value"], got_values), trial


def test_tags_written_by_the_same_events_share_one_timeline():
    budget = FullScalarBudget(1 << 30)
    data = JobData(budget)
    steps = np.arange(10_000, dtype=np.int64)
    columns = {"step": steps, "wall_time": steps * 0.5, "file_ts": np.zeros(10_000, dtype=np.int64)}
    for tag in ("a", "b", "c"):
        data.add_batch(PluginName.SCALAR, tag, {**columns, "value": np.ones(10_000, dtype=np.float32)})
    timeline_bytes = 10_000 * 16
    assert budget.held(data.full_scalars) < timeline_bytes + 3 * 10_000 * 4 + 10_000


def _job_with_points(budget, count: int) -> JobData:
    data = JobData(budget)
    steps = np.arange(count, dtype=np.int64)
    data.add_batch(
        PluginName.SCALAR,
        "loss",
        {"step": steps, "wall_time": steps * 1.0, "file_ts": np.zeros(count), "value": np.ones(count, np.float32)},
    )
    return data


def test_past_the_bound_the_least_recently_used_job_is_dropped_whole():
    budget = FullScalarBudget(2 * 100_000 * 30)
    first, second = _job_with_points(budget, 100_000), _job_with_points(budget, 100_000)
    assert first.scalar_points("loss") is not None  # the first job is now the most recently used
    third = _job_with_points(budget, 100_000)
    assert second.full_scalars.dropped and not second.full_scalars.too_large
    assert second.scalar_points("loss") is None
    assert second.samples(PluginName.SCALAR, "loss")["step"].size == 1000  # the reservoir stays
    assert not first.full_scalars.dropped and not third.full_scalars.dropped
    assert budget.total <= budget.max_bytes
    huge = _job_with_points(budget, 1_000_000)
    assert huge.full_scalars.too_large and budget.total <= budget.max_bytes
    del first, third
    assert budget.total == 0  # gone jobs are forgotten


def test_a_dropped_job_answers_503_and_is_read_again(fixture_job, monkeypatch):
    base = fixture_job("b_summary_ops").parent
    app = make_app(base)
    client = app.test_client()
    query = {"train_id": "./b_summary_ops", "tag": "loss_op/scalar", "width": "10"}
    before = client.get(BUCKETS, query_string=query).json
    data = data_manager(app).job_data("./b_summary_ops")
    monkeypatch.setattr(full_scalars.BUDGET, "max_bytes", 0)  # the next point pushes every job out
    data.add_batch(
        PluginName.SCALAR,
        "other",
        {"step": np.array([1]), "wall_time": np.array([1.0]), "file_ts": np.array([0]), "value": np.array([1.0])},
    )
    assert data.full_scalars.dropped
    response = client.get(BUCKETS, query_string=query)
    assert (response.status_code, response.json["error_code"]) == (503, "5054501B")  # alone past the bound
    monkeypatch.setattr(full_scalars.BUDGET, "max_bytes", limits.FULL_SCALAR_BYTES)
    data.full_scalars.too_large = False  # as if another job had pushed it out
    response = client.get(BUCKETS, query_string=query)
    assert (response.status_code, response.json["error_code"]) == (503, "5054501A")
    data_manager(app).load_pass()  # the loader reads the job again
    assert client.get(BUCKETS, query_string=query).json == before
