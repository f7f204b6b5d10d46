"""The pies' legends (profiler operator types, lineage objective distribution) are written in a
readable colour on the dark theme, at 1440 and 390 px wide."""

import pytest
from playwright.sync_api import expect

from tests.helpers.fixtures import FIXTURES, copy_job
from tests.helpers.server import running_server

WAIT = 20_000
PROFILER_DIR = next((FIXTURES / "h_profiler_resnet").glob("*_ascend_ms")).name
LEGEND_COLOR = "el => el.__miChart.getModel().getComponent('legend').getModel('textStyle').get('color')"


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("legends") / "summary_base"
    copy_job("h_profiler_resnet", base / "h_profiler_resnet")
    copy_job("c_multi_runs/run1_momentum_lr0.01_bs32", base / "run1")
    copy_job("c_multi_runs/run3_adam_lr0.001_bs32", base / "run3")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def luminance(color: str) -> float:
    color = color.lstrip("#")
    red, green, blue = (int(color[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def dark_page(new_page, locale: str, width: int):
    page = new_page(locale)
    page.set_viewport_size({"width": width, "height": 900})
    page.add_init_script("localStorage.setItem('miTheme', '1')")
    return page


@pytest.mark.parametrize(("locale", "width"), [("en-US", 1440), ("zh-CN", 390)])
def test_profiler_pie_legend_is_readable_on_dark(new_page, server, locale, width):
    page = dark_page(new_page, locale, width)
    page.goto(f"{server.url}/#/profiling-cpu?dir={PROFILER_DIR}&id=./h_profiler_resnet&tab=all")
    chart = page.locator('[data-rendered="true"]').filter(has=page.locator("canvas")).first
    expect(chart).to_be_visible(timeout=WAIT)
    assert luminance(chart.evaluate(LEGEND_COLOR)) > 0.6


@pytest.mark.parametrize(("locale", "width"), [("en-US", 1440), ("zh-CN", 390)])
def test_lineage_pie_legend_is_readable_on_dark(new_page, server, locale, width):
    page = dark_page(new_page, locale, width)
    page.goto(f"{server.url}/#/model-traceback")
    pie = page.get_by_test_id("target-pie")
    expect(pie).to_have_attribute("data-rendered", "true", timeout=WAIT)
    assert luminance(pie.evaluate(LEGEND_COLOR)) > 0.6
