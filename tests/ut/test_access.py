"""The access token in the serving front: asked on every request (API, UI, reused answers),
given as a Bearer header, a ``?token=`` that sets an HttpOnly SameSite=Strict cookie, or that
cookie, compared in constant time; without a configured token nothing is asked."""

import json
import random
import secrets
import string

import pytest

from mindinsight.backend import access
from mindinsight.backend.access_log import redact
from mindinsight.backend.application import create_asgi_app
from mindinsight.backend.security_headers import HEADERS
from mindinsight.conf import limits
from mindinsight.conf import settings as settings_module
from mindinsight.conf.settings import Settings, is_loopback, token_problem
from mindinsight.conf.token_strength import token_strength_bits
from mindinsight.errors import AccessTokenError
from mindinsight.summary import SummaryWriter
from tests.helpers.apps import make_app
from tests.helpers.asgi import CountingWSGI, asgi_request

API = "/v1/mindinsight/datavisual"
TOKEN = "s3cret-Token_0123456789"
PORT = 8123
SCALARS = (API + "/scalar/metadata", b"train_id=./job&tag=loss/scalar")
COOKIE = access.cookie_name(PORT)


def front_over(base, **settings):
    with SummaryWriter(base / "job", timestamp=100) as writer:
        for step in range(1, 11):
            writer.add_values(step, {"loss": step * 0.5})
    app = make_app(base, port=PORT, **settings)
    app.wsgi_app = counter = CountingWSGI(app.wsgi_app)
    front = create_asgi_app(app)
    front.counter = counter
    return front


@pytest.fixture
def guarded(tmp_path):
    return front_over(tmp_path, token=TOKEN)


def bearer(token: str = TOKEN) -> list:
    return [(b"authorization", f"Bearer {token}".encode())]


def assert_refused(answer) -> None:
    status, headers, body = answer
    assert status == 401 and json.loads(body)["error_code"] == AccessTokenError().code == "50540101"
    assert headers["www-authenticate"] == "Bearer" and "set-cookie" not in headers
    for name, value in HEADERS.items():
        assert headers[name.lower()] == value
    assert b"metadatas" not in body


@pytest.mark.parametrize(
    "path,query",
    [
        SCALARS,  # a reusable answer
        (API + "/plugins", b"train_id=./job"),  # an in-memory view
        ("/", b""),  # the UI's index
        ("/static/index-D1ezEm_-.js", b""),  # a static file
        ("/v1/mindinsight/ui-config", b""),
        ("/nope", b""),  # even what would be a 404
    ],
)
def test_every_request_without_the_token_is_refused(guarded, path, query):
    assert_refused(asgi_request(guarded, path, query))
    assert_refused(asgi_request(guarded, path, query, headers=bearer("wrong-token-0123456789")))
    assert_refused(asgi_request(guarded, path, query + b"&token=" + TOKEN[:-1].encode()))
    assert_refused(asgi_request(guarded, path, query, headers=[(b"cookie", f"{COOKIE}=nope".encode())]))
    assert_refused(asgi_request(guarded, path, query, headers=[(b"authorization", f"Basic {TOKEN}".encode())]))
    assert guarded.counter.calls == 0


def test_state_changes_need_the_token_too(guarded):
    body = json.dumps({"train_ids": ["./job"]}).encode()
    assert_refused(asgi_request(guarded, API + "/train-job-caches", method="POST", body=body))
    status, _, _ = asgi_request(guarded, API + "/train-job-caches", method="POST", body=body, headers=bearer())
    assert status == 200


def test_a_reused_answer_is_never_served_without_the_token(guarded):
    first = asgi_request(guarded, *SCALARS, headers=bearer())
    assert first[0] == 200 and json.loads(first[2])["metadatas"]
    calls = guarded.counter.calls
    assert asgi_request(guarded, *SCALARS, headers=bearer()) == first  # served from the front's cache
    assert guarded.counter.calls == calls
    assert_refused(asgi_request(guarded, *SCALARS))
    assert_refused(asgi_request(guarded, *SCALARS, headers=bearer("x" * len(TOKEN))))
    assert guarded.counter.calls == calls


def test_query_token_sets_a_strict_http_only_cookie_and_stays_out_of_the_app(guarded):
    status, headers, body = asgi_request(guarded, SCALARS[0], SCALARS[1] + b"&token=" + TOKEN.encode())
    assert status == 200 and json.loads(body)["metadatas"]
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}={TOKEN};")
    attributes = {part.strip() for part in cookie.split(";")[1:]}
    assert attributes == {"Path=/", "HttpOnly", "SameSite=Strict"}
    # The token was taken out of the query: the same answer is reused for a Bearer request.
    calls = guarded.counter.calls
    assert asgi_request(guarded, *SCALARS, headers=bearer())[2] == body
    assert guarded.counter.calls == calls
    # The browser sends the cookie back from then on; no cookie set again.
    status, headers, _ = asgi_request(
        guarded, "/v1/mindinsight/ui-config", headers=[(b"cookie", f"other=1; {COOKIE}={TOKEN}".encode())]
    )
    assert status == 200 and "set-cookie" not in headers


