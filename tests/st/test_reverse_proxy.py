"""The README's reverse-proxy setup, run for real: Debian's nginx (package nginx-light) with the
README's server block, in front of the real server started with the README's options.

nginx rewrites ``Host`` to its upstream's address and sends no ``X-Forwarded-Host``, so every
request the browser sends through it names another origin than the ``Host`` MindInsight sees:
the POSTs that only read must be answered all the same, a state change only from the
``--trusted-origin``.
"""

import json

import pytest
import requests

from mindinsight.backend.api import all_routes
from mindinsight.errors import CrossOriginRequestError
from tests.helpers.fixtures import copy_job
from tests.helpers.nginx import public_origin, readme_setup, running_nginx
from tests.helpers.server import running_server

LINEAGE_JOB = "./a_lenet_collector"
READ_ONLY_POSTS = [route for route in all_routes() if route.method == "POST" and not route.changes_state]


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    """``(proxy URL, public origin, server)``: nginx with the README's block before the server
    started with the README's options."""
    block, options = readme_setup()
    base = tmp_path_factory.mktemp("proxy_base")
    for job in ("a_lenet_collector", "b_summary_ops", "h_profiler_resnet"):
        copy_job(job, base / job)
    with running_server(base, tmp_path_factory.mktemp("ws"), reload_interval=0, options=options) as server:
        with running_nginx(block, server.port, tmp_path_factory.mktemp("nginx")) as proxy:
            yield proxy, public_origin(block), server


def through(proxied, method: str, path: str, origin: str | None, **kwargs) -> requests.Response:
    """A request to the proxy as a browser on the public address sends it."""
    url, public, _ = proxied
    headers = {"Host": public.split("//", 1)[1]}
    if origin is not None:
        headers["Origin"] = origin
    return requests.request(method, url + "/v1/mindinsight" + path, headers=headers, timeout=30, **kwargs)


def remark_of(proxied, train_id: str) -> str:
    answer = through(proxied, "POST", "/lineagemgr/lineages", None, json={"summary_dir": {"in": [train_id]}})
    assert answer.status_code == 200, answer.text
    return answer.json()["object"][0]["added_info"].get("remark", "")


def test_the_readme_block_proxies_to_the_server(proxied):
    url, public, server = proxied
    page = requests.get(url + "/", headers={"Host": public.split("//", 1)[1]}, timeout=30)
    assert page.status_code in (200, 404)  # 404: the UI is not built in this tree (the app's JSON)
    jobs = through(proxied, "GET", "/datavisual/train-jobs", None)
    assert jobs.status_code == 200 and jobs.json()["total"] == 3
    assert "127.0.0.1" in server.url


@pytest.mark.parametrize("route", READ_ONLY_POSTS, ids=lambda route: route.rule)
def test_posts_that_only_read_answer_through_the_proxy(proxied, route):
    query = {k: v for k, v in route.example.items() if route.args and k in route.args.fields}
    body = {k: v for k, v in route.example.items() if route.body and k in route.body.fields}
    _, public, _ = proxied
    # The public origin, and the proxy reached under a name nobody declared (or a page of
    # another site, which cannot read the answer): reading needs no trusted origin.
    for origin in (public, "http://10.0.0.7:8000", "http://evil.example"):
        answer = through(proxied, "POST", route.rule, origin, params=query, json=body)
        assert answer.status_code == 200, answer.text
        assert answer.headers["Content-Type"].startswith("application/json") and json.loads(answer.content)


def test_a_remark_is_stored_from_the_trusted_origin_only(proxied):
    _, public, _ = proxied
    stored = through(
        proxied, "PUT", "/lineagemgr/lineages", public, params={"train_id": LINEAGE_JOB}, json={"remark": "via nginx"}
    )
    assert stored.status_code == 200 and stored.json() == {"status": "success"}
    assert remark_of(proxied, LINEAGE_JOB) == "via nginx"
    for origin in ("http://evil.example", public.replace("http://", "https://"), public + ":8081"):
        forged = through(
            proxied, "PUT", "/lineagemgr/lineages", origin, params={"train_id": LINEAGE_JOB}, json={"remark": "forged"}
        )
        assert forged.status_code == 403 and forged.json()["error_code"] == CrossOriginRequestError().code
    assert remark_of(proxied, LINEAGE_JOB) == "via nginx"
