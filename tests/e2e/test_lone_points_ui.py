"""A value no line can show is drawn as a dot: a tag logged at one step (a final accuracy, a
metric of the first step only), on the dashboard's scalar card and on the scalar page; a value
between two NaN on the scalar page. A tag of many steps draws its line and no dot."""

import math

from playwright.sync_api import expect
from tensorboardX import SummaryWriter

from tests.helpers.server import running_server

WAIT = 20_000
ONCE, LOSS, GAPPED = "a_once", "b_loss", "c_gapped"

CHART_SERIES = """el => {
    const chart = [...el.querySelectorAll('*')].map(n => n.miChart).find(Boolean)
    return chart.getOption().series.map(s => ({id: String(s.id), data: Array.from(s.data), symbol: s.showSymbol}))
}"""


def dots_of(series: list) -> list:
    """The (x, y) of the page chart's dot series, gaps left out."""
    (dots,) = [item for item in series if item["id"].startswith("lone-")] or [{"data": []}]
    pairs = zip(dots["data"][::2], dots["data"][1::2])
    return [[x, y] for x, y in pairs if x is not None and not (isinstance(x, float) and math.isnan(x))]


def test_a_value_no_line_shows_is_a_dot(new_page, built_ui, tmp_path):
    base = tmp_path / "base"
    with SummaryWriter(str(base / "run")) as writer:
        writer.add_scalar(ONCE, 0.75, 7)
        for step, value in enumerate([1.0, 0.5, 0.25]):
            writer.add_scalar(LOSS, value, step)
        for step, value in enumerate([1.0, 2.0, float("nan"), 3.0, float("nan")]):
            writer.add_scalar(GAPPED, value, step)
    with running_server(base, tmp_path / "ws", reload_interval=0) as server:
        page = new_page("en-US")
        page.goto(f"{server.url}/#/train-manage/training-dashboard?id=./run")
        card = page.get_by_test_id("dashboard-scalar-chart")
        expect(card).to_have_attribute("data-rendered", "true", timeout=WAIT)
        shown = card.locator(".chart").evaluate(
            "el => el.__miChart.getOption().series.map(s => [s.name, s.showSymbol, s.data.length])"
        )
        assert shown == [[ONCE, True, 1], [LOSS, False, 3]]

        page.goto(f"{server.url}/#/train-manage/scalar?train_id=./run")
        charts = {}
        for tag in (ONCE, LOSS, GAPPED):
            chart = page.locator(f'[data-testid="scalar-chart"][data-tag="{tag}"]')
            expect(chart).to_have_attribute("data-rendered", "true", timeout=WAIT)
            charts[tag] = dots_of(chart.evaluate(CHART_SERIES))
        assert charts == {ONCE: [[7, 0.75]], LOSS: [], GAPPED: [[3, 3.0]]}
