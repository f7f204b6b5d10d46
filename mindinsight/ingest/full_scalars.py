"""Every scalar point of a job, kept compactly beside the 1,000-point reservoir, for the
full-fidelity charts (``/datavisual/scalar/buckets``).

Per tag the points are kept as appended chunks of numpy columns: ``value`` (float32, the tag's
own) and a *timeline* (``step`` int64, ``wall_time`` float64, and the ``file_ts`` of the file,
once per batch) that the tags written by the same events share: MindSpore writes every scalar
of a step in one event, so 50 tags cost 4 bytes a point plus 16 bytes an event (one tag alone:
20 bytes a point). Complete blocks of ``BLOCK`` points are also
summarised (first, last, finite min and max with their steps, NaN/±Inf counts) as they arrive,
so a wide range is answered from the summaries and only its edges from the points.

Restarts follow the reservoir's rules (docs/BEHAVIOUR.md §4.1): a point at or below the largest
kept step drops the kept points of equal step and the larger steps of older files;
``drop_from`` drops every point at or after a step (TensorBoard's SessionLog START).

Bound: ``limits.FULL_SCALAR_BYTES`` over every job held in the process (``BUDGET``). Past it the
least recently used job's full points are dropped whole (``JobScalars.dropped``); its reservoir
and every other answer are untouched, and a buckets request for it is refused with a named
error (and the job read again, see ``cache/data_manager.py``) rather than answered from a part.
"""

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from mindinsight.conf import limits

BLOCK = 256  # points per block summary
_SUMMARISE_POINTS = 64 * BLOCK  # points gathered before their blocks are summarised (fewer, larger numpy calls)
_TIMELINES_KEPT = 8  # timelines of recent batches offered to the next tags for sharing
BLOCK_FIELDS = {
    "first_step": np.int64,
    "last_step": np.int64,
    "first_value": np.float32,
    "last_value": np.float32,
    "min": np.float32,  # NaN when the block holds no finite value
    "min_step": np.int64,
    "max": np.float32,
    "max_step": np.int64,
    "count": np.int64,
    "nan": np.int64,
    "inf": np.int64,
    "neg_inf": np.int64,
}


def point_items(steps: np.ndarray, values: np.ndarray, sparse: bool = True) -> dict:
    """Points as one-point summaries (the shape of ``BLOCK_FIELDS``), so points and block
    summaries reduce alike. ``sparse``: the counts are left out (1 point, no NaN or ±Inf each)
    when every value is finite."""
    finite = np.isfinite(values)
    all_finite = bool(finite.all())
    extreme = values if all_finite else np.where(finite, values, np.float32(np.nan))
    items = {
        "first_step": steps,
        "last_step": steps,
        "first_value": values,
        "last_value": values,
        "min": extreme,
        "min_step": steps,
        "max": extreme,
        "max_step": steps,
    }
    if sparse and all_finite:
        return items
    items["count"] = np.ones(steps.size, dtype=np.int64)
    items["nan"] = np.isnan(values).astype(np.int64)
    items["inf"] = (values == np.inf).astype(np.int64)
    items["neg_inf"] = (values == -np.inf).astype(np.int64)
    return items


def summarise_blocks(steps: np.ndarray, values: np.ndarray) -> dict:
    """Summaries of consecutive blocks of ``BLOCK`` points (``steps.size`` a multiple of it)."""
    count = steps.size // BLOCK
    s = steps.reshape(count, BLOCK)
    v = values.reshape(count, BLOCK)
    rows = np.arange(count)
    finite = np.isfinite(v)
    all_finite = bool(finite.all())
    if all_finite:
        low, high = v, v
    else:
        low = np.where(finite, v, np.float32(np.inf))
        high = np.where(finite, v, np.float32(-np.inf))
    at_min, at_max = low.argmin(axis=1), high.argmax(axis=1)
    mins, maxes = low[rows, at_min], high[rows, at_max]
    if not all_finite:
        none_finite = ~finite.any(axis=1)
        mins[none_finite] = np.nan
        maxes[none_finite] = np.nan
    zeros = np.zeros(count, dtype=np.int64)
    return {
        "first_step": s[:, 0].copy(),
        "last_step": s[:, -1].copy(),
        "first_value": v[:, 0].copy(),
        "last_value": v[:, -1].copy(),
        "min": mins,
        "min_step": s[rows, at_min],
        "max": maxes,
        "max_step": s[rows, at_max],
        "count": np.full(count, BLOCK, dtype=np.int64),
        "nan": zeros if all_finite else np.isnan(v).sum(axis=1),
        "inf": zeros if all_finite else (v == np.inf).sum(axis=1),
        "neg_inf": zeros if all_finite else (v == -np.inf).sum(axis=1),
    }


