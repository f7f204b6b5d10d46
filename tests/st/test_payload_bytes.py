"""Bytes kept per kind are bounded, not only counts (issue 17), on the real server.

Image payloads of a few 300 MB records (sparse files, a few KB on disk) kept 1.3 GB of RSS: the
10-per-tag reservoir bounded the count only. Now an image over ``limits.MAX_SAMPLE_BYTES`` is
dropped at ingest and logged, and the images kept stay within ``limits.BYTES_PER_TAG`` per tag
and ``limits.BYTES_PER_JOB`` per job. The records are framed by hand so their zero payload is
a hole in the file; the worker's RSS is measured once everything is loaded (run with ``-s`` to
see the figures).
"""

import struct
from pathlib import Path

import numpy as np

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format.crc import masked_crc32c
from mindinsight.format.proto import mindinsight_summary_pb2 as summary_pb
from mindinsight.scripts.processes import server_processes
from mindinsight.summary.writer import SummaryWriter, image_proto
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

MiB = 1024 * 1024
PNG = image_proto(np.zeros((2, 2), dtype=np.uint8))
HUGE = 300 * MiB  # over MAX_SAMPLE_BYTES: dropped
LARGE = 40 * MiB  # under it: kept, within the byte bounds
LARGE_TAGS = [f"large{index}" for index in range(5)]  # 5 tags x 4 x 40 MB = 800 MB > BYTES_PER_JOB


def append_sparse_image(path: Path, step: int, tag: str, size: int) -> None:
    """One framed Event holding a ``size``-byte all-zero image; the zeros are a hole in the file."""
    event = summary_pb.Event(wall_time=1795400000.0 + step, step=step)
    event.summary.value.add(tag=tag).image.CopyFrom(
        summary_pb.Summary.Image(width=1, height=1, colorspace=1, encoded_image=bytes(size))
    )
    payload = event.SerializeToString()
    head = payload.rstrip(b"\0")
    length = struct.pack("<Q", len(payload))
    with open(path, "r+b") as stream:
        stream.seek(0, 2)
        stream.write(length + struct.pack("<I", masked_crc32c(length)) + head)
        stream.seek(len(payload) - len(head), 1)
        stream.write(struct.pack("<I", masked_crc32c(payload)))


def write_job(job: Path, records: list[tuple[str, int]]) -> None:
    """Images ``records`` [(tag, size)] at steps 1.., then a small ``done`` image at the last step."""
    with SummaryWriter(job) as writer:
        writer.add_values(0, {"done": PNG})
        path = Path(writer.path)
    for step, (tag, size) in enumerate(records, 1):
        append_sparse_image(path, step, tag, size)
    with SummaryWriter(job, file_name=path.name) as writer:
        writer.add_values(len(records) + 1, {"done": PNG})


def worker_rss(server) -> int:
    processes = server_processes(server.port)
    pids = {proc.pid for proc in processes}
    return next(proc for proc in processes if proc.ppid() in pids).memory_info().rss


def loaded(server, train_id: str, last_step: int) -> bool:
    server.get("/datavisual/plugins", params={"train_id": train_id, "manual_update": "true"})
    answer = server.get("/datavisual/image/metadata", params={"train_id": train_id, "tag": "done/image"})
    return answer.ok and answer.json()["metadatas"][-1]["step"] == last_step


def test_image_bytes_are_bounded_per_image_tag_and_job(tmp_path):
    base = tmp_path / "base"
    write_job(base / "huge", [("huge", HUGE)] * 4)
    write_job(base / "large", [(tag, LARGE) for _ in range(4) for tag in LARGE_TAGS])
    on_disk = sum(path.stat().st_blocks * 512 for path in base.rglob("*_MS"))
    assert on_disk < 4 * MiB  # sparse: 2 GB of records in a few KB
    with running_server(base, tmp_path / "ws", reload_interval=1) as server:
        idle = worker_rss(server)
        wait_for(lambda: loaded(server, "./huge", 5) and loaded(server, "./large", 21), timeout=120)
        rss = worker_rss(server)
        print(f"worker RSS: {idle / MiB:.0f} MiB idle, {rss / MiB:.0f} MiB with both jobs loaded")

        # Every 300 MB image was dropped, and said so in the log.
        huge = server.get("/datavisual/image/metadata", params={"train_id": "./huge", "tag": "huge/image"})
        assert huge.status_code == 400 and huge.json()["error_code"] == "5054500D"
        log = (tmp_path / "ws" / "log" / "app" / f"mindinsight.{server.port}.log").read_text()
        assert "image values of tag 'huge/image': image over" in log

        # The 40 MB images: each tag keeps its latest, within the tag and the job bounds.
        kept = 0
        for tag in LARGE_TAGS:
            params = {"train_id": "./large", "tag": f"{tag}/image"}
            steps = [
                item["step"] for item in server.get("/datavisual/image/metadata", params=params).json()["metadatas"]
            ]
            assert steps[-1] == 15 + LARGE_TAGS.index(tag) + 1
            assert len(steps) * LARGE <= limits.BYTES_PER_TAG[PluginName.IMAGE]
            kept += len(steps)
            latest = server.get("/datavisual/image/single-image", params={**params, "step": steps[-1]})
            assert latest.status_code == 200 and len(latest.content) == LARGE
        assert kept * LARGE <= limits.BYTES_PER_JOB[PluginName.IMAGE]
    # What the worker holds: the kept images (at most BYTES_PER_JOB) and the interpreter.
    assert rss - idle < limits.BYTES_PER_JOB[PluginName.IMAGE] + 128 * MiB, (idle, rss)
