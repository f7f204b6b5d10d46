"""Bounded per-tag sample of a step series, fed in batches.

Semantics follow the original (docs/BEHAVIOUR.md §4.1): at most ``capacity`` samples,
kept sorted by step, the sample with the largest step always kept, older ones thinned
uniformly; a PRNG seeded with 0 per reservoir makes loads reproducible. The thinning is
Algorithm R over every sample but the latest, applied to a whole batch with numpy, so the
cost per value is a few vector operations rather than Python work.

Columns are numpy arrays: ``step`` (int64), ``wall_time`` (float64), ``file_ts`` (int64,
the timestamp of the file the sample came from, for restart handling) plus any payload
columns of the tag's kind (``value`` float32 for scalars, an object column otherwise).

Two bounds beyond the count, for kinds whose payload has an ``nbytes`` column:

* ``max_bytes``: the kept samples' bytes; past it the oldest kept ones go (never the latest);
* ``keep_evicted_seconds``: a sample that was listed (``mark_listed``) and is then thinned out
  stays *recent* this long (within ``max_bytes``), so a client that listed it a moment ago can
  still fetch it; a sample nobody listed leaves at once, as without the window.
"""

import time
from collections import deque

import numpy as np

NBYTES = "nbytes"  # the payload column holding each sample's size in bytes, when bounded
MAX_RECENT_SAMPLES = 100  # recently evicted samples per tag, at most
_BIT_GENERATOR = "PCG64"  # numpy's default_rng; its name in a saved generator state


