"""The data manager: brief list of every train job, full data for the most recently used.

A background thread lists the base dir and loads new bytes every ``reload_interval``
seconds (0 = load once); a user opening a job wakes it to read that job at once. Loading is
round-robin in bounded chunks over the cached jobs, so every job shows data early and a large
job does not starve the others. Readers get a job's ``JobData`` and may read it while it loads.

``generation`` counts changes of anything a query can see (the brief list, which jobs are
cached and their status, any job's data): an answer computed at one generation stays right
until the generation moves on, so the server may reuse it without asking again.

How the loading thread and the requests share the one server process:

* Threads: one loading thread (``_run``: ``refresh_briefs`` then ``load_pass``, each pass
  starting ``reload_interval`` s after the previous one started (after a short rest when a pass
  took longer: ``reload_pause``); between passes it reads the jobs ``cache_train_job`` asks for
  as they are asked, ``load_asked_jobs``, and reads on in the live jobs, ``follow_live_jobs``)
  and the request threads (the event loop thread and the serving pool). They share one
  interpreter, so one GIL.
* Locks: ``self._lock`` guards only the brief list and the job table; it is held for
  bookkeeping (never while a file is read or decoded), so a request waits at most for a
  dictionary update. Each job's ``JobData.lock`` is held by the loader while it adds one
  decoded batch of one tag to its reservoir, and by a request while it copies one tag's
  samples; readers see every batch whole or not at all.
* Chunk budget: a job's first ``load`` reads ``first_chunk_bytes`` (256 KB), every later one
  ``chunk_bytes`` (4 MB), round-robin over the jobs, so one call holds the CPU for one chunk's
  decode (tens of ms for 4 MB) and a large job never starves the others.
* GIL: file reads release it; during a chunk's decode a request thread waiting for it gets
  it after at most ``sys.getswitchinterval()`` (5 ms) plus the one C call running then (one
  numpy operation or protobuf parse, bounded by the chunk); after a chunk the loader calls
  ``time.sleep(0)`` to offer it at once, when at least that interval has passed since its last
  offer (not after each of thousands of small jobs' chunks: on a busy machine each offer may
  give the core away to other processes for a while). So a
  request is never queued behind a whole load, and answers from what is loaded so far
  (status ``CACHING``).
"""

import logging
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from mindinsight.cache.job_index import JobIndex
from mindinsight.cache.memo import DerivedValues
from mindinsight.conf import limits
from mindinsight.format.files import mount_base_dir, refresh_listing
from mindinsight.format.object_store import StoreUnavailable, is_remote
from mindinsight.ingest.discovery import SummaryDirInfo, is_valid_train_id, job_files, scan_summary_dirs
from mindinsight.ingest.job_data import FULL_SCALARS_PREFIX, JobData
from mindinsight.ingest.loader import JobLoader
from mindinsight.ingest.quiet_dirs import QuietDirs

logger = logging.getLogger(__name__)


class BriefStatus(str, Enum):
    INIT = "init"
    LOADING = "loading"
    LOADED = "loaded"


class CacheStatus(str, Enum):
    NOT_IN_CACHE = "NOT_IN_CACHE"
    CACHING = "CACHING"
    CACHED = "CACHED"


@dataclass
class CachedJob:
    """A job in the detail cache."""

    loader: JobLoader
    latest_update_time: float
    status: CacheStatus = CacheStatus.CACHING
    loads: int = 0  # load calls so far (the first one reads a small chunk)
    indexed: tuple | None = None  # (data, version) last handed to the persistent index
    grew_at: float = 0.0  # wall time a load last found new bytes of it
    asked: bool = False  # a user asked for it since a load last read it: read it between passes