def test_cookie_of_another_port_is_not_ours(guarded):
    other = access.cookie_name(PORT + 1)
    assert_refused(
        asgi_request(guarded, "/v1/mindinsight/ui-config", headers=[(b"cookie", f"{other}={TOKEN}".encode())])
    )


def test_cookie_path_follows_the_url_path_prefix(tmp_path):
    front = front_over(tmp_path, token=TOKEN, url_path_prefix="/mi/board")
    status, headers, _ = asgi_request(front, "/mi/board/v1/mindinsight/ui-config", b"token=" + TOKEN.encode())
    assert status == 200 and "Path=/mi/board;" in headers["set-cookie"]


def test_tokens_are_compared_in_constant_time(guarded, monkeypatch):
    seen = []
    real = access.hmac.compare_digest

    def spy(a, b):
        seen.append((a, b))
        return real(a, b)

    monkeypatch.setattr(access.hmac, "compare_digest", spy)
    assert asgi_request(guarded, "/v1/mindinsight/ui-config", headers=bearer())[0] == 200
    assert seen == [(TOKEN.encode(), TOKEN.encode())]
    assert_refused(asgi_request(guarded, "/v1/mindinsight/ui-config", b"token=guess-0123456789abcdef"))
    assert seen[-1] == (b"guess-0123456789abcdef", TOKEN.encode())


def test_without_a_token_nothing_is_asked(tmp_path):
    front = front_over(tmp_path)
    assert front.gate is None
    status, headers, _ = asgi_request(front, *SCALARS)
    assert status == 200 and "set-cookie" not in headers


def test_query_token_parameter_is_split_off():
    assert access.split_token_param(b"a=1&token=x%2Dy&b=2") == (b"x-y", b"a=1&b=2")
    assert access.split_token_param(b"a=1&mytoken=3") == (None, b"a=1&mytoken=3")


@pytest.mark.parametrize(
    "host,loopback",
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("10.1.2.3", False),
        ("board.example", False),
    ],
)
def test_loopback_hosts(host, loopback):
    assert is_loopback(host) is loopback


def test_token_format():
    assert token_problem("") is None and token_problem(TOKEN) is None
    for bad in ("short", "has space in it 0123", "semi;colon0123456789", "x" * 257):
        assert token_problem(bad)
    with pytest.raises(ValueError, match="access token"):
        Settings(token="short").resolved()
    assert TOKEN not in repr(Settings(token=TOKEN))
    assert Settings(token=TOKEN).to_env()[settings_module.ENV_PREFIX + "TOKEN"] == TOKEN


@pytest.mark.parametrize(
    "weak",
    [
        "a" * 16,  # passed before: 16 equal characters
        "A" * 64,
        "abababababababab",
        "abcabcabcabcabcabc",
        "0123456789abcdef",
        "abcdefghijklmnop",
        "9876543210zyxwvu",
        "1111222233334444",
        "passwordpassword",
        "-._~-._~-._~-._~",
    ],
)
def test_weak_tokens_are_refused(weak):
    assert token_strength_bits(weak) < limits.MIN_TOKEN_BITS
    assert "too easy to guess" in token_problem(weak)
    with pytest.raises(ValueError, match="too easy to guess"):
        Settings(token=weak).resolved()


def test_random_and_made_up_tokens_pass():
    assert token_problem(TOKEN) is None and token_problem("given-Token_0123456789") is None
    assert token_problem("correct-horse-battery-staple") is None
    rng = random.Random(17)
    for alphabet in (string.ascii_letters + string.digits + "-_", string.ascii_lowercase + string.digits):
        for _ in range(2000):
            assert token_problem("".join(rng.choice(alphabet) for _ in range(limits.MIN_TOKEN_LENGTH))) is None
    for _ in range(200):
        assert token_problem(secrets.token_urlsafe(limits.GENERATED_TOKEN_BYTES)) is None  # what start makes up
        assert token_problem(secrets.token_hex(16)) is None


def test_access_log_lines_hide_every_form_of_the_token():
    line = (
        f'"GET /?a=1&token={TOKEN}&b=2 HTTP/1.1" "http://h:8080/?token={TOKEN}" '
        f"Bearer {TOKEN} {COOKIE}={TOKEN}; other=1"
    )
    hidden = redact(line)
    assert TOKEN not in hidden and hidden.count("<hidden>") == 4
    assert "&b=2" in hidden and "other=1" in hidden
    assert (
        redact('"GET /v1/mindinsight/datavisual/train-jobs HTTP/1.1"')
        == '"GET /v1/mindinsight/datavisual/train-jobs HTTP/1.1"'
    )
