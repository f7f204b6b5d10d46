"""Every limit of the product in one place (values from the original, docs/BEHAVIOUR.md §3)."""

import os

from mindinsight.conf.plugins import PluginName

# Discovery
# Entries of the base dir one scan reads (the original's bound on a scan), so a reload costs
# the same however many the base dir holds; the listing's ``scan_stopped_at`` says when it
# stopped there with more left (the train jobs among the rest are not listed).
MAX_SCAN_COUNT = 20_000
# Train jobs listed under the base dir (the original lists 999; we list every job up to this
# bound, which a scan reaches only through nested TensorBoard runs, and say so through
# ``scan_stopped_at`` too). A scan costs about 45 us of CPU a job (0.45 s per reload for 10,000).
MAX_SUMMARY_DIR_COUNT = MAX_SCAN_COUNT

# Detail cache
MAX_CACHED_TRAIN_JOBS = 15  # jobs loaded at start, newest first (MAX_KEPT_TRAIN_JOBS: how many stay)

# Persistent index (cache/job_index.py): what loading derived, kept in the workspace. Its entries
# hold at most this many bytes of columns together (the 10 M-value job of bench/ takes 45 MB); a job
# is written again at the earliest this long after its last write, and not before this many
# times that write's duration (writing takes at most ~1/(1+factor) of the time).
INDEX_MAX_BYTES = 2 * 1024 * 1024 * 1024
INDEX_MIN_WRITE_INTERVAL_SECONDS = 10
INDEX_WRITE_COST_FACTOR = 9
INDEX_BUSY_TIMEOUT_SECONDS = 5  # another server writing the same index file
# A column is kept in parts of at most this many bytes: writing or reading one never holds a
# whole large column (a million scalar points: 8 MB each) twice.
INDEX_PART_BYTES = 1024 * 1024

# Tags per job
MAX_TAGS_PER_JOB = 300
MAX_TAGS_PER_PLUGIN = {
    PluginName.GRAPH: 10,
    PluginName.OPTIMIZED_GRAPH: 10,
    PluginName.TENSOR: 6,
}
MAX_REMEMBERED_EVICTED_TAGS = 30_000
# Values a job holds but does not keep (ingest/dropped_values.py: of a kind not shown, or refused
# by their kind's decoder) are reported per key, at most this many keys of each and names cut to
# this many characters; the values of further keys are counted together.
MAX_REPORTED_KEYS = 100
MAX_REPORTED_NAME_CHARS = 256

# Samples kept per tag (reservoir size); anything not listed keeps DEFAULT_STEPS_PER_TAG.
STEPS_PER_TAG = {
    PluginName.SCALAR: 1000,
    PluginName.IMAGE: 10,
    PluginName.HISTOGRAM: 50,
    PluginName.TENSOR: 20,
    PluginName.GRAPH: 1,
    PluginName.OPTIMIZED_GRAPH: 1,
    PluginName.TEXT: 100,  # TensorBoard's text plugin keeps as many
}
DEFAULT_STEPS_PER_TAG = 500
# Every scalar point is also kept in full (ingest/full_scalars.py: 4 bytes a point plus 16 bytes
# an event, shared by the tags it holds) for /datavisual/scalar/buckets, within this many bytes
# over all jobs held; past it the least recently used job's full points are dropped whole (its
# buckets answer 50545019 while it is read again; a job alone past it answers 50545020).
FULL_SCALAR_BYTES = 512 * 1024 * 1024

# Payloads
MAX_EVENT_PAYLOAD_BYTES = 500_000_000
MAX_TENSOR_ELEMENTS = 10_000_000
MAX_TENSOR_RESPONSE_VALUES = 100_000
MAX_HISTOGRAM_INPUT_BUCKETS = 90
MAX_HISTOGRAM_DISPLAY_BINS = 30
MAX_GRAPH_ATTR_BYTES = 1024
# One text sample (TensorBoard's text plugin): characters over all its cells, and cells of its
# table; past either the rest is cut and the sample marked ``truncated``.
MAX_TEXT_CHARS = 100_000
MAX_TEXT_CELLS = 1_000
# Nodes of one type in one scope that are folded into an aggregation scope (normal / optimized graph).
MIN_GRAPH_GROUP_NODES = 5
MIN_OPTIMIZED_GRAPH_GROUP_NODES = 10
# Graph node-name search: largest page.
MAX_GRAPH_SEARCH_LIMIT = 1000

