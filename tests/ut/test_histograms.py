"""Histogram display re-binning (docs/BEHAVIOUR.md §4.2) and the histograms endpoint on a real log."""

import numpy as np
import pytest

from mindinsight.backend.context import data_manager
from mindinsight.conf.plugins import PluginName
from mindinsight.ingest.kinds.histogram import HistogramSample
from mindinsight.services.histograms import display_bins, display_histograms, rebin

API = "/v1/mindinsight/datavisual"
TAG = "conv1_out/histogram"


@pytest.mark.parametrize(
    "count, bins", [(0, 1), (1, 2), (5, 2), (6, 3), (10, 3), (11, 3), (21, 4), (280, 29), (281, 30), (10**9, 30)]
)
def test_display_bins(count, bins):
    assert display_bins(count) == bins


def test_rebin_spreads_counts_by_overlap_and_rounds_up():
    buckets = np.array([[0.0, 1.0, 4.0], [1.0, 1.0, 6.0]])
    assert rebin(buckets, 0.0, 0.5, 4) == [2, 2, 3, 3]
    assert rebin(np.array([[0.0, 2.0, 3.0]]), 0.0, 1.0, 2) == [2, 2]  # 1.5 each, rounded up
    assert rebin(np.array([[0.1, 0.3, 3.0]]), 0.0, 0.1, 5) == [0, 1, 1, 1, 0]  # float error stays out


def test_rebin_puts_zero_width_buckets_whole():
    assert rebin(np.array([[0.75, 0.0, 5.0], [2.0, 0.0, 1.0]]), 0.0, 1.0, 2) == [5, 1]


def samples(*histograms):
    return {
        "step": np.arange(1, len(histograms) + 1),
        "wall_time": np.arange(len(histograms), dtype=float),
        "histogram": list(histograms),
    }


def test_all_steps_share_one_grid_and_empty_steps_are_zero():
    first = HistogramSample(np.array([[0.0, 1.0, 3.0]]), 0.0, 1.0)
    second = HistogramSample(np.array([[1.0, 1.0, 2.0]]), 1.0, 2.0)
    empty = HistogramSample(np.zeros((0, 3)), 0.0, 0.0)
    answer = display_histograms(samples(first, second, empty))
    assert [item["step"] for item in answer] == [1, 2, 3]
    grids = {tuple((left, width) for left, width, _ in item["buckets"]) for item in answer}
    assert grids == {((0.0, 1.0), (1.0, 1.0))}  # range 0..2, 3 values -> 2 bins
    assert [[count for *_, count in item["buckets"]] for item in answer] == [[3, 0], [0, 2], [0, 0]]


def test_a_single_value_range_is_widened():
    answer = display_histograms(samples(HistogramSample(np.array([[2.0, 0.0, 4.0]]), 2.0, 2.0)))
    assert answer[0]["buckets"] == [[1.5, 0.5, 0], [2.0, 0.5, 4]]


@pytest.fixture
def served(loaded_app):
    return loaded_app.test_client(), data_manager(loaded_app)


def test_histograms_of_a_real_log(served):
    client, manager = served
    body = client.get(f"{API}/histograms", query_string={"train_id": "./b_summary_ops", "tag": TAG}).get_json()
    kept = manager.job_data("./b_summary_ops").samples(PluginName.HISTOGRAM, TAG)
    assert (body["train_id"], body["tag"]) == ("./b_summary_ops", TAG)
    assert [item["step"] for item in body["histograms"]] == kept["step"].tolist()
    assert len(body["histograms"]) == 50 and body["histograms"][-1]["step"] == kept["step"].max()
    lefts = {tuple(bucket[0] for bucket in item["buckets"]) for item in body["histograms"]}
    assert len(lefts) == 1 and len(next(iter(lefts))) == 30
    for item, sample in zip(body["histograms"], kept["histogram"]):
        total = sum(bucket[2] for bucket in item["buckets"])
        assert sample.count <= total <= sample.count + 30  # every bin rounds up at most once


@pytest.mark.parametrize(
    "query, status, code",
    [
        ({"train_id": "./b_summary_ops", "tag": "nope"}, 400, "5054500F"),
        ({"train_id": "./b_summary_ops"}, 400, "50540003"),
        ({"train_id": "./missing", "tag": TAG}, 400, "50545005"),
        ({"train_id": "../b_summary_ops", "tag": TAG}, 400, "50545005"),
    ],
)
def test_histograms_errors(served, query, status, code):
    response = served[0].get(f"{API}/histograms", query_string=query)
    assert (response.status_code, response.get_json()["error_code"]) == (status, code)
