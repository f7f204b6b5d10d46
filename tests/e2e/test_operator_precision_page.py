"""The reduced-precision operator page in a real browser: the original's hash route lists every
operator of a graph file (``graphs/nodes/all``) with its precision flag, reduced ones first; the
search filters the rows, the pager pages them, the graph-file select switches the file, and the
download holds the filtered rows. Search, page, size and file live in the URL.

a_lenet_collector's graph holds 130 operators, none flagged (MindSpore 2.10 sets
``precision_flag`` only under mixed precision); the ``mixed`` job is written here with our own
writer: five chained operators, a Cast flagged "reduce" and a Cast flagged "raise".
f_save_graphs holds four .pb graph files (130 and 131 operators).
"""

import csv
import io
import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from mindinsight.format.proto import mindinsight_anf_ir_pb2 as anf_ir
from mindinsight.summary.writer import SummaryWriter
from tests.e2e.test_dashboard import hash_route
from tests.helpers.fixtures import copy_job
from tests.helpers.server import running_server

JOB = "./a_lenet_collector"
TEXTS = {
    "en-US": {"title": "Reduced Precision Operator Analysis", "search": "Search", "yes": "Yes", "no": "No"},
    "zh-CN": {"title": "降精度算子分析", "search": "搜索", "yes": "是", "no": "否"},
}
WAIT = 20_000


def write_mixed_precision_job(directory):
    graph = anf_ir.GraphProto(name="mixed")
    previous = None
    for node_id, op_type, flag in [
        ("1", "Conv2D", None),
        ("2", "Cast", "reduce"),
        ("3", "MatMul", None),
        ("4", "Cast", "raise"),
        ("5", "ReLU", None),
    ]:
        node = graph.node.add(name=node_id, op_type=op_type, scope="Default/net")
        node.output_type.data_type = anf_ir.DT_TENSOR
        node.output_type.tensor_type.elem_type = anf_ir.DT_FLOAT16 if flag == "reduce" else anf_ir.DT_FLOAT32
        node.output_type.tensor_type.shape.dim.add(size=4)
        if previous:
            node.input.add(name=previous, type=anf_ir.InputProto.DATA_EDGE)
        if flag:
            value = anf_ir.ValueProto(dtype=anf_ir.DT_STRING, str_val=flag)
            node.attribute.add(name="precision_flag").value.CopyFrom(value)
        previous = node_id
    with SummaryWriter(directory) as writer:
        writer.add_graph(graph)


@pytest.fixture(scope="module")
def server(built_ui, tmp_path_factory):
    base = tmp_path_factory.mktemp("precision") / "summary_base"
    copy_job("a_lenet_collector", base / "a_lenet_collector")
    copy_job("f_save_graphs", base / "f_save_graphs")
    write_mixed_precision_job(base / "mixed")
    with running_server(base, tmp_path_factory.mktemp("workspace"), reload_interval=0) as running:
        yield running


def page_url(server, train_id: str = JOB, **extra) -> str:
    url = f"{server.url}/#/train-manage/operatorPrecision?train_id={quote(train_id, safe='./')}"
    return url + "".join(f"&{key}={quote(str(value))}" for key, value in extra.items())


def all_nodes(server, train_id: str = JOB, tag: str | None = None) -> list[dict]:
    params = {"train_id": train_id, **({"tag": tag} if tag else {})}
    response = server.get("/datavisual/graphs/nodes/all", params=params)
    assert response.status_code == 200, response.text
    return response.json()["all_nodes_detail"]


def rows(page) -> list[list[str]]:
    """The shown rows' cells: id, operator name, full name, type, flag, reduced."""
    table = page.get_by_test_id("operator-table")
    expect(table).to_be_visible(timeout=WAIT)
    return table.locator(".el-table__body tr").evaluate_all(
        "trs => trs.map(tr => [...tr.querySelectorAll('td')].slice(0, 6).map(td => td.innerText.trim()))"
    )


