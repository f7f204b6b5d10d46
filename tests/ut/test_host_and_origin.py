"""Who may reach the server by name, and whose pages may change state: the ``Host`` check
against DNS rebinding, and the same-origin rule held to the routes declared to change state
(``--allowed-host`` and ``--trusted-origin`` widen them)."""

import json

import pytest

from mindinsight.backend import access
from mindinsight.backend.api import all_routes
from mindinsight.backend.api.routing import Topic
from mindinsight.backend.application import create_asgi_app
from mindinsight.backend.view_marks import POOLED
from mindinsight.conf.origins import allowed_host, trusted_origin
from mindinsight.conf.settings import ENV_PREFIX, Settings
from mindinsight.errors import CrossOriginRequestError, HostNotAllowedError
from tests.helpers.apps import make_app
from tests.helpers.asgi import CountingWSGI, asgi_request
from tests.helpers.fixtures import copy_job

PORT = 8123
JOB = "./a_lenet_collector"
SCALARS = ("/v1/mindinsight/datavisual/scalar/metadata", b"train_id=./a_lenet_collector&tag=loss/auto/scalar")
LINEAGE = "/v1/mindinsight/lineagemgr/lineages"
TOKEN = "s3cret-Token_0123456789"
ROUTES = all_routes()
READ_ONLY_POSTS = [route for route in ROUTES if route.method == "POST" and not route.changes_state]
STATE_CHANGES = [route for route in ROUTES if route.changes_state]


def front_over(base, **settings):
    """The serving front of an app over ``base`` holding one job with lineage."""
    if not (base / "a_lenet_collector").exists():
        copy_job("a_lenet_collector", base / "a_lenet_collector")
    app = make_app(base, port=PORT, **settings)
    app.wsgi_app = counter = CountingWSGI(app.wsgi_app)
    front = create_asgi_app(app)
    front.counter = counter
    return front


@pytest.fixture
def loopback(tmp_path):
    """Bound to loopback (the default) without a token: the case DNS rebinding aims at."""
    return front_over(tmp_path)


def remark(front, text: str, headers=(), host: bytes = b"127.0.0.1"):
    body = json.dumps({"remark": text}).encode()
    query = b"train_id=" + JOB.encode()
    return asgi_request(front, LINEAGE, query, method="PUT", body=body, headers=list(headers), host=host)


def stored_remark(front) -> str:
    body = json.dumps({"summary_dir": {"in": [JOB]}}).encode()
    status, _, answer = asgi_request(front, LINEAGE, method="POST", body=body)
    assert status == 200
    return json.loads(answer)["object"][0]["added_info"].get("remark", "")


def assert_json_error(answer, status: int, code: str) -> None:
    got, headers, body = answer
    assert got == status and headers["content-type"] == "application/json", body
    assert json.loads(body)["error_code"] == code


def assert_host_refused(answer) -> None:
    assert_json_error(answer, 403, HostNotAllowedError().code)
    assert HostNotAllowedError().code == "50540104"


# -- the Host check -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        f"rebind.example:{PORT}".encode(),
        b"rebind.example",
        b"localhost.rebind.example",
        b"127.0.0.1.rebind.example",
        b"192.168.1.5",
        b"0.0.0.0",
        b"evil.example@127.0.0.1",
        b"127.0.0.1:nope",
        b"[::1",
        b"",  # no Host header at all
    ],
)
def test_a_page_of_another_name_reads_and_writes_nothing(loopback, host):
    first = asgi_request(loopback, *SCALARS)  # kept by the front: it must not be served again
    assert first[0] == 200 and json.loads(first[2])["metadatas"]
    calls = loopback.counter.calls
    origin = [(b"origin", b"http://" + host)] if host else []
    assert_host_refused(asgi_request(loopback, *SCALARS, host=host, headers=origin))
    assert_host_refused(asgi_request(loopback, "/v1/mindinsight/datavisual/train-jobs", host=host))
    assert_host_refused(asgi_request(loopback, "/", host=host))
    assert_host_refused(remark(loopback, "rebound", headers=origin, host=host))
    assert loopback.counter.calls == calls
    assert stored_remark(loopback) == ""


@pytest.mark.parametrize(
    "host",
    [b"127.0.0.1", f"127.0.0.1:{PORT}".encode(), b"127.9.8.7:1", b"localhost", b"LocalHost:80", b"[::1]", b"[::1]:443"],
)
def test_loopback_names_and_addresses_are_answered(loopback, host):
    status, _, body = asgi_request(loopback, *SCALARS, host=host)
    assert status == 200 and json.loads(body)["metadatas"]
    assert remark(loopback, "mine", host=host, headers=[(b"origin", b"http://" + host)])[0] == 200


def test_allowed_hosts_are_answered_too(tmp_path):
    front = front_over(tmp_path, allowed_hosts=("Board.Example", "10.1.2.3", "fe80::1"))
    for host in (b"board.example:8443", b"BOARD.example", b"10.1.2.3:8080", b"[fe80:0::1]", b"localhost"):
        assert asgi_request(front, *SCALARS, host=host)[0] == 200, host
    for host in (b"other.example", b"sub.board.example", b"10.1.2.4"):
        assert_host_refused(asgi_request(front, *SCALARS, host=host))


