"""Model lineage shows the hyper-parameters (learning rate, epochs, batch size, optimizer,
network) without "add column", and the parameter-importance panel names them as the table does.

run1..run3 (c_multi_runs) record all five hyper-parameters; epoch and network are the same in
every run.
"""

import pytest
from playwright.sync_api import expect

WAIT = 20_000
HYPER_PARAMETERS = {
    "en-US": ["Network", "Optimizer", "Learning rate", "Epochs", "Batch size"],
    "zh-CN": ["网络", "优化器", "学习率", "训练轮次", "批次大小"],
}
# The server's names of the rated hyper-parameters, as the table names them.
FIELD_NAMES = {
    "en-US": {"learning_rate": "Learning rate", "epoch": "Epochs", "batch_size": "Batch size"},
    "zh-CN": {"learning_rate": "学习率", "epoch": "训练轮次", "batch_size": "批次大小"},
}
BAR_LABELS = """el => {
  const axis = el.__miChart.getOption().yAxis[0]
  return axis.data.map((name) => [name, axis.axisLabel.formatter(name)])
}"""


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_hyper_parameters_are_shown_and_named_alike(new_page, server, locale):
    page = new_page(locale)
    page.goto(f"{server.url}/#/model-traceback")
    headers = page.locator(".el-table__header th")
    expect(page.get_by_test_id("row-path").first).to_be_visible(timeout=WAIT)
    texts = [text.strip() for text in headers.all_inner_texts()]
    for name in HYPER_PARAMETERS[locale]:
        assert name in texts, (name, texts)

    bars = page.get_by_test_id("importance-chart")
    expect(bars).to_have_attribute("data-rendered", "true", timeout=WAIT)
    labels = dict(bars.evaluate(BAR_LABELS))
    rated_fields = {name: label for name, label in labels.items() if name in FIELD_NAMES[locale]}
    assert rated_fields, labels
    for name, label in rated_fields.items():
        assert label == FIELD_NAMES[locale][name]
        assert label in texts
