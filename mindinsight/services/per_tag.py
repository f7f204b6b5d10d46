"""What every per-tag kind's service shares (images, histograms, tensors, and kinds to come).

A per-tag answer is about one tag of one job: the job must be in the detail cache
(``TrainJobNotExistError``), the tag must hold samples of the kind (else the kind's own
not-exist error), and what is answered is built from the tag's kept samples, memoized until
they change. A kind says what differs in a ``PerTagKind``; its own module keeps only what it
computes (re-binning, slicing, the stored bytes). A kind whose answer is just its kept steps
as rows needs no module of its own: its route answers ``tag_steps``.
"""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mindinsight.cache.memo import Derived
from mindinsight.cache.provider import DataProvider, JobData
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import MindInsightError, TagDataNotExistError
from mindinsight.services.jobs import cached_job_data

NO_DATA_FOR_TAG = "Can not find any data in this train job by given tag."
INVALID_TAG = "Invalid parameter value. " + NO_DATA_FOR_TAG
_INT64 = np.iinfo(np.int64)


@dataclass(frozen=True)
class PerTagKind:
    """How one per-tag kind answers a tag it does not hold.

    ``not_exist`` is the kind's error class, raised with ``no_tag_detail``: the original's kinds
    each have their own, kinds added since share ``TagDataNotExistError``. ``other_kind_error``
    (given a tag) is raised instead when the tag holds another kind's data, for kinds whose
    original answers say so.
    """

    plugin: PluginName
    not_exist: type[MindInsightError] = TagDataNotExistError
    no_tag_detail: str = INVALID_TAG
    other_kind_error: Callable[[str], MindInsightError] | None = None

    def no_tag_error(self, provider: DataProvider, data: JobData, tag: str) -> MindInsightError:
        if self.other_kind_error is not None and any(
            provider.read_samples(data, plugin, tag) is not None for plugin in PluginName
        ):
            return self.other_kind_error(tag)
        return self.not_exist(self.no_tag_detail)


def job(provider: DataProvider, train_id: str) -> JobData:
    """The job's data in the detail cache, or ``TrainJobNotExistError``."""
    return cached_job_data(provider, train_id)


def tag_samples(provider: DataProvider, data: JobData, kind: PerTagKind, tag: str) -> dict:
    """The kept samples of ``tag`` (columns sorted by step), or the kind's not-exist error."""
    samples = provider.read_samples(data, kind.plugin, tag)
    if samples is None:
        raise kind.no_tag_error(provider, data, tag)
    return samples


def tag_answer(provider: DataProvider, data: JobData, kind: PerTagKind, tag: str, name: str, build: Callable):
    """``build(samples)`` of ``tag``, kept under ``name`` while the samples are unchanged; the
    kind's not-exist error when the tag holds none of its samples."""
    answer = provider.derived.get(data, kind.plugin, tag, name, build)
    if answer is None:
        raise kind.no_tag_error(provider, data, tag)
    return answer


def tag_steps(provider: DataProvider, kind: PerTagKind, train_id: str, tag: str, name: str, columns: tuple) -> Derived:
    """``{train_id, tag, <name>: [{wall_time, step, <column>: value, ...}]}``: the kept steps of
    ``tag`` as rows, ``columns`` naming the kind's payload columns, answered as stored (so they
    must be JSON-able as they are: strings, finite numbers). The answer of a kind that only
    lists its steps; a kind that computes keeps a service module of its own."""
    data = job(provider, train_id)

    def build(samples: dict) -> Derived:
        rows = step_rows(samples, {column: samples[column].tolist() for column in columns})
        return Derived({"train_id": train_id, "tag": tag, name: rows})

    return tag_answer(provider, data, kind, tag, f"steps:{name}", build)


def fits_int64(step: int) -> bool:
    """Whether ``step`` can be a kept step (steps are int64; a query may ask for any integer)."""
    return _INT64.min <= step <= _INT64.max


def step_index(samples: dict, step: int) -> int | None:
    """The index of ``step`` among the kept steps, or None (also for a step beyond int64)."""
    if not fits_int64(step):
        return None
    found = np.flatnonzero(samples["step"] == step)
    return int(found[0]) if found.size else None


def step_rows(samples: dict, columns: dict[str, list]) -> list[dict]:
    """``[{wall_time, step, <column>: value, ...}]`` of the kept steps, ``columns`` holding one
    value per step."""
    names = tuple(columns)
    return [
        {"wall_time": wall_time, "step": step, **dict(zip(names, values))}
        for wall_time, step, *values in zip(samples["wall_time"].tolist(), samples["step"].tolist(), *columns.values())
    ]
