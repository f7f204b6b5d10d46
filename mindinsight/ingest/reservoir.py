"""Bounded per-tag sample of a step series, fed in batches.

Semantics follow the original (behaviour.md section 4.1): at most ``capacity`` samples,
kept sorted by step, the sample with the largest step always kept, older ones thinned
uniformly; a PRNG seeded with 0 per reservoir makes loads reproducible. The thinning is
Algorithm R over every sample but the latest, applied to a whole batch with numpy, so the
cost per value is a few vector operations rather than Python work.

Columns are numpy arrays: ``step`` (int64), ``wall_time`` (float64), ``file_ts`` (int64,
the timestamp of the file the sample came from, for restart handling) plus any payload
columns the container adds (``value`` float32 for scalars, an object column otherwise).
"""
import numpy as np

_BASE_COLUMNS = ("step", "wall_time", "file_ts")


class Reservoir:
    """Samples of one tag. ``capacity == 0`` keeps everything."""

    def __init__(self, capacity: int, payload_dtypes: dict):
        self.capacity = capacity
        self._dtypes = {"step": np.int64, "wall_time": np.float64, "file_ts": np.int64, **payload_dtypes}
        self._body = self._empty()          # all kept samples but the latest (unordered)
        self._latest = self._empty()        # 0 or 1 sample: the largest step kept
        self._offered_to_body = 0           # samples ever offered to the body (Algorithm R's t)
        self._rng = np.random.default_rng(0)
        self._sorted_cache = None
        self.total_offered = 0              # every sample ever added

    def _empty(self) -> dict:
        return {name: np.empty(0, dtype=dtype) for name, dtype in self._dtypes.items()}

    # -- feeding ----------------------------------------------------------------------

    def add_batch(self, columns: dict) -> None:
        """Add samples in arrival order. ``columns`` maps every column name to a 1-D array."""
        steps = np.asarray(columns["step"], dtype=np.int64)
        if steps.size == 0:
            return
        columns = {name: np.asarray(columns[name], dtype=dtype) for name, dtype in self._dtypes.items()}
        self._sorted_cache = None
        self.total_offered += steps.size
        # Split into runs of strictly increasing steps; a run whose first step does not
        # exceed the latest kept step is a restart and purges first.
        breaks = np.flatnonzero(steps[1:] <= steps[:-1]) + 1
        bounds = [0, *breaks.tolist(), steps.size]
        for start, stop in zip(bounds[:-1], bounds[1:]):
            run = {name: array[start:stop] for name, array in columns.items()}
            # Samples at or below the kept latest step (a restart) purge one at a time.
            while run["step"].size and self._latest["step"].size and run["step"][0] <= self._latest["step"][0]:
                self._purge(int(run["step"][0]), int(run["file_ts"][0]))
                self._append_run({name: array[:1] for name, array in run.items()})
                run = {name: array[1:] for name, array in run.items()}
            if run["step"].size:
                self._append_run(run)

    def _append_run(self, run: dict) -> None:
        latest = self._latest
        if latest["step"].size and latest["step"][0] > run["step"][-1]:
            # Only after a same-file restart: the kept latest still has the largest step.
            stream = run
        else:
            stream = {name: np.concatenate((latest[name], run[name][:-1])) for name in run}
            self._latest = {name: run[name][-1:].copy() for name in run}
        self._offer_to_body(stream)

    def _offer_to_body(self, stream: dict) -> None:
        count = stream["step"].size
        if count == 0:
            return
        body_capacity = self.capacity - 1
        if self.capacity == 0:
            self._body = {n: np.concatenate((self._body[n], stream[n])) for n in stream}
            self._offered_to_body += count
            return
        if body_capacity <= 0:
            self._offered_to_body += count
            return
        t = self._offered_to_body + np.arange(count, dtype=np.int64)
        # Free slots (at the start, or after a restart purged some) are filled first.
        free = max(body_capacity - self._body["step"].size, 0)
        if free:
            self._body = {n: np.concatenate((self._body[n], stream[n][:free])) for n in stream}
        rest = np.arange(min(free, count), count)
        if rest.size:
            # Algorithm R: sample with index t replaces slot r = randint(0, t) if r < capacity.
            slots = self._rng.integers(0, t[rest] + 1)
            hit = slots < body_capacity
            chosen, slots = rest[hit], slots[hit]
            if chosen.size:
                # Later samples win a slot they share: keep the last occurrence per slot.
                last = chosen.size - 1 - np.unique(slots[::-1], return_index=True)[1]
                for n in stream:
                    self._body[n][slots[last]] = stream[n][chosen[last]]
        self._offered_to_body += count

    def _purge(self, step: int, file_ts: int) -> None:
        """A restart at ``step``: drop equal steps, and larger steps from older files."""
        kept_before = self._body["step"].size + self._latest["step"].size
        for part in (self._body, self._latest):
            drop = (part["step"] == step) | ((part["step"] > step) & (part["file_ts"] < file_ts))
            if drop.any():
                for n in part:
                    part[n] = part[n][~drop]
        if self._latest["step"].size == 0 and self._body["step"].size:
            top = int(np.argmax(self._body["step"]))
            self._latest = {n: self._body[n][top:top + 1].copy() for n in self._body}
            keep = np.ones(self._body["step"].size, dtype=bool)
            keep[top] = False
            self._body = {n: self._body[n][keep] for n in self._body}
        kept_after = self._body["step"].size + self._latest["step"].size
        if kept_before:
            self._offered_to_body = int(self._offered_to_body * kept_after / kept_before)

    # -- reading ----------------------------------------------------------------------

    def __len__(self) -> int:
        return self._body["step"].size + self._latest["step"].size

    def samples(self) -> dict:
        """All kept samples as columns sorted by step (a cached view; do not modify)."""
        if self._sorted_cache is None:
            merged = {n: np.concatenate((self._body[n], self._latest[n])) for n in self._dtypes}
            order = np.argsort(merged["step"], kind="stable")
            self._sorted_cache = {n: merged[n][order] for n in merged}
        return self._sorted_cache

    def clear(self) -> None:
        self.__init__(self.capacity, {n: d for n, d in self._dtypes.items() if n not in _BASE_COLUMNS})
