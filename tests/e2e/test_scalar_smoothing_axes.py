"""Smoothing methods and the new horizontal axes of the scalar page and the scalars comparison
page in a real browser (English and Chinese): debiased EMA, time-weighted EMA and centred moving
average over unevenly spaced steps; the log step axis; another tag of the same job as the x
(joined on the step); and the URL that brings each of them back after a reload.

What is drawn is read from the chart's ECharts instance (``el.miChart``), as in test_scalar_page,
and checked against the same methods computed here from the points the server answers.
"""

import math

import numpy as np
import pytest
from playwright.sync_api import expect

from mindinsight.summary.writer import SummaryWriter
from tests.e2e.test_scalar_page import chart, ema, expect_query, option, scalar_url, series_data, wait_rendered
from tests.helpers.chart_lines import LINE_PAIRS_JS
from tests.helpers.server import running_server

RUNS = ("./a", "./b")
LOSS, EPOCH = "loss/scalar", "epoch/scalar"
# Uneven steps (gaps of 1 to 9), the epoch written at every other one of them only.
STEPS = [1, 2, 3, 5, 8, 9, 10, 14, 15, 21, 22, 23, 30, 31, 33, 40, 49, 50, 52, 60]
EPOCH_STEPS = STEPS[::2]
WEIGHT = 0.6
TEXTS = {
    "en-US": {"title": "Scalar", "time_help": "step distance", "average_help": "window", "log": "Step (log)"},
    "zh-CN": {"title": "标量", "time_help": "步距", "average_help": "窗口", "log": "步骤（对数）"},
}


def time_ema(steps, values, weight):
    """Time-weighted debiased EMA, one unit = one step (the runs are shorter than 1,000 steps)."""
    last = norm = 0.0
    previous, out = None, []
    for step, value in zip(steps, values, strict=True):
        decay = weight if previous is None else weight ** (step - previous)
        previous = step
        last = last * decay + (1 - decay) * value
        norm = norm * decay + (1 - decay)
        out.append(last / norm)
    return out


def moving_average(steps, values, weight):
    """Centred moving average over w / (1 - w) steps on either side."""
    half = weight / (1 - weight)
    return [
        float(np.mean([v for s, v in zip(steps, values, strict=True) if abs(s - step) <= half + 1e-9]))
        for step in steps
    ]


LONG, LONG_STEPS = "./long", 12_000
SPIKES = {500 * k + 123: 50.0 + k for k in range(20)}  # one-step spikes a 1,000-point sample mostly drops


@pytest.fixture(scope="module")
def uneven(built_ui, tmp_path_factory):
    root = tmp_path_factory.mktemp("smoothing_axes")
    values = np.random.default_rng(7).normal(1.0, 0.05, LONG_STEPS)
    with SummaryWriter(root / "base" / LONG) as writer:
        for step in range(1, LONG_STEPS + 1):
            writer.add_values(step, {"loss": SPIKES.get(step, float(values[step - 1]))})
    for index, run in enumerate(RUNS):
        rng = np.random.default_rng(index)
        with SummaryWriter(root / "base" / run) as writer:
            for step in STEPS:
                values = {"loss": float(rng.normal(1.0, 0.3)) + 2 * index}
                if step in EPOCH_STEPS:
                    values["epoch"] = step / 10
                writer.add_values(step, values)
    with running_server(root / "base", root / "ws", reload_interval=3) as server:
        yield server


def points(server, run: str, tag: str) -> list[tuple[int, float]]:
    answer = server.get("/datavisual/scalar/metadata", params={"train_id": run, "tag": tag}).json()
    return sorted((point["step"], point["value"]) for point in answer["metadatas"])


def drawn(page, tag: str = LOSS, series_id: str = "smoothed-0") -> list:
    return series_data(page, tag, series_id)


def wait_drawn(page, check, tag: str = LOSS, series_id: str = "smoothed-0"):
    """Waits until the chart's series satisfies ``check`` (the chart redraws after a change)."""
    data = None
    for _ in range(100):
        expect(chart(page, tag)).to_have_attribute("data-rendered", "true", timeout=20_000)
        data = drawn(page, tag, series_id)
        if data and check(data):
            return data
        page.wait_for_timeout(100)
    raise AssertionError(f"not drawn as expected: {data}")


def same(data, expected) -> bool:
    return len(data) == len(expected) and all(
        x == ex and math.isclose(y, ey, rel_tol=1e-9) for (x, y), (ex, ey) in zip(data, expected, strict=True)
    )


