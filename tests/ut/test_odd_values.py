"""Odd values a writer may store are validated or clamped at ingest (issue 17): every answer is
strict JSON with sane numbers, and no value makes a query fail with a 500.

* a histogram bucket count of 2**62 (two such buckets summed overflowed int64 and were served
  negative): counts are clamped to ``limits.MAX_HISTOGRAM_BUCKET_COUNT``; non-finite or huge
  bucket edges are left out, so the display grid stays finite;
* an image width / height of -5 is kept as 0 ("unknown"), the image still served;
* a tensor with negative dims whose product matches its values (``[-2, -3]``) made numpy infer
  the shape and every ``detail`` answer a 500: it is dropped at ingest and logged;
* a single image, tensor or histogram over ``limits.MAX_SAMPLE_BYTES`` is dropped and logged.
"""

import json
import logging

import numpy as np
import pytest

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.ingest.event_decoder import decode_payloads
from mindinsight.summary.writer import SummaryWriter, image_proto, tensor_proto
from tests.helpers.apps import make_app

API = "/v1/mindinsight/datavisual"
PNG = image_proto(np.zeros((3, 4), dtype=np.uint8)).encoded_image


def strict_json(response):
    """The body parsed as strict JSON (NaN / Infinity refused)."""

    def refuse(constant):
        raise ValueError(f"not strict JSON: {constant}")

    return json.loads(response.get_data(as_text=True), parse_constant=refuse)


def huge_count_histogram() -> summary_pb.Summary.Histogram:
    histogram = summary_pb.Summary.Histogram(min=0.0, max=1.0, count=2**63 - 1)
    histogram.buckets.add(left=0.0, width=0.5, count=2**62)
    histogram.buckets.add(left=0.5, width=0.5, count=2**62)
    return histogram


def odd_edges_histogram(low: float = -1.0, high: float = 2.0) -> summary_pb.Summary.Histogram:
    histogram = summary_pb.Summary.Histogram(min=low, max=high, count=6)
    histogram.buckets.add(left=0.0, width=1.0, count=3)
    histogram.buckets.add(left=float("nan"), width=1.0, count=1)
    histogram.buckets.add(left=1e308, width=1e308, count=1)
    histogram.buckets.add(left=1.0, width=1.0, count=-7)
    return histogram


def sane_histogram() -> summary_pb.Summary.Histogram:
    """The one sane bucket of ``odd_edges_histogram`` alone."""
    histogram = summary_pb.Summary.Histogram(min=-1.0, max=2.0, count=3)
    histogram.buckets.add(left=0.0, width=1.0, count=3)
    return histogram


def negative_dims_tensor() -> anf_ir.TensorProto:
    tensor = anf_ir.TensorProto(dims=[-2, -3], data_type=anf_ir.DT_FLOAT32)
    tensor.float_data.extend([1, 2, 3, 4, 5, 6])
    return tensor


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    base = tmp_path_factory.mktemp("odd")
    with SummaryWriter(base / "run") as writer:
        for step in (1, 2):
            writer.add_values(
                step,
                {
                    "huge": huge_count_histogram(),
                    "edges": odd_edges_histogram(),
                    "range": odd_edges_histogram(-1e308, float("inf")),
                    "sane": sane_histogram(),
                    "img": summary_pb.Summary.Image(width=-5, height=-1, colorspace=1, encoded_image=PNG),
                    "neg": negative_dims_tensor(),
                    "ok": tensor_proto(np.arange(6, dtype=np.float32).reshape(2, 3)),
                },
            )
    return make_app(base).test_client()


def test_huge_bucket_counts_are_clamped_never_negative(client):
    response = client.get(f"{API}/histograms", query_string={"train_id": "./run", "tag": "huge/histogram"})
    assert response.status_code == 200
    counts = [bucket[2] for item in strict_json(response)["histograms"] for bucket in item["buckets"]]
    assert min(counts) >= 0 and max(counts) <= 2 * limits.MAX_HISTOGRAM_BUCKET_COUNT
    assert sum(counts) >= 2 * limits.MAX_HISTOGRAM_BUCKET_COUNT


