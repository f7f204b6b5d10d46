"""The reload thread starts its passes ``reload_interval`` apart, counted start to start: new data
waits at most one interval (issue #20, a live run); a pass longer than the interval is followed
after a short rest, not at once, so requests keep their share of the interpreter."""

import os
import threading
import time

import pytest

from mindinsight.cache.data_manager import DataManager, reload_pause
from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.summary.writer import SummaryWriter


@pytest.mark.parametrize(
    ("interval", "failures", "pass_seconds", "pause"),
    [
        (1, 0, 0.0, 1.0),
        (1, 0, 0.4, 0.6),  # the pass's own time counts towards the interval
        (1, 0, 1.0, 0.25),  # a pass as long as the interval: a rest of a quarter of it
        (1, 0, 2.5, 0.625),  # longer: the next one after the rest, not a whole interval
        (3, 1, 1.0, 2.0),
        (3, 2, 1.0, 5.0),  # a store that cannot be listed: backoff, also start to start
        (3, 40, 1.0, limits.MAX_STORE_BACKOFF_SECONDS - 1.0),
    ],
)
def test_pause_counts_the_pass(interval, failures, pass_seconds, pause):
    assert reload_pause(interval, failures, pass_seconds) == pytest.approx(pause)


def test_load_once_waits_for_a_wake_up_only():
    assert reload_pause(0, 0, 0.5) is None
    assert reload_pause(0, 3, 0.5) is None


