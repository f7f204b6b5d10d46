"""Reservoir: capacity, latest step always kept, uniform thinning, restarts."""

import numpy as np

from mindinsight.ingest.reservoir import Reservoir


def columns(steps, file_ts=0, value=None):
    steps = np.asarray(steps, dtype=np.int64)
    return {
        "step": steps,
        "wall_time": steps * 0.5,
        "file_ts": np.full(steps.size, file_ts),
        "value": (steps if value is None else np.full(steps.size, value)).astype(np.float32),
    }


def feed(reservoir, steps, batch=997, file_ts=0):
    for start in range(0, len(steps), batch):
        reservoir.add_batch(columns(steps[start : start + batch], file_ts))


def test_keeps_everything_below_capacity():
    reservoir = Reservoir(10, {"value": np.float32})
    feed(reservoir, np.arange(1, 8))
    assert reservoir.samples()["step"].tolist() == list(range(1, 8))


def test_capacity_and_latest_step_are_kept():
    reservoir = Reservoir(1000, {"value": np.float32})
    feed(reservoir, np.arange(1, 200_001))
    samples = reservoir.samples()
    assert len(reservoir) == 1000
    assert samples["step"][-1] == 200_000
    assert np.all(np.diff(samples["step"]) > 0)
    # every column stays aligned with its step
    assert np.array_equal(samples["value"], samples["step"].astype(np.float32))
    assert np.array_equal(samples["wall_time"], samples["step"] * 0.5)


def test_thinning_is_roughly_uniform():
    reservoir = Reservoir(1000, {"value": np.float32})
    feed(reservoir, np.arange(100_000))
    counts, _ = np.histogram(reservoir.samples()["step"], bins=5, range=(0, 100_000))
    assert counts.min() > 150 and counts.max() < 250


def test_batch_size_does_not_change_what_is_kept_count():
    small, large = Reservoir(50, {"value": np.float32}), Reservoir(50, {"value": np.float32})
    feed(small, np.arange(5000), batch=1)
    feed(large, np.arange(5000), batch=5000)
    assert len(small) == len(large) == 50
    assert small.samples()["step"][-1] == large.samples()["step"][-1] == 4999


def test_seeded_loads_are_reproducible():
    first, second = Reservoir(100, {"value": np.float32}), Reservoir(100, {"value": np.float32})
    feed(first, np.arange(10_000), batch=333)
    feed(second, np.arange(10_000), batch=333)
    assert np.array_equal(first.samples()["step"], second.samples()["step"])


def test_restart_in_a_newer_file_replaces_overlapping_steps():
    reservoir = Reservoir(1000, {"value": np.float32})
    reservoir.add_batch(columns(range(1, 51), file_ts=1, value=0))
    reservoir.add_batch(columns(range(41, 91), file_ts=2, value=1))
    samples = reservoir.samples()
    assert samples["step"].tolist() == list(range(1, 91))
    assert samples["value"][:40].tolist() == [0] * 40
    assert samples["value"][40:].tolist() == [1] * 50


def test_restart_in_the_same_file_drops_equal_steps_keeps_larger():
    reservoir = Reservoir(1000, {"value": np.float32})
    reservoir.add_batch(columns([1, 2, 3, 4, 5, 3, 4], file_ts=7))
    assert reservoir.samples()["step"].tolist() == [1, 2, 3, 4, 5]
    assert len(reservoir) == 5


def test_object_payload_column():
    reservoir = Reservoir(3, {"image": object})
    payload = np.empty(5, dtype=object)
    payload[:] = [b"a", b"b", b"c", b"d", b"e"]
    reservoir.add_batch({"step": np.arange(5), "wall_time": np.zeros(5), "file_ts": np.zeros(5), "image": payload})
    samples = reservoir.samples()
    assert len(reservoir) == 3 and samples["image"][-1] == b"e"
    assert all(bytes([ord("a") + int(s)]) == img for s, img in zip(samples["step"], samples["image"]))


def test_unlimited_capacity():
    reservoir = Reservoir(0, {"value": np.float32})
    feed(reservoir, np.arange(3000))
    assert len(reservoir) == 3000


def test_batch_boundaries_do_not_change_what_is_kept():
    """Every sample past the free slots draws exactly one number, so any split of the same
    stream keeps the same samples (the fast and the full decode may batch differently)."""
    kept = []
    for batch in (1, 7, 997, 5000):
        reservoir = Reservoir(50, {"value": np.float32})
        feed(reservoir, np.arange(5000), batch=batch)
        kept.append(reservoir.samples()["step"])
    assert all(np.array_equal(kept[0], other) for other in kept[1:])
    assert len(kept[0]) == 50 and kept[0][-1] == 4999
