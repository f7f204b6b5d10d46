"""Users' edits of train jobs (tags and remarks; the table for later per-run state) in a database.

``--database-url postgresql://...`` puts them in PostgreSQL (psycopg 3), shared by every server
given the same URL; without it they live in SQLite at ``<workspace>/lineage/edits.db``. Both go
through SQLAlchemy Core; the schema is made and upgraded by the Alembic migrations of
``cache/edits_migrations``, run when the database is first reached.

Reads never wait on the database: ``all()`` answers the edits last read. ``poll()`` (the lineage
thread, once per reload interval) reads one row, the change counter every committed edit raises
in its own transaction, and reads the edits again only when it moved: an edit made through one
server is seen through the others at their next reload. ``update()`` answers only after its
commit; when the database cannot be reached or refuses, it raises
``LineageEditsDatabaseError`` and nothing was changed. SQLAlchemy's pre-ping replaces dead
pooled connections, so the server reconnects by itself once the database is back.

The JSON store of older versions (``lineage/added_info.json``, ``AddedInfoFile``) is imported
once, in the transaction that records it as imported, and left in place; edits already in the
database win over its values. While it exists but cannot be read, edits are refused
(``LineageAddedInfoStoreError``) so none is merged over values not yet imported.
"""

import logging
import os
import threading
from pathlib import Path

from mindinsight.cache.added_info import AddedInfoFile, StoreNotice
from mindinsight.conf import limits
from mindinsight.errors import LineageAddedInfoStoreError, LineageEditsDatabaseError, LineageParamValueError

logger = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent / "edits_migrations"
ADDED_INFO_KEYS = ("tag", "remark")


