"""Image, histogram, tensor and text routes share one route shape and one service (``per_tag``)."""

import pytest

from mindinsight.backend.api import TOPICS
from mindinsight.backend.api.per_tag import EXAMPLE_JOB, PerTagTopic
from mindinsight.errors import TrainJobNotExistError, error_code

PER_TAG_TOPICS = [topic for topic in TOPICS if isinstance(topic, PerTagTopic)]
PER_TAG_ROUTES = [(topic, route) for topic in PER_TAG_TOPICS for route in topic.routes]


def test_image_histogram_tensor_and_text_topics_are_per_tag():
    assert sorted(topic.kind.plugin.value for topic in PER_TAG_TOPICS) == ["histogram", "image", "tensor", "text"]


@pytest.mark.parametrize("topic", PER_TAG_TOPICS, ids=lambda topic: topic.name)
def test_example_tag_holds_the_kind(client, topic):
    train_id = topic.routes[0].example["train_id"]  # EXAMPLE_JOB, or a TensorBoard run for text
    train_id = train_id[0] if isinstance(train_id, list) else train_id
    assert train_id == EXAMPLE_JOB or topic.kind.plugin.value == "text"
    plugins = client.get("/v1/mindinsight/datavisual/plugins", query_string={"train_id": train_id}).get_json()
    assert topic.example_tag in plugins["plugins"][topic.kind.plugin.value]


@pytest.mark.parametrize("topic, route", PER_TAG_ROUTES, ids=lambda item: getattr(item, "rule", None))
def test_unknown_job_and_tag_answer_the_declared_errors(client, topic, route):
    assert route.errors[:2] == (TrainJobNotExistError, topic.kind.not_exist)
    as_list = isinstance(route.example["tag"], list)
    for field, value, error in (
        ("train_id", "./no_such_job", TrainJobNotExistError),
        ("tag", "no_such_tag", topic.kind.not_exist),
    ):
        query = {**route.example, field: [value] if as_list else value}
        response = client.get(route.path, query_string=query)
        assert response.status_code == 400, response.get_data(as_text=True)
        assert response.get_json()["error_code"] == error_code(error.module, error.value)
