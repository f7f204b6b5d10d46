"""TensorBoard runs on the per-tag pages, the graph page and the dashboard in a real browser
(English and Chinese), on the logs ``torch.utils.tensorboard`` wrote (tests/fixtures/tensorboard):
the text page and its dashboard card render markdown and never the markup a text holds, the
graph page draws the graph ``add_graph`` traced, the histogram and image pages show the run's
histograms and images."""

import json
import shutil
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.helpers.server import running_server

TORCH_LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "tensorboard" / "torch"
EXPECTED = json.loads((TORCH_LOGS.parent / "expected.json").read_text())
MODEL, SEED1 = "./model", "./exp/seed1"
TEXTS = EXPECTED[MODEL]["texts"]
WAIT = 20_000
TITLES = {
    "en-US": {"text": "Text", "histogram": "Parameter Distribution", "image": "Image", "graph": "Computational Graph"},
    "zh-CN": {"text": "文本", "histogram": "参数分布图", "image": "图像", "graph": "计算图"},
}
# What a text's markup would have done, had it been rendered as HTML.
XSS_SET = "window.__textXss"


@pytest.fixture(scope="module")
def tb_server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("tb_pages") / "base"
    shutil.copytree(TORCH_LOGS, base)
    with running_server(base, tmp_path_factory.mktemp("tb_pages_ws"), reload_interval=0) as server:
        yield server


def page_url(server, page: str, train_id: str) -> str:
    encoded = quote(train_id, safe="")
    return f"{server.url}/#/train-manage/{page}?train_id={encoded}&summaryPath={encoded}"


def text_card(page, tag: str):
    return page.locator(f'[data-testid="text-card"][data-tag="{tag}"]')


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_text_page_renders_markdown_and_no_markup(new_page, tb_server, locale):
    page = new_page(locale)
    page.goto(page_url(tb_server, "text", MODEL))
    expect(page.get_by_test_id("page-title")).to_have_text(TITLES[locale]["text"], timeout=WAIT)
    expect(page.get_by_test_id("text-card")).to_have_count(len(TEXTS), timeout=WAIT)

    notes = text_card(page, "notes/text_summary")
    sample = notes.get_by_test_id("text-sample")
    # the latest step first: the markup is shown as the text it is, and none of it ran
    expect(sample).to_contain_text("<script>window.__textXss = 1</script>", timeout=WAIT)
    expect(sample).to_contain_text('onerror="window.__textXss = 2"')
    expect(sample.locator("script, img")).to_have_count(0)
    page.wait_for_timeout(300)
    assert page.evaluate(f"typeof {XSS_SET}") == "undefined"
    expect(notes.get_by_test_id("text-step")).to_contain_text("2")

    # the first step: a heading, emphasis, a table and a link, rendered
    slider = notes.locator('[data-testid="text-step-slider"] .el-slider__runway')
    box = slider.bounding_box()
    page.mouse.click(box["x"] + 1, box["y"] + box["height"] / 2)
    expect(notes.get_by_test_id("text-step")).to_contain_text("0")
    expect(sample.locator("h1")).to_have_text("Run notes")
    expect(sample.locator("strong")).to_have_text("lr")
    expect(sample.locator("table td")).to_have_text(["1", "2"])
    link = sample.locator("a")
    expect(link).to_have_attribute("href", "https://example.com")
    expect(link).to_have_attribute("rel", "noopener noreferrer")

    # a 2-d text tensor is a table of rendered cells, a 0-d one a single text
    table = text_card(page, "table").locator("table.text-table td")
    expect(table).to_have_text(["name", "value", "lr", "0.1"])
    expect(text_card(page, "table").locator("td strong")).to_have_text("lr")
    expect(text_card(page, "single").locator("em")).to_have_text("0-d")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_dashboard_text_card_opens_the_text_page(new_page, tb_server, locale):
    page = new_page(locale)
    encoded = quote(MODEL, safe="")
    page.goto(f"{tb_server.url}/#/train-manage/training-dashboard?id={encoded}")
    card = page.locator('[data-testid="dashboard-card"][data-kind="text"]')
    expect(card).to_have_attribute("data-state", "ready", timeout=WAIT)
    expect(card.locator(".card-title")).to_have_text(TITLES[locale]["text"])
    expect(card.get_by_test_id("text-sample")).to_contain_text("after the markup")
    expect(card.locator("script, img")).to_have_count(0)
    assert page.evaluate(f"typeof {XSS_SET}") == "undefined"
    card.get_by_test_id("card-link").click()
    expect(page.get_by_test_id("text-card")).to_have_count(len(TEXTS), timeout=WAIT)


def test_dashboard_of_a_run_without_text_has_no_text_card(new_page, tb_server):
    page = new_page("en-US")
    page.goto(f"{tb_server.url}/#/train-manage/training-dashboard?id=./session_start")
    expect(page.locator('[data-testid="dashboard-card"][data-kind="scalar"]')).to_have_attribute(
        "data-state", "ready", timeout=WAIT
    )
    expect(page.locator('[data-testid="dashboard-card"][data-kind="text"]')).to_have_count(0)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_graph_page_draws_a_torch_graph(new_page, tb_server, locale):
    page = new_page(locale)
    page.goto(f"{tb_server.url}/#/train-manage/graph?train_id={quote(MODEL, safe='')}")
    expect(page.get_by_test_id("page-title")).to_have_text(TITLES[locale]["graph"], timeout=WAIT)
    top = page.locator("[data-testid=graph-node]")
    expect(top.first).to_be_visible(timeout=WAIT)
    names = set(top.evaluate_all("els => els.map(e => e.dataset.name)"))
    assert {"input", "output", "Net"} <= names
    expect(page.get_by_test_id("graph-edge").first).to_be_attached()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_histogram_page_shows_a_tensorboard_run(new_page, tb_server, locale):
    page = new_page(locale)
    page.goto(page_url(tb_server, "histogram", SEED1))
    expect(page.get_by_test_id("page-title")).to_have_text(TITLES[locale]["histogram"], timeout=WAIT)
    charts = page.get_by_test_id("histogram-chart")
    expected = EXPECTED[SEED1]["histograms"]
    expect(charts).to_have_count(len(expected), timeout=WAIT)
    expect(charts.locator("figcaption")).to_have_text(sorted(expected))
    rendered = '[data-testid="histogram-chart"] [data-testid="distribution-chart"][data-rendered="true"]'
    expect(page.locator(rendered)).to_have_count(len(expected), timeout=WAIT)
    for tag, steps in expected.items():
        chart = page.locator(f'[data-testid="histogram-chart"][data-tag="{tag}"] [data-testid="distribution-chart"]')
        expect(chart).to_have_attribute("data-steps", str(len(steps)))


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_image_page_shows_a_tensorboard_run(new_page, tb_server, locale):
    page = new_page(locale)
    page.goto(page_url(tb_server, "image", SEED1))
    expect(page.get_by_test_id("page-title")).to_have_text(TITLES[locale]["image"], timeout=WAIT)
    expected = EXPECTED[SEED1]["images"]
    for tag, image in expected.items():
        shown = page.locator(f'[data-testid="image-card"][data-tag="{tag}"] img')
        expect(shown).to_be_visible(timeout=WAIT)
        expect(shown).to_have_js_property("complete", True)
        height, width = len(image["pixels"]), len(image["pixels"][0])
        assert shown.evaluate("img => [img.naturalWidth, img.naturalHeight]") == [width, height]