def reload_pause(interval: float, storage_failures: int, pass_seconds: float) -> float | None:
    """Seconds the reload thread waits after a pass that took ``pass_seconds``: passes start
    ``interval`` apart, so new data waits at most one interval; after a pass longer than that,
    a rest of ``limits.RELOAD_REST_SHARE`` of its time. None (only a wake-up) when ``interval``
    is 0, load once."""
    if interval <= 0:
        return None
    if storage_failures:
        # An unreachable or throttling store is asked less and less often (exponential backoff).
        interval = min(interval * 2 ** min(storage_failures - 1, 16), limits.MAX_STORE_BACKOFF_SECONDS)
    return max(interval - pass_seconds, limits.RELOAD_REST_SHARE * pass_seconds)


class DataManager:
    """Owns discovery, the detail cache and the reload loop of one summary base dir."""

    def __init__(
        self,
        summary_base_dir: str,
        reload_interval: int = 3,
        capacity: int | None = None,
        chunk_bytes: int = limits.READ_CHUNK_BYTES,
        first_chunk_bytes: int = limits.FIRST_READ_CHUNK_BYTES,
        storage_options: dict | None = None,
        index_path: str | None = None,
    ):
        self.summary_base_dir = summary_base_dir
        # What loading derived, kept across restarts (cache/job_index.py); None: not kept.
        self.index = JobIndex(index_path) if index_path else None
        mount_base_dir(summary_base_dir, storage_options)  # an object-store URL: its file system
        # Why the object store holding the base dir could not be listed last time, else None.
        # Meanwhile every job listed before stays listed and served.
        self.storage_problem: str | None = None
        self._storage_failures = 0  # failed listings in a row: the reload waits longer each time
        self.reload_interval = reload_interval
        # Jobs kept at once, and the newest loaded without being asked for (a given capacity:
        # that many of both; none: limits.MAX_KEPT_TRAIN_JOBS and MAX_CACHED_TRAIN_JOBS).
        self.capacity = capacity or limits.MAX_KEPT_TRAIN_JOBS
        self.preload = capacity or limits.MAX_CACHED_TRAIN_JOBS
        self.chunk_bytes = chunk_bytes
        # The first read of a job is small, so every job shows data soon after start.
        self.first_chunk_bytes = min(first_chunk_bytes, chunk_bytes)
        self.brief_status = BriefStatus.INIT
        self._briefs: dict[str, SummaryDirInfo] = {}
        self._brief_order: list[str] = []
        self._quiet_dirs = QuietDirs()  # empty sub-directories, not looked into while unchanged
        # Base-dir entries the last scan read when it stopped at limits.MAX_SCAN_COUNT, else None.
        self.scan_stopped_at: int | None = None
        self._jobs: OrderedDict[str, CachedJob] = OrderedDict()
        # The files of each cached job as the last listing found them, for the pass right after
        # it (each taken once): a job dir is listed once per pass, not again by its loader.
        self._listed_files: dict[str, dict] = {}
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._listed = threading.Event()  # the loader thread's first listing has ended
        self._listing_error: Exception | None = None  # what that listing raised
        self._first_pass = threading.Event()  # the loader thread's first pass has ended
        self._thread: threading.Thread | None = None
        self._generation = 0
        self.derived = DerivedValues()  # values derived from tags' samples, for the services

    @property
    def generation(self) -> int:
        """A number that changes whenever anything a query can see has changed."""
        return self._generation

    def _changed(self) -> None:
        # Bumped after the change is in place: an answer computed before it carries the
        # old number and is dropped.
        with self._lock:
            self._generation += 1

    # -- lifecycle ----------------------------------------------------------------------

    def start(self, wait_listed: bool = True) -> None:
        """List jobs, then load them, in a background thread; with ``wait_listed``, return once
        the jobs are listed (else ``wait_listed()`` does, before anyone is answered)."""
        self._thread = threading.Thread(target=self._run, name="mindinsight-loader", daemon=True)
        self._thread.start()
        if wait_listed:
            self.wait_listed()

    def wait_listed(self) -> None:
        """Block until the loader thread has listed the jobs once; raise what that listing raised."""
        self._listed.wait()
        if self._listing_error is not None:
            raise self._listing_error

    def wait_first_pass(self, timeout: float) -> bool:
        """Wait until the loader thread's first pass has ended (at most ``timeout`` s); whether it has."""
        return self._first_pass.wait(timeout)

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        if self.index is not None:
            self.index.open()  # checked here, while the server's main thread imports its modules
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                self._list_jobs()
                if not self._storage_failures:  # no reads from a store that cannot even be listed
                    self.load_pass()
            except Exception:  # the loop must survive any bad file or bug in one pass
                logger.exception("reload pass failed")
            self._first_pass.set()
            self._rest(reload_pause(self.reload_interval, self._storage_failures, time.monotonic() - started))

    def _rest(self, seconds: float | None) -> None:
        """Wait ``seconds`` (None: until stopped; on an object store until woken) for the next
        pass; meanwhile follow the live jobs every ``limits.LIVE_FOLLOW_SHARE`` of the reload
        interval and read the jobs a user asks for as they are asked (``load_asked_jobs``). Both
        on a local base dir only: a store's files are seen as of its listing, which only a pass
        takes, so there a wake-up starts the next pass at once."""
        remote = is_remote(self.summary_base_dir)
        deadline = None if seconds is None else time.monotonic() + seconds
        period = limits.LIVE_FOLLOW_SHARE * self.reload_interval
        while not self._stop.is_set():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            woken = self._wake.wait(left if remote or left is None else min(left, period))
            if woken:
                self._wake.clear()
                if remote or self._stop.is_set():
                    return
            elif remote:
                continue
            try:
                # A wake-up may find nothing left to read: the job asked for joined a pass under
                # way. It is no reason for a pass of its own (listing thousands of jobs at once,
                # during which the next job asked for waits).
                if woken:
                    self.load_asked_jobs()
                else:
                    self.follow_live_jobs()
            except Exception:  # as a pass: one bad file or bug must not end the loop
                logger.exception("reading between passes failed")
        self._wake.clear()

    def follow_live_jobs(self) -> int:
        """Read the new bytes of the live jobs: fully read ones with a summary file written in the
        last ``limits.LIVE_JOB_SECONDS`` (at most ``limits.MAX_LIVE_JOBS``, the latest written).
        A job that fails or has more to read is left to the next pass. Returns the jobs followed."""
        since = time.time() - limits.LIVE_JOB_SECONDS
        with self._lock:
            live = []
            for train_id, job in self._jobs.items():
                brief = self._briefs.get(train_id)
                written = max(job.grew_at, brief.update_time if brief else 0.0)
                if job.status is CacheStatus.CACHED and written >= since:
                    live.append((written, train_id, job))
        live.sort(key=lambda item: item[0], reverse=True)
        followed = 0
        for _written, train_id, job in live[: limits.MAX_LIVE_JOBS]:
            if self._stop.is_set() or job.loader.data.full_scalars.reread_wanted:
                continue
            before = self._visible_state(job)
            try:
                result = job.loader.load(self.chunk_bytes)
            except Exception:
                logger.exception("following %s failed; the next pass reads it", train_id)
                continue
            if result.gone:
                self._forget_gone_job(train_id)
                continue
            followed += 1
            if result.bytes_read:
                job.grew_at = time.time()
            if self._visible_state(job) != before:
                self._changed()
        return followed

    def _forget_gone_job(self, train_id: str) -> None:
        """Drop a job whose dir was deleted since the last listing from the cache and the list,
        so that it reads as not existing now rather than as read and empty until the next pass."""
        logger.info("%s no longer exists; dropping it", train_id)
        with self._lock:
            self._jobs.pop(train_id, None)
            if self._briefs.pop(train_id, None) is not None:
                self._brief_order = [t for t in self._brief_order if t != train_id]
        self._changed()

    def _list_jobs(self) -> None:
        if self._listed.is_set():
            self.refresh_briefs()
            return
        try:
            self.refresh_briefs()
        except Exception as error:
            self._listing_error = error  # the server does not start without its first listing
            raise
        finally:
            self._listed.set()

    # -- brief list -------------------------------------------------------------------

    def refresh_briefs(self) -> None:
        """Re-list the base dir and pick the jobs to keep in the detail cache."""
        if self.brief_status is BriefStatus.INIT:
            self.brief_status = BriefStatus.LOADING
            self._changed()
        if not self._listing_refreshed():
            return
        scan = scan_summary_dirs(self.summary_base_dir, self._quiet_dirs)
        infos = scan.jobs
        with self._lock:
            before = (list(self._briefs.values()), list(self._jobs), self.brief_status, self.scan_stopped_at)
            self.scan_stopped_at = scan.stopped_at
            self._briefs = {info.train_id: info for info in infos}
            self._brief_order = [info.train_id for info in infos]
            for train_id in [t for t in self._jobs if t not in self._briefs]:
                del self._jobs[train_id]
            loadable = [info for info in infos if info.has_loadable_files]
            for info in loadable:
                job = self._jobs.get(info.train_id)
                if job is not None:
                    job.latest_update_time = max(job.latest_update_time, info.update_time)
            newest = sorted(loadable, key=lambda info: self._job_time(info), reverse=True)
            for info in newest[: min(self.capacity, self.preload)]:
                if info.train_id not in self._jobs:
                    self._add_job(info.train_id, info.update_time)
            self._listed_files = {train_id: scan.files[train_id] for train_id in self._jobs if train_id in scan.files}
            self.brief_status = BriefStatus.LOADED
            if before != (infos, list(self._jobs), self.brief_status, self.scan_stopped_at):
                self._changed()

    def _listing_refreshed(self) -> bool:
        """Take a new listing of an object-store base dir; False (the jobs listed before kept,
        ``storage_problem`` set) when the store cannot be listed now."""
        try:
            refresh_listing(self.summary_base_dir)
        except StoreUnavailable as error:
            self._storage_failures += 1
            problem = error.strerror or str(error)
            if problem != self.storage_problem:
                logger.warning("cannot list the summary base dir: %s; the jobs read before are kept", problem)
                self.storage_problem = problem
                self._changed()
            if self.brief_status is BriefStatus.LOADING and not self._briefs:
                self.brief_status = BriefStatus.LOADED  # nothing to wait for: the listing says why
                self._changed()
            return False
        self._storage_failures = 0
        if self.storage_problem is not None:
            logger.info("the summary base dir can be listed again")
            self.storage_problem = None
            self._changed()
        return True

    def _job_time(self, info: SummaryDirInfo) -> float:
        job = self._jobs.get(info.train_id)
        return max(info.update_time, job.latest_update_time if job else 0.0)

    def _fit_kept_bytes(self) -> None:
        """Beyond the MAX_CACHED_TRAIN_JOBS newest, jobs stay only while the samples of every kept
        job (images, histograms, tensors) hold at most ``limits.MAX_KEPT_SAMPLE_BYTES``: the
        least recently used go first, so a 100-run comparison of large jobs stays bounded."""
        with self._lock:
            evicted = False
            while len(self._jobs) > self.preload:
                held = sum(
                    job.loader.data.payload_bytes(kind) for job in self._jobs.values() for kind in limits.BYTES_PER_JOB
                )
                if held <= limits.MAX_KEPT_SAMPLE_BYTES:
                    break
                victim = min(self._jobs, key=lambda t: self._jobs[t].latest_update_time)
                logger.info("dropping %s from the cache: the kept jobs' samples hold %d bytes", victim, held)
                del self._jobs[victim]
                evicted = True
        if evicted:
            self._changed()

    def _add_job(self, train_id: str, update_time: float) -> CachedJob:
        while len(self._jobs) >= self.capacity:
            victim = min(self._jobs, key=lambda t: self._jobs[t].latest_update_time)
            del self._jobs[victim]
        job = CachedJob(JobLoader(self._briefs[train_id].path, root=self.summary_base_dir), update_time)
        self._jobs[train_id] = job
        return job

    # -- loading ----------------------------------------------------------------------

    def load_pass(self) -> None:
        """Load new bytes of every cached job, one chunk per job per turn, until all are done."""
        self._load_jobs(lambda job: True)

    def load_asked_jobs(self) -> bool:
        """Load the new bytes of the jobs a user asked for since a load last read them (opened,
        refreshed, or whose full scalar points a request wants again), without listing the base
        dir again: the listing is at most one reload interval old, and listing a base dir of
        thousands of jobs took longer than reading the one job asked for. Whether there were any."""
        with self._lock:
            if not any(self._asked(job) for job in self._jobs.values()):
                return False
        self._load_jobs(self._asked)
        return True

    @staticmethod
    def _asked(job: CachedJob) -> bool:
        return job.asked or job.loads == 0 or job.loader.data.full_scalars.reread_wanted

    def _load_jobs(self, wanted: Callable[[CachedJob], bool]) -> None:
        """Load new bytes of the cached jobs ``wanted(job)`` holds for, and of those a user adds
        meanwhile, one chunk per job per turn, until all are done."""
        with self._lock:
            pending = [(train_id, job) for train_id, job in self._jobs.items() if wanted(job)]
        visited = {train_id for train_id, _ in pending}
        offered = time.perf_counter()  # when waiting request threads were last offered the GIL
        while pending and not self._stop.is_set():
            still = []
            for train_id, job in pending:
                before = self._visible_state(job)
                if job.loader.data.full_scalars.reread_wanted:
                    # Its full scalar points went for the memory bound and a request asked for them.
                    job.loader.reset()
                    job.loads, job.status = 0, CacheStatus.CACHING
                job.asked = False
                listed = self._listed_files.pop(train_id, None)
                if job.loads == 0 and self._restore(train_id, job, listed):
                    job.loads = 1  # resumed where the index left it: read on in full chunks
                try:
                    result = job.loader.load(self.first_chunk_bytes if job.loads == 0 else self.chunk_bytes, listed)
                    job.loads += 1
                    if result.bytes_read and job.status is CacheStatus.CACHED:
                        job.grew_at = time.time()  # read in full before, and growing: live
                except Exception:
                    logger.exception("loading %s failed; dropping it from the cache", train_id)
                    with self._lock:
                        self._jobs.pop(train_id, None)
                    self._changed()
                    continue
                if result.gone:
                    self._forget_gone_job(train_id)
                    continue
                if result.done:
                    job.status = CacheStatus.CACHED
                    self._index(train_id, job)
                else:
                    still.append((train_id, job))
                if self._visible_state(job) != before:
                    self._changed()
                self._fit_kept_bytes()
                if time.perf_counter() - offered >= sys.getswitchinterval():
                    time.sleep(0)  # let waiting request threads take the GIL between chunks
                    offered = time.perf_counter()
            with self._lock:
                # Jobs a user asked for meanwhile join this pass.
                joined = [(t, j) for t, j in self._jobs.items() if t not in visited and wanted(j)]
                visited.update(t for t, _ in joined)
                pending = [(t, j) for t, j in still + joined if self._jobs.get(t) is j]
        self._listed_files = {}  # what was not taken is stale by the next pass

    def _restore(self, train_id: str, job: CachedJob, listed: dict | None = None) -> bool:
        """Take the job's index entry when every file it read is still there, unchanged or grown
        (its files as ``listed``, or listed here).

        In two steps: first the samples, which is what the first charts show, then the full
        scalar points (nearly all of a large scalar job's bytes); between them the job is
        served and waiting requests are offered the GIL."""
        if self.index is None:
            return False
        loader = job.loader
        entry = self.index.read(train_id, loader.job_dir, later=FULL_SCALARS_PREFIX)
        if entry is None:
            return False
        files = listed if listed is not None else job_files(loader.job_dir, loader.root)
        if files is None or not loader.restore(entry.meta, entry.arrays, files, full_scalars_later=True):
            logger.info("the index entry of %s no longer matches its files; reading them again", train_id)
            self.index.forget(train_id)
            return False
        self._changed()
        time.sleep(0)
        full = self.index.read_later(train_id, entry, FULL_SCALARS_PREFIX)
        if full is None or not loader.restore_full_scalars(full):
            loader.reset()
            self.index.forget(train_id)
            self._changed()
            return False
        job.indexed = (loader.data, loader.data.version)
        return True

    def _index(self, train_id: str, job: CachedJob) -> None:
        """Hand a fully read job whose data changed to the index (written in the background)."""
        data = job.loader.data
        if self.index is None or job.indexed == (data, data.version) or not self.index.due(train_id):
            return
        state = job.loader.state()
        job.indexed = (data, data.version)
        if state is None:
            self.index.forget(train_id)  # not resumable: an older entry must not be trusted
        else:
            self.index.submit(train_id, job.loader.job_dir, *state)

    @staticmethod
    def _visible_state(job: CachedJob) -> tuple:
        """What queries can see of one job: its data (the object and its version) and status."""
        data = job.loader.data
        return data, data.version, job.loader.corrupt_records, job.loader.unreadable_files, job.status

    def load_all_now(self) -> None:
        """Synchronously list and fully load (tests and tools)."""
        self.refresh_briefs()
        self.load_pass()

    # -- queries ----------------------------------------------------------------------

    def briefs(self) -> list[SummaryDirInfo]:
        """Every listed job, newest update first."""
        with self._lock:
            return [self._briefs[t] for t in self._brief_order]

    def brief(self, train_id: str) -> SummaryDirInfo | None:
        with self._lock:
            return self._briefs.get(train_id) if is_valid_train_id(train_id) else None

    def cache_status(self, train_id: str) -> CacheStatus:
        with self._lock:
            job = self._jobs.get(train_id)
            return job.status if job else CacheStatus.NOT_IN_CACHE

    def is_integrity(self, train_id: str) -> bool:
        with self._lock:
            job = self._jobs.get(train_id)
        return job.loader.is_integrity if job else True

    def skipped_records(self, train_id: str) -> int:
        """Records of a cached job skipped as damaged since it was last read from scratch (0 when not cached)."""
        with self._lock:
            job = self._jobs.get(train_id)
        return job.loader.corrupt_records if job else 0

    def values_not_kept(self, train_id: str) -> tuple[list[dict], list[dict]]:
        """``(unshown, dropped)`` of a cached job (``DroppedValues``; empty when not cached)."""
        with self._lock:
            job = self._jobs.get(train_id)
        if job is None:
            return [], []
        dropped = job.loader.dropped
        return dropped.unshown(), dropped.dropped()

    def unreadable_files(self, train_id: str) -> dict[str, str]:
        """Files of a cached job that could not be read: name -> reason ({} when not cached)."""
        with self._lock:
            job = self._jobs.get(train_id)
        return job.loader.unreadable_files if job else {}

    def job_data(self, train_id: str) -> JobData | None:
        """Data of a cached job (possibly still loading), or None when not cached."""
        with self._lock:
            job = self._jobs.get(train_id)
        return job.loader.data if job else None

    def cache_train_job(self, train_id: str) -> CacheStatus | None:
        """Mark a job as just used, adding it to the detail cache; return its previous status.

        None when the job does not exist. A job without loadable files is not cached.
        """
        with self._lock:
            info = self.brief(train_id)
            if info is None:
                return None
            job = self._jobs.get(train_id)
            previous = job.status if job else CacheStatus.NOT_IN_CACHE
            if not info.has_loadable_files:
                return previous
            if job is None:
                job = self._add_job(train_id, time.time())
                self._changed()
            job.latest_update_time = time.time()
            job.asked = True
        self._wake.set()
        return previous
