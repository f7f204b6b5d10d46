"""The training dashboard in a real browser: one card per kind of data, each opening its page;
refreshes that keep the user's choices; each scalar tag read once; a quiet data-health notice;
the summary list's operations.

b_summary_ops holds 6 scalar tags (the card shows the first two), 3 histogram tags, 3 tensor tags
and 2 image tags; run1 holds 1 scalar, 5 histogram and 1 image tag and no tensor.
"""

import re
import time
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from playwright.sync_api import expect

from tests.helpers.fixtures import copy_job
from tests.helpers.server import running_server

TEXTS = {
    "en-US": {
        "scalar": "Training Scalar Information",
        "histogram": "Parameter Distribution",
        "tensor": "Tensor",
        "graph": "Computational Graph",
        "dataGraph": "Data Graph",
        "image": "Data Sampling",
        "landscape": "Loss Function Multidimensional Analysis",
        "operatorPrecision": "Reduced Precision Operator Analysis",
        "switch": "Switch Tag",
        "how_to": "save tensor data",
        "skipped": "1 damaged record was skipped",
    },
    "zh-CN": {
        "scalar": "训练标量信息",
        "histogram": "参数分布图",
        "tensor": "张量",
        "graph": "计算图",
        "dataGraph": "数据图",
        "image": "数据抽样",
        "landscape": "损失函数多维分析",
        "operatorPrecision": "降精度算子分析",
        "switch": "切换标签",
        "how_to": "保存张量数据",
        "skipped": "已跳过 1 条损坏的记录",
    },
}
WAIT = 20_000  # ms: a first load on a busy 2-core machine can take a few seconds
PAGES = {
    "scalar": "/train-manage/scalar",
    "histogram": "/train-manage/histogram",
    "tensor": "/train-manage/tensor",
    "image": "/train-manage/image",
}


def dashboard_url(server, train_id: str) -> str:
    return f"{server.url}/#/train-manage/training-dashboard?id={quote(train_id, safe='./')}"


def card(page, kind: str):
    return page.locator(f'[data-testid="dashboard-card"][data-kind="{kind}"]')


def hash_route(url: str) -> tuple[str, dict]:
    """Path and query of the hash route of ``url``."""
    route = urlsplit(urlsplit(url).fragment)
    return route.path, {key: values[0] for key, values in parse_qs(route.query).items()}


def wait_for_cards(page):
    """Every card finished loading: scalar and histogram charts drawn, image and tensor shown."""
    expect(page.locator('[data-testid="dashboard-scalar-chart"][data-rendered="true"]')).to_have_count(1, timeout=WAIT)
    expect(card(page, "histogram").locator('[data-testid="distribution-chart"][data-rendered="true"]')).to_have_count(
        1, timeout=WAIT
    )
    expect(card(page, "image").get_by_test_id("dashboard-image")).to_be_visible(timeout=WAIT)


