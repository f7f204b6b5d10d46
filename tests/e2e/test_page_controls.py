"""Controls shared by the per-tag pages, in a real browser: Escape leaves every full screen (the
parameter distribution chart, the data map; the scalar chart's is in test_scalar_page), the tag
filter hides the charts of the tags it does not match on the histogram, image and tensor pages (as
on the scalar page), and the original's scalar bookmarks naming one tag (`&tag=`) open with only
that tag selected.

b_summary_ops writes 3 histogram, 2 image, 3 tensor and 6 scalar tags; a_lenet_collector records
a data-processing pipeline.
"""

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.helpers.fixtures import B_SUMMARY_OPS_SCALAR_TAGS, copy_job
from tests.helpers.server import running_server

JOB = "./b_summary_ops"
WAIT = 20_000  # ms
SCALAR_TAGS = list(B_SUMMARY_OPS_SCALAR_TAGS)
NO_TAG_SHOWN = {
    "en-US": "No tag selected. Choose tags above to draw their charts.",
    "zh-CN": "未选择标签，请在上方选择要显示的标签。",
}
FULL_SCREEN = {"en-US": ("Full screen", "Exit full screen"), "zh-CN": ("全屏", "退出全屏")}


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("controls") / "summary_base"
    copy_job("a_lenet_collector", base / "a_lenet_collector")
    copy_job("b_summary_ops", base / "b_summary_ops")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def page_url(server, name: str, train_id: str = JOB, extra: str = "") -> str:
    encoded = quote(train_id, safe="")
    return f"{server.url}/#/train-manage/{name}?train_id={encoded}&summaryPath={encoded}{extra}"


def shown_tags(page, testid: str) -> list[str]:
    return page.get_by_test_id(testid).evaluate_all("els => els.map(e => e.dataset.tag)")


# --- Escape leaves every full screen ------------------------------------------------------------


def test_escape_leaves_the_histogram_full_screen(page, server):
    page.goto(page_url(server, "histogram"))
    figure = page.locator('[data-testid="histogram-chart"][data-tag="fc1_out/histogram"]')
    expect(figure.locator('[data-testid="distribution-chart"][data-rendered="true"]')).to_have_count(1, timeout=WAIT)
    narrow = figure.bounding_box()["width"]

    figure.get_by_test_id("full-screen").click()
    expect(figure).to_have_class(re.compile("full-screen"))
    assert figure.bounding_box()["width"] > 2 * narrow

    page.keyboard.press("Escape")
    expect(figure).not_to_have_class(re.compile("full-screen"))
    expect(figure.get_by_test_id("full-screen")).to_have_attribute("aria-pressed", "false")
    assert figure.bounding_box()["width"] == pytest.approx(narrow, abs=2)

    # Escape with no full screen changes nothing; full screen still comes back on a click.
    page.keyboard.press("Escape")
    expect(figure).not_to_have_class(re.compile("full-screen"))
    figure.get_by_test_id("full-screen").click()
    expect(figure).to_have_class(re.compile("full-screen"))


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_escape_leaves_the_data_map_full_screen(new_page, server, locale):
    page = new_page(locale)
    enter, leave = FULL_SCREEN[locale]
    page.goto(page_url(server, "data-map", "./a_lenet_collector"))
    drawing = page.locator('[data-testid="data-map-page"] .drawing')
    button = page.get_by_test_id("data-map-fullscreen")
    expect(button).to_have_text(enter, timeout=WAIT)
    before = drawing.bounding_box()
    assert before["width"] < 1400

    button.click()
    # The drawing covers the whole window, over the header and the node panel.
    page.wait_for_function(
        "el => { const r = el.getBoundingClientRect(); return r.width === innerWidth && r.height === innerHeight }",
        arg=drawing.element_handle(),
    )
    expect(button).to_have_text(leave)
    expect(button).to_have_attribute("aria-pressed", "true")

    page.keyboard.press("Escape")
    expect(button).to_have_text(enter)
    expect(drawing).not_to_have_class(re.compile("full-screen"))
    after = drawing.bounding_box()
    assert after["width"] == pytest.approx(before["width"], abs=2)

    # The button leaves it too.
    button.click()
    expect(button).to_have_text(leave)
    button.click()
    expect(button).to_have_text(enter)


# --- The tag filter hides the charts it does not match ----------------------------------------

