"""The "NaN" marker of a scalar chart does not cover the step labels under its x axis: both stay
readable (b_summary_ops' nan_inf_scalar/scalar has NaN at step 150, +Infinity at step 151)."""

import pytest
from playwright.sync_api import expect

WAIT = 20_000
TAG = "nan_inf_scalar/scalar"

# Page-independent boxes [x, y, width, height] of the drawn texts, by text.
TEXT_BOXES = """el => {
  const boxes = {}
  for (const item of el.miChart.getZr().storage.getDisplayList(true)) {
    const text = item.style && item.style.text
    if (typeof text !== 'string' || !text) continue
    const rect = item.getBoundingRect().clone()
    rect.applyTransform(item.getComputedTransform())
    ;(boxes[text] = boxes[text] || []).push([rect.x, rect.y, rect.width, rect.height])
  }
  return boxes
}"""


def overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_nan_marker_leaves_the_step_labels_readable(new_page, server, locale):
    page = new_page(locale)
    page.goto(f"{server.url}/#/train-manage/scalar?train_id=./b_summary_ops")
    figure = page.locator(f'[data-testid="scalar-chart"][data-tag="{TAG}"]')
    expect(figure).to_have_attribute("data-rendered", "true", timeout=WAIT)
    chart = figure.locator(".chart-canvas")
    boxes = chart.evaluate(TEXT_BOXES)
    assert "NaN" in boxes and "150" in boxes, sorted(boxes)
    ticks = [box for text, found in boxes.items() if text.isdigit() for box in found]
    for nan in boxes["NaN"]:
        assert not any(overlap(nan, tick) for tick in ticks), (nan, ticks)
