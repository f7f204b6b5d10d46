"""Reservoir: capacity, latest step always kept, uniform thinning, restarts."""

import dataclasses
import time

import numpy as np
import pytest

from mindinsight.conf.plugins import PluginName
from mindinsight.ingest.job_data import JobData
from mindinsight.ingest.kinds import KINDS
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


# -- bytes and recently evicted samples (issue 17) ------------------------------------------

SIZED = {"image": object, "nbytes": np.int64}


def sized(steps, size=10, file_ts=0):
    steps = np.asarray(steps, dtype=np.int64)
    payload = np.empty(steps.size, dtype=object)
    payload[:] = [step.to_bytes(8, "little") * (size // 8) for step in steps.tolist()]
    return {
        "step": steps,
        "wall_time": steps * 0.5,
        "file_ts": np.full(steps.size, file_ts),
        "image": payload,
        "nbytes": np.full(steps.size, size // 8 * 8),
    }


@pytest.mark.parametrize("batch", [1, 3, 50])
def test_a_listed_sample_stays_fetchable_after_it_is_thinned_out(batch):
    """A client lists the kept steps, a batch arrives, then it asks for what it listed: each
    one is still kept or recently evicted, with the bytes of its step."""
    reservoir = Reservoir(10, SIZED, keep_evicted_seconds=60)
    thinned = 0
    for start in range(1, 2000, batch):
        listed = reservoir.samples()["step"].tolist()
        reservoir.mark_listed()
        reservoir.add_batch(sized(range(start, start + batch)))
        kept = set(reservoir.samples()["step"].tolist())
        for step in listed:
            if step in kept:
                continue
            thinned += 1
            sample = reservoir.recent(step)
            assert sample is not None, step
            assert sample["step"] == step and sample["image"][:8] == step.to_bytes(8, "little")
    assert thinned >= 20
    assert len(reservoir._recent) <= 100


def test_a_step_nobody_listed_is_not_kept_once_thinned_out():
    """Without a listing the window keeps nothing: a step never shown answers as before."""
    reservoir = Reservoir(10, SIZED, keep_evicted_seconds=60)
    reservoir.add_batch(sized(range(1, 11)))
    reservoir.mark_listed()  # steps 1..10 shown
    reservoir.add_batch(sized(range(11, 21)))
    unlisted = set(range(11, 20)) - set(reservoir.samples()["step"].tolist())
    reservoir.add_batch(sized(range(21, 400)))
    gone = set(range(1, 11)) - set(reservoir.samples()["step"].tolist())
    assert gone and all(reservoir.recent(step)["step"] == step for step in gone)
    assert unlisted and all(reservoir.recent(step) is None for step in unlisted)


def test_recently_evicted_samples_expire_and_a_restart_forgets_them():
    reservoir = Reservoir(2, SIZED, keep_evicted_seconds=0.2)
    reservoir.add_batch(sized([1, 2]))
    reservoir.mark_listed()
    reservoir.add_batch(sized([3]))  # the body has one slot: 1 or 2 leaves
    gone = ({1, 2} - set(reservoir.samples()["step"].tolist())).pop()
    assert reservoir.recent(gone)["step"] == gone
    time.sleep(0.3)
    assert reservoir.recent(gone) is None

    reservoir.mark_listed()
    reservoir.add_batch(sized([4]))  # 3 moves to the body: it or the other one leaves
    gone = ({1, 2, 3} - {gone}) - set(reservoir.samples()["step"].tolist())
    assert len(gone) == 1 and reservoir.recent(gone.pop()) is not None
    reservoir.add_batch(sized([2], file_ts=1))  # a new session from step 2
    assert all(reservoir.recent(step) is None for step in range(5))


def test_without_a_window_nothing_is_kept_beyond_the_capacity():
    reservoir = Reservoir(3, SIZED)
    reservoir.add_batch(sized(range(1, 100)))
    assert len(reservoir) == 3 and reservoir.nbytes == 3 * 8
    assert all(reservoir.recent(step) is None for step in range(1, 100))


def test_bytes_per_tag_let_the_oldest_go_and_keep_the_latest():
    reservoir = Reservoir(10, SIZED, max_bytes=1000, keep_evicted_seconds=60)
    for step in range(1, 50):
        reservoir.mark_listed()
        reservoir.add_batch(sized([step], size=240))
        assert reservoir.nbytes <= 1000
        assert reservoir.samples()["step"][-1] == step
    assert len(reservoir) == 4  # 4 x 240 bytes; the recent ones went first
    # One sample over the bound alone is still the latest (the kind refuses such values).
    reservoir.add_batch(sized([50], size=4000))
    assert reservoir.samples()["step"].tolist() == [50]


def test_shed_one_lets_the_latest_go_only_when_asked():
    reservoir = Reservoir(10, SIZED)
    reservoir.add_batch(sized([1, 2]))
    assert reservoir.shed_one(keep_latest=True) and reservoir.samples()["step"].tolist() == [2]
    assert not reservoir.shed_one(keep_latest=True)
    assert reservoir.shed_one(keep_latest=False) and len(reservoir) == 0 and reservoir.nbytes == 0
    reservoir.add_batch(sized([3]))
    assert reservoir.samples()["step"].tolist() == [3]


def test_a_job_keeps_its_image_bytes_within_the_job_bound(monkeypatch):
    """Past ``bytes_per_job`` the largest image tags give up their oldest samples; the tag just
    written keeps its latest, and the job's count of bytes stays exact."""
    kind = dataclasses.replace(KINDS[PluginName.IMAGE], bytes_per_tag=10_000, bytes_per_job=2_000)
    monkeypatch.setitem(KINDS, PluginName.IMAGE, kind)
    data = JobData()
    for step in range(1, 30):
        for tag in ("a/image", "b/image", "c/image"):
            columns = sized([step], size=200)
            columns["width"] = columns["height"] = np.ones(1, dtype=np.int32)
            data.add_batch(PluginName.IMAGE, tag, columns)
            assert data.payload_bytes(PluginName.IMAGE) <= 2_000
            assert data.samples(PluginName.IMAGE, tag)["step"][-1] == step
    held = sum(int(data.samples(PluginName.IMAGE, t)["nbytes"].sum()) for t in ("a/image", "b/image", "c/image"))
    assert held == data.payload_bytes(PluginName.IMAGE)
    data.remove_tags(PluginName.IMAGE, keep=lambda tag: tag == "a/image")
    assert data.payload_bytes(PluginName.IMAGE) == int(data.samples(PluginName.IMAGE, "a/image")["nbytes"].sum())


@pytest.mark.parametrize("fed_before", [500, 5_000], ids=["never-thinned", "thinned"])
def test_a_restored_reservoir_thins_on_as_the_one_saved(fed_before):
    saved = Reservoir(1000, {"value": np.float32})
    feed(saved, np.arange(1, fed_before + 1))
    meta, arrays = saved.state()
    assert (meta["rng"] is None) == (fed_before < 1000)  # an unused generator is not made to save it
    restored = Reservoir(1000, {"value": np.float32})
    restored.restore(meta, arrays)
    for reservoir in (saved, restored):
        feed(reservoir, np.arange(fed_before + 1, 20_001))
    assert restored.samples()["step"].tolist() == saved.samples()["step"].tolist()
    assert restored.state()[0] == saved.state()[0]


def test_a_saved_state_that_is_no_generator_is_refused():
    saved = Reservoir(10, {"value": np.float32})
    feed(saved, np.arange(1, 100))
    meta, arrays = saved.state()
    with pytest.raises(ValueError):
        Reservoir(10, {"value": np.float32}).restore({**meta, "rng": {"bit_generator": "MT19937"}}, arrays)


def test_a_batch_of_new_image_tags_past_the_job_bound_is_kept_within_it(monkeypatch):
    """Tags new to the job arrive in one batch (``add_batches``) and the first already passes
    ``bytes_per_job``: the largest shed samples as with one add per tag, the others made later."""
    kind = dataclasses.replace(KINDS[PluginName.IMAGE], bytes_per_tag=10_000, bytes_per_job=2_000)
    monkeypatch.setitem(KINDS, PluginName.IMAGE, kind)
    data = JobData()
    batch = {}
    for tag, samples in (("a/image", 12), ("b/image", 3), ("c/image", 3)):
        columns = sized(list(range(1, samples + 1)), size=200)
        columns["width"] = columns["height"] = np.ones(samples, dtype=np.int32)
        batch[(PluginName.IMAGE, tag)] = columns
    data.add_batches(batch)
    assert data.payload_bytes(PluginName.IMAGE) <= 2_000
    assert data.tags(PluginName.IMAGE) == ["a/image", "b/image", "c/image"]
    for tag in ("a/image", "b/image", "c/image"):
        assert data.samples(PluginName.IMAGE, tag)["step"][-1] == (12 if tag == "a/image" else 3)
