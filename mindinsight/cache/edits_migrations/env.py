"""Alembic's entry point: upgrade on the connection ``EditsDatabase`` hands over.

On PostgreSQL the upgrade holds a transaction-scoped advisory lock, so servers starting together
on one database run it one after the other (the later ones then find it done).
"""

from alembic import context
from sqlalchemy import text

from mindinsight.cache.edits_tables import VERSION_TABLE

# Any fixed 64-bit number; "mindinsight edits" in ASCII, cut to 8 bytes.
_MIGRATION_LOCK = 0x6D696E6473696768

connection = context.config.attributes["connection"]
context.configure(connection=connection, version_table=VERSION_TABLE)
with context.begin_transaction():
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
    context.run_migrations()