def image_loaded(page) -> bool:
    return page.get_by_test_id("dashboard-image").evaluate("img => img.complete && img.naturalWidth > 0")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_each_card_shows_its_data_and_opens_its_page(new_page, server, locale):
    page = new_page(locale)
    texts = TEXTS[locale]
    page.goto(dashboard_url(server, "./b_summary_ops"))
    wait_for_cards(page)
    kinds = page.get_by_test_id("dashboard-card").evaluate_all("els => els.map(e => e.dataset.kind)")
    assert kinds == ["scalar", "histogram", "tensor", "graph", "dataGraph", "image", "landscape", "operatorPrecision"]
    for kind in kinds:
        expect(card(page, kind).locator("h2")).to_have_text(texts[kind])

    # Scalar card: the first two tags, the first on the left axis and the second on the right.
    scalar = page.get_by_test_id("dashboard-scalar-chart")
    expect(scalar).to_have_attribute("data-tags", "accuracy/scalar,custom_loss/scalar")
    drawn = scalar.locator(".chart").evaluate(
        "el => { const o = el.__miChart.getOption(); return {axes: o.yAxis.map(a => a.position),"
        " series: o.series.map(s => [s.name, s.yAxisIndex, s.data.length])} }"
    )
    assert drawn == {"axes": ["left", "right"], "series": [["accuracy/scalar", 0, 300], ["custom_loss/scalar", 1, 300]]}
    box = scalar.locator("canvas").first.bounding_box()
    assert box and box["width"] > 300 and box["height"] > 200

    # Histogram card: the first histogram tag as a ridgeline over its retained steps.
    histogram = card(page, "histogram")
    expect(histogram.locator(".histogram-card")).to_have_attribute("data-tag", "conv1_out/histogram")
    chart = histogram.get_by_test_id("distribution-chart")
    expect(chart).to_have_attribute("data-view", "top")
    steps = server.get(
        "/datavisual/histograms", params={"train_id": "./b_summary_ops", "tag": "conv1_out/histogram"}
    ).json()["histograms"]
    expect(chart).to_have_attribute("data-steps", str(len(steps)))

    # Image card: the latest retained image of the first image tag, really loaded.
    expect(card(page, "image").locator("figure")).to_have_attribute("data-tag", "input_image/image")
    assert image_loaded(page)
    expect(page.get_by_test_id("switch-image-tag")).to_contain_text(texts["switch"])

    # Tensor card: the latest step of the first tensor tag as a table.
    tensor = card(page, "tensor")
    expect(tensor).to_have_attribute("data-state", "ready", timeout=WAIT)
    expect(tensor.locator(".tensor-card")).to_have_attribute("data-tag", "conv1_feature_map/tensor")
    expect(tensor.locator("tbody tr").first).to_be_visible()

    # Each card opens its page with the original's query names.
    for kind, path in PAGES.items():
        page.goto(dashboard_url(server, "./b_summary_ops"))
        expect(card(page, kind)).to_have_attribute("data-state", "ready", timeout=WAIT)
        card(page, kind).locator(".card-body").click(position={"x": 30, "y": 30})
        expect(page).to_have_url(re.compile(f"#{path}\\?"))
        assert hash_route(page.url) == (path, {"train_id": "./b_summary_ops", "summaryPath": "./b_summary_ops"})


def test_title_link_and_empty_cards_with_how_to(new_page, server):
    page = new_page("zh-CN")
    # run1 has no tensor: its card says how to collect some instead of linking to an empty page.
    page.goto(dashboard_url(server, "./run1"))
    tensor = card(page, "tensor")
    expect(tensor).to_have_attribute("data-state", "empty")
    expect(tensor.get_by_test_id("card-state")).to_contain_text(TEXTS["zh-CN"]["how_to"])
    expect(tensor.get_by_test_id("card-link")).to_have_count(0)
    tensor.click()
    assert hash_route(page.url)[0] == "/train-manage/training-dashboard"
    # A single image tag: nothing to switch to.
    expect(page.get_by_test_id("switch-image-tag")).to_be_disabled()
    # The card title is a real link (keyboard users reach the page through it).
    card(page, "histogram").get_by_test_id("card-link").focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"#/train-manage/histogram\?"))
    assert hash_route(page.url)[1]["train_id"] == "./run1"


def test_opening_reads_every_scalar_tag_once(page, server):
    # Auto refresh off, so that only the opening reads anything (a job still loading is re-read
    # once per poll: every card then reads once per read of the job's tags).
    page.goto(server.url + "/")
    page.get_by_test_id("auto-refresh-switch").click()
    reads = []
    page.on("request", lambda request: reads.append(request.url) if "/datavisual/" in request.url else None)
    page.goto(dashboard_url(server, "./b_summary_ops"))
    wait_for_cards(page)
    expect(card(page, "tensor")).to_have_attribute("data-state", "ready", timeout=WAIT)
    page.wait_for_timeout(1500)  # anything late would show up here
    job_reads = sum("/plugins?" in url for url in reads)
    assert job_reads >= 1
    scalar_reads = sorted(parse_qs(urlsplit(url).query)["tag"][0] for url in reads if "scalar/metadata" in url)
    assert scalar_reads == sorted(["accuracy/scalar", "custom_loss/scalar"] * job_reads)
    for endpoint in ("/histograms?", "image/metadata", "detail=data"):
        assert sum(endpoint in url for url in reads) == job_reads, endpoint


