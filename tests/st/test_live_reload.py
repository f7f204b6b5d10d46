"""A job whose log grows while the server runs: appended records show after a reload."""

from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.format.records import frame
from mindinsight.summary.writer import SummaryWriter
from tests.helpers.fixtures import copy_job
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

TAG = "accuracy/scalar"


def scalar_steps(server, tag=TAG):
    body = server.get("/datavisual/scalar/metadata", params={"train_id": "./live", "tag": tag}).json()
    return [(p["step"], p["value"]) for p in body.get("metadatas", [])]


def job_brief(server):
    jobs = server.get("/datavisual/train-jobs", params={"train_id": "./live"}).json()["train_jobs"]
    return jobs[0]


def event_bytes(step: int, values: dict) -> bytes:
    event = summary_pb.Event(wall_time=1795400000.0 + step, step=step)
    for tag, value in values.items():
        event.summary.value.add(tag=tag, scalar_value=value)
    return frame(event.SerializeToString())


def test_appended_records_are_served_after_reload(tmp_path):
    job = copy_job("b_summary_ops", tmp_path / "base" / "live")
    log_file = next(job.glob("*_MS"))
    with running_server(tmp_path / "base", tmp_path / "ws", reload_interval=1) as server:
        wait_for(lambda: job_brief(server)["cache_status"] == "CACHED" and len(scalar_steps(server)) == 300)

        # Our writer appends to the very file MindSpore wrote.
        with SummaryWriter(job, file_name=log_file.name) as writer:
            writer.add_values(301, {"accuracy": 0.5, "brand_new": 7.0}, wall_time=1795400301.0)
        wait_for(lambda: scalar_steps(server)[-1:] == [(301, 0.5)])
        assert (
            "brand_new/scalar"
            in server.get("/datavisual/plugins", params={"train_id": "./live"}).json()["plugins"]["scalar"]
        )

        # A record, then half of the next (MindSpore still writing it): nothing of the half is
        # served, and it is no damage, so the job stays intact (issue #12).
        record = event_bytes(303, {"accuracy": 0.75})
        with open(log_file, "ab") as handle:
            handle.write(event_bytes(302, {"accuracy": 0.625}) + record[: len(record) // 2])
        wait_for(lambda: scalar_steps(server)[-1:] == [(302, 0.625)])
        assert job_brief(server)["is_integrity"] is True

        # The rest of it arrives: the record is read whole, nothing before it was lost.
        with open(log_file, "ab") as handle:
            handle.write(record[len(record) // 2 :])
        wait_for(lambda: scalar_steps(server)[-1:] == [(303, 0.75)])
        assert job_brief(server)["is_integrity"] is True
        assert [step for step, _ in scalar_steps(server)] == list(range(1, 304))


def test_corrupt_record_is_skipped_and_later_records_still_served(tmp_path):
    job = copy_job("b_summary_ops", tmp_path / "base" / "live")
    log_file = next(job.glob("*_MS"))
    with running_server(tmp_path / "base", tmp_path / "ws", reload_interval=1) as server:
        wait_for(lambda: len(scalar_steps(server)) == 300)
        damaged = bytearray(event_bytes(301, {"accuracy": 0.125}))
        damaged[-1] ^= 0xFF  # payload CRC no longer matches (values exact in float32)
        with open(log_file, "ab") as handle:
            handle.write(bytes(damaged) + event_bytes(302, {"accuracy": 0.25}))
        wait_for(lambda: scalar_steps(server)[-1:] == [(302, 0.25)])
        steps = [step for step, _ in scalar_steps(server)]
        assert 301 not in steps and steps == list(range(1, 301)) + [302]