def choose(page, select_test_id: str, option_locator: str):
    page.get_by_test_id(select_test_id).click()
    page.locator(option_locator).click()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_each_smoothing_method_is_drawn_and_restored_from_the_url(new_page, uneven, locale):
    texts = TEXTS[locale]
    steps, values = zip(*points(uneven, "./a", LOSS), strict=True)
    assert list(steps) == STEPS
    page = new_page(locale)
    page.goto(scalar_url(uneven, "./a"))
    expect(page.get_by_test_id("scalar-title")).to_have_text(texts["title"])
    wait_rendered(page, 2)

    page.get_by_test_id("smoothing-input").locator("input").fill(str(WEIGHT))
    page.get_by_test_id("smoothing-input").locator("input").press("Enter")
    expect_query(page, smoothing="0.6")
    wait_drawn(page, lambda data: same(data, list(zip(steps, ema(values, WEIGHT), strict=True))))

    # Time-weighted: a gap of d steps decays the average by w^d, so it differs from the EMA here.
    expected = list(zip(steps, time_ema(steps, values, WEIGHT), strict=True))
    assert not same(expected, list(zip(steps, ema(values, WEIGHT), strict=True)))
    choose(page, "smoothing-method", '.el-select-dropdown__item[data-value="time-ema"]')
    expect_query(page, smoothing="0.6", smoother="time-ema")
    wait_drawn(page, lambda data: same(data, expected))
    # The raw line stays under it; the help names what the slider means for this method.
    assert [point[1] for point in drawn(page, series_id="raw-0")] == list(values)
    page.get_by_test_id("smoothing-help").hover()
    expect(page.locator(".el-popper:visible").filter(has_text=texts["time_help"])).to_have_count(1)

    expected = list(zip(steps, moving_average(steps, values, WEIGHT), strict=True))
    choose(page, "smoothing-method", '.el-select-dropdown__item[data-value="moving-average"]')
    expect_query(page, smoothing="0.6", smoother="moving-average")
    wait_drawn(page, lambda data: same(data, expected))
    page.get_by_test_id("smoothing-help").hover()
    expect(page.locator(".el-popper:visible").filter(has_text=texts["average_help"])).to_have_count(1)

    # A reload brings the method back with the weight.
    page.reload()
    wait_rendered(page, 2)
    expect(page.get_by_test_id("smoothing-method")).to_have_attribute("data-value", "moving-average")
    wait_drawn(page, lambda data: same(data, expected))

    choose(page, "smoothing-method", '.el-select-dropdown__item[data-value="ema"]')
    expect_query(page, smoothing="0.6")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_log_step_and_another_scalar_as_the_x_axis(new_page, uneven, locale):
    texts = TEXTS[locale]
    loss = points(uneven, "./a", LOSS)
    epochs = dict(points(uneven, "./a", EPOCH))
    page = new_page(locale)
    page.goto(scalar_url(uneven, "./a"))
    wait_rendered(page, 2)

    page.get_by_test_id("x-axis").get_by_text(texts["log"]).click()
    expect_query(page, xaxis="logstep")
    wait_drawn(page, lambda data: option(page, LOSS, "o.xAxis[0].type") == "log" and same(data, loss))

    # Another scalar: the first tag is taken at once, then the epoch is chosen.
    page.get_by_test_id("x-axis").locator('[data-value="scalar"]').click()
    first = page.locator('[data-testid="scalar-chart"]').first.get_attribute("data-tag")
    expect_query(page, xaxis="scalar", xtag=first)
    choose(page, "x-tag-select", f'.el-select-dropdown__item:visible:has-text("{EPOCH}")')
    expect_query(page, xaxis="scalar", xtag=EPOCH)
    # Joined on the step: a loss point is drawn at the epoch of its step; the others are left out
    # and counted under the chart.
    joined = [(epochs[step], value) for step, value in loss if step in epochs]
    assert len(joined) == len(EPOCH_STEPS) < len(loss)
    wait_drawn(page, lambda data: same(data, joined))
    assert option(page, LOSS, "[o.xAxis[0].type, o.xAxis[0].name]") == ["value", EPOCH]
    notice = chart(page, LOSS).get_by_test_id("x-dropped")
    expect(notice).to_have_attribute("data-count", str(len(loss) - len(joined)))
    expect(notice).to_contain_text(EPOCH)
    # The epoch against itself: every point has its own step.
    expect(chart(page, EPOCH).get_by_test_id("x-dropped")).to_have_count(0)
    assert same(drawn(page, EPOCH), [(value, value) for value in epochs.values()])

    page.reload()
    wait_rendered(page, 2)
    wait_drawn(page, lambda data: same(data, joined))
    # The log step axis and the method through the URL alone.
    page.goto(scalar_url(uneven, "./a", xaxis="logstep", smoother="time-ema", smoothing="0.6"))
    wait_rendered(page, 2)
    steps, values = zip(*loss, strict=True)
    expected = list(zip(steps, time_ema(steps, values, WEIGHT), strict=True))
    wait_drawn(page, lambda data: option(page, LOSS, "o.xAxis[0].type") == "log" and same(data, expected))
    expect(page.get_by_test_id("x-axis").locator(".is-active")).to_have_text(texts["log"])


