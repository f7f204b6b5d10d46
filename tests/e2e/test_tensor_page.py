"""The tensor page in a real browser: the original's hash route, one card per tensor tag with a
table of a 2-D slice chosen by a dimension selection (checked before any request, with the reason
shown when refused), statistics, a step slider, integer tensors shown with their values, and the
histogram view drawing each tag's distribution over its retained steps.

b_summary_ops writes three tensor tags: ``conv1_feature_map`` and ``custom_tensor`` (float32,
shape [4, 8, 8]) and ``int_tensor`` (int32, shape [2, 3], steps 10..300 every 10); the server keeps
at most 20 steps per tag, always the last one."""

import re
from urllib.parse import parse_qs, quote, urlparse

import pytest
from playwright.sync_api import expect

JOB = "./b_summary_ops"
# Waits of the test that starts its own server on a 3.2 MB tensor: generous, as the machine running
# the tests may be busy (a wait, not an assertion on time).
SLOW = 30_000
TENSOR_TAGS = ["conv1_feature_map/tensor", "custom_tensor/tensor", "int_tensor/tensor"]
TEXTS = {
    "en-US": {
        "title": "Tensor",
        "dims": "Dimension Selection",
        "too_many": "At most 2 items may be ranges (a table has two axes).",
        "count": "2 item(s) given, but the tensor has 3 dimension(s).",
        "step": "Step: 300",
    },
    "zh-CN": {
        "title": "张量",
        "dims": "维度选择",
        "too_many": "最多 2 项可以是范围（表格只有两个轴）。",
        "count": "输入了 2 项，但张量有 3 个维度。",
        "step": "步骤：300",
    },
}


def tensor_url(server, train_id: str = JOB, **extra) -> str:
    quoted = quote(train_id, safe="./")
    url = f"{server.url}/#/train-manage/tensor?train_id={quoted}&summaryPath={quoted}"
    for key, value in extra.items():
        url += f"&{key}={quote(value, safe='/,')}"
    return url


def card(page, tag: str):
    return page.locator(f'[data-testid="tensor-card"][data-tag="{tag}"]')


def tensor_values(server, tag: str, **params) -> list[dict]:
    response = server.get("/datavisual/tensors", params={"train_id": JOB, "tag": tag, **params})
    assert response.status_code == 200, response.text
    return response.json()["tensors"][0]["values"]


def server_slice(server, tag: str, step: int, dims: str):
    return tensor_values(server, tag, detail="data", step=step, dims=dims)[0]["value"]["data"]


def table_texts(table) -> dict:
    """Row labels, column labels and cell texts of a rendered tensor table."""
    return {
        "rows": table.get_by_test_id("tensor-row").all_inner_texts(),
        "columns": table.get_by_test_id("tensor-column").all_inner_texts(),
        "cells": [text.strip() for text in table.get_by_test_id("tensor-cell").all_inner_texts()],
    }


def apply_dims(page, tag: str, text: str):
    box = card(page, tag).get_by_test_id("dims-input")
    box.fill(text)
    box.press("Enter")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_tensor_route_shows_a_table_per_tag(new_page, server, locale):
    page = new_page(locale)
    texts = TEXTS[locale]
    page.goto(tensor_url(server))

    expect(page.get_by_test_id("page-title")).to_have_text(texts["title"])
    cards = page.locator('[data-testid="tensor-card"]')
    expect(cards).to_have_count(3)
    assert cards.evaluate_all("els => els.map(e => e.dataset.tag)") == TENSOR_TAGS

    feature = card(page, TENSOR_TAGS[0])
    expect(feature.get_by_test_id("tensor-shape")).to_have_text("[4,8,8]")
    expect(feature.get_by_test_id("tensor-dtype")).to_have_text("DT_FLOAT32")
    expect(feature.get_by_test_id("tensor-step")).to_have_text(texts["step"])
    expect(feature).to_contain_text(texts["dims"])
    # The first selection of a 3-D tensor: index 0 of the first dimension, all of the others.
    expect(feature.get_by_test_id("dims-input")).to_have_value("0, :, :")
    table = feature.get_by_test_id("tensor-table")
    expect(table).to_have_attribute("data-dims", "[0,:,:]")
    expect(table.get_by_test_id("tensor-row")).to_have_count(8)
    expected = server_slice(server, TENSOR_TAGS[0], 300, "[0,:,:]")
    assert table.get_by_test_id("tensor-row").all_inner_texts() == [str(i) for i in range(8)]
    first = table.get_by_test_id("tensor-cell").first
    expect(first).to_have_text(f"{expected[0][0]:.5f}")

    # A refused selection says why, in the page's language, and leaves the table as it was.
    apply_dims(page, TENSOR_TAGS[0], ":, :, :")
    expect(feature.get_by_test_id("dims-error")).to_have_text(texts["too_many"])
    apply_dims(page, TENSOR_TAGS[0], "0, :")
    expect(feature.get_by_test_id("dims-error")).to_have_text(texts["count"])
    expect(table).to_have_attribute("data-dims", "[0,:,:]")