def total(page) -> str:
    return page.get_by_test_id("operator-pager").locator(".el-pagination__total").inner_text()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_lists_searches_and_pages_the_operators(new_page, server, locale):
    page = new_page(locale)
    texts = TEXTS[locale]
    nodes = all_nodes(server)
    page.goto(page_url(server))
    expect(page.get_by_test_id("page-title")).to_have_text(texts["title"])
    expect(page.get_by_test_id("operator-search-button")).to_have_text(texts["search"])

    # The first page: the graph's first ten operators, in graph order (none is flagged).
    expect(page.get_by_test_id("operator-name").first).to_have_text("MakeTuple-op0", timeout=WAIT)
    shown = rows(page)
    assert [row[2] for row in shown] == [node["name"] for node in nodes[:10]]
    assert [row[0] for row in shown] == [str(index) for index in range(1, 11)]
    assert re.search(rf"\b{len(nodes)}\b", total(page))

    # Page 2 shows the next ten; the page is in the URL.
    page.get_by_test_id("operator-pager").locator(".el-pager li", has_text=re.compile(r"^2$")).click()
    expect(page.get_by_test_id("operator-name").first).to_have_text(nodes[10]["name"].split("/")[-1])
    assert [row[2] for row in rows(page)] == [node["name"] for node in nodes[10:20]]
    assert hash_route(page.url)[1]["page"] == "2"

    # A search keeps the operators whose name or type holds the text, back on page 1.
    page.get_by_test_id("operator-search").fill("Conv2D")
    page.get_by_test_id("operator-search-button").click()
    wanted = [node["name"] for node in nodes if "conv2d" in node["name"].lower() or "conv2d" in node["type"].lower()]
    assert 1 < len(wanted) <= 10
    expect(page.locator(".el-table__body tr")).to_have_count(len(wanted))
    assert [row[2] for row in rows(page)] == wanted
    route = hash_route(page.url)[1]
    assert route["search"] == "Conv2D" and "page" not in route

    # The search survives a reload from the URL; clearing it shows every operator again.
    page.reload()
    expect(page.locator(".el-table__body tr")).to_have_count(len(wanted), timeout=WAIT)
    expect(page.get_by_test_id("operator-search")).to_have_value("Conv2D")
    page.get_by_test_id("operator-search").fill("")
    page.get_by_test_id("operator-search").press("Enter")
    expect(page.locator(".el-table__body tr")).to_have_count(10)
    assert re.search(rf"\b{len(nodes)}\b", total(page))


def test_page_size_and_input_dialog(page, server):
    nodes = all_nodes(server)
    page.goto(page_url(server, size=20))
    expect(page.locator(".el-table__body tr")).to_have_count(20, timeout=WAIT)
    assert [row[2] for row in rows(page)] == [node["name"] for node in nodes[:20]]

    # "View" in the Input column lists the operator's inputs with their shapes and types.
    first = nodes[0]
    page.locator(".el-table__body tr").first.locator("td").nth(6).get_by_role("button").click()
    dialog = page.locator(".el-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".el-table__body tr")).to_have_count(len(first["input"]))
    for name in first["input"]:
        expect(dialog).to_contain_text(name)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_reduced_operators_come_first(new_page, server, locale):
    page = new_page(locale)
    texts = TEXTS[locale]
    page.goto(page_url(server, "./mixed"))
    expect(page.get_by_test_id("operator-name").first).to_have_text("Cast-op2", timeout=WAIT)
    assert rows(page) == [
        ["2", "Cast-op2", "Default/net/Cast-op2", "Cast", "reduce", texts["yes"]],
        ["4", "Cast-op4", "Default/net/Cast-op4", "Cast", "raise", texts["no"]],
        ["1", "Conv2D-op1", "Default/net/Conv2D-op1", "Conv2D", "", ""],
        ["3", "MatMul-op3", "Default/net/MatMul-op3", "MatMul", "", ""],
        ["5", "ReLU-op5", "Default/net/ReLU-op5", "ReLU", "", ""],
    ]
    # "Only flagged" keeps the two flagged operators.
    page.get_by_test_id("operator-flagged-only").click()
    expect(page.locator(".el-table__body tr")).to_have_count(2)
    assert hash_route(page.url)[1]["flagged"] == "1"


def test_graph_file_select_and_download(page, server):
    job = "./f_save_graphs"
    files = server.get("/datavisual/plugins", params={"train_id": job}).json()["plugins"]["graph"]
    counts = {tag: len(all_nodes(server, job, tag)) for tag in files}
    first, other = files[0], next(tag for tag in files if counts[tag] != counts[files[0]])
    page.goto(page_url(server, job))
    select = page.get_by_test_id("graph-file-select")
    expect(select).to_contain_text(first[:20], timeout=WAIT)
    expect(page.get_by_test_id("operator-name").first).to_be_visible()
    assert re.search(rf"\b{counts[first]}\b", total(page))

    with page.expect_request(lambda request: "nodes/all" in request.url and quote(other) in request.url):
        select.click()
        page.locator(".el-select-dropdown__item", has_text=other).click()
    expect(page.get_by_test_id("operator-pager").locator(".el-pagination__total")).to_contain_text(str(counts[other]))
    assert hash_route(page.url)[1]["tag"] == other

    # The download holds the filtered rows of the chosen file.
    page.get_by_test_id("operator-search").fill("MatMul")
    page.get_by_test_id("operator-search-button").click()
    expect(page.get_by_test_id("operator-name").first).to_contain_text("MatMul")
    shown = rows(page)
    with page.expect_download() as download_info:
        page.get_by_test_id("operator-download").click()
    download = download_info.value
    assert download.suggested_filename == f"operator_precision_f_save_graphs_{other}.csv"
    table = list(csv.reader(io.StringIO(open(download.path(), encoding="utf-8-sig").read())))
    assert table[0][:4] == ["ID", "Operator name", "Full name with scope", "Operator type"]
    wanted = [
        node["name"] for node in all_nodes(server, job, other) if "matmul" in (node["name"] + node["type"]).lower()
    ]
    assert len(wanted) > 10  # more than the page shows: the file holds every filtered row
    assert [line[2] for line in table[1:]] == wanted
    assert [row[2] for row in shown] == wanted[:10]
