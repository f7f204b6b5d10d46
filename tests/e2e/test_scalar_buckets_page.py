"""The scalar page and the dashboard's scalar card draw every point (``scalar/buckets``), not only
the 1,000-point sample, in a real browser (English and Chinese): a one-step spike among 12,000
points of a log our writer grows while the server runs, which the sample drops, is drawn over the
whole range and after a box zoom around it, and the zoom asks the server again for the new step
range.

What is drawn is read from the chart's ECharts instance (``el.miChart``), as in test_scalar_page.
"""

from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest
from playwright.sync_api import expect

from mindinsight.summary.writer import SummaryWriter
from tests.e2e.test_dashboard import TEXTS as DASHBOARD_TEXTS
from tests.e2e.test_dashboard import card, dashboard_url
from tests.e2e.test_scalar_page import TEXTS, chart, option, scalar_url, series_data, wait_rendered
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

JOB = "./live"
TAG = "loss/scalar"
FIRST, MORE = 11_000, 1_000  # steps written before the server starts, then while it runs
SPIKE_STEP, SPIKE = 7_777, 50.0
HALF_WINDOW = 200  # steps on each side of the spike in the zoom window


def written_values() -> np.ndarray:
    values = np.random.default_rng(7).normal(1.0, 0.05, FIRST + MORE).astype(np.float32)
    values[SPIKE_STEP - 1] = SPIKE
    return values


@pytest.fixture(scope="module")
def live(built_ui, tmp_path_factory):
    root = tmp_path_factory.mktemp("buckets_page")
    values = written_values()
    writer = SummaryWriter(root / "base" / "live")
    for step in range(1, FIRST + 1):
        writer.add_values(step, {"loss": float(values[step - 1])})
    writer.flush()
    with running_server(root / "base", root / "ws", reload_interval=1) as server:
        wait_for(lambda: count(server) == FIRST)
        for step in range(FIRST + 1, FIRST + MORE + 1):
            writer.add_values(step, {"loss": float(values[step - 1])})
        writer.close()
        wait_for(lambda: count(server) == FIRST + MORE)
        yield server


def count(server) -> int | None:
    answer = server.get("/datavisual/scalar/buckets", params={"train_id": JOB, "tag": TAG, "width": 1})
    return answer.json()["count"] if answer.ok else None


def bucket_requests(page) -> list[dict]:
    """The query of every ``scalar/buckets`` request the page sends, as it sends them."""
    sent = []

    def on_request(request):
        if "/datavisual/scalar/buckets?" in request.url:
            sent.append({key: values[-1] for key, values in parse_qs(urlsplit(request.url).query).items()})

    page.on("request", on_request)
    return sent


def drawn(page) -> list:
    """The [step, value] points of the chart's line."""
    return series_data(page, TAG, "smoothed-0") or []


def wait_drawn(page, predicate, message: str):
    deadline_ms = 20_000
    while deadline_ms > 0:
        points = drawn(page)
        if predicate(points):
            return points
        page.wait_for_timeout(100)
        deadline_ms -= 100
    raise AssertionError(f"{message}; drawn: {len(points)} points, max {max((p[1] for p in points), default=None)}")


