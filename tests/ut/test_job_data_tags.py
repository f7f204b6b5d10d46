"""JobData's tag limits on whole batches: what a batch keeps, refuses and lets go is what one
``add_batch`` per tag would give (its counts of values not kept never fewer), and a tag pushed out
by the same batch is never stored."""

import dataclasses
from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.ingest import job_data
from mindinsight.ingest.job_data import JobData
from mindinsight.ingest.kinds import KINDS
from mindinsight.ingest.kinds.base import Rejected

# Kinds bounded by tag counts only: a kind bounded in bytes sheds samples as each tag is added,
# so one add per tag may shed for a tag the batch lets go at once (the batch keeps more then).
PLUGINS = (PluginName.SCALAR, PluginName.TENSOR, PluginName.GRAPH)


def columns_of(plugin: PluginName, steps) -> dict:
    """Columns of samples at ``steps`` in the shape ``plugin``'s reservoir takes."""
    steps = np.asarray(steps, dtype=np.int64)
    columns = {"step": steps, "wall_time": steps * 0.5, "file_ts": np.zeros(steps.size, dtype=np.int64)}
    for name, dtype in KINDS[plugin].payload.items():
        if np.dtype(dtype) == object:
            column = np.empty(steps.size, dtype=object)
            column[:] = [b"payload"] * steps.size
        else:
            column = np.ones(steps.size, dtype=dtype)
        columns[name] = column
    return columns


def tag_name(plugin: PluginName, number: int) -> str:
    if plugin is PluginName.GRAPH and number == 0:
        return next(iter(KINDS[plugin].preferred_tags))  # the graph tag never let go
    return f"{plugin.value}/{number}"


tag_keys = st.one_of(
    st.tuples(st.just(PluginName.SCALAR), st.integers(0, limits.MAX_TAGS_PER_JOB + 40)),
    st.tuples(st.just(PluginName.TENSOR), st.integers(0, 9)),
    st.tuples(st.just(PluginName.GRAPH), st.integers(0, 14)),
)
batches = st.lists(st.lists(st.tuples(tag_keys, st.integers(1, 3)), max_size=400), min_size=1, max_size=4)


def batch_of(entries, first_step: int) -> dict:
    batch = {}
    for (plugin, number), count in entries:
        batch.setdefault((plugin, tag_name(plugin, number)), count)
    return {key: columns_of(key[0], range(first_step, first_step + count)) for key, count in batch.items()}


def kept(data: JobData) -> dict:
    return {
        (plugin, tag): data.samples(plugin, tag)["step"].tolist() for plugin in PLUGINS for tag in data.tags(plugin)
    }


@settings(max_examples=60, deadline=None)
@given(batches)
def test_a_batch_keeps_refuses_and_lets_go_as_one_add_per_tag(entries_per_batch):
    whole, one_by_one = JobData(), JobData()
    refused_whole, refused_one_by_one = {}, {}
    for number, entries in enumerate(entries_per_batch):
        batch = batch_of(entries, first_step=number * 10)
        whole.add_batches(batch)
        for (plugin, tag), columns in batch.items():
            one_by_one.add_batch(plugin, tag, columns)
        refused_whole.update(whole.take_refused())
        refused_one_by_one.update(one_by_one.take_refused())
    assert kept(whole) == kept(one_by_one)
    # The same tags refused, for the same reasons. One add per tag counts a tag let go by the
    # samples its reservoir held then (a graph keeps one step); a batch also counts the values it
    # brought for a tag it let go, none of which is kept: never fewer.
    assert refused_whole.keys() == refused_one_by_one.keys()
    assert all(refused_whole[key] >= count for key, count in refused_one_by_one.items())
    assert len(kept(whole)) <= limits.MAX_TAGS_PER_JOB
    for plugin in PLUGINS:
        if KINDS[plugin].max_tags is not None:
            assert len(whole.tags(plugin)) <= KINDS[plugin].max_tags


def test_tags_a_batch_pushes_out_are_counted_and_never_stored(monkeypatch):
    made = []

    class CountedReservoir(job_data.Reservoir):
        def __init__(self, *args, **kwargs):
            made.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(job_data, "Reservoir", CountedReservoir)
    data = JobData()
    count = 10_000
    data.add_batches({(PluginName.SCALAR, f"sample/{n}"): columns_of(PluginName.SCALAR, [0, 1]) for n in range(count)})

    last = [f"sample/{n}" for n in range(count - limits.MAX_TAGS_PER_JOB, count)]
    assert data.tags(PluginName.SCALAR) == sorted(last)
    assert len(made) == limits.MAX_TAGS_PER_JOB
    refused = data.take_refused()
    assert sum(refused.values()) == 2 * (count - limits.MAX_TAGS_PER_JOB)
    why = Rejected.because("over_job_tags", limit=limits.MAX_TAGS_PER_JOB)
    assert (PluginName.SCALAR, "sample/0", why) in refused
    # A tag let go stays out when it comes again, as with one add per tag.
    data.add_batches({(PluginName.SCALAR, "sample/0"): columns_of(PluginName.SCALAR, [2])})
    assert "sample/0" not in data.tags(PluginName.SCALAR)


def test_the_preferred_graph_stays_when_more_graphs_come():
    data = JobData()
    preferred = tag_name(PluginName.GRAPH, 0)
    others = [f"graph_{n}.pb" for n in range(KINDS[PluginName.GRAPH].max_tags + 5)]
    batch = {(PluginName.GRAPH, tag): columns_of(PluginName.GRAPH, [0]) for tag in [preferred, *others]}
    data.add_batches(batch)
    tags = data.tags(PluginName.GRAPH)
    assert tags[0] == preferred
    assert len(tags) == KINDS[PluginName.GRAPH].max_tags
    assert tags[1:] == sorted(others[-(KINDS[PluginName.GRAPH].max_tags - 1) :])


image_batches = st.lists(
    st.lists(st.tuples(st.integers(0, limits.MAX_TAGS_PER_JOB + 20), st.integers(1, 4)), max_size=60),
    min_size=1,
    max_size=4,
)


@settings(max_examples=40, deadline=None)
@given(image_batches, st.sampled_from([600, 3_000]))
def test_batches_of_tags_bounded_in_bytes_stay_within_the_job_bound(entries_per_batch, bytes_per_job):
    """Images are bounded per job in bytes as well: whatever tags a batch brings (new ones
    among them, the first already past the bound), the job holds at most its bound."""
    kind = dataclasses.replace(KINDS[PluginName.IMAGE], bytes_per_tag=10_000, bytes_per_job=bytes_per_job)
    with mock.patch.dict(KINDS, {PluginName.IMAGE: kind}):
        data = JobData()
        for number, entries in enumerate(entries_per_batch):
            batch = {}
            for tag, count in entries:
                columns = columns_of(PluginName.IMAGE, range(number * 10, number * 10 + count))
                columns["nbytes"] = np.full(count, 200, dtype=np.int64)
                batch.setdefault((PluginName.IMAGE, f"image/{tag}"), columns)
            data.add_batches(batch)
            assert data.payload_bytes(PluginName.IMAGE) <= bytes_per_job
            held = [data.samples(PluginName.IMAGE, tag)["nbytes"].sum() for tag in data.tags(PluginName.IMAGE)]
            assert sum(held) == data.payload_bytes(PluginName.IMAGE)
            assert len(held) <= limits.MAX_TAGS_PER_JOB