@dataclass(frozen=True)
class SeriesView:
    """What one tag held when it was read: sorted by step, never changed afterwards."""

    steps: tuple  # chunks of int64 steps, ascending across chunks
    values: tuple  # chunks of float32 values
    ends: np.ndarray  # cumulative point count at the end of each chunk
    blocks: dict  # BLOCK_FIELDS arrays over the first ``len(blocks["count"]) * BLOCK`` points
    wall_times: tuple = ()  # chunks of float64 wall times, beside ``steps``

    @property
    def total(self) -> int:
        return int(self.ends[-1]) if self.ends.size else 0

    def search(self, step: int, side: str) -> int:
        """Index of ``step`` in the whole series, as ``np.searchsorted`` would give it."""
        lasts = np.array([chunk[-1] for chunk in self.steps], dtype=np.int64)
        chunk = int(np.searchsorted(lasts, step, side))
        if chunk == len(self.steps):
            return self.total
        start = int(self.ends[chunk - 1]) if chunk else 0
        return start + int(np.searchsorted(self.steps[chunk], step, side))

    def points(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """``(steps, values)`` of the points ``start:stop``."""
        steps, values = [], []
        begins = np.concatenate(([0], self.ends[:-1]))
        for index in np.flatnonzero((begins < stop) & (self.ends > start)).tolist():
            begin = int(begins[index])
            lo, hi = max(start, begin) - begin, min(stop, int(self.ends[index])) - begin
            steps.append(self.steps[index][lo:hi])
            values.append(self.values[index][lo:hi])
        if not steps:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float32)
        return np.concatenate(steps), np.concatenate(values)

    def chunks(self, size: int):
        """``(steps, wall_times, values)`` of every point in step order, at most ``size`` at a
        time (views of the kept arrays, never a copy of the whole series)."""
        for steps, wall_times, values in zip(self.steps, self.wall_times, self.values):
            for start in range(0, steps.size, size):
                yield steps[start : start + size], wall_times[start : start + size], values[start : start + size]