def has_spike(points) -> bool:
    return [SPIKE_STEP, SPIKE] in points


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_a_spike_the_sample_drops_is_drawn_at_every_zoom(new_page, live, locale):
    sample = live.get("/datavisual/scalar/metadata", params={"train_id": JOB, "tag": TAG}).json()["metadatas"]
    assert len(sample) == 1000
    assert SPIKE_STEP not in {point["step"] for point in sample}
    assert max(point["value"] for point in sample) < 2

    page = new_page(locale)
    sent = bucket_requests(page)
    page.goto(scalar_url(live, JOB))
    expect(page.get_by_test_id("scalar-title")).to_have_text(TEXTS[locale]["title"])
    wait_rendered(page, 1)

    # The whole range: one bucket per pixel column of the chart, the spike among the drawn points.
    wait_drawn(page, has_spike, "the spike is not drawn over the whole range")
    whole = sent[0]
    assert "start" not in whole and "end" not in whole
    plot_width = chart(page, TAG).locator(".chart-canvas").evaluate("el => el.clientWidth")
    assert whole["width"] == str(plot_width)
    assert option(page, TAG, "[o.xAxis[0].min, o.xAxis[0].max]") == [None, None]

    # A box zoom around the spike, the whole height: the server is asked for the new range.
    pixels = (
        chart(page, TAG)
        .locator(".chart-canvas")
        .evaluate(
            f"el => [{SPIKE_STEP - HALF_WINDOW}, {SPIKE_STEP + HALF_WINDOW}]"
            ".map(step => el.miChart.convertToPixel({xAxisIndex: 0}, step))"
        )
    )
    target = chart(page, TAG)
    target.get_by_test_id("chart-zoom").click()
    box = target.locator("canvas").first.bounding_box()
    page.mouse.move(box["x"] + pixels[0], box["y"] + 2)
    page.mouse.down()
    page.mouse.move(box["x"] + pixels[1], box["y"] + box["height"] - 2, steps=6)
    page.mouse.up()
    expect(target).to_have_attribute("data-zoom-depth", "1")
    low, high = option(page, TAG, "[o.xAxis[0].min, o.xAxis[0].max]")
    assert low < SPIKE_STEP < high and high - low < 3 * HALF_WINDOW
    page.wait_for_function("() => true")  # lets the page's request events in
    for _ in range(100):
        if any("start" in query for query in sent):
            break
        page.wait_for_timeout(100)
    zoomed = next(query for query in sent if "start" in query)
    assert zoomed == {
        "train_id": JOB,
        "tag": TAG,
        "width": str(plot_width),
        "start": str(int(np.floor(low))),
        "end": str(int(np.ceil(high))),
    }

    # Zoomed in: every point of the window is drawn (a few hundred steps on a few hundred
    # pixels), the spike among them; the sample holds only a few dozen of them.
    in_window = range(int(np.ceil(low)), int(np.floor(high)) + 1)
    points = wait_drawn(
        page,
        lambda points: sorted(step for step, _ in points if low <= step <= high) == list(in_window),
        "the zoom window is not drawn with every point",
    )
    assert has_spike(points)
    assert sum(low <= point["step"] <= high for point in sample) < len(in_window) / 4

    # The tooltip names the spike's real step and value.
    x, y = (
        chart(page, TAG)
        .locator(".chart-canvas")
        .evaluate(f"el => el.miChart.convertToPixel({{xAxisIndex: 0, yAxisIndex: 0}}, [{SPIKE_STEP}, 1])")
    )
    target.get_by_test_id("chart-zoom").click()  # box zoom off: the pointer shows the tooltip
    page.mouse.move(box["x"] + x, box["y"] + y)
    tooltip = page.locator(".mi-scalar-tooltip").filter(has_text=str(SPIKE_STEP))
    expect(tooltip).to_be_visible()
    expect(tooltip.locator("th").first).to_have_text(TEXTS[locale]["tooltip_head"][0])
    expect(tooltip.locator("tbody td").nth(2)).to_have_text("50")

    # Back to the whole range: the spike is still drawn, no window is asked for again.
    asked = len(sent)
    target.get_by_test_id("chart-zoom-back").click()
    expect(target).to_have_attribute("data-zoom-depth", "0")
    wait_drawn(page, lambda points: has_spike(points) and len(points) < 4 * plot_width, "whole range after zoom back")
    assert all("start" not in query for query in sent[asked:])


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_dashboard_card_draws_the_spike_the_sample_drops(new_page, live, locale):
    page = new_page(locale)
    sent = bucket_requests(page)
    page.goto(dashboard_url(live, JOB))
    expect(card(page, "scalar").locator("h2")).to_have_text(DASHBOARD_TEXTS[locale]["scalar"])
    chart_el = page.get_by_test_id("dashboard-scalar-chart").locator(".chart")
    read = "el => el.__miChart ? el.__miChart.getOption().series[0].data : []"
    points = []
    for _ in range(200):
        points = chart_el.evaluate(read)
        if [SPIKE_STEP, SPIKE] in points:
            break
        page.wait_for_timeout(100)
    assert [SPIKE_STEP, SPIKE] in points, f"the card draws {len(points)} points, max {max(p[1] for p in points)}"

    # One request, over the whole range, one bucket per pixel column of the card's chart.
    width = chart_el.evaluate("el => el.__miChart.getWidth()")
    assert sent == [{"train_id": JOB, "tag": TAG, "width": str(width)}]
    assert len(points) <= 4 * width
    assert [step for step, _ in points] == sorted(step for step, _ in points)
    assert points[0][0] == 1 and points[-1][0] == FIRST + MORE