FILTER_CASES = {
    # page name, card test id, the job's tags, a filter, the tags it leaves
    "histogram": (
        "histogram-chart",
        ["conv1_out/histogram", "fc1_out/histogram", "fc3.weight/histogram"],
        "^fc",
        ["fc1_out/histogram", "fc3.weight/histogram"],
    ),
    "image": ("image-card", ["input_image/image", "rgb_pattern/image"], "RGB", ["rgb_pattern/image"]),
    "tensor": (
        "tensor-card",
        ["conv1_feature_map/tensor", "custom_tensor/tensor", "int_tensor/tensor"],
        "^(custom|int)_",
        ["custom_tensor/tensor", "int_tensor/tensor"],
    ),
}


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("name", list(FILTER_CASES))
def test_tag_filter_hides_the_charts_it_does_not_match(new_page, server, name, locale):
    testid, tags, pattern, matching = FILTER_CASES[name]
    page = new_page(locale)
    page.goto(page_url(server, name))
    cards = page.get_by_test_id(testid)
    expect(cards).to_have_count(len(tags), timeout=WAIT)

    # A case-insensitive regular expression, as on the scalar page: only the matching charts stay,
    # every tag stays selected, and the URL keeps the filter.
    page.get_by_test_id("tag-filter").fill(pattern)
    expect(cards).to_have_count(len(matching))
    assert shown_tags(page, testid) == matching
    expect(page.get_by_test_id("tag-option")).to_have_count(len(matching))
    expect(page).to_have_url(re.compile(r"[?&]filter="))
    page.reload()
    expect(cards).to_have_count(len(matching), timeout=WAIT)
    expect(page.get_by_test_id("tag-filter")).to_have_value(pattern)

    # Unticking a shown tag hides its chart; a filter matching nothing hides every chart.
    page.locator(f'[data-testid="tag-option"][data-tag="{matching[0]}"]').click()
    expect(cards).to_have_count(len(matching) - 1)
    page.get_by_test_id("tag-filter").fill("no_such_tag")
    expect(cards).to_have_count(0)
    expect(page.get_by_text(NO_TAG_SHOWN[locale])).to_be_visible()

    # No filter: every selected chart is back, and the URL drops the parameter.
    page.get_by_test_id("tag-filter").fill("")
    expect(cards).to_have_count(len(tags) - 1)
    assert shown_tags(page, testid) == [tag for tag in tags if tag != matching[0]]
    expect(page).not_to_have_url(re.compile(r"[?&]filter="))


# --- The original's scalar bookmarks with `&tag=` ---------------------------------------------


def scalar_charts(page):
    return page.get_by_test_id("scalar-chart")


@pytest.mark.parametrize("tag", ["loss_op/scalar", "fc3_out_mean/scalar"])
def test_original_scalar_bookmark_with_tag_selects_that_tag(page, server, tag):
    # The original's form: `#/train-manage/scalar?train_id=./x&tag=<tag>` (tag percent-encoded).
    page.goto(f"{server.url}/#/train-manage/scalar?train_id=./b_summary_ops&tag={quote(tag, safe='')}")
    expect(page.locator('[data-testid="scalar-chart"][data-rendered="true"]')).to_have_count(1, timeout=WAIT)
    assert shown_tags(page, "scalar-chart") == [tag]
    for other in SCALAR_TAGS:
        option = page.locator(f'[data-testid="tag-option"][data-tag="{other}"] input')
        if other == tag:
            expect(option).to_be_checked()
        else:
            expect(option).not_to_be_checked()
    page.wait_for_timeout(500)  # no later answer brings the other charts back
    expect(scalar_charts(page)).to_have_count(1)

    # Ticking a second tag adds its chart; the selection now lives in `tags`, `tag` is gone.
    page.locator('[data-testid="tag-option"][data-tag="accuracy/scalar"]').click()
    expect(scalar_charts(page)).to_have_count(2)
    assert shown_tags(page, "scalar-chart") == sorted(["accuracy/scalar", tag], key=SCALAR_TAGS.index)
    expect(page).to_have_url(re.compile(r"[?&]tags="))
    expect(page).not_to_have_url(re.compile(r"[?&]tag="))
    page.reload()
    expect(scalar_charts(page)).to_have_count(2, timeout=WAIT)


def test_scalar_bookmark_with_an_unknown_tag_shows_every_tag(page, server):
    page.goto(f"{server.url}/#/train-manage/scalar?train_id=./b_summary_ops&tag=no_such%2Fscalar")
    expect(scalar_charts(page)).to_have_count(len(SCALAR_TAGS), timeout=WAIT)
