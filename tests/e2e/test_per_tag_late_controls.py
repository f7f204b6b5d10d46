"""The parameter distribution and image pages draw their first chart or image before the Element
Plus parts of their controls are loaded (English and Chinese, light and dark): until they are in,
stand-ins of the same look hold their place and show the URL's state (tag filter, selected tags,
view and vertical axis), nothing moves when they arrive, and the controls then work.

The code of Element's input and slider (parts of the per-tag pages' late module: the tag filter,
the image page's brightness and contrast, the cards' step sliders) is held back by the test until
the first drawing: a page that waits for it never draws.
"""

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.e2e.test_histogram_page import original_url as histogram_url
from tests.e2e.test_image_page import image_url
from tests.helpers.held_scripts import hold_scripts, release

WAIT_MS = 20_000
# Element's components name themselves: only the chunks with their code hold the quoted names.
ELEMENT_CONTROLS = re.compile(rb"[`\"'](ElInput|ElSlider)[`\"']")
HISTOGRAM_TAGS = ["conv1_out/histogram", "fc3.weight/histogram"]
RELATIVE = {"en-US": "Relative Time(s)", "zh-CN": "相对时间（秒）"}
RESET = {"en-US": "Reset", "zh-CN": "重置"}


def open_held(new_page, server, locale: str, theme: str, url: str):
    page = new_page(locale)
    page.add_init_script(f"localStorage.setItem('miTheme', '{'1' if theme == 'dark' else '0'}')")
    held = hold_scripts(page, ELEMENT_CONTROLS)
    page.goto(url)
    return page, held


def wait_until_asked(page, held: list):
    for _ in range(WAIT_MS // 100):  # asked for once the first drawing is on screen
        if held:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the controls' Element code was never asked for")


def top_of(locator) -> float:
    return locator.first.bounding_box()["y"]


@pytest.mark.parametrize(("locale", "theme"), [("en-US", "light"), ("zh-CN", "dark")])
def test_histogram_chart_before_the_controls_code(server, new_page, locale, theme):
    url = histogram_url(
        server, extra=f"&tags={quote(','.join(HISTOGRAM_TAGS), safe=',')}&filter=fc3&view=top&axis=relative"
    )
    page, held = open_held(new_page, server, locale, theme, url)

    # Drawn while the controls' Element code is held back; the stand-ins show the URL's state.
    rendered = page.locator('[data-testid="histogram-chart"] [data-testid="distribution-chart"][data-rendered="true"]')
    expect(rendered.first).to_be_visible(timeout=WAIT_MS)
    wait_until_asked(page, held)
    expect(page.get_by_test_id("tag-filter")).to_have_count(0)
    expect(page.locator('[data-testid="tag-selector"] .el-input input')).to_have_value("fc3")
    expect(page.locator('[data-testid="tag-option"] input:checked')).to_have_count(1)
    expect(page.locator('[data-testid="tag-option"][data-tag="fc3.weight/histogram"] input')).to_be_checked()
    expect(page.get_by_test_id("axis-relative")).to_have_class(re.compile(r"\bis-active\b"))
    expect(page.get_by_test_id("axis-relative")).to_contain_text(RELATIVE[locale])
    expect(page.get_by_test_id("histogram-chart")).to_have_count(1)
    top = top_of(page.get_by_test_id("histogram-chart"))

    release(held)

    # The real filter replaces its stand-in in place, with the same state, and it works.
    expect(page.get_by_test_id("tag-filter")).to_have_value("fc3", timeout=WAIT_MS)
    assert top_of(page.get_by_test_id("histogram-chart")) == top
    page.get_by_test_id("tag-filter").fill("")
    expect(page.get_by_test_id("histogram-chart")).to_have_count(2)
    expect(page).not_to_have_url(re.compile(r"[?&]filter="))
    # The native view and axis choices work from the first drawing on.
    page.get_by_test_id("axis-step").click()
    expect(page).not_to_have_url(re.compile(r"[?&]axis="))
    page.get_by_test_id("view-front").click()
    expect(page).to_have_url(re.compile(r"[?&]view=front(&|$)"))
    expect(page.get_by_test_id("axis-switch")).to_have_count(0)
    page.unroute_all(behavior="ignoreErrors")


@pytest.mark.parametrize(("locale", "theme"), [("en-US", "light"), ("zh-CN", "dark")])
def test_image_before_the_controls_code(server, new_page, locale, theme):
    url = image_url(server, tags="input_image/image")
    page, held = open_held(new_page, server, locale, theme, url)

    # The image is on screen while the sliders' code is held back; stand-ins hold their place.
    image = page.get_by_test_id("image")
    expect(image).to_have_count(1, timeout=WAIT_MS)
    expect(image).to_have_js_property("complete", True, timeout=WAIT_MS)
    wait_until_asked(page, held)
    expect(page.get_by_role("slider")).to_have_count(0)
    expect(page.get_by_test_id("brightness-reset")).to_have_count(0)
    expect(page.locator('[data-testid="brightness"] .el-slider')).to_be_visible()
    expect(page.locator('[data-testid="brightness"] .el-button')).to_have_text(RESET[locale])
    expect(page.locator('[data-testid="image-card"] .el-slider')).to_be_visible()
    expect(page.locator('[data-testid="tag-option"] input:checked')).to_have_count(1)
    top = top_of(image)
    slider_top = top_of(page.locator('[data-testid="image-card"] .el-slider'))

    release(held)

    # The real sliders replace the stand-ins in place and work.
    step_slider = page.get_by_test_id("image-step-slider")
    expect(step_slider).to_be_visible(timeout=WAIT_MS)
    assert top_of(image) == top
    assert top_of(step_slider) == slider_top
    brightness = page.get_by_test_id("brightness").get_by_role("slider")
    brightness.focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("brightness-reset")).to_be_enabled()
    assert "brightness(1.02)" in image.evaluate("img => getComputedStyle(img).filter")
    page.get_by_test_id("brightness-reset").click()
    expect(page.get_by_test_id("brightness-reset")).to_be_disabled()
    page.unroute_all(behavior="ignoreErrors")