def test_integer_tensor_shows_its_values(page, server):
    tag = "int_tensor/tensor"
    latest = tensor_values(server, tag)[-1]
    assert latest["step"] == 300 and latest["value"]["data_type"] == "DT_INT32"
    expected = server_slice(server, tag, 300, "[:,:]")
    assert len(expected) == 2 and len(expected[0]) == 3

    page.goto(tensor_url(server, tags=tag))
    integer = card(page, tag)
    expect(integer.get_by_test_id("tensor-shape")).to_have_text("[2,3]")
    expect(integer.get_by_test_id("tensor-dtype")).to_have_text("DT_INT32")
    table = integer.get_by_test_id("tensor-table")
    expect(table.get_by_test_id("tensor-cell")).to_have_count(6)
    shown = table_texts(table)
    assert shown["rows"] == ["0", "1"]
    assert shown["columns"] == ["0", "1", "2"]
    # Integers as integers (no decimals), every one of them.
    assert shown["cells"] == [str(value) for row in expected for value in row]
    values = [value for row in expected for value in row]
    expect(integer.get_by_test_id("stat-max")).to_have_text(str(max(values)))
    expect(integer.get_by_test_id("stat-min")).to_have_text(str(min(values)))
    expect(integer.get_by_test_id("stat-nan")).to_have_text("0")


def test_dims_query_changes_the_table(page, server):
    tag = TENSOR_TAGS[0]
    asked = []
    page.on(
        "request",
        lambda request: asked.append(parse_qs(urlparse(request.url).query)) if "detail=data" in request.url else None,
    )
    page.goto(tensor_url(server, tags=tag))
    table = card(page, tag).get_by_test_id("tensor-table")
    expect(table).to_have_attribute("data-dims", "[0,:,:]")

    apply_dims(page, tag, "1, 2:5, 0:2")
    expect(table).to_have_attribute("data-dims", "[1,2:5,0:2]")
    expect(table.get_by_test_id("tensor-row")).to_have_count(3)
    expected = server_slice(server, tag, 300, "[1,2:5,0:2]")
    shown = table_texts(table)
    assert shown["rows"] == ["2", "3", "4"]
    assert shown["columns"] == ["0", "1"]
    assert shown["cells"] == [f"{value:.5f}" for row in expected for value in row]

    # One range: a single row whose columns are the tensor indices; negative indices count from the end.
    card(page, tag).get_by_test_id("dims-input").fill("-1, 3, 5:")
    card(page, tag).get_by_test_id("dims-apply").click()
    expect(table).to_have_attribute("data-dims", "[-1,3,5:]")
    expect(table.get_by_test_id("tensor-row")).to_have_count(1)
    expected = server_slice(server, tag, 300, "[-1,3,5:]")
    shown = table_texts(table)
    assert shown["columns"] == ["5", "6", "7"]
    assert shown["cells"] == [f"{value:.5f}" for value in expected]

    sent = [query["dims"][0] for query in asked if query.get("tag") == [tag]]
    assert sent[-2:] == ["[1,2:5,0:2]", "[-1,3,5:]"]
    # An index outside its dimension is refused before any request.
    apply_dims(page, tag, "4, :, :")
    expect(card(page, tag).get_by_test_id("dims-error")).to_contain_text("outside the dimension of size 4")
    assert [query["dims"][0] for query in asked if query.get("tag") == [tag]] == sent


def test_step_slider_shows_another_step(page, server):
    tag = TENSOR_TAGS[0]
    steps = [value["step"] for value in tensor_values(server, tag)]
    assert len(steps) == 20 and max(steps) == 300
    first = min(steps)
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "detail=data" in request.url else None)
    page.goto(tensor_url(server, tags=tag))
    feature = card(page, tag)
    expect(feature.get_by_test_id("tensor-step")).to_have_text("Step: 300")
    expect(feature.get_by_test_id("tensor-cell").first).to_be_visible()

    feature.get_by_role("slider").focus()
    page.keyboard.press("Home")
    expect(feature.get_by_test_id("tensor-step")).to_have_text(f"Step: {first}")
    expected = server_slice(server, tag, first, "[0,:,:]")
    expect(feature.get_by_test_id("tensor-cell").first).to_have_text(f"{expected[0][0]:.5f}")
    assert any(parse_qs(urlparse(url).query).get("step") == [str(first)] for url in asked)


