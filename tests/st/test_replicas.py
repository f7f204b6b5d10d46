"""The README's several-servers deployment, run for real (issue 23, "Replicas"): Debian's nginx with
``deploy/nginx-replicas.conf`` in front of two real servers on one base dir, each with its own
workspace (so its own index), started with the README's options, and one real PostgreSQL for
their edits. Each server answers on its own port too, so the tests compare both directly, and
nginx's access log names the replica that answered each request through it."""

import json
import secrets
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from mindinsight.backend.api import all_routes
from tests.helpers.apps import make_loaded_base
from tests.helpers.postgres import Postgres, running_postgres
from tests.helpers.replicas import (
    DEPLOY_CONF,
    answered_by,
    answering,
    kept_options,
    option_values,
    public_host,
    readme_conf,
    readme_start_lines,
    running_nginx_before,
    upstream_ports,
)
from tests.helpers.server import Server, free_port, run_cli, running_server
from tests.st.conftest import wait_for

API = "/v1/mindinsight"
LINEAGE_JOB = "./a_lenet_collector"
READ_ONLY = [route for route in all_routes() if not route.changes_state]
RELOAD_INTERVAL = 1


@dataclass
class Deployment:
    proxy: str  # nginx's http://127.0.0.1:<port>
    public: str  # the Host a browser names (the config's server_name)
    replicas: tuple[Server, Server]
    nginx_dir: Path
    base: Path
    postgres: Postgres
    options: tuple[str, ...]  # every replica's options beyond dirs and port

    def through(self, method: str, path: str, origin: str | None = None, **kwargs) -> requests.Response:
        """A request to nginx as a browser on the public address sends it."""
        headers = {"Host": self.public, **({"Origin": origin} if origin else {})}
        return requests.request(method, self.proxy + API + path, headers=headers, timeout=30, **kwargs)

    def restart(self, replica: Server) -> None:
        """``mindinsight start`` again, on the stopped replica's own port and workspace."""
        args = ["start", "--summary-base-dir", str(self.base), "--workspace", str(replica.workspace)]
        args += ["--port", str(replica.port), "--reload-interval", str(RELOAD_INTERVAL), *self.options]
        started = run_cli(*args)
        assert started.returncode == 0, started.stdout + started.stderr
        replica.stopped = False


def all_cached(server: Server) -> bool:
    """Every job with summary files is loaded (a lineage-only or profiler-only job never is cached)."""
    body = server.get("/datavisual/train-jobs", params={"limit": 999}).json()
    jobs = [job for job in body["train_jobs"] if job["summary_files"]]
    return body["load_status"] == "loaded" and all(job["cache_status"] == "CACHED" for job in jobs)


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    conf, lines = DEPLOY_CONF.read_text(), readme_start_lines()
    base = make_loaded_base(tmp_path_factory.mktemp("replicas_base"))
    with running_postgres() as postgres:
        options = [("--database-url", postgres.url, *kept_options(line)) for line in lines]
        with (
            running_server(base, tmp_path_factory.mktemp("ws_a"), RELOAD_INTERVAL, options=options[0]) as first,
            running_server(base, tmp_path_factory.mktemp("ws_b"), RELOAD_INTERVAL, options=options[1]) as second,
        ):
            wait_for(lambda: all_cached(first) and all_cached(second), timeout=120)
            ports = dict(zip(upstream_ports(conf), (first.port, second.port), strict=True))
            nginx_dir = tmp_path_factory.mktemp("nginx")
            with running_nginx_before(ports, nginx_dir) as proxy:
                yield Deployment(proxy, public_host(conf), (first, second), nginx_dir, base, postgres, options[1])


def test_the_readme_shows_the_deploy_file_and_starts_one_replica_per_upstream():
    conf = DEPLOY_CONF.read_text()
    assert readme_conf() == conf
    lines = readme_start_lines()
    assert [int(option_values(line, "--port")[0]) for line in lines] == upstream_ports(conf) and len(lines) == 2
    assert len({option_values(line, "--workspace")[0] for line in lines}) == 2
    for name in ("--summary-base-dir", "--database-url"):
        assert len({option_values(line, name)[0] for line in lines}) == 1
    for line in lines:
        assert option_values(line, "--database-url")[0].startswith("postgresql://")
        assert option_values(line, "--allowed-host") == [public_host(conf)]
        assert kept_options(line) == kept_options(lines[0])


def answer_of(response: requests.Response) -> tuple:
    body = json.loads(response.content) if response.headers["Content-Type"].startswith("application/json") else None
    return response.status_code, response.headers["Content-Type"], body if body is not None else response.content


def send(route, url_of, **kwargs) -> requests.Response:
    query = {k: v for k, v in route.example.items() if route.args and k in route.args.fields}
    body = {k: v for k, v in route.example.items() if route.body and k in route.body.fields}
    if route.method == "GET":
        query, body = route.example, None
    return requests.request(route.method, url_of(route.rule), params=query, json=body, timeout=30, **kwargs)


