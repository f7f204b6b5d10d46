"""The SQLAlchemy side of the database of edits: its tables, engine and statements.

Apart from ``edits_database.py`` so that SQLAlchemy (about 0.2 s of imports) is imported by
the lineage thread when it first reaches the database, not while the server starts.
"""

import os

from sqlalchemy import BigInteger, Column, Integer, MetaData, Table, Text, create_engine, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DataError, SQLAlchemyError

from mindinsight.conf import limits

__all__ = ["DataError", "SQLAlchemyError", "select"]

# The revision of the newest migration (cache/edits_migrations/versions): a database already
# there is used without importing Alembic (tests/ut/test_edits_tables.py keeps them equal).
HEAD_REVISION = "0001"
VERSION_TABLE = "mindinsight_alembic_version"  # Alembic's record of the revision applied

_metadata = MetaData()
# What the queries need of the tables the migrations make (the migrations are the schema).
ADDED_INFO = Table(
    "mindinsight_added_info",
    _metadata,
    Column("train_id", Text, primary_key=True),
    Column("tag", Integer),
    Column("remark", Text),
    Column("updated_at"),
)
EDITS_VERSION = Table(
    "mindinsight_edits_version", _metadata, Column("id", Integer, primary_key=True), Column("version", BigInteger)
)
IMPORTED_FILES = Table("mindinsight_imported_files", _metadata, Column("path", Text, primary_key=True))
ALEMBIC_VERSION = Table(VERSION_TABLE, MetaData(), Column("version_num", Text))


def database_url(url: str):
    """The SQLAlchemy URL of ``url``; ``postgresql://`` goes through psycopg 3."""
    parsed = make_url(url)
    return parsed.set(drivername="postgresql+psycopg") if parsed.drivername == "postgresql" else parsed


def engine_of(url):
    """An engine replacing dead pooled connections, with the limits' timeouts."""
    return create_engine(url, pool_pre_ping=True, connect_args=_connect_args(url))


def at_head(connection) -> bool:
    """Whether the migrations are all applied (their version table holds the newest revision)."""
    if not connection.dialect.has_table(connection, ALEMBIC_VERSION.name):
        return False
    return connection.execute(select(ALEMBIC_VERSION.c.version_num)).scalars().all() == [HEAD_REVISION]


def reason(error: Exception) -> str:
    """The first line of the driver's message (SQLAlchemy's own adds the statement and a link)."""
    cause = getattr(error, "orig", None) or error
    return (getattr(cause, "strerror", None) or str(cause)).strip().splitlines()[0]


def display(url, workspace: str) -> str:
    """The database as users read it: the SQLite file inside the workspace, else the URL without password."""
    if url.get_backend_name() == "sqlite" and url.database:
        database = os.path.realpath(url.database)
        if database.startswith(os.path.realpath(workspace) + os.sep):
            return os.path.relpath(database, os.path.realpath(workspace))
        return database
    return url.set(drivername=url.get_backend_name()).render_as_string(hide_password=True)


def _connect_args(url) -> dict:
    if url.get_backend_name() == "postgresql":
        timeout_ms = limits.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000
        return {
            "connect_timeout": limits.DATABASE_CONNECT_TIMEOUT_SECONDS,
            "options": f"-c statement_timeout={timeout_ms}",
        }
    return {"timeout": limits.DATABASE_STATEMENT_TIMEOUT_SECONDS}


def insert(connection):
    return postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert


def upsert(connection, rows: list[dict], update_keys: tuple) -> None:
    """Insert ``rows``; an existing row gets ``update_keys`` replaced (none: it is kept as it is)."""
    statement = insert(connection)(ADDED_INFO).values(rows)
    if update_keys:
        changes = {key: statement.excluded[key] for key in update_keys}
        statement = statement.on_conflict_do_update(
            index_elements=[ADDED_INFO.c.train_id], set_={**changes, "updated_at": func.now()}
        )
    else:
        statement = statement.on_conflict_do_nothing(index_elements=[ADDED_INFO.c.train_id])
    connection.execute(statement)


def bump(connection) -> int:
    """Raise the change counter (its row lock orders concurrent edits); the new value."""
    connection.execute(update(EDITS_VERSION).where(EDITS_VERSION.c.id == 1).values(version=EDITS_VERSION.c.version + 1))
    return counter(connection)


def counter(connection) -> int:
    return connection.execute(select(EDITS_VERSION.c.version).where(EDITS_VERSION.c.id == 1)).scalar_one()
