"""Tags and remarks in a database (issue 23, "Replicas" and "Failures"), through the real server:
a real PostgreSQL from Debian's package (``tests/helpers/postgres.py``) with ``--database-url``,
SQLite in the workspace by default, the old JSON store imported once."""

import contextlib
import json
import sqlite3

import psycopg
import pytest
import requests

from tests.helpers.fixtures import MULTI_RUNS, copy_job
from tests.helpers.postgres import running_postgres
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

RUN1, RUN2, RUN3 = (f"./{name}" for name in MULTI_RUNS)
DATABASE_ERROR = "50542302"
OLD_STORE = {RUN1: {"remark": "baseline", "tag": 3}, RUN2: {"remark": "lr halved"}, "./gone": {"tag": 1}}


@pytest.fixture
def base(tmp_path):
    base = tmp_path / "base"
    for name in MULTI_RUNS:
        copy_job(f"c_multi_runs/{name}", base / name)
    return base


@pytest.fixture
def postgres():
    with running_postgres() as server:
        yield server


def added_info(server) -> dict:
    response = server.post("/lineagemgr/lineages", json={})
    assert response.status_code == 200, response.text
    return {item["summary_dir"]: item["added_info"] for item in response.json()["object"]}


def put(server, train_id, body):
    return requests.put(f"{server.api}/lineagemgr/lineages", params={"train_id": train_id}, json=body, timeout=30)


def stored_in_postgres(postgres) -> dict:
    with psycopg.connect(postgres.url) as connection:
        rows = connection.execute("SELECT train_id, tag, remark FROM mindinsight_added_info").fetchall()
    return {train_id: (tag, remark) for train_id, tag, remark in rows}


def stored_in_sqlite(workspace) -> dict:
    with contextlib.closing(sqlite3.connect(workspace / "lineage" / "edits.db")) as connection:
        rows = connection.execute("SELECT train_id, tag, remark FROM mindinsight_added_info").fetchall()
    return {train_id: (tag, remark) for train_id, tag, remark in rows}


def test_edits_are_kept_in_postgresql(base, tmp_path, postgres):
    options = ("--database-url", postgres.url)
    with running_server(base, tmp_path / "ws", options=options) as server:
        assert put(server, RUN1, {"tag": 4, "remark": "in postgres"}).json() == {"status": "success"}
        assert put(server, RUN1, {"remark": "merged"}).status_code == 200
        assert added_info(server)[RUN1] == {"tag": 4, "remark": "merged"}
    assert stored_in_postgres(postgres) == {RUN1: (4, "merged")}
    # PostgreSQL's text holds no NUL character: a bad value (400), not a database down (503).
    with running_server(base, tmp_path / "ws", options=options) as server:
        refused = put(server, RUN1, {"remark": "a\x00b"})
        assert refused.status_code == 400 and refused.json()["error_code"] == "50542081"
        assert server.post("/lineagemgr/lineages", json={}).json()["added_info_notice"] is None
        assert put(server, RUN1, {"remark": "again"}).status_code == 200
    assert not (tmp_path / "ws" / "lineage" / "edits.db").exists()
    with running_server(base, tmp_path / "ws2", options=options) as server:  # another workspace, same database
        wait_for(lambda: added_info(server)[RUN1] == {"tag": 4, "remark": "again"})


def test_edits_are_kept_in_sqlite_in_the_workspace_by_default(base, tmp_path):
    workspace = tmp_path / "ws"
    with running_server(base, workspace) as server:
        assert put(server, RUN2, {"tag": 7}).status_code == 200
    assert stored_in_sqlite(workspace) == {RUN2: (7, None)}
    with running_server(base, workspace) as server:
        wait_for(lambda: added_info(server)[RUN2] == {"tag": 7})