def compare_lines(page) -> dict:
    """Run -> the [x, y] points of its smoothed line in the loss chart of the comparison page."""
    target = chart(page, LOSS)
    expect(target).to_have_attribute("data-rendered", "true", timeout=20_000)
    return target.locator(".chart-canvas").evaluate(
        f"""el => Object.fromEntries(el.miChart.getOption().series
            .filter(s => String(s.id).startsWith('smoothed-')).map(s => [s.name, {LINE_PAIRS_JS}(s.data)]))"""
    )


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_comparison_page_smooths_and_joins_each_run_on_its_own_epochs(new_page, uneven, locale):
    page = new_page(locale)
    runs = ",".join(run.replace("/", "%2F") for run in RUNS)
    page.goto(
        f"{uneven.url}/#/compare-analysis/scalar?runs={runs}&smoothing=0.6&smoother=time-ema"
        f"&xaxis=scalar&xtag={EPOCH.replace('/', '%2F')}"
    )
    expected = {}
    for run in RUNS:
        loss = points(uneven, run, LOSS)
        epochs = dict(points(uneven, run, EPOCH))
        steps, values = zip(*loss, strict=True)
        smoothed = dict(zip(steps, time_ema(steps, values, WEIGHT), strict=True))
        expected[run] = [(epochs[step], smoothed[step]) for step in steps if step in epochs]
    for _ in range(100):
        lines = compare_lines(page)
        if set(lines) == set(RUNS) and all(same(lines[run], expected[run]) for run in RUNS):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError(f"comparison lines {lines} != {expected}")
    expect(page.get_by_test_id("smoothing-method")).to_have_attribute("data-value", "time-ema")
    expect(chart(page, LOSS).get_by_test_id("x-dropped")).to_have_attribute(
        "data-count", str(2 * (len(STEPS) - len(EPOCH_STEPS)))
    )

    # The moving average, chosen on the page, on the log step axis.
    choose(page, "smoothing-method", '.el-select-dropdown__item[data-value="moving-average"]')
    page.get_by_test_id("x-axis").locator('[data-value="logstep"]').click()
    page.wait_for_function(
        "() => location.hash.includes('smoother=moving-average') && location.hash.includes('xaxis=logstep')"
    )
    for run in RUNS:
        steps, values = zip(*points(uneven, run, LOSS), strict=True)
        expected[run] = list(zip(steps, moving_average(steps, values, WEIGHT), strict=True))
    page.reload()
    for _ in range(100):
        lines = compare_lines(page)
        if all(same(lines.get(run) or [], expected[run]) for run in RUNS):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError(f"comparison lines {lines} != {expected}")
    assert chart(page, LOSS).locator(".chart-canvas").evaluate("el => el.miChart.getOption().xAxis[0].type") == "log"


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_log_step_axis_draws_every_spike_with_the_sampled_points(new_page, uneven, locale):
    sample = points(uneven, LONG, LOSS)
    assert len(sample) == 1000
    assert any(step not in dict(sample) for step in SPIKES)  # the sample alone would hide some
    page = new_page(locale)
    page.goto(scalar_url(uneven, LONG, xaxis="logstep"))
    wait_rendered(page, 1)
    # The buckets of the whole range (every spike is a bucket's max) and the sample (which alone
    # holds most of the first steps, squeezed into few buckets on a linear range).
    data = wait_drawn(page, lambda data: all([step, value] in data for step, value in SPIKES.items()))
    assert option(page, LOSS, "o.xAxis[0].type") == "log"
    drawn_steps = {step for step, _ in data}
    assert {step for step, _ in sample} <= drawn_steps
    assert [step for step, _ in data] == sorted(drawn_steps)
