"""The ASGI front: inline views, reusable answers tied to the data generation, the pool."""

import asyncio
import json

import pytest

from mindinsight.backend import security_headers
from mindinsight.backend.application import create_asgi_app
from mindinsight.backend.context import data_manager
from mindinsight.backend.security_headers import HEADERS
from mindinsight.backend.serving import Answer, AnswerCache
from mindinsight.conf import limits
from mindinsight.errors import CrossOriginRequestError, ParamValueError, UrlTooLongError
from mindinsight.summary import SummaryWriter
from tests.helpers.apps import make_app
from tests.helpers.asgi import CountingWSGI, asgi_request

API = "/v1/mindinsight/datavisual"


def write_steps(job_dir, steps) -> None:
    with SummaryWriter(job_dir, timestamp=100) as writer:
        for step in steps:
            writer.add_values(step, {"loss": step * 0.5})


@pytest.fixture
def served(tmp_path):
    write_steps(tmp_path / "job", range(1, 21))
    app = make_app(tmp_path)
    manager = data_manager(app)
    counter = CountingWSGI(app.wsgi_app)
    app.wsgi_app = counter
    front = create_asgi_app(app)
    front.counter, front.manager, front.base = counter, manager, tmp_path
    return front


def request(front, path, query=b"", method="GET", body=b"", headers=None):
    """Run one HTTP request through the ASGI app; (status, headers dict, body)."""
    return asgi_request(front, path, query, method=method, body=body, headers=headers)


def steps_of(front):
    status, _, body = request(front, API + "/scalar/metadata", b"train_id=./job&tag=loss/scalar")
    assert status == 200
    return [point["step"] for point in json.loads(body)["metadatas"]]


def test_reusable_answer_is_served_again_without_flask(served):
    first = request(served, API + "/scalar/metadata", b"train_id=./job&tag=loss/scalar")
    calls = served.counter.calls
    again = request(served, API + "/scalar/metadata", b"train_id=./job&tag=loss/scalar")
    assert again == first and served.counter.calls == calls
    assert json.loads(first[2])["metadatas"][-1]["step"] == 20
    for name, value in HEADERS.items():
        assert first[1][name.lower()] == value


def test_new_data_replaces_the_reused_answer(served):
    assert steps_of(served)[-1] == 20
    write_steps(served.base / "job", range(21, 31))
    assert steps_of(served)[-1] == 20  # not loaded yet: the same data
    served.manager.load_pass()
    assert steps_of(served)[-1] == 30


def test_other_query_strings_are_other_answers(served):
    status, _, body = request(served, API + "/train-jobs", b"offset=0&limit=1")
    assert status == 200 and json.loads(body)["total"] == 1
    status, _, body = request(served, API + "/train-jobs", b"offset=1&limit=1")
    assert status == 200 and json.loads(body)["train_jobs"] == []


def test_error_answers_are_not_kept(served):
    for _ in range(2):
        status, _, body = request(served, API + "/scalar/metadata", b"train_id=./job&tag=nope")
        assert status == 400 and json.loads(body)["error_code"]
    calls = served.counter.calls
    request(served, API + "/scalar/metadata", b"train_id=./job&tag=nope")
    assert served.counter.calls == calls + 1


def test_in_memory_views_run_flask_every_time(served):
    calls = served.counter.calls
    for _ in range(3):
        status, _, body = request(served, API + "/plugins", b"train_id=./job&manual_update=true")
        assert status == 200 and json.loads(body)["plugins"]["scalar"] == ["loss/scalar"]
    assert served.counter.calls == calls + 3


def test_posts_and_unknown_paths_go_to_the_pool(served):
    status, _, body = request(
        served, API + "/train-job-caches", method="POST", body=json.dumps({"train_ids": ["./job"]}).encode()
    )
    assert status == 200 and json.loads(body) == {"cache_result": [{"train_id": "./job", "cache_status": "CACHED"}]}
    status, headers, body = request(served, API + "/nope")
    assert status == 404 and json.loads(body)["error_code"] and headers["server"] == "unknown"


def test_raw_non_ascii_query_bytes_get_a_json_answer(served):
    status, _, body = request(served, API + "/scalar/metadata", "train_id=./job&tag=lös".encode())
    assert status == 400 and json.loads(body)["error_code"]
    status, _, body = request(served, API + "/scalar/metadata", b"train_id=./job&tag=\xff\xfe")
    assert status == 400 and json.loads(body)["error_code"]


def test_lifespan_handshake(served):
    messages = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]
    sent = []

    async def receive():
        return messages.pop(0)

    async def send(message):
        sent.append(message["type"])

    asyncio.run(served({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send))
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]


def answer(size: int) -> Answer:
    return Answer(200, [], b"x" * size)


def test_answer_cache_forgets_answers_of_an_old_generation():
    cache = AnswerCache()
    cache.put(("/a", b""), 1, answer(3))
    assert cache.get(("/a", b""), 1) == answer(3)
    assert cache.get(("/a", b""), 2) is None
    assert len(cache) == 0


