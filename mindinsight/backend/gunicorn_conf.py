"""gunicorn settings for ``mindinsight start`` (passed with ``-c``).

One worker process: every piece of state (the brief list, the detail cache of loaded train
jobs, the reload thread) lives in the memory of that one process. Several workers would each
load the same logs, multiply memory, and answer inconsistently (a job cached in one worker
would be "not in cache" in another).

The worker is gunicorn's asyncio worker (``asgi``, on uvloop, with the C HTTP parser
gunicorn_h1c) serving the ASGI front of ``mindinsight/backend/serving.py``: views that only
read memory run on the event loop and reusable answers are served without calling Flask,
everything else runs in the front's thread pool (the concurrency the original got from
``threads``). Its per-request cost is a fifth of the threaded worker's, which is what
keeps p99 latency low under many concurrent clients (bench/README.md).
"""

import logging
import os
from logging.handlers import RotatingFileHandler

from mindinsight.backend.access_log import TokenHidingLogger
from mindinsight.conf import limits
from mindinsight.conf.settings import Settings

# Nothing of ours calls BLAS, yet at import numpy's OpenBLAS starts a thread for each further
# core, which spins for tens of ms on the core the data manager's thread restores the index on.
# Set here, in the master, before the worker imports numpy; a value already given wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

worker_class = "asgi"
asgi_loop = "auto"  # uvloop when installed (a dependency), else asyncio
workers = 1
worker_connections = 1000
timeout = 30
graceful_timeout = 30
keepalive = 5
# The app is built in the worker, never in the master: the loader thread must run in the
# process that serves requests.
preload_app = False
# Longer than any URL the front serves: an over-long URL reaches the front and gets its JSON
# 414 (limits.MAX_URL_LENGTH), an over-long query value the app's JSON 400 (MAX_PARAM_LENGTH),
# instead of gunicorn's plain-text error; still bounded, as it is held per connection.
limit_request_line = limits.MAX_REQUEST_LINE_BYTES
limit_request_field_size = 8190
# The access log never holds the access token (in ?token=, the Referer, the cookie, Bearer).
logger_class = TokenHidingLogger
# gunicorn's control socket is one path per user ($HOME/.gunicorn/gunicorn.ctl): several
# servers on different ports would fight over it, and nothing of ours uses it.
control_socket_disable = True


def post_fork(server, worker):
    """Send the app's own log records to a rotating file beside gunicorn's logs.

    In the worker before it builds the app (``post_worker_init`` comes after), so what the app
    logs while it starts (its first pass over the logs) is in the file too.
    """
    settings = Settings.from_env()
    log_dir = os.path.join(settings.workspace, "log", "app")
    os.makedirs(log_dir, mode=0o700, exist_ok=True)
    handler = RotatingFileHandler(
        os.path.join(log_dir, f"mindinsight.{settings.port}.log"),
        maxBytes=limits.APP_LOG_MAX_BYTES,
        backupCount=limits.APP_LOG_BACKUP_COUNT,
    )
    handler.setFormatter(logging.Formatter("[%(asctime)s] [%(process)d] [%(levelname)s] %(name)s: %(message)s"))
    app_logger = logging.getLogger("mindinsight")
    app_logger.setLevel(logging.INFO)
    app_logger.addHandler(handler)


def post_worker_init(worker):
    """The original's line once the worker serves."""
    worker.log.info("Server pid: %d, start to listening.", worker.pid)
