"""The object-store test helpers themselves: the moto server, its request counts, the 503 proxy."""

import pytest
from botocore.exceptions import ClientError

from tests.helpers.fault_proxy import FaultProxy
from tests.helpers.s3_server import S3Server, running_s3_server


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with running_s3_server(tmp_path_factory.mktemp("moto")) as server:
        server.create_bucket("helpers")
        yield server


def test_counts_lists_gets_ranges_and_heads(store):
    store.put("helpers", "a/one", b"0123456789")
    store.put("helpers", "a/two", b"x" * 100)
    client = store.client()
    with store.recording() as recording:
        client.list_objects_v2(Bucket="helpers", Prefix="a/")
        client.get_object(Bucket="helpers", Key="a/one")
        client.get_object(Bucket="helpers", Key="a/two", Range="bytes=90-")
        client.get_object(Bucket="helpers", Key="a/two", Range="bytes=10-19")
        client.head_object(Bucket="helpers", Key="a/one")
    counts = recording.counts()
    assert (counts.lists, counts.gets, counts.ranged_gets, counts.heads, counts.puts) == (1, 3, 2, 1, 0)
    assert counts.get_bytes == 10 + 10 + 10 and counts.bytes_by_key == {"a/one": 10, "a/two": 20}
    assert counts.got_keys == ["a/one", "a/two", "a/two"] and counts.list_prefixes == ["helpers/a/"]


def test_append_uploads_the_object_bigger(store):
    store.put("helpers", "grow", b"abc")
    store.append("helpers", "grow", b"def")
    assert store.get("helpers", "grow") == b"abcdef"
    assert store.sizes[("helpers", "grow")] == 6


def test_stop_refuses_start_comes_back_empty_and_restore_uploads_again(store):
    store.put("helpers", "kept", b"data")
    store.stop()
    with pytest.raises(Exception, match="(?i)connect"):
        store.client().head_object(Bucket="helpers", Key="kept")
    store.start()
    with pytest.raises(ClientError):
        store.client().head_object(Bucket="helpers", Key="kept")
    store.restore()
    assert store.get("helpers", "kept") == b"data"


def test_pause_hangs_and_resume_keeps_the_objects(store):
    store.put("helpers", "paused", b"still here")
    store.pause()
    try:
        import requests

        with pytest.raises(requests.Timeout):
            requests.get(store.endpoint + "/helpers/paused", timeout=1)
    finally:
        store.resume()
    assert store.get("helpers", "paused") == b"still here"


def test_proxy_injects_exactly_n_slowdowns_then_forwards(store):
    store.put("helpers", "through", b"proxied bytes")
    with FaultProxy(store.port) as proxy:
        client = store.client(endpoint=proxy.endpoint, attempts=1)  # one request per call
        proxy.fail_next(3)
        answers = []
        for _ in range(5):
            try:
                answers.append(client.get_object(Bucket="helpers", Key="through")["Body"].read())
            except ClientError as error:
                answers.append((error.response["ResponseMetadata"]["HTTPStatusCode"], error.response["Error"]["Code"]))
        assert answers == [(503, "SlowDown")] * 3 + [b"proxied bytes"] * 2
        assert (proxy.failed, proxy.forwarded, proxy.pending_failures) == (3, 2, 0)
        with store.recording() as recording:
            client.list_objects_v2(Bucket="helpers")
        assert recording.counts().lists == 1 and proxy.forwarded == 3


def test_iam_user_wrong_secret_and_revoked_access(tmp_path):
    with running_s3_server(tmp_path, auth_after=S3Server.IAM_SETUP_ACTIONS) as store:
        store.add_iam_user()
        store.create_bucket("guarded")
        store.put("guarded", "k", b"v")
        wrong = {**store.credentials, "AWS_SECRET_ACCESS_KEY": "wrong"}
        with pytest.raises(ClientError, match="SignatureDoesNotMatch"):
            store.client(credentials=wrong).get_object(Bucket="guarded", Key="k")
        store.set_s3_access(False)
        with pytest.raises(ClientError, match="AccessDenied"):
            store.get("guarded", "k")
        store.set_s3_access(True)
        assert store.get("guarded", "k") == b"v"