def test_an_edit_through_one_server_is_seen_through_another_at_its_next_reload(base, tmp_path, postgres):
    options = ("--database-url", postgres.url)
    with (
        running_server(base, tmp_path / "a", reload_interval=1, options=options) as first,
        running_server(base, tmp_path / "b", reload_interval=1, options=options) as second,
    ):
        wait_for(lambda: added_info(second)[RUN3] == {})
        assert put(first, RUN3, {"remark": "through A"}).status_code == 200
        wait_for(lambda: added_info(second)[RUN3] == {"remark": "through A"}, timeout=10)
        assert put(second, RUN3, {"tag": 2}).status_code == 200
        wait_for(lambda: added_info(first)[RUN3] == {"remark": "through A", "tag": 2}, timeout=10)


def test_a_database_stopped_mid_run_refuses_edits_and_keeps_every_acknowledged_one(base, tmp_path, postgres):
    options = ("--database-url", postgres.url)
    with running_server(base, tmp_path / "ws", reload_interval=1, options=options) as server:
        assert put(server, RUN1, {"remark": "before"}).status_code == 200
        postgres.stop()
        refused = put(server, RUN2, {"remark": "while down"})
        assert refused.status_code == 503 and refused.headers["Content-Type"].startswith("application/json")
        assert refused.json()["error_code"] == DATABASE_ERROR
        assert "Nothing was changed" in refused.json()["error_msg"] and "127.0.0.1" in refused.json()["error_msg"]
        # Read-only views answer, with the edits last read.
        assert added_info(server)[RUN1] == {"remark": "before"}
        notice = wait_for(lambda: server.post("/lineagemgr/lineages", json={}).json()["added_info_notice"])
        assert notice["status"] == "unreachable" and notice["store"] == postgres.url and notice["reason"]
        postgres.start()
        wait_for(lambda: put(server, RUN2, {"remark": "after"}).status_code == 200)
        assert added_info(server)[RUN1] == {"remark": "before"}
        wait_for(lambda: server.post("/lineagemgr/lineages", json={}).json()["added_info_notice"] is None)
    assert stored_in_postgres(postgres) == {RUN1: (None, "before"), RUN2: (None, "after")}


def test_a_database_unreachable_at_start_serves_read_only_until_it_is_back(base, tmp_path, postgres):
    postgres.stop()
    with running_server(base, tmp_path / "ws", reload_interval=1, options=("--database-url", postgres.url)) as server:
        assert set(added_info(server)) == {RUN1, RUN2, RUN3}
        refused = put(server, RUN1, {"tag": 1})
        assert refused.status_code == 503 and refused.json()["error_code"] == DATABASE_ERROR
        postgres.start()
        wait_for(lambda: put(server, RUN1, {"tag": 1}).status_code == 200)
        assert added_info(server)[RUN1] == {"tag": 1}
    assert stored_in_postgres(postgres) == {RUN1: (1, None)}


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_an_old_json_store_is_imported_once_and_left_in_place(base, tmp_path, database, request):
    workspace = tmp_path / "ws"
    old = workspace / "lineage" / "added_info.json"
    old.parent.mkdir(parents=True)
    old.write_text(json.dumps(OLD_STORE))
    postgres = request.getfixturevalue("postgres") if database == "postgresql" else None
    options = ("--database-url", postgres.url) if postgres else ()
    stored = (lambda: stored_in_postgres(postgres)) if postgres else (lambda: stored_in_sqlite(workspace))
    with running_server(base, workspace, options=options) as server:
        wait_for(lambda: added_info(server) == {RUN1: OLD_STORE[RUN1], RUN2: OLD_STORE[RUN2], RUN3: {}})
        assert put(server, RUN1, {"tag": 9}).status_code == 200
    assert stored() == {RUN1: (9, "baseline"), RUN2: (None, "lr halved"), "./gone": (1, None)}
    assert json.loads(old.read_text()) == OLD_STORE  # left as it was
    with running_server(base, workspace, options=options) as server:  # not imported again over the edit
        wait_for(lambda: added_info(server)[RUN1] == {"tag": 9, "remark": "baseline"})
    assert stored()[RUN1] == (9, "baseline")
