"""Files changing under the real server (issue #12): after the next reload the answers equal
what is on disk; a deleted job answers the documented 'train job not exist' error."""

import os
import shutil

import numpy as np

from mindinsight.summary.writer import SummaryWriter
from tests.helpers.fixtures import scalar_series
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

TAG = "loss/scalar"


def write(job_dir, steps, scale=1.0, file_name=None, timestamp=100) -> str:
    with SummaryWriter(job_dir, file_name=file_name, timestamp=timestamp) as writer:
        for step in steps:
            writer.add_scalar("loss", step * scale, step, wall_time=1700000000.0 + step)
    return writer.path


def served(server, train_id):
    answer = server.get("/datavisual/scalar/metadata", params={"train_id": train_id, "tag": TAG})
    if answer.status_code != 200:
        return answer.status_code
    return [(point["step"], float(np.float32(point["value"]))) for point in answer.json()["metadatas"]]


def on_disk(job_dir):
    return [(step, float(np.float32(value))) for step, value in scalar_series(job_dir)[TAG]]


def test_served_data_follows_the_disk(tmp_path):
    base = tmp_path / "base"
    log = write(base / "run", range(1, 101))
    write(base / "gone", range(1, 11))
    with running_server(base, tmp_path / "ws", reload_interval=1) as server:
        wait_for(lambda: served(server, "./run") == on_disk(base / "run"))
        wait_for(lambda: served(server, "./gone") == on_disk(base / "gone"))

        # Rewritten under the same name, smaller and with other values.
        staging = tmp_path / "staging"
        os.replace(write(staging, range(1, 31), scale=-2.0, file_name=os.path.basename(log)), log)
        wait_for(lambda: served(server, "./run") == on_disk(base / "run"))
        assert len(served(server, "./run")) == 30

        # Rewritten in place (same inode), larger, other values from the first record on.
        bigger = write(staging, range(1, 61), scale=3.0, file_name="bigger.summary.100")
        with open(log, "r+b") as stream:
            stream.write(open(bigger, "rb").read())
        wait_for(lambda: served(server, "./run") == on_disk(base / "run"))
        assert len(served(server, "./run")) == 60

        # Truncated at a record boundary.
        data = open(log, "rb").read()
        pos, ends = 0, []
        while pos < len(data):
            pos += 16 + int.from_bytes(data[pos : pos + 8], "little")
            ends.append(pos)
        os.truncate(log, ends[20])  # the version event and steps 1..20
        wait_for(lambda: served(server, "./run") == on_disk(base / "run"))
        assert len(served(server, "./run")) == 20

        # A deleted job dir: gone from the list, and its queries answer the documented error.
        shutil.rmtree(base / "gone")
        wait_for(lambda: served(server, "./gone") == 400)
        answer = server.get("/datavisual/scalar/metadata", params={"train_id": "./gone", "tag": TAG})
        assert answer.json()["error_code"] == "50545005"
        jobs = server.get("/datavisual/train-jobs").json()["train_jobs"]
        assert [job["train_id"] for job in jobs] == ["./run"]
        assert jobs[0]["is_integrity"] is True