class FullSeries:
    """Every point of one scalar tag."""

    def __init__(self):
        self._steps: list[np.ndarray] = []
        self._wall_times: list[np.ndarray] = []
        self._file_ts: list[np.ndarray] = []
        self._values: list[np.ndarray] = []
        self._blocks: list[dict] = []
        self._pending: list[tuple] = []  # (steps, values) chunks appended since the last summary
        self._pending_points = 0
        self._view: SeriesView | None = None

    @property
    def max_step(self) -> int | None:
        return int(self._steps[-1][-1]) if self._steps else None

    def add(self, timeline: tuple, values: np.ndarray, in_order: bool | None = None) -> int:
        """Append points (arrival order; ``in_order``: their steps increase, None: find out);
        returns the bytes newly held (timeline not counted)."""
        steps = timeline[0]
        if in_order is None:
            in_order = steps.size < 2 or bool((steps[1:] > steps[:-1]).all())
        if in_order and (self.max_step is None or steps[0] > self.max_step):
            self._append(timeline, values)
            return values.nbytes + _block_bytes(values.size)
        before = self.nbytes
        self._merge(timeline, values)
        return max(0, self.nbytes - before)

    def drop_from(self, step: int) -> None:
        """Drop every point at or after ``step``."""
        if self.max_step is not None and self.max_step >= step:
            columns = self._columns()
            self._rebuild(columns, columns["step"] < step)

    @property
    def nbytes(self) -> int:
        """Bytes held, counting every timeline as if it were this tag's own (an upper bound)."""
        own = sum(a.nbytes for chunks in (self._steps, self._wall_times, self._file_ts, self._values) for a in chunks)
        return own + _block_bytes(sum(v.size for v in self._values))

    def view(self) -> SeriesView:
        if self._view is None:
            blocks = (
                {name: np.concatenate([b[name] for b in self._blocks]) for name in BLOCK_FIELDS}
                if self._blocks
                else {name: np.empty(0, dtype=dtype) for name, dtype in BLOCK_FIELDS.items()}
            )
            ends = np.cumsum([v.size for v in self._values], dtype=np.int64)
            self._view = SeriesView(tuple(self._steps), tuple(self._values), ends, blocks, tuple(self._wall_times))
        return self._view

    def _append(self, timeline: tuple, values: np.ndarray) -> None:
        self._view = None
        steps, wall_times, file_ts = timeline
        self._steps.append(steps)
        self._wall_times.append(wall_times)
        self._file_ts.append(file_ts)
        self._values.append(values)
        self._pending.append((steps, values))
        self._pending_points += steps.size
        if self._pending_points >= _SUMMARISE_POINTS:
            steps, values = (np.concatenate(columns) for columns in zip(*self._pending))
            full = steps.size - steps.size % BLOCK
            self._blocks.append(summarise_blocks(steps[:full], values[:full]))
            # Copies: a view would keep the whole gathered batch alive (a restored job's is every point).
            self._pending = [(steps[full:].copy(), values[full:].copy())]
            self._pending_points = steps.size - full

    def _columns(self) -> dict:
        file_ts = [np.broadcast_to(ts, steps.shape) for ts, steps in zip(self._file_ts, self._steps)]
        return {
            name: np.concatenate(chunks) if chunks else np.empty(0, dtype=dtype)
            for name, chunks, dtype in (
                ("step", self._steps, np.int64),
                ("wall_time", self._wall_times, np.float64),
                ("file_ts", file_ts, np.int64),
                ("value", self._values, np.float32),
            )
        }

    def _merge(self, timeline: tuple, values: np.ndarray) -> None:
        """Points that restart the series: the reservoir's purge rules, then one sorted chunk."""
        kept = self._columns()
        steps, wall_times, file_ts = timeline
        new = {
            "step": steps,
            "wall_time": wall_times,
            "file_ts": np.broadcast_to(file_ts, steps.shape),
            "value": values,
        }
        breaks = np.flatnonzero(new["step"][1:] <= new["step"][:-1]) + 1
        bounds = [0, *breaks.tolist(), new["step"].size]
        for start, stop in zip(bounds[:-1], bounds[1:]):
            run = {name: column[start:stop] for name, column in new.items()}
            if kept["step"].size and run["step"][0] <= kept["step"].max():
                doomed = np.isin(kept["step"], run["step"]) | (
                    (kept["step"] > run["step"][0]) & (kept["file_ts"] < run["file_ts"][0])
                )
                kept = {name: column[~doomed] for name, column in kept.items()}
            kept = {name: np.concatenate((kept[name], run[name])) for name in kept}
        self._rebuild(kept, np.ones(kept["step"].size, dtype=bool))

    def _rebuild(self, columns: dict, keep: np.ndarray) -> None:
        order = np.argsort(columns["step"][keep], kind="stable")
        columns = {name: column[keep][order] for name, column in columns.items()}
        self.__init__()
        if columns["step"].size:
            self._append((columns["step"], columns["wall_time"], columns["file_ts"]), columns["value"])


_BLOCK_SUMMARY_BYTES = sum(np.dtype(dtype).itemsize for dtype in BLOCK_FIELDS.values())


