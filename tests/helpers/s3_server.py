"""A real S3 protocol server on loopback for the object-store tests and bench: moto in server mode.

``S3Server`` runs ``python -m moto.server`` as a subprocess on a private loopback port and fills
its buckets with boto3. Moto keeps its state in memory, so the two ways to take the store away
differ on purpose:

- ``pause()`` / ``resume()`` (SIGSTOP / SIGCONT): the store stops answering (connections are
  accepted by the kernel but hang until the client's timeout) and comes back with every object
  it held: the unreachable-store case, without re-uploading anything.
- ``stop()`` / ``start()``: the process exits, so clients meet "connection refused", and a new
  one listens on the same port, empty: the test re-uploads what the store should hold
  (``restore()`` re-creates every bucket and object uploaded through this helper).

Requests are counted with moto's own request recorder (``/moto-api/recorder/...``, one JSON
line per request in ``MOTO_RECORDER_FILEPATH``): ``recording()`` yields a ``Recording`` whose
``counts()`` classify them (LIST, GET, ranged GET bytes, HEAD, PUT). Moto cannot answer errors on
demand, so ``FaultProxy`` (tests/helpers/fault_proxy.py) sits in front of it for injected 503s.
"""

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import requests

from tests.helpers.server import free_port

# Any key works against moto unless it enforces IAM (``auth_after`` below); these are the test's.
_SPACE = re.compile(r"\s*")
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}


@dataclass
class RequestCounts:
    """Requests the store received, by kind. ``get_bytes``: bytes the GETs asked for (ranges
    clamped to the object's size; a GET without a range counts the whole object). ``got_keys``:
    the keys read (``bytes_by_key``: the bytes of each); ``list_prefixes``: ``bucket/prefix`` of each LIST."""

    lists: int = 0
    gets: int = 0
    ranged_gets: int = 0
    get_bytes: int = 0
    heads: int = 0
    puts: int = 0
    other: int = 0
    got_keys: list[str] = field(default_factory=list)
    list_prefixes: list[str] = field(default_factory=list)
    bytes_by_key: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.lists + self.gets + self.heads + self.puts + self.other


def _range_length(header: str, size: int | None) -> int:
    """Bytes a ``Range: bytes=a-b`` (or ``a-``, ``-n``) header asks for, clamped to ``size`` when known."""
    first, _, last = header.removeprefix("bytes=").partition("-")
    end = (size - 1) if size is not None else None
    if not first:  # suffix range: the last n bytes
        return min(int(last), size) if size is not None else int(last)
    start = int(first)
    stop = int(last) if last else end
    if stop is None:
        raise ValueError(f"open range {header!r} of an object of unknown size")
    if end is not None:
        stop = min(stop, end)
    return max(0, stop - start + 1)


def _boto_credentials(env: dict) -> dict:
    """boto3 client arguments from ``AWS_*`` environment variables."""
    return {
        "aws_access_key_id": env["AWS_ACCESS_KEY_ID"],
        "aws_secret_access_key": env["AWS_SECRET_ACCESS_KEY"],
        "region_name": env["AWS_DEFAULT_REGION"],
    }


class Recording:
    """The requests moto recorded between ``S3Server.recording()``'s start and now."""

    def __init__(self, server: "S3Server"):
        self._server = server

    def entries(self) -> list[dict]:
        path = self._server.recording_path
        if not path.exists():
            return []
        # Moto's threads append entries to one file, not always one per line: read them one after
        # the other whatever lies between.
        text, decoder, entries = path.read_text(), json.JSONDecoder(), []
        at = _SPACE.match(text).end()
        while at < len(text):
            entry, at = decoder.raw_decode(text, at)
            entries.append(entry)
            at = _SPACE.match(text, at).end()
        return entries

    def counts(self) -> RequestCounts:
        counts = RequestCounts()
        for entry in self.entries():
            method = entry["method"]
            parts = urlsplit(entry["url"])
            if parts.path.startswith("/moto-api/"):
                continue
            bucket, _, key = unquote(parts.path).lstrip("/").partition("/")
            headers = {name.lower(): value for name, value in entry["headers"].items()}
            if method == "GET" and not key:
                query = parse_qs(parts.query, keep_blank_values=True)
                if "list-type" in query or not query or "prefix" in query or "delimiter" in query:
                    counts.lists += 1
                    counts.list_prefixes.append(f"{bucket}/{query.get('prefix', [''])[0]}")
                else:
                    counts.other += 1
            elif method == "GET":
                counts.gets += 1
                counts.got_keys.append(key)
                size = self._server.sizes.get((bucket, key))
                if "range" in headers:
                    counts.ranged_gets += 1
                    fetched = _range_length(headers["range"], size)
                else:
                    fetched = size or 0
                counts.get_bytes += fetched
                counts.bytes_by_key[key] = counts.bytes_by_key.get(key, 0) + fetched
            elif method == "HEAD":
                counts.heads += 1
            elif method == "PUT":
                counts.puts += 1
            else:
                counts.other += 1
        return counts