class EditsDatabase:
    """Tags and remarks at ``url``; ``legacy_json`` is the workspace's JSON store to import once."""

    def __init__(self, url: str, legacy_json: str):
        self._url_text = url
        self._workspace = os.path.dirname(os.path.dirname(legacy_json))
        self._sql = None  # edits_tables, imported by the first use of the database
        self._legacy = AddedInfoFile(legacy_json)
        self._lock = threading.Lock()  # the cache and the versions
        self._setup_lock = threading.Lock()  # one migration and import at a time
        self._ready = False
        self._cache: dict[str, dict] = {}
        self._version: int | None = None  # the counter the cache was read at
        self._applied = -1  # the counter after this process's last edit
        self._failure: StoreNotice | None = None
        self._polling = False  # the lineage thread has begun reading the edits
        self._first_poll = threading.Event()  # ... and its first attempt has ended

    def _tables(self):
        """``edits_tables`` with this database's URL, engine and display name set up (once)."""
        with self._setup_lock:
            if self._sql is None:
                from mindinsight.cache import edits_tables

                self.url = edits_tables.database_url(self._url_text)
                self.display = edits_tables.display(self.url, self._workspace)
                self._engine = edits_tables.engine_of(self.url)
                self._sql = edits_tables
        return self._sql

    @property
    def notice(self) -> StoreNotice | None:
        """Why edits are refused now (database or JSON store), else a damaged JSON store set aside, else None."""
        return self._failure or self._legacy.notice

    def all(self) -> dict[str, dict]:
        """Every job's tag and remark as last read (the JSON store's until the database is reached)."""
        if self._polling and not self._first_poll.is_set():
            # Right after a start the lineage thread is reading the edits for the first time: an
            # answer without them would show a restarted server's tags and remarks as gone.
            self._first_poll.wait(limits.DATABASE_FIRST_READ_WAIT_SECONDS)
        with self._lock:
            if self._version is None and not self._cache:
                self._cache = dict(self._legacy.all())
            return self._cache

    def expect_first_poll(self) -> None:
        """Make ``all()`` wait for the first ``poll()`` (the lineage thread's, about to come)."""
        self._polling = True

    def poll(self) -> None:
        """Reach the database (migrate, import) if not yet done; read the edits again if the counter moved."""
        self._polling = True
        try:
            self._poll()
        finally:
            self._first_poll.set()

    def _poll(self) -> None:
        sql = self._tables()
        try:
            self._ensure_ready()
            with self._engine.connect() as connection:
                version = sql.counter(connection)
                if version == self._version:
                    self._recovered()
                    return
                added_info = sql.ADDED_INFO.c
                rows = connection.execute(sql.select(added_info.train_id, added_info.tag, added_info.remark)).all()
        except sql.SQLAlchemyError as error:
            self._fail(error)
            return
        except (LineageAddedInfoStoreError, LineageEditsDatabaseError):
            return  # recorded in the notice
        with self._lock:
            if version >= self._applied:  # else an edit of this process committed after this read
                self._cache = {row.train_id: _info(row.tag, row.remark) for row in rows}
                self._version = version
        self._recovered()

    def update(self, train_id: str, values: dict) -> dict:
        """Merge ``values`` (``tag``, ``remark``) into ``train_id``'s info; return it once committed.

        Raises ``LineageEditsDatabaseError`` when the database cannot be reached or refuses
        (nothing changed), ``LineageAddedInfoStoreError`` while the JSON store cannot be imported.
        """
        sql = self._tables()
        self._ensure_ready()
        given = {key: values[key] for key in ADDED_INFO_KEYS if key in values}
        added_info = sql.ADDED_INFO.c
        try:
            with self._engine.begin() as connection:
                sql.upsert(connection, [{"train_id": train_id, **given}], update_keys=tuple(given))
                version = sql.bump(connection)
                row = connection.execute(
                    sql.select(added_info.tag, added_info.remark).where(added_info.train_id == train_id)
                ).one()
        except sql.DataError as error:  # a value this database cannot hold (PostgreSQL: a NUL character)
            raise LineageParamValueError(f"The remark cannot be stored: {sql.reason(error)}.") from None
        except sql.SQLAlchemyError as error:
            raise self._fail(error) from None
        info = _info(row.tag, row.remark)
        with self._lock:
            self._cache = {**self._cache, train_id: info}
            self._applied = max(self._applied, version)
        self._recovered()
        return info

    # -- reaching the database ------------------------------------------------------------

    def _ensure_ready(self) -> None:
        if self._ready:
            return
        sql = self._tables()
        with self._setup_lock:
            if self._ready:
                return
            legacy = self._legacy_to_import()
            try:
                if self.url.get_backend_name() == "sqlite" and self.url.database:
                    os.makedirs(os.path.dirname(self.url.database), exist_ok=True)
                with self._engine.begin() as connection:
                    if not sql.at_head(connection):
                        _upgrade(connection)
                if legacy is not None:
                    self._import(legacy)
            except (sql.SQLAlchemyError, OSError) as error:
                raise self._fail(error) from None
            self._ready = True

    def _legacy_to_import(self) -> dict | None:
        """The JSON store's info (None when there is none); refuses while it cannot be read."""
        stored = self._legacy.all()
        notice = self._legacy.notice
        if notice is not None and notice.status in ("unreadable", "unwritable"):
            raise LineageAddedInfoStoreError(
                f"{notice.store} in the workspace cannot be read ({notice.reason}); nothing was changed."
            )
        return stored if os.path.exists(self._legacy.path) else None

    def _import(self, stored: dict) -> None:
        """Copy the JSON store's rows in once (recorded in the same transaction); edits in the database win."""
        rows = []
        for train_id, info in stored.items():
            row = {"train_id": train_id, "tag": None, "remark": None}
            if isinstance(info.get("tag"), int) and not isinstance(info.get("tag"), bool):
                row["tag"] = info["tag"]
            if isinstance(info.get("remark"), str):
                row["remark"] = info["remark"]
            rows.append(row)
        path = os.path.realpath(self._legacy.path)
        sql = self._sql
        with self._engine.begin() as connection:
            marked = connection.execute(
                sql.insert(connection)(sql.IMPORTED_FILES).values(path=path).on_conflict_do_nothing()
            )
            if marked.rowcount == 0:
                return  # imported before (or by another server just now)
            if rows:
                sql.upsert(connection, rows, update_keys=())
            sql.bump(connection)
        logger.info("imported the tags and remarks of %d jobs from %s into %s", len(rows), path, self.display)

    # -- notices --------------------------------------------------------------------------

    def _fail(self, error: Exception) -> LineageEditsDatabaseError:
        """Record (and log once) that the database cannot be used (``unreachable``); the error refusing an edit."""
        reason = self._sql.reason(error)
        notice = StoreNotice("unreachable", self.display, reason)
        if self._failure is None or (self._failure.store, self._failure.reason) != (notice.store, reason):
            logger.error("the tags and remarks in %s cannot be used (%s): edits are refused", self.display, reason)
        self._failure = notice
        return LineageEditsDatabaseError(f"{self.display}: {reason}. Nothing was changed; try again later.")

    def _recovered(self) -> None:
        if self._failure is not None:
            logger.info("the tags and remarks in %s can be used again", self.display)
            self._failure = None


def _upgrade(connection) -> None:
    """Run the migrations up to the newest on ``connection``.

    Alembic (0.3 s of imports) is imported only here: a restart on a database already there skips it.
    """
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def _info(tag, remark) -> dict:
    return {key: value for key, value in (("tag", tag), ("remark", remark)) if value is not None}