def _block_bytes(points: int) -> int:
    return points // BLOCK * _BLOCK_SUMMARY_BYTES


class JobScalars:
    """The full scalar points of one job, accounted in ``budget``."""

    def __init__(self, budget: "FullScalarBudget"):
        self._budget = budget
        self._series: dict[str, FullSeries] = {}
        self._timelines: OrderedDict = OrderedDict()  # (size, first, last) -> timeline, recent batches
        self.dropped = False  # its points went for the memory bound: buckets are refused
        self.too_large = False  # ... because this job alone holds more than the bound
        self.reread_wanted = False  # a request asked for the dropped points: read the job again
        self.restoring = False  # a restart has yet to take its points from the index
        budget.register(self)

    def add(self, tag: str, columns: dict, owned: bool = False) -> None:
        """Append one tag's batch (``step``, ``wall_time``, ``file_ts``, ``value`` columns);
        ``owned``: the value column is this job's to keep (not copied)."""
        if self.dropped:
            return
        if len(columns["step"]) == 0:
            return
        timeline, in_order, fresh = self._timeline(columns)
        # A copy unless owned: never a view of a decoded chunk.
        values = (np.asarray if owned else np.array)(columns["value"], dtype=np.float32)
        series = self._series.setdefault(tag, FullSeries())
        added = series.add(timeline, values, in_order)
        self._budget.charge(self, added + (sum(a.nbytes for a in timeline) if fresh else 0))

    def _timeline(self, columns: dict) -> tuple[tuple, bool, bool]:
        """``(timeline, its steps increase, newly made)``: the batch's ``(step, wall_time,
        file_ts)``, shared with an earlier tag of equal ones (the decoder hands the tags of one
        event the same step and wall-time arrays, so identity settles most cases)."""
        steps, wall_times, file_ts = columns["step"], columns["wall_time"], columns["file_ts"]
        key = (len(steps), int(steps[0]), int(steps[-1]))
        known = self._timelines.get(key)
        if known is not None:
            sources, timeline, in_order = known
            same_events = all(a is b or np.array_equal(a, b) for a, b in zip(sources, (steps, wall_times)))
            same = same_events and bool((np.asarray(file_ts) == timeline[2]).all())
            if same:
                self._timelines.move_to_end(key)
                return timeline, in_order, False
        file_ts = np.array(file_ts, dtype=np.int64)
        if (file_ts == file_ts[0]).all():
            file_ts = file_ts[:1].copy()  # one file's batch: its timestamp once, not per point
        timeline = (np.array(steps, dtype=np.int64), np.array(wall_times, dtype=np.float64), file_ts)
        in_order = timeline[0].size < 2 or bool((timeline[0][1:] > timeline[0][:-1]).all())
        self._timelines[key] = ((steps, wall_times), timeline, in_order)
        if len(self._timelines) > _TIMELINES_KEPT:
            self._timelines.popitem(last=False)
        return timeline, in_order, True

    def drop_from(self, step: int) -> None:
        for series in self._series.values():
            series.drop_from(step)
        self._timelines.clear()

    def remove(self, tag: str) -> None:
        self._series.pop(tag, None)

    def view(self, tag: str) -> SeriesView | None:
        """The tag's points (None: no such tag), marking the job as just used."""
        series = self._series.get(tag)
        if series is None:
            return None
        self._budget.touch(self)
        return series.view()

    def state(self) -> tuple[dict, dict]:
        """``(meta, arrays)`` of every point, for ``restore`` in another process. Array values are
        lists of the kept chunks (never changed in place: a snapshot without copying); tags that
        share a timeline share its arrays here too."""
        timelines: dict[tuple, int] = {}
        arrays: dict = {}
        tags = []
        for tag, series in self._series.items():
            key = tuple(id(chunk) for chunk in series._steps)
            index = timelines.get(key)
            if index is None:
                index = timelines[key] = len(timelines)
                arrays[f"t{index}.step"] = list(series._steps)
                arrays[f"t{index}.wall_time"] = list(series._wall_times)
                arrays[f"t{index}.file_ts"] = list(series._file_ts)
                arrays[f"t{index}.file_ts_count"] = [
                    np.array([s.size if ts.size == 1 else 1]) for ts, s in zip(series._file_ts, series._steps)
                ]
            arrays[f"v{len(tags)}"] = list(series._values)
            tags.append([tag, index])
        return {"tags": tags, "dropped": self.dropped, "too_large": self.too_large}, arrays

    def restore(self, meta: dict, arrays: dict) -> None:
        """Take the points of ``state()`` (raises KeyError/ValueError when they do not fit)."""
        if meta["dropped"]:
            self.drop(bool(meta["too_large"]))
            return
        timelines = {}
        for position, (tag, index) in enumerate(meta["tags"]):
            if index not in timelines:
                steps = np.asarray(arrays[f"t{index}.step"], dtype=np.int64)
                counts = np.asarray(arrays[f"t{index}.file_ts_count"], dtype=np.int64)
                file_ts = np.repeat(np.asarray(arrays[f"t{index}.file_ts"], dtype=np.int64), counts)
                wall_times = np.asarray(arrays[f"t{index}.wall_time"], dtype=np.float64)
                if not steps.size == wall_times.size == file_ts.size:
                    raise ValueError("timeline columns of unequal length")
                timelines[index] = (steps, wall_times, file_ts)
            steps, wall_times, file_ts = timelines[index]
            values = np.asarray(arrays.pop(f"v{position}"), dtype=np.float32)
            if values.size != steps.size:
                raise ValueError("values and steps of unequal length")
            columns = {"step": steps, "wall_time": wall_times, "file_ts": file_ts, "value": values}
            self.add(str(tag), columns, owned=values.flags.owndata)

    def drop(self, too_large: bool) -> None:
        """Let every point go (the memory bound); nothing more is kept for this job."""
        self.dropped, self.too_large = True, too_large
        self._series = {}
        self._timelines = OrderedDict()