# Payload bytes kept per kind (ingest/kinds, ingest/reservoir.py, ingest/job_data.py), beside
# the counts above: a single value over MAX_SAMPLE_BYTES is dropped at ingest (and logged); past
# BYTES_PER_TAG a tag lets its oldest kept samples go (never its latest), past BYTES_PER_JOB a job
# thins its largest tags of that kind. A histogram of 90 buckets takes ~3 KB.
_MiB = 1024 * 1024
MAX_SAMPLE_BYTES = {PluginName.IMAGE: 64 * _MiB, PluginName.HISTOGRAM: 64 * 1024, PluginName.TENSOR: 128 * _MiB}
BYTES_PER_TAG = {PluginName.IMAGE: 128 * _MiB, PluginName.HISTOGRAM: 4 * _MiB, PluginName.TENSOR: 256 * _MiB}
BYTES_PER_JOB = {PluginName.IMAGE: 512 * _MiB, PluginName.HISTOGRAM: 64 * _MiB, PluginName.TENSOR: 512 * _MiB}
# An image that was listed stays fetchable this long after the reservoir thinned it out, so a
# page that listed the steps a moment before a reload can still show them (within BYTES_PER_TAG).
EVICTED_IMAGE_SECONDS = 120
# Histogram bucket counts are clamped to this (exact in a float64 and in JavaScript; 90 buckets
# of it still sum within int64).
MAX_HISTOGRAM_BUCKET_COUNT = 2**53 - 1
# A histogram bucket with an edge beyond this is left out, min and max are clamped to it: the
# display grid stays finite.
MAX_HISTOGRAM_ABS_EDGE = 1e300

# Reading
READ_CHUNK_BYTES = 4 * 1024 * 1024  # bytes read from a file per call; bounds reader memory
FIRST_READ_CHUNK_BYTES = 256 * 1024  # first read of a newly cached job: its first data shows at once
# Bytes fetched past what a reader asks of an object-store file: the few bytes checked before
# the offset and a live log's new bytes come in one ranged GET (format/object_store.py).
REMOTE_READ_AHEAD_BYTES = 64 * 1024
MAX_STORE_BACKOFF_SECONDS = 60  # longest wait between listings of a store that keeps failing
# After a reload pass that outlasts --reload-interval the next one starts after a rest of this
# share of the pass's time: the loading thread never holds the GIL for more than 80% of the time,
# so requests stay answered on a base dir whose pass takes longer than the interval.
RELOAD_REST_SHARE = 0.25
# Between reload passes the loading thread reads on in the live jobs (a summary file written in
# the last LIVE_JOB_SECONDS; at most MAX_LIVE_JOBS, the most recently written) every
# LIVE_FOLLOW_SHARE of --reload-interval: a running training's new steps show within a fraction
# of the interval, for one directory listing per live job and follow-up.
LIVE_JOB_SECONDS = 60
LIVE_FOLLOW_SHARE = 0.25
MAX_LIVE_JOBS = 16
MAX_OPEN_REMOTE_READS = 16  # object-store files being read at once (a streamed GET each, at most)
DAMAGED_FILE_AGE_SECONDS = 600  # a file with a partial tail this old is given up

