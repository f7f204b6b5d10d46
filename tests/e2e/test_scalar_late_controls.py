"""The scalar page draws its first chart before the Element Plus parts of its controls are loaded
(English and Chinese, light and dark): until they are in, stand-ins of the same size hold their
place, the charts do not move when they arrive, and the controls then restore the URL's view
state (tags, smoothing, x axis) and work.

The code of the controls' selects, slider and number box (the chunk of Element's ``ElSlider``) is held
back by the test until the first chart is drawn: a page that waits for it never draws.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_scalar_page import scalar_url
from tests.helpers.held_scripts import hold_scripts, release

RENDERED = '[data-testid="scalar-chart"][data-rendered="true"]'
WAIT_MS = 20_000
SHOWN = ["accuracy/scalar", "custom_loss/scalar", "loss_op/scalar"]
# Element's slider component names itself: only the chunk with its code holds the quoted name.
ELEMENT_SLIDER = re.compile(rb"[`\"']ElSlider[`\"']")
RELATIVE = {"en-US": "Relative time(s)", "zh-CN": "相对时间（s）"}


def first_chart_top(page) -> float:
    return page.locator('[data-testid="scalar-chart"]').first.bounding_box()["y"]


@pytest.mark.parametrize(("locale", "theme"), [("en-US", "light"), ("zh-CN", "dark")])
def test_first_chart_before_the_controls_code_and_nothing_moves(server, new_page, locale, theme):
    page = new_page(locale)
    page.add_init_script(f"localStorage.setItem('miTheme', '{'1' if theme == 'dark' else '0'}')")
    held = hold_scripts(page, ELEMENT_SLIDER)
    page.goto(scalar_url(server, tags=",".join(SHOWN), smoothing="0.6", xaxis="relative"))

    # Drawn while the controls' Element code is held back; the stand-ins show the URL's state.
    expect(page.locator(RENDERED).first).to_be_visible(timeout=WAIT_MS)
    for _ in range(WAIT_MS // 100):  # asked for once the first chart is drawn
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the controls' Element code was never asked for"
    assert page.get_by_test_id("smoothing-slider").count() == 0
    expect(page.locator(".smoothing .el-slider")).to_be_visible()
    expect(page.locator(".smoothing .el-input-number input")).to_have_value("0.60")
    expect(page.get_by_test_id("x-axis").locator(".is-active")).to_have_text(RELATIVE[locale])
    expect(page.locator('[data-testid="tag-option"] input:checked')).to_have_count(len(SHOWN))
    expect(page.get_by_test_id("scalar-chart")).to_have_count(len(SHOWN))
    top = first_chart_top(page)

    release(held)

    # The real controls replace the stand-ins in place, with the same state.
    expect(page.get_by_test_id("smoothing-input").locator("input")).to_have_value("0.60", timeout=WAIT_MS)
    expect(page.get_by_test_id("smoothing-slider")).to_be_visible()
    expect(page.get_by_test_id("smoothing-method")).to_have_attribute("data-value", "ema")
    expect(page.get_by_test_id("scalar-pager")).to_be_visible()
    assert first_chart_top(page) == top

    # And they work: the filter hides charts, the number box and the axis choice write the URL.
    page.get_by_test_id("tag-filter").fill("^loss")
    expect(page.get_by_test_id("scalar-chart")).to_have_count(1)
    expect(page.locator('[data-testid="scalar-chart"][data-tag="loss_op/scalar"]')).to_be_visible()
    page.get_by_test_id("tag-filter").fill("")
    expect(page.get_by_test_id("scalar-chart")).to_have_count(len(SHOWN))
    page.get_by_test_id("smoothing-input").locator("input").fill("0.3")
    page.get_by_test_id("smoothing-input").locator("input").press("Enter")
    expect(page).to_have_url(re.compile(r"[?&]smoothing=0\.3(&|$)"))
    page.get_by_test_id("x-axis").locator('[data-value="step"]').click()
    expect(page.get_by_test_id("x-axis").locator(".is-active")).to_have_attribute("data-value", "step")
    expect(page).not_to_have_url(re.compile(r"[?&]xaxis="))
    page.unroute_all(behavior="ignoreErrors")


def test_axis_choice_keeps_native_keyboard_use(server, page):
    page.goto(scalar_url(server))
    expect(page.locator(RENDERED).first).to_be_visible(timeout=WAIT_MS)
    step = page.get_by_test_id("x-axis").locator('input[value="step"]')
    step.focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("x-axis").locator(".is-active")).to_have_attribute("data-value", "logstep")
    expect(page).to_have_url(re.compile(r"[?&]xaxis=logstep(&|$)"))