def test_answer_cache_drops_least_recently_used_beyond_its_size():
    cache = AnswerCache(max_bytes=100, max_entry_bytes=60)
    cache.put(("/a", b""), 1, answer(40))
    cache.put(("/b", b""), 1, answer(40))
    cache.get(("/a", b""), 1)  # /a is now the most recently used
    cache.put(("/c", b""), 1, answer(40))
    assert cache.get(("/b", b""), 1) is None
    assert cache.get(("/a", b""), 1) is not None and cache.get(("/c", b""), 1) is not None
    cache.put(("/big", b""), 1, answer(61))
    assert cache.get(("/big", b""), 1) is None


# -- what the front refuses itself, before any view or reused answer ------------------------

POST_CACHES = (API + "/train-job-caches", json.dumps({"train_ids": ["./job"]}).encode())
PUT_REMARK = ("/v1/mindinsight/lineagemgr/lineages", json.dumps({"remark": "note"}).encode())


def assert_json_error(answer, status: int, code: str) -> dict:
    got_status, headers, body = answer
    assert (got_status, json.loads(body)["error_code"]) == (status, code)
    assert headers["content-type"] == "application/json" and int(headers["content-length"]) == len(body)
    for name, value in HEADERS.items():  # the front's own answers carry the security headers too
        assert headers[name.lower()] == value
    return headers


def test_over_long_url_answers_json_414_before_flask(served):
    calls = served.counter.calls
    query = b"train_id=./job&tag=" + b"x" * limits.MAX_URL_LENGTH
    assert_json_error(request(served, API + "/scalar/metadata", query), 414, UrlTooLongError().code)
    assert_json_error(request(served, "/" + "a" * limits.MAX_URL_LENGTH), 414, UrlTooLongError().code)
    assert served.counter.calls == calls


def test_value_just_over_the_parameter_limit_keeps_its_400(served):
    query = b"train_id=./job&tag=" + b"x" * (limits.MAX_PARAM_LENGTH + 1)
    status, _, body = request(served, API + "/scalar/metadata", query)
    assert status == 400 and json.loads(body)["error_code"] == ParamValueError().code
    assert "longer than" in json.loads(body)["error_msg"]


@pytest.mark.parametrize(
    "headers",
    [
        [(b"origin", b"http://evil.example")],
        [(b"origin", b"http://127.0.0.1:9999")],  # same host, another port: another origin
        [(b"origin", b"null")],  # sandboxed page, privacy redirect
        [(b"referer", b"http://evil.example/page")],  # no Origin: the Referer tells
        [(b"origin", b"http://evil.example"), (b"referer", b"http://127.0.0.1/")],  # Origin wins
    ],
)
def test_cross_site_state_change_is_refused_before_the_view(served, headers):
    calls = served.counter.calls
    path, body = PUT_REMARK
    for method in ("PUT", "DELETE", "PATCH"):  # a declared state change; methods no route declares
        answer = request(served, path, b"train_id=./job", method=method, body=body, headers=headers)
        assert_json_error(answer, 403, CrossOriginRequestError().code)
    assert served.counter.calls == calls
    # A POST that only reads is answered: another site's page cannot read the answer.
    assert request(served, POST_CACHES[0], method="POST", body=POST_CACHES[1], headers=headers)[0] == 200


@pytest.mark.parametrize(
    "headers",
    [
        [],  # curl, scripts: no origin claimed
        [(b"origin", b"http://127.0.0.1")],
        [(b"origin", b"http://127.0.0.1:80")],  # the default port, spelled out
        [(b"referer", b"http://127.0.0.1/#/scalar?train_id=./job")],
        [(b"origin", b"https://board.example"), (b"x-forwarded-host", b"board.example")],  # behind a proxy
    ],
)
def test_same_origin_and_originless_state_changes_pass(served, headers):
    path, body = PUT_REMARK
    status, _, answer = request(served, path, b"train_id=./job", method="PUT", body=body, headers=headers)
    # Past the front: the view's own answer (the job has no lineage to remark on).
    assert status == 400 and "does not exist" in json.loads(answer)["error_msg"]


def test_reading_is_never_refused_for_its_origin(served):
    status, _, _ = request(served, API + "/train-jobs", headers=[(b"origin", b"http://evil.example")])
    assert status == 200


def test_answers_that_choose_their_caching_keep_it(served):
    # 404 and plain answers: no-store; the front's reused answer too.
    for _ in range(2):
        assert (
            request(served, API + "/scalar/metadata", b"train_id=./job&tag=loss/scalar")[1]["cache-control"]
            == "no-store"
        )
    assert request(served, API + "/nope")[1]["cache-control"] == "no-store"


def test_security_headers_keep_a_cache_control_the_app_chose():
    chosen = [("Content-Type", "image/png"), ("Cache-Control", "private, max-age=60"), ("Server", "werkzeug")]
    added = dict(security_headers.add_to(chosen))
    assert added["Cache-Control"] == "private, max-age=60" and "Pragma" not in added
    assert added["Server"] == "unknown" and added["X-Frame-Options"] == "SAMEORIGIN"
    default = dict(security_headers.add_to([("Content-Type", "application/json")]))
    assert default["Cache-Control"] == "no-store" and default["Pragma"] == "no-cache"
    encoded = dict(security_headers.add_to([(b"cache-control", b"no-cache")], encode=True))
    assert encoded[b"cache-control"] == b"no-cache" and encoded[b"x-content-type-options"] == b"nosniff"
    assert b"pragma" not in encoded