class FullScalarBudget:
    """Bytes of full scalar points held by every job of the process, least recently used first.

    It never takes a job's lock (a job is dropped by swapping its containers), so a job
    holding its own lock may charge or touch it at any time.
    """

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self._lock = threading.RLock()
        self._jobs: OrderedDict[int, weakref.ref] = OrderedDict()  # least recently used first
        self._bytes: dict[int, int] = {}
        self._total = 0  # sum of ``_bytes``, kept as it changes (not summed over every job per charge)

    @property
    def total(self) -> int:
        with self._lock:
            return self._total

    def held(self, job: JobScalars) -> int:
        with self._lock:
            return self._bytes.get(id(job), 0)

    def register(self, job: JobScalars) -> None:
        key = id(job)
        with self._lock:
            self._jobs[key] = weakref.ref(job)
            self._total -= self._bytes.get(key, 0)
            self._bytes[key] = 0
        weakref.finalize(job, self._forget, key)

    def _forget(self, key: int) -> None:
        with self._lock:
            self._jobs.pop(key, None)
            self._total -= self._bytes.pop(key, 0)

    def touch(self, job: JobScalars) -> None:
        with self._lock:
            if id(job) in self._jobs:
                self._jobs.move_to_end(id(job))

    def charge(self, job: JobScalars, added: int) -> None:
        """``job`` holds ``added`` bytes more; past the bound the least recently used jobs go."""
        with self._lock:
            key = id(job)
            if key not in self._jobs:
                return
            self._bytes[key] += added
            self._total += added
            self._jobs.move_to_end(key)
            while self._jobs and self._total > self.max_bytes:
                victim_key = next(iter(self._jobs))
                victim = self._jobs[victim_key]()
                self._forget(victim_key)
                if victim is not None:
                    victim.drop(too_large=victim is job)


BUDGET = FullScalarBudget(limits.FULL_SCALAR_BYTES)
