"""The reload thread starts its passes ``reload_interval`` apart, counted start to start: new data
waits at most one interval (issue #20, a live run); a pass longer than the interval is followed
after a short rest, not at once, so requests keep their share of the interpreter."""

import threading
import time

import pytest

from mindinsight.cache.data_manager import DataManager, reload_pause
from mindinsight.conf import limits
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
