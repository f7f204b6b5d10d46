"""Damaged files (issue #12): what is damage, what is a writer at work, what is served.

A partial record at the end of the newest summary file is MindSpore still writing it: the
job stays intact. Damage is a CRC mismatch, a length that can never complete, or an older
file (a newer one exists) ending mid-record; it is skipped, counted and never blocks the
files after it.
"""

import random
import struct

from mindinsight.cache.data_manager import CacheStatus, DataManager
from mindinsight.conf.limits import MAX_EVENT_PAYLOAD_BYTES
from mindinsight.conf.plugins import PluginName
from mindinsight.format.crc import masked_crc32c
from mindinsight.format.records import frame
from mindinsight.ingest.loader import JobLoader
from mindinsight.summary import SummaryWriter
from tests.helpers.apps import make_app

OLDER = "events.out.events.summary.1700000003.0.x_MS"
NEWER = "events.out.events.summary.1700000010.0.x_MS"
API = "/v1/mindinsight/datavisual"


def write_scalars(job_dir, file_name, steps, tag="loss") -> str:
    with SummaryWriter(job_dir, file_name=file_name) as writer:
        for step in steps:
            writer.add_scalar(tag, step / 4, step, wall_time=1700000000.0 + step)
    return writer.path


def load_fully(loader: JobLoader) -> None:
    while not loader.load(1 << 20).done:
        pass


def steps(loader_or_data, tag="loss/scalar"):
    data = getattr(loader_or_data, "data", loader_or_data)
    samples = data.samples(PluginName.SCALAR, tag)
    return None if samples is None else samples["step"].tolist()


def length_header(length: int) -> bytes:
    raw = struct.pack("<Q", length)
    return raw + struct.pack("<I", masked_crc32c(raw))


# -- defect 1: a damaged file hides its valid neighbours --------------------------------------


def test_damaged_older_file_does_not_hide_the_valid_newer_one(tmp_path):
    job = tmp_path / "run"
    job.mkdir()
    (job / OLDER).write_bytes(random.Random(3).randbytes(200_000))
    write_scalars(job, NEWER, range(1, 21))
    manager = DataManager(str(tmp_path), reload_interval=0)
    manager.load_all_now()
    assert manager.cache_status("./run") is CacheStatus.CACHED
    assert manager.job_data("./run").tags(PluginName.SCALAR) == ["loss/scalar"]
    assert steps(manager.job_data("./run")) == list(range(1, 21))
    assert manager.is_integrity("./run") is False and manager.skipped_records("./run") == 1


def test_damaged_older_file_does_not_hide_the_newer_one_over_http(tmp_path):
    job = tmp_path / "run"
    job.mkdir()
    (job / OLDER).write_bytes(random.Random(4).randbytes(50_000))
    write_scalars(job, NEWER, range(1, 6))
    client = make_app(tmp_path).test_client()
    answer = client.get(f"{API}/scalar/metadata", query_string={"train_id": "./run", "tag": "loss/scalar"})
    assert answer.status_code == 200
    assert [point["step"] for point in answer.get_json()["metadatas"]] == [1, 2, 3, 4, 5]
    item = client.get(f"{API}/train-jobs").get_json()["train_jobs"][0]
    assert (item["is_integrity"], item["plugins"]["scalar"]) == (False, ["loss/scalar"])


def test_older_file_ending_mid_record_is_damage_as_soon_as_a_newer_file_exists(tmp_path):
    older = write_scalars(tmp_path, OLDER, range(1, 6))
    with open(older, "ab") as stream:  # the writer was killed in the middle of a record
        stream.write(frame(b"\x09" + b"\x00" * 8 + b"\x10\x06")[:15])
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    assert loader.is_integrity and steps(loader) == [1, 2, 3, 4, 5]  # still the newest: waits
    write_scalars(tmp_path, NEWER, range(6, 9))  # training restarted
    load_fully(loader)
    assert steps(loader) == list(range(1, 9))
    assert not loader.is_integrity and loader.corrupt_records == 1


# -- defect 2: a partial tail of the newest file is the writer at work -------------------------


def test_partial_tail_of_the_newest_file_is_not_damage(tmp_path):
    path = write_scalars(tmp_path, NEWER, range(1, 4))
    with SummaryWriter(tmp_path / "spare", timestamp=1) as spare:
        spare.add_scalar("loss", 1.0, 4, wall_time=1700000004.0)
    record = _last_record(spare.path)
    for cut in (5, 12, len(record) - 1):  # inside the header, at its end, before the footer
        with open(path, "ab") as stream:
            stream.write(record[:cut])
        loader = JobLoader(str(tmp_path))
        load_fully(loader)
        assert (loader.is_integrity, loader.corrupt_records, steps(loader)) == (True, 0, [1, 2, 3])
        with open(path, "ab") as stream:
            stream.write(record[cut:])
        load_fully(loader)
        assert (loader.is_integrity, steps(loader)[-1]) == (True, 4)
        with open(path, "r+b") as stream:  # drop the completed record again for the next cut
            stream.truncate(stream.seek(0, 2) - len(record))


def _last_record(path) -> bytes:
    data = open(path, "rb").read()
    pos, last = 0, b""
    while pos < len(data):
        (length,) = struct.unpack_from("<Q", data, pos)
        last = data[pos : pos + 16 + length]
        pos += 16 + length
    return last


def test_length_beyond_the_limit_is_damage_even_in_the_newest_file(tmp_path):
    path = write_scalars(tmp_path, NEWER, range(1, 4))
    with open(path, "ab") as stream:
        stream.write(length_header(MAX_EVENT_PAYLOAD_BYTES + 1) + b"\x00" * 40)
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    assert (loader.is_integrity, loader.corrupt_records, steps(loader)) == (False, 1, [1, 2, 3])
    with SummaryWriter(tmp_path, file_name=NEWER) as writer:  # the writer goes on after it
        writer.add_scalar("loss", 1.0, 4, wall_time=1700000004.0)
    load_fully(loader)
    assert steps(loader) == [1, 2, 3, 4] and loader.corrupt_records == 1


def test_record_longer_than_what_is_left_of_an_older_file_is_damage(tmp_path):
    older = write_scalars(tmp_path, OLDER, range(1, 4))
    with open(older, "ab") as stream:
        stream.write(length_header(10_000) + b"\x00" * 100)
    write_scalars(tmp_path, NEWER, range(4, 6))
    loader = JobLoader(str(tmp_path))
    load_fully(loader)
    assert (loader.is_integrity, loader.corrupt_records, steps(loader)) == (False, 1, [1, 2, 3, 4, 5])


def test_crc_mismatch_is_never_served_and_counted(tmp_path):
    path = write_scalars(tmp_path / "run", NEWER, range(1, 11))
    data = bytearray(open(path, "rb").read())
    record = len(_last_record(path))
    data[-record * 2 - 2] ^= 0xFF  # the footer of step 8's record
    data[-record * 6 + 3] ^= 0xFF  # the length of step 5's record
    open(path, "wb").write(bytes(data))
    manager = DataManager(str(tmp_path), reload_interval=0)
    train_id = "./run"
    assert manager.skipped_records(train_id) == 0  # not cached yet
    manager.load_all_now()
    assert steps(manager.job_data(train_id)) == [1, 2, 3, 4, 6, 7, 9, 10]
    assert manager.skipped_records(train_id) == 2 and manager.is_integrity(train_id) is False