@pytest.mark.parametrize("tag", ["edges/histogram", "range/histogram"])
def test_odd_bucket_edges_and_counts_leave_a_finite_grid(client, tag):
    response = client.get(f"{API}/histograms", query_string={"train_id": "./run", "tag": tag})
    assert response.status_code == 200
    histograms = strict_json(response)["histograms"]
    for item in histograms:
        assert all(np.isfinite(bucket[0]) and np.isfinite(bucket[1]) for bucket in item["buckets"])
        assert all(0 <= bucket[2] <= 3 for bucket in item["buckets"])
    if tag == "edges/histogram":  # what is left is the one sane bucket
        sane = client.get(f"{API}/histograms", query_string={"train_id": "./run", "tag": "sane/histogram"})
        assert [item["buckets"] for item in histograms] == [item["buckets"] for item in sane.get_json()["histograms"]]


def test_a_negative_image_size_is_kept_as_unknown(client):
    query = {"train_id": "./run", "tag": "img/image"}
    metadatas = strict_json(client.get(f"{API}/image/metadata", query_string=query))["metadatas"]
    assert [(item["width"], item["height"]) for item in metadatas] == [(0, 0), (0, 0)]
    image = client.get(f"{API}/image/single-image", query_string={**query, "step": 2})
    assert image.status_code == 200 and image.data == PNG


@pytest.mark.parametrize("detail", [None, "stats", "histogram", "data"])
def test_a_tensor_with_negative_dims_answers_a_json_4xx(client, detail):
    query = {"train_id": "./run", "tag": "neg/tensor", "step": 1, "dims": "[:,:]"}
    if detail:
        query["detail"] = detail
    response = client.get(f"{API}/tensors", query_string=query)
    assert response.status_code == 400
    assert strict_json(response)["error_code"] == "50545012"  # TensorNotExistError: the tag holds no tensor
    fine = client.get(f"{API}/tensors", query_string={**query, "tag": "ok/tensor"})
    assert fine.status_code == 200, fine.get_data(as_text=True)


def event_with(tag: str, **value) -> bytes:
    event = summary_pb.Event(step=1, wall_time=1.0)
    item = event.summary.value.add(tag=tag)
    for field, message in value.items():
        getattr(item, field).CopyFrom(message)
    return event.SerializeToString()


def test_odd_values_are_dropped_and_logged_at_ingest(caplog):
    oversize = limits.MAX_SAMPLE_BYTES[PluginName.IMAGE] + 1
    payloads = [
        event_with("neg", tensor=negative_dims_tensor()),
        event_with("big", image=summary_pb.Summary.Image(width=1, height=1, encoded_image=bytes(oversize))),
        event_with("fine", image=summary_pb.Summary.Image(width=3, height=4, encoded_image=PNG)),
    ]
    with caplog.at_level(logging.WARNING, logger="mindinsight.ingest.event_decoder"):
        batch = decode_payloads(payloads).finish()
    assert list(batch.series) == [(PluginName.IMAGE, "fine/image")]
    assert batch.series[(PluginName.IMAGE, "fine/image")]["nbytes"].tolist() == [len(PNG)]
    reasons = {(plugin, tag, why.reason): count for (plugin, tag, why), count in batch.rejected.items()}
    assert reasons == {
        (PluginName.TENSOR, "neg/tensor", "tensor with negative dims [-2, -3]"): 1,
        (PluginName.IMAGE, "big/image", f"image over {oversize - 1} bytes"): 1,
    }
    assert "dropped 1 tensor values of tag 'neg/tensor': tensor with negative dims [-2, -3]" in caplog.text
    assert "dropped 1 image values of tag 'big/image'" in caplog.text


def test_rebin_stays_exact_for_counts_and_edges_at_the_bounds():
    from mindinsight.services.histograms import rebin

    edge, count = limits.MAX_HISTOGRAM_ABS_EDGE, limits.MAX_HISTOGRAM_BUCKET_COUNT
    counts = rebin(np.array([[-edge, edge, float(count)]]), -edge, 2 * edge / 30, 30)
    assert min(counts) >= 0 and abs(sum(counts[:15]) - count) <= count * 1e-9 and sum(counts[15:]) == 0
