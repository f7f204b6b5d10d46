"""Security of the real server: the access token beyond loopback, weak tokens refused, the Host
check against DNS rebinding, refused cross-site state changes, JSON answers for over-long URLs,
and the security headers on every answer."""

import os
import re

import pytest
import requests

from mindinsight.backend import access, ui
from mindinsight.backend.security_headers import FIXED_HEADERS
from mindinsight.conf import limits
from mindinsight.errors import (
    AccessTokenError,
    CrossOriginRequestError,
    HostNotAllowedError,
    ParamValueError,
    UrlTooLongError,
)
from tests.helpers.fixtures import copy_job
from tests.helpers.server import free_port, run_cli, running_server
from tests.st.conftest import wait_for

JOB = "./b_summary_ops"


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    base = tmp_path_factory.mktemp("security_base")
    copy_job("b_summary_ops", base / "b_summary_ops")
    return base


@pytest.fixture(scope="module")
def exposed(base, tmp_path_factory):
    """A server bound to every address (0.0.0.0): it makes up a token; reached on 127.0.0.1."""
    with running_server(base, tmp_path_factory.mktemp("ws"), host="0.0.0.0") as server:
        assert server.token, f"no ?token= in the printed web address:\n{server.start_output}"
        wait_for(lambda: server.get("/datavisual/train-jobs").json()["train_jobs"][0]["cache_status"] == "CACHED")
        yield server


def scalar_query(server) -> dict:
    tags = server.get("/datavisual/plugins", params={"train_id": JOB}).json()["plugins"]["scalar"]
    return {"train_id": JOB, "tag": tags[0]}


def static_path() -> str:
    """A file the built UI has, else a name that is none (the app's 404 once admitted)."""
    built = sorted(path for path in ui.STATIC_DIR.rglob("*") if path.is_file()) if ui.STATIC_DIR.is_dir() else []
    return "/static/" + built[0].relative_to(ui.STATIC_DIR).as_posix() if built else "/static/none-Ab12Cd34.js"


def assert_security_headers(response: requests.Response) -> None:
    for name, value in FIXED_HEADERS.items():
        assert response.headers[name] == value, name


def assert_refused(response: requests.Response) -> None:
    assert response.status_code == 401 and response.json()["error_code"] == AccessTokenError().code
    assert response.headers["Cache-Control"] == "no-store"
    assert_security_headers(response)


def test_printed_address_carries_a_generated_token_the_log_does_not(exposed):
    token = exposed.token
    assert len(token) >= limits.MIN_TOKEN_LENGTH and re.fullmatch(r"[A-Za-z0-9_-]+", token)
    assert f"Web address: http://0.0.0.0:{exposed.port}/?token={token}" in exposed.start_output
    start_log = (exposed.workspace / "log" / "scripts" / f"start.{exposed.port}.log").read_text()
    assert "?token=<token>" in start_log and token not in start_log


def test_api_index_and_static_need_the_token(exposed):
    for url in (exposed.api + "/datavisual/train-jobs", exposed.url + "/", exposed.url + static_path()):
        assert_refused(requests.get(url, timeout=30))
        assert_refused(requests.get(url, headers={"Authorization": "Bearer " + "x" * len(exposed.token)}, timeout=30))
        admitted = requests.get(url, headers={"Authorization": f"Bearer {exposed.token}"}, timeout=30)
        assert_security_headers(admitted)
        if url.endswith("train-jobs") or (ui.DIST_DIR / "index.html").is_file():
            assert admitted.status_code == 200, url
        else:  # the UI is not built in this tree: the app's own JSON 404, past the token check
            assert admitted.status_code == 404 and admitted.json()["error_code"] == "50545001"
    assert exposed.get("/datavisual/train-jobs").json()["total"] == 1