class S3Server:
    """``python -m moto.server`` on 127.0.0.1:``port``; see the module docstring."""

    def __init__(self, workdir: Path, port: int | None = None, auth_after: int | None = None):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.recording_path = self.workdir / "moto_recording.jsonl"
        # With auth_after, moto enforces IAM (signatures, keys, policies) after that many actions.
        self.auth_after = auth_after
        self.process: subprocess.Popen | None = None
        self.paused = False
        self.sizes: dict[tuple[str, str], int] = {}
        self._objects: dict[tuple[str, str], bytes] = {}  # what restore() uploads again
        self._buckets: set[str] = set()
        self.credentials = dict(CREDENTIALS)
        self._default_client = None
        self._default_client_key: tuple = ()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self, endpoint: str | None = None) -> dict[str, str]:
        """Environment variables that point an S3 client (boto3, s3fs, the server under test) here."""
        return {**self.credentials, "AWS_ENDPOINT_URL": endpoint or self.endpoint}

    # -- process --------------------------------------------------------------------------------

    def start(self, timeout: float = 30) -> "S3Server":
        """Start moto on ``port`` and wait until it answers."""
        env = {**os.environ, "MOTO_RECORDER_FILEPATH": str(self.recording_path)}
        env.pop("MOTO_ENABLE_RECORDING", None)
        if self.auth_after is not None:
            env["INITIAL_NO_AUTH_ACTION_COUNT"] = str(self.auth_after)
        log = open(self.workdir / "moto.log", "ab")  # the child keeps its own copy of the descriptor
        self.process = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=self.workdir,
        )
        log.close()
        try:
            self._wait_until_answering(timeout)
        except BaseException:
            self.stop()  # no moto left running by a test that could not start it
            raise
        return self

    def _wait_until_answering(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                log_text = (self.workdir / "moto.log").read_text()
                raise RuntimeError(f"moto exited with {self.process.returncode}: {log_text}")
            # Refused until it listens; slow to answer while it starts on a loaded machine.
            with contextlib.suppress(requests.ConnectionError, requests.Timeout):
                if requests.get(self.endpoint + "/moto-api/data.json", timeout=2).status_code == 200:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(f"moto did not answer on {self.endpoint} within {timeout} s")
            time.sleep(0.1)

    def stop(self) -> None:
        """End the process: connections to the port are refused until ``start()``; its state is lost."""
        if self.process is None:
            return
        if self.paused:
            self.resume()
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        self.process = None

    def pause(self) -> None:
        """SIGSTOP: the store hangs (no answers), keeping every object."""
        os.kill(self.process.pid, signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)
        self.paused = False

    def restore(self) -> None:
        """Upload again every bucket and object put through this helper (after a restart)."""
        for bucket in sorted(self._buckets):
            self.client().create_bucket(Bucket=bucket)
        for (bucket, key), data in self._objects.items():
            self.client().put_object(Bucket=bucket, Key=key, Body=data)

    # -- data -----------------------------------------------------------------------------------

    def client(self, endpoint: str | None = None, credentials: dict | None = None, attempts: int = 2):
        """A boto3 S3 client of this store (path-style addressing, as on any custom endpoint);
        ``attempts``: botocore's tries per call (its retries included). Without arguments, one
        client kept for the helper's own uploads (boto3 clients are thread-safe)."""
        import boto3

        if endpoint is None and credentials is None and attempts == 2:
            if self._default_client is None or self._default_client_key != self._client_key():
                self._default_client = self.client(self.endpoint, self.credentials, attempts)
                self._default_client_key = self._client_key()
            return self._default_client
        from botocore.config import Config

        return boto3.client(
            "s3",
            endpoint_url=endpoint or self.endpoint,
            **_boto_credentials(credentials or self.credentials),
            config=Config(
                s3={"addressing_style": "path"}, retries={"total_max_attempts": attempts, "mode": "standard"}
            ),
        )

    def _client_key(self) -> tuple:
        return self.endpoint, tuple(sorted(self.credentials.items()))

    def create_bucket(self, bucket: str) -> None:
        self.client().create_bucket(Bucket=bucket)
        self._buckets.add(bucket)

    def put(self, bucket: str, key: str, data: bytes) -> None:
        """Upload ``data`` as ``key`` (replacing any object there)."""
        self.client().put_object(Bucket=bucket, Key=key, Body=data)
        self.sizes[(bucket, key)] = len(data)
        self._objects[(bucket, key)] = data

    def get(self, bucket: str, key: str) -> bytes:
        return self.client().get_object(Bucket=bucket, Key=key)["Body"].read()

    def append(self, bucket: str, key: str, data: bytes) -> None:
        """S3 has no append: upload the whole object again, ``data`` longer."""
        self.put(bucket, key, self._objects.get((bucket, key), b"") + data)

    def upload_tree(self, local: Path, bucket: str, prefix: str) -> list[str]:
        """Upload every file under ``local`` to ``prefix/<relative path>``; the keys, sorted."""
        keys = []
        for path in sorted(Path(local).rglob("*")):
            if path.is_file():
                key = f"{prefix.strip('/')}/{path.relative_to(local).as_posix()}".lstrip("/")
                self.put(bucket, key, path.read_bytes())
                keys.append(key)
        return keys

    def delete(self, bucket: str, key: str) -> None:
        self.client().delete_object(Bucket=bucket, Key=key)
        self.sizes.pop((bucket, key), None)
        self._objects.pop((bucket, key), None)

    # -- IAM ----------------------------------------------------------------------------------

    # Actions moto lets through before it enforces IAM: the three of ``add_iam_user``.
    IAM_SETUP_ACTIONS = 3
    S3_POLICY = json.dumps(
        {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}
    )

    def add_iam_user(self) -> None:
        """On a server started with ``auth_after=IAM_SETUP_ACTIONS``: make a user allowed S3 and IAM,
        whose key this helper (and ``env()``) uses from now on; moto checks every request after."""
        import boto3

        iam = boto3.client("iam", endpoint_url=self.endpoint, **_boto_credentials(self.credentials))
        iam.create_user(UserName="reader")
        key = iam.create_access_key(UserName="reader")["AccessKey"]
        everything = self.S3_POLICY.replace('"s3:*"', '["s3:*", "iam:*"]')
        iam.put_user_policy(UserName="reader", PolicyName="s3", PolicyDocument=everything)
        self.credentials = {**self.credentials, "AWS_ACCESS_KEY_ID": key["AccessKeyId"]}
        self.credentials["AWS_SECRET_ACCESS_KEY"] = key["SecretAccessKey"]

    def set_s3_access(self, allowed: bool) -> None:
        """Take S3 access away from the IAM user (requests then fail with AccessDenied), or give it back.

        Its IAM rights stay in a second policy, put first, so it can always change its own."""
        import boto3

        iam = boto3.client("iam", endpoint_url=self.endpoint, **_boto_credentials(self.credentials))
        iam_only = self.S3_POLICY.replace('"s3:*"', '"iam:*"')
        iam.put_user_policy(UserName="reader", PolicyName="iam", PolicyDocument=iam_only)
        if allowed:
            iam.put_user_policy(UserName="reader", PolicyName="s3", PolicyDocument=self.S3_POLICY)
        else:
            iam.delete_user_policy(UserName="reader", PolicyName="s3")

    # -- counting -------------------------------------------------------------------------------

    def _recorder(self, action: str) -> None:
        requests.post(f"{self.endpoint}/moto-api/recorder/{action}", timeout=10).raise_for_status()

    @contextlib.contextmanager
    def recording(self):
        """Record every request moto receives within the block (moto's recorder); yields a ``Recording``."""
        self._recorder("reset-recording")
        self._recorder("start-recording")
        try:
            yield Recording(self)
        finally:
            if self.process is not None and not self.paused:
                self._recorder("stop-recording")


@contextlib.contextmanager
def running_s3_server(workdir: Path, auth_after: int | None = None):
    """An ``S3Server`` started for the block, stopped after it."""
    server = S3Server(workdir, auth_after=auth_after).start()
    try:
        yield server
    finally:
        server.stop()