def test_histogram_view_draws_every_step(page, server):
    page.goto(tensor_url(server))
    expect(page.locator('[data-testid="tensor-card"]')).to_have_count(3)
    page.get_by_test_id("mode-histogram").click()
    expect(page).to_have_url(re.compile(r"mode=histogram"))
    charts = page.locator('[data-testid="distribution-chart"][data-rendered="true"]')
    expect(charts).to_have_count(3)
    for tag in TENSOR_TAGS:
        retained = tensor_values(server, tag, detail="histogram")
        chart = card(page, tag).get_by_test_id("distribution-chart")
        expect(chart).to_have_attribute("data-steps", str(len(retained)))
        expect(chart).to_have_attribute("data-view", "top")
        assert chart.locator("canvas").count() >= 1
    expect(page.get_by_test_id("dims-input")).to_have_count(0)

    page.get_by_test_id("view-front").click()
    expect(page.get_by_test_id("axis-switch")).to_have_count(0)
    expect(card(page, TENSOR_TAGS[2]).get_by_test_id("distribution-chart")).to_have_attribute("data-view", "front")
    expect(page.locator('[data-testid="distribution-chart"][data-rendered="true"]')).to_have_count(3)

    # Back to the table: the cards show their tables again.
    page.get_by_test_id("mode-table").click()
    expect(page.get_by_test_id("tensor-table")).to_have_count(3)


def test_job_without_tensors_says_so(page, server):
    page.goto(tensor_url(server, "./run2"))
    expect(page.get_by_test_id("no-tensor-data")).to_contain_text("No tensor data")
    expect(page.locator('[data-testid="tensor-card"]')).to_have_count(0)


def test_non_finite_values_and_large_tensors(page, built_ui, tmp_path):
    import numpy as np

    from mindinsight.summary.writer import SummaryWriter
    from tests.helpers.server import running_server

    special = np.arange(12, dtype=np.float32).reshape(3, 4)
    special[0, 1], special[0, 2], special[0, 3] = np.nan, np.inf, -np.inf
    wide = np.linspace(-1, 1, 400 * 2000, dtype=np.float32).reshape(400, 2000)
    with SummaryWriter(tmp_path / "base" / "job") as writer:
        writer.add_tensor("special", special, step=1)
        writer.add_tensor("wide", wide, step=1)

    with running_server(tmp_path / "base", tmp_path / "workspace") as live:
        page.goto(tensor_url(live, "./job"))
        special_card = card(page, "special/tensor")
        cells = special_card.get_by_test_id("tensor-cell")
        expect(cells).to_have_count(12, timeout=SLOW)
        assert [text.strip() for text in cells.all_inner_texts()[:5]] == ["0.00000", "NaN", "+Inf", "-Inf", "4.00000"]
        expect(special_card.get_by_test_id("stat-nan")).to_have_text("1", timeout=SLOW)
        expect(special_card.get_by_test_id("stat-max")).to_have_text("11", timeout=SLOW)

        # The first selection of a big matrix stays within the 100,000 values the server sends.
        wide_card = card(page, "wide/tensor")
        expect(wide_card.get_by_test_id("dims-input")).to_have_value("0:100, 0:1000", timeout=SLOW)
        table = wide_card.get_by_test_id("tensor-table")
        expect(table).to_have_attribute("data-dims", "[0:100,0:1000]", timeout=SLOW)
        expect(table.get_by_test_id("tensor-cell").first).to_have_text(f"{wide[0, 0]:.5f}", timeout=SLOW)
        apply_dims(page, "wide/tensor", ":, :")
        expect(wide_card.get_by_test_id("dims-error")).to_have_text(
            "This selection has 800000 values; at most 100000 can be shown.", timeout=SLOW
        )
        apply_dims(page, "wide/tensor", "-1, -3:")
        expect(table).to_have_attribute("data-dims", "[-1,-3:]", timeout=SLOW)
        shown = table_texts(table)
        assert shown["columns"] == ["1997", "1998", "1999"]
        assert shown["cells"] == [f"{value:.5f}" for value in wide[-1, -3:].tolist()]