def test_the_browser_flow_token_in_the_address_then_the_cookie(exposed):
    browser = requests.Session()
    page = browser.get(f"{exposed.url}/?token={exposed.token}", timeout=30)
    assert page.status_code != 401
    cookie = page.headers["Set-Cookie"]
    assert cookie.startswith(f"{access.cookie_name(exposed.port)}={exposed.token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    # The page's own calls carry only the cookie now.
    jobs = browser.get(exposed.api + "/datavisual/train-jobs", timeout=30)
    assert jobs.status_code == 200 and jobs.json()["total"] == 1
    assert browser.get(exposed.api + "/datavisual/scalar/metadata", params=scalar_query(exposed), timeout=30).ok


def test_a_reused_answer_is_not_served_without_the_token(exposed):
    query = scalar_query(exposed)
    first = exposed.get("/datavisual/scalar/metadata", params=query)
    again = exposed.get("/datavisual/scalar/metadata", params=query)  # the front's reused answer
    assert first.status_code == again.status_code == 200 and first.content == again.content
    assert first.json()["metadatas"]
    leaked = requests.get(exposed.api + "/datavisual/scalar/metadata", params=query, timeout=30)
    assert_refused(leaked)
    assert b"metadatas" not in leaked.content


def test_start_again_prints_the_running_servers_token(exposed, base):
    again = run_cli(
        "start",
        "--summary-base-dir",
        str(base),
        "--workspace",
        str(exposed.workspace),
        "--port",
        str(exposed.port),
        "--host",
        "0.0.0.0",
    )
    assert again.returncode == 2 and f"?token={exposed.token}" in again.stdout


def test_cross_site_state_change_is_refused(exposed):
    lineages = exposed.api + "/lineagemgr/lineages"
    put = {"params": {"train_id": JOB}, "json": {"remark": "note"}, "timeout": 30}
    auth = {"Authorization": f"Bearer {exposed.token}"}
    for origin in ("http://evil.example", f"http://127.0.0.1:{exposed.port + 1}", "null"):
        refused = requests.put(lineages, headers={**auth, "Origin": origin}, **put)
        assert refused.status_code == 403 and refused.json()["error_code"] == CrossOriginRequestError().code
        assert_security_headers(refused)
    refused = requests.put(lineages, headers={**auth, "Referer": "http://evil.example/x"}, **put)
    assert refused.status_code == 403
    for headers in ({"Origin": f"http://127.0.0.1:{exposed.port}"}, {}):
        admitted = requests.put(lineages, headers={**auth, **headers}, **put)
        # Past the front: the view's own answer (this job has no lineage to remark on).
        assert admitted.status_code == 400 and "does not exist" in admitted.json()["error_msg"]


def test_over_long_urls_answer_json(exposed):
    url = exposed.api + "/datavisual/scalar/metadata"
    auth = {"Authorization": f"Bearer {exposed.token}"}
    for length in (limits.MAX_URL_LENGTH + 1, limits.MAX_REQUEST_LINE_BYTES - 1024):
        response = requests.get(url, params={"train_id": JOB, "tag": "x" * length}, headers=auth, timeout=30)
        assert response.status_code == 414 and response.json()["error_code"] == UrlTooLongError().code
        assert_security_headers(response)
    response = requests.get(
        url, params={"train_id": JOB, "tag": "x" * (limits.MAX_PARAM_LENGTH + 1)}, headers=auth, timeout=30
    )
    assert response.status_code == 400 and response.json()["error_code"] == ParamValueError().code


def test_security_headers_on_errors(exposed):
    auth = {"Authorization": f"Bearer {exposed.token}"}
    missing = requests.get(exposed.url + "/no/such/page", headers=auth, timeout=30)
    assert missing.status_code == 404 and missing.headers["Cache-Control"] == "no-store"
    assert_security_headers(missing)
    bad = exposed.get("/datavisual/scalar/metadata", params={"train_id": JOB, "tag": "nope"})
    assert bad.status_code == 400 and bad.headers["Cache-Control"] == "no-store"
    assert_security_headers(bad)


def test_loopback_with_a_token_asks_for_it(base, tmp_path):
    token = "given-Token_0123456789"
    with running_server(base, tmp_path / "ws", token=token) as server:
        assert server.token == token
        assert f"Web address: http://127.0.0.1:{server.port}/?token={token}" in server.start_output
        assert_refused(requests.get(server.api + "/ui-config", timeout=30))
        assert server.get("/ui-config").status_code == 200


def test_the_access_log_never_holds_the_token(exposed):
    token = exposed.token
    requests.get(f"{exposed.url}/?token={token}", timeout=30)
    requests.get(
        exposed.api + "/ui-config",
        timeout=30,
        headers={"Referer": f"{exposed.url}/?token={token}", "Authorization": f"Bearer {token}"},
    )
    log = exposed.workspace / "log" / "gunicorn" / f"access.{exposed.port}.log"
    text = wait_for(lambda: (lambda t: t if t.count("token=<hidden>") >= 2 else None)(log.read_text()))
    assert token not in text


def test_cross_site_posts_that_only_read_are_answered(exposed):
    auth = {"Authorization": f"Bearer {exposed.token}", "Origin": "https://board.example"}
    search = requests.post(
        exposed.api + "/lineagemgr/lineages", json={"summary_dir": {"in": [JOB]}}, headers=auth, timeout=30
    )
    assert search.status_code == 200 and "object" in search.json()


@pytest.mark.parametrize("weak", ["a" * 16, "abababababababab", "0123456789abcdef"])
def test_a_weak_token_is_refused_by_the_cli(weak, base, tmp_path):
    port = free_port()
    common = ["start", "--summary-base-dir", str(base), "--workspace", str(tmp_path / "ws"), "--port", str(port)]
    given = run_cli(*common, "--token", weak)
    if given.returncode == 0:  # it started after all: stop it before failing
        run_cli("stop", "--port", str(port), "--workspace", str(tmp_path / "ws"))
    assert given.returncode == 2 and "argument --token: the access token is too easy to guess" in given.stderr
    assert "secrets.token_urlsafe" in given.stderr
    from_env = run_cli(*common, env={**os.environ, "MINDINSIGHT_TOKEN": weak})
    assert from_env.returncode == 2 and "too easy to guess" in from_env.stderr
    assert not (tmp_path / "ws").exists()  # refused before anything started


@pytest.fixture(scope="module")
def lineage_base(tmp_path_factory):
    base = tmp_path_factory.mktemp("rebinding_base")
    copy_job("a_lenet_collector", base / "a_lenet_collector")
    return base


def remark_via(server, host: str, text: str) -> requests.Response:
    """A remark PUT as a page at ``http://<host>`` sends it (Host and Origin agree)."""
    return requests.put(
        server.api + "/lineagemgr/lineages",
        params={"train_id": "./a_lenet_collector"},
        json={"remark": text},
        headers={"Host": host, "Origin": f"http://{host}"},
        timeout=30,
    )


def stored_remark(server) -> str:
    search = server.post("/lineagemgr/lineages", json={"summary_dir": {"in": ["./a_lenet_collector"]}})
    return search.json()["object"][0]["added_info"].get("remark", "")


def test_a_rebound_name_reads_and_writes_nothing_on_the_default_bind(lineage_base, tmp_path):
    with running_server(lineage_base, tmp_path / "ws") as server:
        assert not server.token  # loopback, no token: only the Host check stands
        rebound = f"rebind.example:{server.port}"
        for path in ("/datavisual/train-jobs", "/ui-config"):
            refused = requests.get(
                server.api + path, headers={"Host": rebound, "Origin": f"http://{rebound}"}, timeout=30
            )
            assert refused.status_code == 403 and refused.json()["error_code"] == HostNotAllowedError().code
            assert_security_headers(refused)
            assert b"train_jobs" not in refused.content
        page = requests.get(server.url + "/", headers={"Host": rebound}, timeout=30)
        assert page.status_code == 403 and page.json()["error_code"] == HostNotAllowedError().code
        refused = remark_via(server, rebound, "rebound")
        assert refused.status_code == 403 and refused.json()["error_code"] == HostNotAllowedError().code
        assert stored_remark(server) == ""
        for host in (f"localhost:{server.port}", f"127.0.0.1:{server.port}", f"LOCALHOST:{server.port}"):
            assert remark_via(server, host, "mine").status_code == 200, host
        assert stored_remark(server) == "mine"


def test_allowed_hosts_are_answered_on_loopback(lineage_base, tmp_path):
    options = ("--allowed-host", "board.example", "--allowed-host", "10.1.2.3")
    with running_server(lineage_base, tmp_path / "ws", options=options) as server:
        for host in (f"board.example:{server.port}", "10.1.2.3", f"localhost:{server.port}"):
            answer = requests.get(server.api + "/datavisual/train-jobs", headers={"Host": host}, timeout=30)
            assert answer.status_code == 200 and answer.json()["total"] == 1, host
        other = requests.get(server.api + "/datavisual/train-jobs", headers={"Host": "rebind.example"}, timeout=30)
        assert other.status_code == 403 and other.json()["error_code"] == HostNotAllowedError().code
