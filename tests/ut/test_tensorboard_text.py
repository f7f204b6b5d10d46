"""TensorBoard's text plugin (``ingest/kinds/text.py``, ``/datavisual/texts``): texts equal what
``torch.utils.tensorboard`` (the fixtures) and a live ``tensorboardX`` writer were given, in each
tensor form TensorBoard shows (0-d, 1-d, 2-d, the first slice of more), bounded per sample."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from tensorboardX import SummaryWriter
from tensorboardX.proto import summary_pb2, tensor_pb2, tensor_shape_pb2

from mindinsight.backend.api.routing import API_PREFIX
from mindinsight.conf import limits
from tests.helpers.apps import make_app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tensorboard"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())["./model"]["texts"]
NOTES = ["**first** note", "second: <b>bold?</b> `code`", "third\n\n| a | b |\n|---|---|\n| 1 | 2 |"]


def texts(client, train_id: str, tag: str):
    return client.get(API_PREFIX + "/datavisual/texts", query_string={"train_id": train_id, "tag": tag})


def text_summary(tag: str, texts_array: np.ndarray) -> summary_pb2.Summary:
    """The text plugin's tensor form TF2 writes: a string tensor of any rank."""
    tensor = tensor_pb2.TensorProto(
        dtype=7,  # DT_STRING
        tensor_shape=tensor_shape_pb2.TensorShapeProto(
            dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=size) for size in texts_array.shape]
        ),
        string_val=[text.encode() for text in texts_array.reshape(-1).tolist()],
    )
    metadata = summary_pb2.SummaryMetadata(plugin_data=summary_pb2.SummaryMetadata.PluginData(plugin_name="text"))
    return summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag=tag, tensor=tensor, metadata=metadata)])


@pytest.fixture(scope="module")
def torch_client(tmp_path_factory):
    base = tmp_path_factory.mktemp("tb_text") / "base"
    shutil.copytree(FIXTURES / "torch" / "model", base / "model")
    return make_app(base).test_client()


@pytest.mark.parametrize("tag", sorted(EXPECTED))
def test_torch_texts_equal_what_the_writer_was_given(torch_client, tag):
    response = texts(torch_client, "./model", tag)
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert body["train_id"] == "./model" and body["tag"] == tag
    got = [[row["step"], row["text"], row["shape"]] for row in body["texts"]]
    assert got == EXPECTED[tag]
    assert not any(row["truncated"] for row in body["texts"])


def test_text_tags_are_listed_as_written(torch_client):
    plugins = torch_client.get(API_PREFIX + "/datavisual/plugins", query_string={"train_id": "./model"}).get_json()
    assert sorted(plugins["plugins"]["text"]) == sorted(EXPECTED)


def test_a_tag_without_text_and_an_unknown_job_answer_their_errors(torch_client):
    no_tag = texts(torch_client, "./model", "no_such_tag")
    assert no_tag.status_code == 400 and no_tag.get_json()["error_code"] == "50545018"
    no_job = texts(torch_client, "./no_such_job", "notes/text_summary")
    assert 400 <= no_job.status_code < 500 and no_job.get_json()["error_code"] == "50545005"


def test_live_tensorboardx_texts_in_every_form(tmp_path):
    base = tmp_path / "base"
    with SummaryWriter(str(base / "runs" / "tbx")) as writer:
        for step, note in enumerate(NOTES):
            writer.add_text("notes", note, step)
        file_writer = writer._get_file_writer()
        file_writer.add_summary(text_summary("single", np.array("one *text*", dtype=object)), 0)
        file_writer.add_summary(text_summary("column", np.array(["a", "b", "c"], dtype=object)), 0)
        cube = np.array([[["x", "y"], ["z", "w"]], [["not", "shown"], ["not", "shown"]]], dtype=object)
        file_writer.add_summary(text_summary("cube", cube), 0)
        long_text = "é" * (limits.MAX_TEXT_CHARS + 10)
        writer.add_text("long", long_text, 0)
    client = make_app(base).test_client()
    answer = {tag: texts(client, "./runs/tbx", tag).get_json()["texts"] for tag in ("notes/text_summary", "single")}
    assert [[row["step"], row["text"], row["shape"]] for row in answer["notes/text_summary"]] == [
        [step, [[note]], [1]] for step, note in enumerate(NOTES)
    ]
    assert answer["single"][0]["text"] == [["one *text*"]] and answer["single"][0]["shape"] == []

    column = texts(client, "./runs/tbx", "column").get_json()["texts"][0]
    assert column["text"] == [["a"], ["b"], ["c"]] and column["shape"] == [3]
    cube_row = texts(client, "./runs/tbx", "cube").get_json()["texts"][0]
    assert cube_row["text"] == [["x", "y"], ["z", "w"]] and cube_row["shape"] == [2, 2, 2]

    long_row = texts(client, "./runs/tbx", "long/text_summary").get_json()["texts"][0]
    assert long_row["truncated"] is True
    assert long_row["text"] == [[long_text[: limits.MAX_TEXT_CHARS]]]


def test_a_table_past_the_cell_bound_is_cut(tmp_path):
    base = tmp_path / "base"
    cells = np.array([[f"r{row}c{col}" for col in range(2)] for row in range(limits.MAX_TEXT_CELLS)], dtype=object)
    with SummaryWriter(str(base / "run")) as writer:
        writer._get_file_writer().add_summary(text_summary("big", cells), 7)
    row = texts(make_app(base).test_client(), "./run", "big").get_json()["texts"][0]
    assert row["truncated"] is True and row["step"] == 7 and row["shape"] == list(cells.shape)
    assert sum(len(cells_of_row) for cells_of_row in row["text"]) == limits.MAX_TEXT_CELLS
    assert row["text"][0] == ["r0c0", "r0c1"]
