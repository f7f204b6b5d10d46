"""The workspace's store of tags and remarks through the real server (issue 17, section 3):
a JSON store of older versions that cannot be parsed is kept aside whole, one that cannot be read
is never overwritten nor merged over (edits answer a JSON 5xx), a database that cannot be written
refuses edits, and the lineage pages are told why (issue 23: edits go to SQLite in the workspace)."""

import contextlib
import json
import os
import sqlite3

import pytest
import requests

from tests.helpers.fixtures import MULTI_RUNS, copy_job
from tests.helpers.server import running_server

RUN1, RUN2 = (f"./{name}" for name in MULTI_RUNS[:2])
STORE_ERROR = "50542301"
DATABASE_ERROR = "50542302"
# 30 remarks, two of them of jobs the base dir holds.
STORED = {f"./old_run_{index:02d}": {"remark": f"remark {index}", "tag": index % 10} for index in range(28)}
STORED.update({RUN1: {"remark": "baseline", "tag": 3}, RUN2: {"remark": "lr halved"}})


@pytest.fixture
def base(tmp_path):
    base = tmp_path / "base"
    for name in MULTI_RUNS:
        copy_job(f"c_multi_runs/{name}", base / name)
    return base


def store_dir(workspace):
    path = workspace / "lineage"
    path.mkdir(parents=True, exist_ok=True)
    return path


def search(server) -> dict:
    response = server.post("/lineagemgr/lineages", json={})
    assert response.status_code == 200, response.text
    return response.json()


def added_info(server) -> dict:
    return {item["summary_dir"]: item["added_info"] for item in search(server)["object"]}


def put(server, train_id, body):
    return requests.put(f"{server.api}/lineagemgr/lineages", params={"train_id": train_id}, json=body, timeout=10)


def stored_in_database(workspace) -> dict:
    with contextlib.closing(sqlite3.connect(workspace / "lineage" / "edits.db")) as connection:
        rows = connection.execute("SELECT train_id, tag, remark FROM mindinsight_added_info").fetchall()
    info = {train_id: {"tag": tag, "remark": remark} for train_id, tag, remark in rows}
    return {train_id: {key: value for key, value in row.items() if value is not None} for train_id, row in info.items()}


def backups(directory) -> list:
    return sorted(path for path in directory.iterdir() if path.name.startswith("added_info.json.damaged-"))


@pytest.mark.parametrize(
    "damaged",
    [
        json.dumps(STORED, indent=1).encode()[:700],  # cut short (a full disk, a crash of another tool)
        b"\x00\x17garbage" + json.dumps(STORED).encode(),  # not JSON
        json.dumps([STORED]).encode(),  # JSON, not {train_id: {...}}
    ],
    ids=["truncated", "corrupt", "wrong-shape"],
)
def test_a_store_that_cannot_be_parsed_is_kept_aside_whole(base, tmp_path, damaged):
    workspace = tmp_path / "ws"
    store = store_dir(workspace) / "added_info.json"
    store.write_bytes(damaged)
    with running_server(base, workspace) as server:
        answer = search(server)
        kept = backups(store.parent)
        assert len(kept) == 1 and kept[0].read_bytes() == damaged  # every byte of it, untouched
        notice = answer["added_info_notice"]
        assert notice["status"] == "backed_up" and notice["store"] == "lineage/added_info.json"
        assert notice["backup"] == f"lineage/{kept[0].name}" and notice["reason"]
        # Edits go on in the database; the damaged store stays as it was.
        assert put(server, RUN1, {"remark": "new"}).json() == {"status": "success"}
        assert stored_in_database(workspace) == {RUN1: {"remark": "new"}} and not store.exists()
        assert backups(store.parent) == kept and kept[0].read_bytes() == damaged
        assert added_info(server)[RUN1] == {"remark": "new"}
        log = (workspace / "log" / "app" / f"mindinsight.{server.port}.log").read_text()
        assert kept[0].name in log


def test_an_unreadable_store_is_never_overwritten(base, tmp_path):
    workspace = tmp_path / "ws"
    store = store_dir(workspace) / "added_info.json"
    original = json.dumps(STORED).encode()
    store.write_bytes(original)
    store.chmod(0)
    with running_server(base, workspace, obey_file_modes=True) as server:
        refused = put(server, RUN1, {"remark": "would replace 30 remarks by 1"})
        assert store.stat().st_mode & 0o777 == 0 and store.read_bytes() == original
        assert refused.status_code == 500 and refused.headers["Content-Type"].startswith("application/json")
        assert refused.json()["error_code"] == STORE_ERROR
        assert "lineage/added_info.json" in refused.json()["error_msg"]
        assert backups(store.parent) == []
        answer = search(server)
        assert answer["added_info_notice"]["status"] == "unreadable"
        assert answer["added_info_notice"]["reason"] == "Permission denied"

        store.chmod(0o600)  # readable again: every remark is there, and edits work
        assert added_info(server)[RUN2] == {"remark": "lr halved"}
        assert store.read_bytes() == original
        assert search(server)["added_info_notice"] is None
        assert put(server, RUN1, {"remark": "kept"}).status_code == 200
    assert stored_in_database(workspace) == {**STORED, RUN1: {"remark": "kept", "tag": 3}}
    assert store.read_bytes() == original  # imported, left in place


def test_an_unwritable_store_refuses_edits_and_stays(base, tmp_path):
    workspace = tmp_path / "ws"
    directory = store_dir(workspace)
    store = directory / "added_info.json"
    original = json.dumps(STORED).encode()
    store.write_bytes(original)
    directory.chmod(0o500)  # no new file (temporary copy, lock) can be made beside it
    try:
        with running_server(base, workspace, obey_file_modes=True) as server:
            assert added_info(server)[RUN1] == {"remark": "baseline", "tag": 3}
            refused = put(server, RUN1, {"tag": 5})  # edits.db cannot be made beside it
            assert refused.status_code == 503 and refused.json()["error_code"] == DATABASE_ERROR
            assert "lineage/edits.db" in refused.json()["error_msg"]
            notice = search(server)["added_info_notice"]
            assert notice["status"] == "unreachable" and notice["store"] == "lineage/edits.db"
            assert store.read_bytes() == original

            directory.chmod(0o700)
            assert put(server, RUN1, {"tag": 5}).status_code == 200
            assert search(server)["added_info_notice"] is None
            assert stored_in_database(workspace) == {**STORED, RUN1: {"remark": "baseline", "tag": 5}}
            assert store.read_bytes() == original
    finally:
        directory.chmod(0o700)


def test_temporary_files_of_interrupted_writes_are_removed_at_start(base, tmp_path):
    workspace = tmp_path / "ws"
    directory = store_dir(workspace)
    (directory / "added_info.json").write_text(json.dumps({RUN1: {"tag": 1}}))
    leftovers = [directory / ".added_info.k2j3h4.tmp", directory / ".added_info.zz9_x.tmp"]
    for leftover in leftovers:
        leftover.write_text('{"./run": {"tag"')  # a write killed half-way
    unrelated = directory / "notes.txt"
    unrelated.write_text("mine")
    with running_server(base, workspace) as server:
        assert added_info(server)[RUN1] == {"tag": 1}
        assert not any(os.path.exists(leftover) for leftover in leftovers)
        assert unrelated.read_text() == "mine"