@pytest.mark.parametrize("route", READ_ONLY, ids=lambda route: f"{route.method} {route.rule}")
def test_every_read_only_route_answers_the_same_through_either_replica(deployment, route):
    first, second = deployment.replicas
    direct = [answer_of(send(route, lambda rule, server=server: server.api + rule)) for server in (first, second)]
    assert direct[0][0] == 200, direct[0]
    assert direct[0] == direct[1]
    # Round robin: two requests in a row through nginx go to one replica each.
    proxied = [
        send(route, lambda rule: deployment.proxy + API + rule, headers={"Host": deployment.public}) for _ in range(2)
    ]
    assert [answer_of(response) for response in proxied] == direct
    uri = proxied[0].request.path_url
    wait_for(
        lambda: sorted(answered_by(deployment.nginx_dir, route.method, uri)[-2:]) == sorted((first.port, second.port)),
        timeout=5,
    )


def added_info(server: Server, train_id: str) -> dict:
    answer = server.post("/lineagemgr/lineages", json={"summary_dir": {"in": [train_id]}})
    assert answer.status_code == 200, answer.text
    return answer.json()["object"][0]["added_info"]


def test_an_edit_through_nginx_shows_through_both_replicas(deployment):
    origin = "http://" + deployment.public
    for remark in ("through nginx", "and again"):
        stored = deployment.through(
            "PUT", "/lineagemgr/lineages", origin, params={"train_id": LINEAGE_JOB}, json={"remark": remark}
        )
        assert stored.status_code == 200 and stored.json() == {"status": "success"}, stored.text
        for replica in deployment.replicas:
            wait_for(lambda r=replica, m=remark: added_info(r, LINEAGE_JOB).get("remark") == m, timeout=10)
    forged = deployment.through(
        "PUT",
        "/lineagemgr/lineages",
        "http://evil.example",
        params={"train_id": LINEAGE_JOB},
        json={"remark": "forged"},
    )
    assert forged.status_code == 403


def test_nginx_keeps_answering_while_a_replica_is_stopped_and_uses_it_again_once_back(deployment):
    first, second = deployment.replicas
    expected = answer_of(first.get("/datavisual/train-jobs"))
    second.stop()
    try:
        for attempt in range(6):
            answer = deployment.through("GET", "/datavisual/train-jobs", params={"attempt": attempt})
            assert answer_of(answer) == expected
            assert answered_by(deployment.nginx_dir, "GET", answer.request.path_url) == [first.port]
        # An edit while one replica is down: nginx had not sent it to the stopped one, so it goes on.
        stored = deployment.through(
            "PUT",
            "/lineagemgr/lineages",
            "http://" + deployment.public,
            params={"train_id": LINEAGE_JOB},
            json={"remark": "one replica down"},
        )
        assert stored.status_code == 200, stored.text
    finally:
        deployment.restart(second)
    wait_for(lambda: all_cached(second), timeout=60)
    assert added_info(second, LINEAGE_JOB)["remark"] == "one replica down"

    def back_in_rotation() -> bool:
        answer = deployment.through("GET", "/datavisual/train-jobs")
        assert answer_of(answer) == expected
        return second.port in answered_by(deployment.nginx_dir, "GET", answer.request.path_url)[-1:]

    wait_for(back_in_rotation, timeout=20, interval=0.5)


def test_replicas_on_one_port_with_one_token_accept_the_cookie_either_one_set(tmp_path):
    """Replicas on several machines (here: two loopback addresses, one port), each with the same
    ``--token``: the cookie set through nginx by one replica opens the other too, so no sticky
    sessions are needed."""
    conf, line = DEPLOY_CONF.read_text(), readme_start_lines()[0]
    base = make_loaded_base(tmp_path / "base")
    token, port, hosts = secrets.token_urlsafe(24), free_port(), ("127.0.0.2", "127.0.0.3")
    try:
        for host in hosts:
            args = ["start", "--summary-base-dir", str(base), "--workspace", str(tmp_path / host), "--port", str(port)]
            started = run_cli(*args, "--host", host, "--token", token, "--reload-interval", "0", *kept_options(line))
            assert started.returncode == 0, started.stdout + started.stderr
        upstreams = {conf_port: f"{host}:{port}" for conf_port, host in zip(upstream_ports(conf), hosts, strict=True)}
        nginx_dir = tmp_path / "nginx"
        nginx_dir.mkdir()
        with running_nginx_before(upstreams, nginx_dir) as proxy:
            headers = {"Host": public_host(conf)}
            session = requests.Session()
            opened = session.get(proxy + "/", params={"token": token}, headers=headers, timeout=30)
            assert opened.status_code in (200, 404) and session.cookies  # 404: the UI is not built in this tree
            anonymous = requests.get(proxy + API + "/datavisual/train-jobs", headers=headers, timeout=30)
            assert anonymous.status_code == 401
            for attempt in range(4):
                answer = session.get(
                    proxy + API + "/datavisual/train-jobs", params={"n": attempt}, headers=headers, timeout=30
                )
                assert answer.status_code == 200, answer.text
            answered = {
                answering(nginx_dir, "GET", f"{API}/datavisual/train-jobs?n={attempt}")[0] for attempt in range(4)
            }
            assert answered == {f"{host}:{port}" for host in hosts}
    finally:
        run_cli("stop", "--port", str(port), "--workspace", str(tmp_path / hosts[0]))
