"""The real server while new data keeps arriving and many clients poll (issue #12).

A writer appends scalars with our ``SummaryWriter`` (Python's buffered file flushes whenever
its buffer fills, so the server often sees half a record at the end of the file, as with
MindSpore) while 16 client threads poll ``scalar/metadata`` and ``train-jobs``. Every answer
must be 200, a client never sees fewer steps than it saw before, and the new steps arrive.
"""

import threading

import requests

from mindinsight.summary.writer import SummaryWriter
from tests.helpers.server import running_server
from tests.st.conftest import wait_for

CLIENTS = 16
BATCHES = 30
STEPS_PER_BATCH = 20  # 600 steps in all: below the 1,000-sample reservoir, so counts only grow
TAGS = ("loss", "accuracy")


def test_many_clients_while_a_writer_appends(tmp_path):
    job = tmp_path / "base" / "live"
    writer = SummaryWriter(job, timestamp=1700000000)
    step = 0

    def write_batch():
        nonlocal step
        for _ in range(STEPS_PER_BATCH):
            step += 1
            writer.add_values(step, {tag: step / 7 for tag in TAGS}, wall_time=1700000000.0 + step)

    write_batch()
    writer.flush()
    last_step = BATCHES * STEPS_PER_BATCH
    errors, seen, stop = [], [[] for _ in range(CLIENTS)], threading.Event()

    with running_server(tmp_path / "base", tmp_path / "ws", reload_interval=1) as server:
        metadata = server.api + "/datavisual/scalar/metadata"
        train_jobs = server.api + "/datavisual/train-jobs"
        wait_for(lambda: requests.get(metadata, params={"train_id": "./live", "tag": "loss/scalar"}).status_code == 200)

        def client(index: int) -> None:
            session = requests.Session()
            tag = TAGS[index % len(TAGS)] + "/scalar"
            try:
                while not stop.is_set():
                    answer = session.get(metadata, params={"train_id": "./live", "tag": tag}, timeout=30)
                    if answer.status_code != 200:
                        errors.append((index, answer.status_code, answer.text[:200]))
                        return
                    steps = [point["step"] for point in answer.json()["metadatas"]]
                    seen[index].append((len(steps), steps[-1] if steps else 0))
                    listing = session.get(train_jobs, timeout=30)
                    if listing.status_code != 200 or listing.json()["train_jobs"][0]["train_id"] != "./live":
                        errors.append((index, listing.status_code, listing.text[:200]))
                        return
            except Exception as error:  # any failure of a client is a failure of the test
                errors.append((index, repr(error)))

        threads = [threading.Thread(target=client, args=(index,)) for index in range(CLIENTS)]
        for thread in threads:
            thread.start()
        try:
            for _ in range(BATCHES - 1):
                write_batch()
                writer.flush()
                stop.wait(0.1)
            writer.close()
            wait_for(lambda: errors or all(runs and runs[-1][1] == last_step for runs in seen), timeout=60)
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=60)
            writer.close()

    assert errors == []
    for runs in seen:
        counts = [count for count, _ in runs]
        last_steps = [last for _, last in runs]
        assert counts == sorted(counts) and last_steps == sorted(last_steps)
        assert runs[-1] == (last_step, last_step)
    assert any(runs[0][1] < last_step for runs in seen)  # clients saw the data grow