# Requests
MAX_TRAIN_JOBS_PAGE_LIMIT = 999
MAX_RUNS_TABLE_COLUMNS = 200  # distinct columns one page of the runs table answers values of
MAX_PARAM_LENGTH = 4096  # longest query value accepted (train_id, tag, ...)
# A tag with a longer name could never be asked for: its values are refused at ingest (and counted).
MAX_TAG_CHARS = MAX_PARAM_LENGTH
# Distinct train jobs one comparison query may name (datavisual/scalars, landscape/landscapes):
# the original's comparison pages choose at most 5 (scalars) and 3 (loss) trainings; the
# answer grows with every job named, so more are refused (50540002), not computed.
MAX_COMPARED_TRAIN_JOBS = 5
MAX_COMPARED_SCALAR_TAGS = MAX_COMPARED_TRAIN_JOBS * MAX_TAGS_PER_JOB  # every tag those jobs can hold
# Ours: the scalars comparison draws up to 100 trainings in one chart. Its answer is bounded by
# the (job, tag) pairs asked for, not by the jobs alone: at most as many as 5 jobs of the most
# tags a job holds make, the original's largest comparison, so any query the original answered
# is answered alike and 100 jobs x 15 tags is the same size.
MAX_COMPARED_SCALAR_JOBS = 100
MAX_COMPARED_SCALAR_SERIES = MAX_COMPARED_TRAIN_JOBS * MAX_TAGS_PER_JOB
# Jobs whose full data the detail cache keeps at once (LRU by update time): MAX_CACHED_TRAIN_JOBS
# are loaded at start, as the original's cache; jobs a page asks for join them up to this many,
# so the trainings of a 100-run comparison are all held and not read again in turn. Each job's
# samples stay bounded per plugin (BYTES_PER_JOB) and all full scalars by FULL_SCALAR_BYTES.
MAX_KEPT_TRAIN_JOBS = max(MAX_CACHED_TRAIN_JOBS, MAX_COMPARED_SCALAR_JOBS)
# ... but beyond the MAX_CACHED_TRAIN_JOBS newest only while the samples of all kept jobs (the
# kinds bounded in bytes: BYTES_PER_JOB) hold at most this many bytes together.
MAX_KEPT_SAMPLE_BYTES = 2 * 1024 * 1024 * 1024
# Longest request body (the largest real one, a lineage search naming 999 jobs, is ~60 KB);
# the serving front answers a longer one 413 before reading it (a declared Content-Length) or
# as soon as its bytes pass this (a chunked body), so it never holds more in memory.
MAX_REQUEST_BODY_BYTES = 1024 * 1024
# Levels of arrays / objects a JSON body may nest (the deepest valid body nests 3): deeper ones
# are refused (50540002) before anything walks them recursively.
MAX_JSON_BODY_DEPTH = 32


# -- server process -------------------------------------------------------------------------
APP_LOG_MAX_BYTES = 50 * 1024 * 1024  # application log rotates at 50 MB ...
APP_LOG_BACKUP_COUNT = 30  # ... keeping 30 files, as the original
MAX_RELOAD_INTERVAL = 300  # seconds; --reload-interval is 0..300
START_TIMEOUT_SECONDS = 30  # `mindinsight start` gives up waiting after this
STOP_GRACE_SECONDS = 5  # `mindinsight stop` waits this long before SIGKILL
# The database of edits (--database-url): an edit or a poll waits at most this long for a
# connection, so a database that is down answers an edit's error quickly (libpq's minimum is 2 s).
DATABASE_CONNECT_TIMEOUT_SECONDS = 3
# ... and at most this long for a statement (a locked or stalled database).
DATABASE_STATEMENT_TIMEOUT_SECONDS = 10
# A lineage answer right after start waits at most this long for the edits' first read.
DATABASE_FIRST_READ_WAIT_SECONDS = 5
# The lineage thread starts its work once the jobs' first loading pass has ended, or after this long.
LINEAGE_START_WAIT_SECONDS = 1.0
# While the worker builds the app, beside the loader thread's first listing and index restore,
# the GIL changes hands this often (Python's default: 5 ms; backend/application.py).
START_SWITCH_INTERVAL_SECONDS = 0.0005


def steps_per_tag(plugin: PluginName) -> int:
    """Reservoir capacity for one tag of ``plugin``."""
    return STEPS_PER_TAG.get(plugin, DEFAULT_STEPS_PER_TAG)


# -- serving (mindinsight/backend/serving.py) --------------------------------------------
SERVING_POOL_THREADS = min(30, 2 * (os.cpu_count() or 1) + 1)  # the original's thread count
ANSWER_CACHE_MAX_BYTES = 32 * 1024 * 1024  # all reusable answers kept together ...
ANSWER_CACHE_MAX_ENTRY_BYTES = 2 * 1024 * 1024  # ... and the largest one worth keeping
DERIVED_VALUES_KEPT = 256  # derived values per tag kept (mindinsight/cache/memo.py)
SERIALIZED_ANSWER_CHARS_KEPT = 16 * 1024 * 1024  # JSON of derived answers kept, in all (1,000 points ~70 KB)