def test_beyond_loopback_the_token_guards_and_hosts_are_checked_only_when_named(tmp_path):
    bearer = [(b"authorization", f"Bearer {TOKEN}".encode())]
    open_front = front_over(tmp_path / "a", host="0.0.0.0", token=TOKEN)
    assert open_front.host_gate is None
    assert asgi_request(open_front, *SCALARS, host=b"board.example", headers=bearer)[0] == 200
    named = front_over(tmp_path / "b", host="10.1.2.3", token=TOKEN, allowed_hosts=("board.example",))
    for host in (b"board.example", b"10.1.2.3:8080", b"127.0.0.1"):  # the bind address stays allowed
        assert asgi_request(named, *SCALARS, host=host, headers=bearer)[0] == 200, host
    assert_host_refused(asgi_request(named, *SCALARS, host=b"rebind.example", headers=bearer))


def test_host_values_are_read_one_way():
    gate = access.HostGate(["board.example"])
    assert gate.admits([(b"host", b"board.example:1")])
    assert not gate.admits([(b"host", b"board.example"), (b"host", b"rebind.example")])  # every one must pass
    assert not gate.admits([])
    assert allowed_host("Board.Example") == "board.example" and allowed_host("[::1]") == "::1"
    for bad in ("http://board.example", "board.example:80", "board.example/x", "*.example", "", "a b"):
        with pytest.raises(ValueError, match="allowed host"):
            allowed_host(bad)


# -- the same-origin rule, for the routes that change state only --------------------------------


def test_the_declarations_name_the_state_changes():
    assert {(route.method, route.rule) for route in STATE_CHANGES} == {("PUT", "/lineagemgr/lineages")}
    assert {route.rule for route in READ_ONLY_POSTS} == {
        "/lineagemgr/lineages",
        "/optimizer/targets/search",
        "/datavisual/train-job-caches",
        "/profile/ops/search",
    }
    topic = Topic("t")
    with pytest.raises(ValueError, match="changes state"):
        topic.post("/x", serving=POOLED)(lambda manager: {})
    with pytest.raises(ValueError, match="may not change state"):
        topic.get("/y", serving=POOLED, changes_state=True)(lambda manager: {})
    topic.put("/z", serving=POOLED)(lambda manager: {})
    assert topic.routes[-1].changes_state


@pytest.mark.parametrize("route", READ_ONLY_POSTS, ids=lambda route: route.rule)
def test_posts_that_only_read_answer_any_origin(loaded_app, route):
    """Behind a reverse proxy that rewrites Host, the UI's own searches name another origin."""
    front = create_asgi_app(loaded_app)
    query = "&".join(f"{k}={v}" for k, v in route.example.items() if route.args and k in route.args.fields)
    body = {k: v for k, v in route.example.items() if route.body and k in route.body.fields}
    for origin in (b"https://board.example", b"http://evil.example", b"null"):
        status, _, answer = asgi_request(
            front,
            route.path,
            query.encode(),
            method="POST",
            body=json.dumps(body).encode(),
            headers=[(b"origin", origin)],
        )
        assert status == 200, answer


@pytest.mark.parametrize(
    "headers",
    [
        [(b"origin", b"http://evil.example")],
        [(b"origin", b"https://board.example")],  # a proxy's origin, not trusted
        [(b"referer", b"http://evil.example/page")],
        [(b"origin", b"null")],
    ],
)
def test_state_changes_from_another_origin_are_refused(loopback, headers):
    calls = loopback.counter.calls
    assert_json_error(remark(loopback, "forged", headers=headers), 403, CrossOriginRequestError().code)
    # A method no route declares is refused too: unknown means it may write.
    answer = asgi_request(loopback, "/v1/mindinsight/datavisual/train-job-caches", method="DELETE", headers=headers)
    assert_json_error(answer, 403, CrossOriginRequestError().code)
    assert loopback.counter.calls == calls
    assert stored_remark(loopback) == ""


def test_a_trusted_origin_may_change_state(tmp_path):
    front = front_over(tmp_path, trusted_origins=("https://Board.Example:443", "http://127.0.0.1:8081"))
    assert remark(front, "via the proxy", headers=[(b"origin", b"https://board.example")])[0] == 200
    assert stored_remark(front) == "via the proxy"
    assert remark(front, "via the other", headers=[(b"referer", b"http://127.0.0.1:8081/#/model-traceback")])[0] == 200
    for origin in (b"http://board.example", b"https://board.example:8443", b"http://127.0.0.1:8082"):
        answer = remark(front, "forged", headers=[(b"origin", origin)])
        assert_json_error(answer, 403, CrossOriginRequestError().code)
    assert stored_remark(front) == "via the other"


def test_trusted_origins_are_origins():
    assert trusted_origin("HTTPS://Board.Example:443/") == "https://board.example"
    assert trusted_origin("http://[::1]:8081") == "http://[::1]:8081"
    for bad in ("board.example", "ftp://board.example", "https://board.example/app", "https://u@board.example", "null"):
        with pytest.raises(ValueError, match="trusted origin"):
            trusted_origin(bad)


def test_the_options_pass_through_the_environment():
    environ = {
        ENV_PREFIX + "ALLOWED_HOSTS": "board.example, 10.1.2.3,,",
        ENV_PREFIX + "TRUSTED_ORIGINS": "https://board.example",
    }
    settings = Settings.from_env(environ)
    assert settings.allowed_hosts == ("board.example", "10.1.2.3")
    assert settings.trusted_origins == ("https://board.example",)
    assert Settings.from_env(settings.to_env()) == settings
    assert Settings.from_env({}).allowed_hosts == ()
    with pytest.raises(ValueError, match="trusted origin"):
        Settings.from_env({ENV_PREFIX + "TRUSTED_ORIGINS": "board.example"})
