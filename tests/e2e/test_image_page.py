"""The image page in a real browser: the original's hash route, one card per image tag showing
the server's image bytes, the per-card step slider choosing which retained step is requested,
page-wide brightness and contrast as a CSS filter, tag selection, and a URL path prefix.

b_summary_ops writes two image tags: ``input_image/image`` (128x32, steps 1..300) and
``rgb_pattern/image`` (48x32, steps 3..300); the server keeps at most 10 steps per tag, always
the last one."""

import re
from urllib.parse import parse_qs, quote, urlparse

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import make_base
from tests.helpers.live_images import LiveImages
from tests.helpers.server import running_server

JOB = "./b_summary_ops"
IMAGE_TAGS = ["input_image/image", "rgb_pattern/image"]
TEXTS = {
    "en-US": {"title": "Image", "step": "Step: 300", "brightness": "Brightness", "reset": "Reset"},
    "zh-CN": {"title": "图像", "step": "步骤：300", "brightness": "亮度", "reset": "重置"},
}


def image_url(server, train_id: str = JOB, **extra) -> str:
    quoted = quote(train_id, safe="./")
    url = f"{server.url}/#/train-manage/image?train_id={quoted}&summaryPath={quoted}"
    for key, value in extra.items():
        url += f"&{key}={quote(value, safe='/,')}"
    return url


def card(page, tag: str):
    return page.locator(f'[data-testid="image-card"][data-tag="{tag}"]')


def retained(server, tag: str) -> list[dict]:
    response = server.get("/datavisual/image/metadata", params={"train_id": JOB, "tag": tag})
    assert response.status_code == 200, response.text
    return sorted(response.json()["metadatas"], key=lambda item: item["step"])


def natural_size(image) -> tuple[int, int]:
    expect(image).to_have_js_property("complete", True)
    return tuple(image.evaluate("img => [img.naturalWidth, img.naturalHeight]"))


def css_filter(image) -> str:
    return image.evaluate("img => getComputedStyle(img).filter")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_image_route_shows_every_tag_at_its_latest_step(new_page, server, locale):
    page = new_page(locale)
    texts = TEXTS[locale]
    page.goto(image_url(server))

    expect(page.get_by_test_id("page-title")).to_have_text(texts["title"])
    expect(page.locator('[data-testid="image-card"]')).to_have_count(2)
    assert page.locator('[data-testid="image-card"]').evaluate_all("els => els.map(e => e.dataset.tag)") == IMAGE_TAGS
    for tag in IMAGE_TAGS:
        latest = retained(server, tag)[-1]
        image = card(page, tag).get_by_test_id("image")
        expect(image).to_have_attribute("data-step", str(latest["step"]))
        # The <img> shows the server's bytes: its decoded size is the size the metadata gives.
        assert natural_size(image) == (latest["width"], latest["height"])
        expect(card(page, tag).get_by_test_id("image-step")).to_have_text(texts["step"])
        expect(card(page, tag)).to_contain_text(JOB)
    expect(page.get_by_test_id("brightness")).to_contain_text(texts["brightness"])
    expect(page.get_by_test_id("brightness-reset")).to_have_text(texts["reset"])

    # The close button leads to the job's training dashboard.
    page.get_by_test_id("page-close").click()
    expect(page).to_have_url(re.compile(r"#/train-manage/training-dashboard\?id=\./b_summary_ops$"))


def test_step_slider_requests_the_chosen_step(page, server):
    tag = "input_image/image"
    steps = [item["step"] for item in retained(server, tag)]
    assert len(steps) == 10 and steps[-1] == 300
    requested = []
    page.on("request", lambda request: requested.append(request.url) if "single-image" in request.url else None)
    page.goto(image_url(server))
    image = card(page, tag).get_by_test_id("image")
    expect(image).to_have_attribute("data-step", "300")

    slider = card(page, tag).get_by_role("slider")
    slider.focus()
    page.keyboard.press("Home")
    expect(image).to_have_attribute("data-step", str(steps[0]))
    expect(card(page, tag).get_by_test_id("image-step")).to_have_text(f"Step: {steps[0]}")
    assert natural_size(image) == (128, 32)
    page.keyboard.press("ArrowRight")
    expect(image).to_have_attribute("data-step", str(steps[1]))
    assert natural_size(image) == (128, 32)

    asked = [parse_qs(urlparse(url).query) for url in requested]
    asked_steps = [int(query["step"][0]) for query in asked if query["tag"] == [tag]]
    assert asked_steps[-2:] == [steps[0], steps[1]]
    assert all(query["train_id"] == [JOB] for query in asked)
    # The other card did not move.
    expect(card(page, "rgb_pattern/image").get_by_test_id("image")).to_have_attribute("data-step", "300")