class Reservoir:
    """Samples of one tag. ``capacity == 0`` keeps everything."""

    def __init__(
        self,
        capacity: int,
        payload_dtypes: dict,
        max_bytes: int = 0,
        keep_evicted_seconds: float = 0,
        codec=None,
    ):
        self.capacity = capacity
        self._codec = codec  # the kind's Codec of its object columns (state/restore), or None
        self.max_bytes = max_bytes if NBYTES in payload_dtypes else 0  # 0: no byte bound
        self.keep_evicted_seconds = keep_evicted_seconds
        self._recent: deque = deque()  # (evicted at, sample as {column: value}), oldest first
        self._recent_bytes = 0
        self._listed: set[int] = set()  # kept steps a client was shown
        self._dtypes = {"step": np.int64, "wall_time": np.float64, "file_ts": np.int64, **payload_dtypes}
        self._objects = frozenset(name for name, dtype in self._dtypes.items() if np.dtype(dtype) == object)
        self._body = self._empty()  # all kept samples but the latest (unordered)
        self._latest = self._empty()  # 0 or 1 sample: the largest step kept
        self._offered_to_body = 0  # samples ever offered to the body (Algorithm R's t)
        self._generator = None  # made when first thinning (many tags never need it)
        # A restored generator's state, applied when it is made: a restart need not import
        # numpy.random (about 50 ms) before the first chart.
        self._generator_state: dict | None = None
        self._sorted_cache = None

    @property
    def _rng(self) -> "np.random.Generator":
        if self._generator is None:
            self._generator = np.random.default_rng(0)
            if self._generator_state is not None:
                self._generator.bit_generator.state = self._generator_state
                self._generator_state = None
        return self._generator

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
        self._expire_recent()
        if self.max_bytes:
            while self.nbytes > self.max_bytes and self.shed_one(keep_latest=True):
                pass

    def _append_run(self, run: dict) -> None:
        latest = self._latest
        count = run["step"].size
        if latest["step"].size and latest["step"][0] > run["step"][-1]:
            # Only after a same-file restart: the kept latest still has the largest step.
            self._offer_to_body(self._empty_like(run), run, count)
        else:
            # The previous latest and all of the run but its last sample go to the body.
            self._latest = {name: run[name][-1:].copy() for name in run}
            self._offer_to_body(latest, run, count - 1)

    def _empty_like(self, run: dict) -> dict:
        return {name: run[name][:0] for name in run}

    @staticmethod
    def _take(head: dict, run: dict, indices: np.ndarray) -> dict:
        """Samples ``indices`` of the stream ``head`` (0 or 1 sample) followed by ``run``."""
        skip = head["step"].size
        if skip == 0:
            return {name: run[name][indices] for name in run}
        in_run = indices - skip
        out = {name: run[name][np.maximum(in_run, 0)] for name in run}
        from_head = in_run < 0
        if from_head.any():
            for name in out:
                out[name][from_head] = head[name][0]
        return out

    def _offer_to_body(self, head: dict, run: dict, stop: int) -> None:
        """Offer the stream ``head`` + ``run[:stop]`` to the body, without building it."""
        count = head["step"].size + stop
        if count == 0:
            return
        body_capacity = self.capacity - 1
        if self.capacity == 0:
            taken = self._take(head, run, np.arange(count))
            self._body = {n: np.concatenate((self._body[n], taken[n])) for n in taken}
            self._offered_to_body += count
            return
        if body_capacity <= 0:
            self._retire(head, np.arange(head["step"].size))
            self._offered_to_body += count
            return
        # Free slots (at the start, or after a restart purged some) are filled first.
        free = min(max(body_capacity - self._body["step"].size, 0), count)
        if free:
            taken = self._take(head, run, np.arange(free))
            self._body = {n: np.concatenate((self._body[n], taken[n])) for n in taken}
        head_kept = free > 0 or head["step"].size == 0
        if free < count:
            # Algorithm R: the sample with stream index t replaces slot r, uniform in
            # 0..t, when r < capacity (r = floor(u * (t + 1)) for a uniform u).
            first = self._offered_to_body + 1 + free
            scaled = self._rng.random(count - free)
            scaled *= np.arange(first, first + count - free, dtype=np.float64)
            hits = np.flatnonzero(scaled < body_capacity)
            if hits.size:
                slots = scaled[hits].astype(np.int64)
                chosen = hits + free
                if hits.size > 1:
                    # Later samples win a slot they share: keep the last occurrence per slot.
                    order = np.argsort(slots, kind="stable")
                    ordered = slots[order]
                    last = order[np.append(ordered[1:] != ordered[:-1], True)]
                    slots, chosen = slots[last], chosen[last]
                self._retire(self._body, slots)
                head_kept = head_kept or bool((chosen == 0).any())
                taken = self._take(head, run, chosen)
                for n in taken:
                    self._body[n][slots] = taken[n]
        if not head_kept:
            self._retire(head, np.arange(head["step"].size))
        self._offered_to_body += count

    # -- bytes and recently evicted samples ---------------------------------------------

    def mark_listed(self) -> None:
        """A client was shown the kept steps: each stays fetchable a while after it is thinned out."""
        if self.keep_evicted_seconds:
            self._listed = set(self._body["step"].tolist()) | set(self._latest["step"].tolist())

    def _retire(self, part: dict, indices: np.ndarray) -> None:
        """Samples ``indices`` of ``part`` were kept and are now thinned out: the listed ones
        stay recent."""
        if not self._listed or indices.size == 0:
            return
        now = time.monotonic()
        for index in indices.tolist():
            step = int(part["step"][index])
            if step not in self._listed:
                continue
            self._listed.discard(step)
            sample = {name: part[name][index] for name in part}
            self._recent.append((now, sample))
            self._recent_bytes += int(sample.get(NBYTES, 0))
        while len(self._recent) > MAX_RECENT_SAMPLES:
            self._drop_recent()

    def _drop_recent(self) -> None:
        _, sample = self._recent.popleft()
        self._recent_bytes -= int(sample.get(NBYTES, 0))

    def _expire_recent(self) -> None:
        deadline = time.monotonic() - self.keep_evicted_seconds
        while self._recent and self._recent[0][0] < deadline:
            self._drop_recent()

    @property
    def nbytes(self) -> int:
        """Payload bytes held: kept and recently evicted samples (0 without an ``nbytes`` column)."""
        if NBYTES not in self._dtypes:
            return 0
        return int(self._body[NBYTES].sum()) + int(self._latest[NBYTES].sum()) + self._recent_bytes

    def shed_one(self, keep_latest: bool) -> bool:
        """Let go of one sample to save bytes: the oldest recent one, else the kept one with the
        smallest step (the latest only without ``keep_latest``). False when none could go."""
        if self._recent:
            self._drop_recent()
            return True
        part = self._body if self._body["step"].size else None if keep_latest else self._latest
        if part is None or part["step"].size == 0:
            return False
        keep = np.ones(part["step"].size, dtype=bool)
        keep[int(np.argmin(part["step"]))] = False
        for name in part:
            part[name] = part[name][keep]
        self._sorted_cache = None
        return True

    def recent(self, step: int) -> dict | None:
        """The recently evicted sample of ``step`` as ``{column: value}``, or None."""
        self._expire_recent()
        for _, sample in reversed(self._recent):
            if sample["step"] == step:
                return sample
        return None

    def _purge(self, step: int, file_ts: int) -> None:
        """A restart at ``step``: drop equal steps, and larger steps from older files."""
        self._drop(lambda part: (part["step"] == step) | ((part["step"] > step) & (part["file_ts"] < file_ts)))

    def drop_from(self, step: int) -> None:
        """A restart announced at ``step`` (TensorBoard's SessionLog START): drop every kept
        sample at or after it."""
        self._sorted_cache = None
        self._drop(lambda part: part["step"] >= step)

    def _drop(self, doomed) -> None:
        """Drop the kept samples ``doomed(part)`` marks (a restart), keeping the largest step latest."""
        self._recent.clear()  # the new session's steps replace the old session's
        self._recent_bytes = 0
        self._listed.clear()
        kept_before = self._body["step"].size + self._latest["step"].size
        for part in (self._body, self._latest):
            drop = doomed(part)
            if drop.any():
                for n in part:
                    part[n] = part[n][~drop]
        if self._latest["step"].size == 0 and self._body["step"].size:
            top = int(np.argmax(self._body["step"]))
            self._latest = {n: self._body[n][top : top + 1].copy() for n in self._body}
            keep = np.ones(self._body["step"].size, dtype=bool)
            keep[top] = False
            self._body = {n: self._body[n][keep] for n in self._body}
        kept_after = self._body["step"].size + self._latest["step"].size
        if kept_before:
            self._offered_to_body = int(self._offered_to_body * kept_after / kept_before)

    # -- saving -----------------------------------------------------------------------

    def state(self) -> tuple[dict, dict] | None:
        """``(meta, arrays)`` that ``restore`` turns back into this very reservoir, thinning
        included; object columns as the kind's codec encodes them (``<part>:<name>``); None
        when they have no codec."""
        if self._objects and self._codec is None:
            return None
        arrays = {}
        for part, columns in (("body", self._body), ("latest", self._latest)):
            arrays.update({f"{part}.{name}": columns[name].copy() for name in columns if name not in self._objects})
            if self._objects:
                encoded = self._codec.encode({name: columns[name] for name in self._objects})
                arrays.update({f"{part}:{name}": value for name, value in encoded.items()})
        # None: a generator never used, as fresh as default_rng(0).
        rng = self._generator_state if self._generator is None else self._generator.bit_generator.state
        return {"offered": self._offered_to_body, "rng": rng}, arrays

    def restore(self, meta: dict, arrays: dict, shared: dict | None = None) -> None:
        """Take the samples and thinning state of ``state()`` (raises KeyError/ValueError when
        they do not fit this reservoir's columns); ``shared``: see ``Codec``."""
        parts = {}
        for part in ("body", "latest"):
            columns = {
                name: np.array(arrays[f"{part}.{name}"], dtype=dtype)
                for name, dtype in self._dtypes.items()
                if name not in self._objects
            }
            if len({column.size for column in columns.values()}) != 1:
                raise ValueError("columns of unequal length")
            if self._objects:
                columns.update(self._decoded(part, arrays, columns["step"].size, {} if shared is None else shared))
            parts[part] = {name: columns[name] for name in self._dtypes}
        if parts["latest"]["step"].size > 1 or (self.capacity and parts["body"]["step"].size >= self.capacity):
            raise ValueError("more samples than the reservoir holds")
        self._body, self._latest = parts["body"], parts["latest"]
        rng = meta["rng"]
        if rng is not None and not (isinstance(rng, dict) and rng.get("bit_generator") == _BIT_GENERATOR):
            raise ValueError("not a thinning generator's state")
        self._offered_to_body = int(meta["offered"])
        self._generator, self._generator_state = None, rng
        self._sorted_cache = None

    def _decoded(self, part: str, arrays: dict, count: int, shared: dict) -> dict:
        """The object columns of ``count`` samples of ``part``, through the kind's codec."""
        if self._codec is None:
            raise ValueError("object columns without a codec")
        prefix = f"{part}:"
        encoded = {name[len(prefix) :]: value for name, value in arrays.items() if name.startswith(prefix)}
        try:
            decoded = self._codec.decode(encoded, count, shared)
        except Exception as error:  # any codec failure means the entry is not trusted: read the logs
            raise ValueError(f"the {part} samples do not decode: {error!r}") from error
        if set(decoded) != self._objects:
            raise ValueError(f"decoded columns {sorted(decoded)}")
        for name, column in decoded.items():
            if not isinstance(column, np.ndarray) or column.dtype != object or column.shape != (count,):
                raise ValueError(f"decoded column {name} does not hold {count} samples")
        return decoded

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