class SlowPasses(DataManager):
    """A data manager whose load passes take ``pass_seconds`` more, with their start and end times."""

    def __init__(self, *args, pass_seconds: float, passes: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.pass_seconds = pass_seconds
        self.passes: list[tuple[float, float]] = []
        self.enough = threading.Event()
        self._wanted = passes

    def load_pass(self) -> None:
        started = time.monotonic()
        super().load_pass()
        time.sleep(self.pass_seconds)
        self.passes.append((started, time.monotonic()))
        if len(self.passes) >= self._wanted:
            self.enough.set()


def test_a_pass_longer_than_the_interval_is_followed_after_a_short_rest(tmp_path):
    job = tmp_path / "run"
    job.mkdir()
    with SummaryWriter(str(job)) as writer:
        writer.add_scalar("loss", 1.0, 1)
    manager = SlowPasses(str(tmp_path), reload_interval=1, pass_seconds=1.2, passes=2)
    manager.start()
    try:
        assert manager.enough.wait(30)
    finally:
        manager.stop()
    (_, first_end), (second_start, _) = manager.passes[:2]
    # Waiting the whole interval after each pass would leave a second between them; the rest is
    # a quarter of the pass (0.3 s).
    assert 0.25 < second_start - first_end < 0.6
    assert manager.job_data("./run") is not None


class CountedPasses(DataManager):
    """A data manager counting its listings of the base dir and its load passes."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.listing_count = 0
        self.pass_count = 0

    def refresh_briefs(self) -> None:
        super().refresh_briefs()
        self.listing_count += 1

    def load_pass(self) -> None:
        super().load_pass()
        self.pass_count += 1


def last_step(manager: DataManager, train_id: str) -> int | None:
    data = manager.job_data(train_id)
    samples = None if data is None else data.samples(PluginName.SCALAR, "loss/scalar")
    return None if samples is None else int(samples["step"].max())


def wait_for(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


@pytest.mark.parametrize(
    ("interval", "ask", "within"),
    [
        (8, False, 6.0),  # followed every 2 s as a live job
        # A page refreshing a job it shows (``plugins?manual_update=true``): read at once, well
        # before the next pass and the next turn of following live jobs (every 15 s).
        (60, True, 5.0),
    ],
)
def test_a_live_job_is_read_on_between_passes(tmp_path, interval, ask, within):
    """A job written to while the server runs shows its new steps well within one reload
    interval, before the next pass: the loading thread follows it in between, or reads it as
    soon as a page asks for it again."""
    job = tmp_path / "run"
    job.mkdir()
    writer = SummaryWriter(str(job))
    writer.add_scalar("loss", 1.0, 1)
    writer.flush()
    manager = CountedPasses(str(tmp_path), reload_interval=interval)
    manager.start()
    try:
        assert manager.wait_first_pass(10)
        assert last_step(manager, "./run") == 1
        writer.add_scalar("loss", 0.5, 2)
        writer.flush()
        if ask:
            manager.cache_train_job("./run")
        assert wait_for(lambda: last_step(manager, "./run") == 2, within)
        assert (manager.listing_count, manager.pass_count) == (1, 1)
    finally:
        manager.stop()
        writer.close()


def test_only_recently_written_jobs_are_followed(tmp_path):
    for name, age in (("new", 0), ("old", limits.LIVE_JOB_SECONDS + 60)):
        (tmp_path / name).mkdir()
        with SummaryWriter(str(tmp_path / name)) as writer:
            writer.add_scalar("loss", 1.0, 1)
        if age:
            for file in (tmp_path / name).iterdir():
                stamp = time.time() - age
                os.utime(file, (stamp, stamp))
    manager = DataManager(str(tmp_path), reload_interval=1)
    manager.load_all_now()
    assert manager.follow_live_jobs() == 1  # "new" only


def older_and_newer_jobs(tmp_path) -> None:
    """Two jobs of one step (7) each; a detail cache of one holds the newer first."""
    for name in ("older", "newer"):
        (tmp_path / name).mkdir()
        with SummaryWriter(str(tmp_path / name)) as writer:
            writer.add_scalar("loss", 1.0, 7)
    for file in (tmp_path / "older").iterdir():
        stamp = time.time() - 60
        os.utime(file, (stamp, stamp))


@pytest.mark.parametrize("interval", [60, 0])
def test_a_job_opened_between_passes_is_read_at_once_without_listing_again(tmp_path, interval):
    """Opening a job the detail cache does not hold reads that job at once; the base dir, which
    may hold thousands of jobs, is not listed again for it (nor the cached jobs read again)."""
    older_and_newer_jobs(tmp_path)
    manager = CountedPasses(str(tmp_path), reload_interval=interval, capacity=1)
    manager.start()
    try:
        assert manager.wait_first_pass(10)
        assert manager.job_data("./older") is None
        manager.cache_train_job("./older")
        assert wait_for(lambda: last_step(manager, "./older") == 7)
        assert (manager.listing_count, manager.pass_count) == (1, 1)
    finally:
        manager.stop()


class PausedFirstPass(CountedPasses):
    """Its first load pass waits, once the base dir is listed, until ``go_on`` is set."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.in_pass, self.go_on = threading.Event(), threading.Event()

    def load_pass(self) -> None:
        if self.pass_count == 0:
            self.in_pass.set()
            self.go_on.wait(10)
        super().load_pass()


def test_a_job_opened_during_a_pass_is_read_in_it_and_brings_no_pass_of_its_own(tmp_path):
    """The ask's wake-up outlives the pass that read the job: it must not start another pass
    at once (a listing of every job, during which the next job opened waits)."""
    older_and_newer_jobs(tmp_path)
    manager = PausedFirstPass(str(tmp_path), reload_interval=60, capacity=1)
    manager.start()
    try:
        assert manager.in_pass.wait(10)
        manager.cache_train_job("./older")
        manager.go_on.set()
        assert wait_for(lambda: last_step(manager, "./older") == 7)
        assert manager.wait_first_pass(10)
        time.sleep(0.5)
        assert (manager.listing_count, manager.pass_count) == (1, 1)
    finally:
        manager.stop()


@pytest.mark.parametrize("cached", [False, True])
def test_a_job_deleted_since_the_listing_reads_as_gone_when_opened(tmp_path, cached):
    """A job whose dir was deleted after the last listing and is opened (or refreshed) before the
    next one is dropped from the list at once: it reads as not existing, not as read and empty."""
    for name in ("kept", "deleted"):
        (tmp_path / name).mkdir()
        with SummaryWriter(str(tmp_path / name)) as writer:
            writer.add_scalar("loss", 1.0, 3)
    manager = CountedPasses(str(tmp_path), reload_interval=60, capacity=2 if cached else 1)
    if not cached:  # a cache of one holds the kept job: the deleted one is opened cold
        for file in (tmp_path / "deleted").iterdir():
            stamp = time.time() - 60
            os.utime(file, (stamp, stamp))
    manager.start()
    try:
        assert manager.wait_first_pass(10)
        assert (last_step(manager, "./deleted") == 3) is cached
        for file in (tmp_path / "deleted").iterdir():
            file.unlink()
        (tmp_path / "deleted").rmdir()
        assert manager.cache_train_job("./deleted") is not None  # still listed when opened
        assert wait_for(lambda: manager.brief("./deleted") is None)
        assert manager.job_data("./deleted") is None
        assert manager.cache_train_job("./deleted") is None  # the API's "does not exist"
        assert [info.train_id for info in manager.briefs()] == ["./kept"]
        if cached:  # (a cache of one gave the kept job's place to the one opened)
            assert last_step(manager, "./kept") == 3
        assert (manager.listing_count, manager.pass_count) == (1, 1)
    finally:
        manager.stop()


def test_a_live_job_deleted_between_passes_leaves_the_list_when_followed(tmp_path):
    (tmp_path / "live").mkdir()
    with SummaryWriter(str(tmp_path / "live")) as writer:
        writer.add_scalar("loss", 1.0, 1)
    manager = DataManager(str(tmp_path), reload_interval=1)
    manager.load_all_now()
    assert last_step(manager, "./live") == 1
    for file in (tmp_path / "live").iterdir():
        file.unlink()
    (tmp_path / "live").rmdir()
    assert manager.follow_live_jobs() == 0
    assert manager.brief("./live") is None and manager.briefs() == []