def test_refresh_keeps_the_chosen_image_tag(page, server):
    page.goto(dashboard_url(server, "./b_summary_ops"))
    wait_for_cards(page)
    figure = card(page, "image").locator("figure")
    expect(figure).to_have_attribute("data-tag", "input_image/image")
    page.get_by_test_id("switch-image-tag").click()
    expect(figure).to_have_attribute("data-tag", "rgb_pattern/image")
    assert hash_route(page.url)[0] == "/train-manage/training-dashboard"  # the button does not open the page
    expect(page.get_by_test_id("dashboard-image")).to_have_attribute(
        "src", re.compile(r"image/single-image\?train_id=\.%2Fb_summary_ops&tag=rgb_pattern%2Fimage&step=\d+")
    )

    for _ in range(2):
        with page.expect_request(lambda request: "image/metadata" in request.url and "rgb_pattern" in request.url):
            page.get_by_test_id("refresh-button").click()
        page.wait_for_timeout(300)
        expect(figure).to_have_attribute("data-tag", "rgb_pattern/image")
        expect(page.get_by_test_id("dashboard-scalar-chart")).to_have_attribute(
            "data-tags", "accuracy/scalar,custom_loss/scalar"
        )
    assert image_loaded(page)
    # Switching again wraps around to the first tag.
    page.get_by_test_id("switch-image-tag").click()
    expect(figure).to_have_attribute("data-tag", "input_image/image")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_damaged_records_are_mentioned_quietly(new_page, built_ui, tmp_path, locale):
    base = tmp_path / "base"
    copy_job("b_summary_ops", base / "damaged")
    copy_job("b_summary_ops", base / "intact")
    summary = next((base / "damaged").glob("*_MS"))
    data = bytearray(summary.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 8] = bytes(byte ^ 0xFF for byte in data[middle : middle + 8])  # one record's bytes
    summary.write_bytes(bytes(data))
    with running_server(base, tmp_path / "workspace", reload_interval=0) as damaged:
        # The count is known once the job's files were read, which the server does after it answers.
        deadline = time.monotonic() + 20
        while True:
            item = damaged.get("/datavisual/train-jobs", params={"train_id": "./damaged"}).json()["train_jobs"][0]
            if item["skipped_records"] or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert item["skipped_records"] == 1
        page = new_page(locale)
        page.goto(dashboard_url(damaged, "./damaged"))
        notice = page.get_by_test_id("data-health")
        expect(notice).to_contain_text(TEXTS[locale]["skipped"])
        # A line of small print beside the title, not an alert banner; the cards still show.
        assert notice.evaluate("el => parseFloat(getComputedStyle(el).fontSize)") <= 12
        expect(page.get_by_role("alert")).to_have_count(0)
        wait_for_cards(page)

        page.goto(dashboard_url(damaged, "./intact"))
        wait_for_cards(page)
        expect(page.get_by_test_id("data-health")).to_have_count(0)


def test_summary_list_columns_and_operations(page, server):
    page.goto(server.url + "/")
    rows = page.get_by_test_id("summary-row")
    expect(rows).to_have_count(4)
    headers = page.locator(".mi-table thead th").all_inner_texts()
    assert headers == ["No.", "Summary Path", "Update Time", "Operation"]
    # No job here has a profiler directory: no Profiling link anywhere, a dashboard link on each.
    jobs = server.get("/datavisual/train-jobs", params={"limit": 50}).json()["train_jobs"]
    assert all(job["profiler_dir"] is None for job in jobs)
    expect(page.get_by_test_id("profiling-link")).to_have_count(0)
    expect(page.get_by_test_id("dashboard-link")).to_have_count(4)
