"""Odd values on the real server (issue 17): a histogram bucket count of 2**62, an image width of
-5 and a tensor with dims ``[-2, -3]`` (its 6 values match their product) are validated or
clamped at ingest; every answer is strict JSON, 200 with sane numbers or a JSON 4xx, never 500.
"""

import json

import numpy as np
import pytest

from mindinsight.conf import limits
from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.summary.writer import SummaryWriter, image_proto
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

JOB = "./odd"
PNG = image_proto(np.zeros((3, 4), dtype=np.uint8)).encoded_image


def strict_json(response):
    def refuse(constant):
        raise AssertionError(f"not strict JSON: {constant} in {response.text[:200]}")

    return json.loads(response.text, parse_constant=refuse)


@pytest.fixture(scope="module")
def odd_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("odd")
    with SummaryWriter(root / "base" / "odd") as writer:
        for step in (1, 2):
            histogram = summary_pb.Summary.Histogram(min=0.0, max=1.0, count=2**63 - 1)
            histogram.buckets.add(left=0.0, width=0.0, count=2**62)
            histogram.buckets.add(left=0.0, width=0.0, count=2**62)
            tensor = anf_ir.TensorProto(dims=[-2, -3], data_type=anf_ir.DT_FLOAT32, float_data=[1, 2, 3, 4, 5, 6])
            image = summary_pb.Summary.Image(width=-5, height=3, colorspace=1, encoded_image=PNG)
            writer.add_values(step, {"weights": histogram, "picture": image, "feature": tensor})
    with running_server(root / "base", root / "ws", reload_interval=1) as server:
        wait_for(lambda: server.get("/datavisual/plugins", params={"train_id": JOB, "manual_update": "true"}).ok)
        wait_for(lambda: server.get("/datavisual/image/metadata", params={"train_id": JOB, "tag": "picture/image"}).ok)
        yield server


def test_a_bucket_count_of_2_to_the_62_is_never_served_negative(odd_server):
    response = odd_server.get("/datavisual/histograms", params={"train_id": JOB, "tag": "weights/histogram"})
    assert response.status_code == 200
    counts = [bucket[2] for item in strict_json(response)["histograms"] for bucket in item["buckets"]]
    assert all(0 <= count <= 2 * limits.MAX_HISTOGRAM_BUCKET_COUNT for count in counts) and max(counts) > 0


def test_an_image_width_of_minus_5_is_served_as_unknown(odd_server):
    params = {"train_id": JOB, "tag": "picture/image"}
    metadatas = strict_json(odd_server.get("/datavisual/image/metadata", params=params))["metadatas"]
    assert [(item["width"], item["height"]) for item in metadatas] == [(0, 3), (0, 3)]
    image = odd_server.get("/datavisual/image/single-image", params={**params, "step": 1})
    assert image.status_code == 200 and image.content == PNG


@pytest.mark.parametrize("detail", ["stats", "histogram", "data"])
def test_a_tensor_with_negative_dims_answers_a_json_4xx(odd_server, detail):
    params = {"train_id": JOB, "tag": "feature/tensor", "detail": detail, "step": 1, "dims": "[:,:]"}
    response = odd_server.get("/datavisual/tensors", params=params)
    assert 400 <= response.status_code < 500
    assert strict_json(response)["error_code"] == "50545012"
    log = (odd_server.workspace / "log" / "app" / f"mindinsight.{odd_server.port}.log").read_text()
    assert "tensor values of tag 'feature/tensor': tensor with negative dims [-2, -3]" in log