# -- images and tensors (services/images.py, services/tensors.py) ---------------------------
# A browser may reuse an image of an explicit step this long without asking again (the UI
# adds the sample's wall time to the URL, so a replaced image gets a new URL); ``step=-1``
# (the latest image) is revalidated with its ETag on every use.
IMAGE_MAX_AGE_SECONDS = 3600
MAX_TENSOR_SLICE_DIMS = 2  # items of a tensor ``dims`` query that may hold ':'
# Pixel columns one /datavisual/scalar/buckets answer may be asked for (one bucket each): a
# 4K screen's width, twice over for high-density displays.
MAX_SCALAR_BUCKETS = 8192
# /datavisual/scalars/export streams every point of the chosen runs x tags: this many points are
# formatted at a time (about 3.5 MB of CSV), so an export of any size holds a few chunks at once
# (the front's send queue holds ten) and formats up to EXPORT_CHUNKS_AHEAD side by side: three,
# so that while one holds the GIL (copying its text out) two are in pyarrow's kernels; with two,
# a 2-core machine's cores were half idle (4.6 -> 6.6 M points/s, bench/README.md).
# Runs: at most the jobs the detail cache holds at once.
EXPORT_CHUNK_POINTS = 65536
EXPORT_CHUNKS_AHEAD = 3
MAX_EXPORT_TRAIN_JOBS = MAX_CACHED_TRAIN_JOBS


# -- access (backend/access.py, backend/serving.py) -----------------------------------------
# Longest path + query string served; longer answers a JSON 414. Room for two query values of
# MAX_PARAM_LENGTH even percent-encoded, so an over-long value still gets its own 400.
MAX_URL_LENGTH = 32 * 1024
# gunicorn reads request lines up to this (its own plain-text 414 beyond); above MAX_URL_LENGTH
# so the front can answer JSON, bounded so 1,000 connections cannot hold much memory.
MAX_REQUEST_LINE_BYTES = 4 * MAX_URL_LENGTH
MIN_TOKEN_LENGTH = 16  # an access token given with --token / MINDINSIGHT_TOKEN
MAX_TOKEN_LENGTH = 256
# ... and its estimated entropy (conf/settings.py token_strength_bits): 16 equal characters, runs
# (0123..., abcd...) and repeats (abab...) fall short; a random 16-character hex token (64 bits)
# clears it but for about 4 in 10,000, a random 16-character letters-and-digits one always.
MIN_TOKEN_BITS = 48
GENERATED_TOKEN_BYTES = 32  # secrets.token_urlsafe(32): 43 characters, 256 bits


# -- profiler files (ingest/profiler_csv.py, ingest/profiler_files.py, cache/profiler_rows.py) --
# An operator CSV is parsed whole (a view filters and sorts all rows). MindSpore writes one row
# per operator (ResNet-50: ~100, the largest graphs ~10^5) of ~150 bytes; a parsed row takes
# ~600 bytes, so these bound one parse to ~300 MB. Beyond them: 50546086, nothing read whole.
MAX_PROFILER_CSV_BYTES = 128 * 1024 * 1024
MAX_PROFILER_CSV_ROWS = 500_000
# A row names an operator and its scope path (a few hundred characters): a longer line is
# refused as soon as this much of it is read, not after the whole file went into one string.
MAX_PROFILER_CSV_LINE_CHARS = 64 * 1024
# Parsed rows kept, all files together: room for one file at the bounds above.
PROFILER_ROWS_KEPT_BYTES = 384 * 1024 * 1024
# profiler_info_<device>.json and MSAdvisor's recommendations are a few KB with a few levels;
# the depth bound keeps parsing and serializing far below Python's recursion limit.
MAX_PROFILER_JSON_BYTES = 16 * 1024 * 1024
MAX_PROFILER_JSON_DEPTH = 64


# -- lineage (cache/lineage_store.py, services/lineage*.py) ---------------------------------
LINEAGE_MAX_PAGE_LIMIT = 100  # a lineage query's ``limit`` is in 1..100
LINEAGE_MAX_PAGE_OFFSET = 100000  # ... and its ``offset`` (a page index) in 0..100000
LINEAGE_DEFAULT_PAGE_LIMIT = 10  # when only ``offset`` is given
LINEAGE_MAX_TAG = 10  # added_info ``tag``: an icon index 0..10
LINEAGE_MAX_REMARK_LENGTH = 128  # added_info ``remark`` characters
OPTIMIZER_MAX_USER_DEFINED_COLUMNS = 100  # user-defined columns considered by targets/search

# -- the query language over runs (services/run_query*.py) --------------------------------------
MAX_QUERY_LENGTH = MAX_PARAM_LENGTH  # characters of a query, in a body as in a URL
MAX_QUERY_DEPTH = 64  # nesting of parentheses, not, and, or
MAX_QUERY_PATTERN_LENGTH = 1000  # characters of one regular expression (RE2: linear time in the name)