def test_brightness_and_contrast_filter_every_image(page, server):
    page.goto(image_url(server))
    images = page.get_by_test_id("image")
    expect(images).to_have_count(2)
    for index in range(2):
        assert css_filter(images.nth(index)) == "brightness(1) contrast(1)"

    brightness = page.get_by_test_id("brightness").get_by_role("slider")
    brightness.focus()
    page.keyboard.press("End")  # 100 = twice as bright
    contrast = page.get_by_test_id("contrast").get_by_role("slider")
    contrast.focus()
    page.keyboard.press("Home")  # 0 = no contrast
    for index in range(2):
        expect(images.nth(index)).to_have_attribute("style", re.compile(r"brightness\(2\) contrast\(0\)"))
        assert css_filter(images.nth(index)) == "brightness(2) contrast(0)"
    # A page-wide filter changes the pixels drawn, not the image requested.
    assert natural_size(images.nth(0)) == (128, 32)

    page.get_by_test_id("brightness-reset").click()
    expect(page.get_by_test_id("brightness-reset")).to_be_disabled()
    assert css_filter(images.nth(0)) == "brightness(1) contrast(0)"
    page.get_by_test_id("contrast-reset").click()
    assert css_filter(images.nth(1)) == "brightness(1) contrast(1)"


def test_tag_selection_is_kept_in_the_url(page, server):
    page.goto(image_url(server, tags="rgb_pattern/image"))
    expect(page.locator('[data-testid="image-card"]')).to_have_count(1)
    expect(card(page, "rgb_pattern/image").get_by_test_id("image")).to_have_attribute("data-step", "300")

    page.locator('[data-testid="tag-option"][data-tag="input_image/image"]').click()
    expect(page.locator('[data-testid="image-card"]')).to_have_count(2)
    expect(page).not_to_have_url(re.compile(r"tags="))

    page.get_by_test_id("tag-filter").fill("^rgb")
    page.get_by_test_id("tag-select-all").click()  # deselects the one tag the filter shows
    # The filter hides the card of the other, still selected, tag until it is cleared.
    expect(page.locator('[data-testid="image-card"]')).to_have_count(0)
    page.get_by_test_id("tag-filter").fill("")
    expect(page.locator('[data-testid="image-card"]')).to_have_count(1)
    expect(card(page, "input_image/image")).to_have_count(1)


def test_job_without_images_says_so(page, server):
    page.goto(image_url(server, "./run2"))  # run2 records no image
    expect(page.get_by_test_id("no-image-data")).to_contain_text("No image data")
    expect(page.locator('[data-testid="image-card"]')).to_have_count(0)


def test_images_load_under_url_path_prefix(page, built_ui, tmp_path):
    base = make_base(tmp_path / "base", runs=0)
    with running_server(base, tmp_path / "workspace", url_path_prefix="/mi") as prefixed:
        page.goto(image_url(prefixed))
        image = card(page, "rgb_pattern/image").get_by_test_id("image")
        # A wait, not an assertion on time: the new server may still be loading the job.
        expect(image).to_have_attribute("data-step", "300", timeout=30_000)
        assert natural_size(image) == (48, 32)
        assert image.evaluate("img => img.currentSrc").startswith(prefixed.url + "/v1/mindinsight/")


# Records every "image does not exist" notice the page ever shows, however briefly.
WATCH_MISSING_IMAGES = """
window.__missingImages = 0
new MutationObserver(() => {
  window.__missingImages += document.querySelectorAll('[data-testid="image-error"]').length
}).observe(document, { subtree: true, childList: true })
"""


def test_a_live_training_never_shows_a_missing_image(new_page, built_ui, tmp_path):
    """Issue 17: a training writes images while the page auto-refreshes. Each refresh lists the
    steps and asks ``plugins?manual_update=true``, which wakes a reload that thins out steps the
    page is about to fetch; every card must keep showing images (no 400, no "does not exist")."""
    tags = ("first", "second", "third")
    with LiveImages(tmp_path / "base" / "live", tags, period=0.01) as live:
        live.write_steps(30)
        with running_server(tmp_path / "base", tmp_path / "ws", reload_interval=1) as live_server:
            page = new_page()
            page.add_init_script(
                "localStorage.setItem('isTimeReload', 'true'); localStorage.setItem('timeReloadValue', '3')"
            )
            page.add_init_script(WATCH_MISSING_IMAGES)
            listings = []
            page.on("response", lambda r: listings.append(r.url) if "image/metadata" in r.url else None)
            page.goto(image_url(live_server, "./live"))
            expect(page.locator('[data-testid="image-card"]')).to_have_count(3)
            shown = {tag: set() for tag in tags}
            refreshes = 0
            while refreshes < 10:  # auto refreshes every 3 s, and a manual one between two
                before = len(listings)
                if refreshes % 2:
                    page.get_by_test_id("refresh-button").click()
                page.wait_for_timeout(1_500)
                refreshes += len(listings) > before
                for tag in tags:
                    image = card(page, f"{tag}/image").get_by_test_id("image")
                    if image.count():
                        shown[tag].add(int(image.get_attribute("data-step")))
                assert page.evaluate("window.__missingImages") == 0
            assert page.evaluate("window.__missingImages") == 0
            for tag in tags:
                image = card(page, f"{tag}/image").get_by_test_id("image")
                expect(image).to_be_visible()
                assert natural_size(image) == (8, 8)
    # The cards followed the training: each showed several latest steps over the refreshes.
    assert all(len(steps) >= 3 for steps in shown.values()), shown
    assert live.step > 1000
