"""The first schema: tags and remarks, per-run state, a change counter, imported JSON stores.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A train job's tag and remark (NULL: never set; the JSON answer leaves the key out).
    op.create_table(
        "mindinsight_added_info",
        sa.Column("train_id", sa.Text, primary_key=True),
        sa.Column("tag", sa.Integer, nullable=True),
        sa.Column("remark", sa.Text, nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    # Per-run state beside the logs that later features keep (a run hidden or pinned in the lists).
    op.create_table(
        "mindinsight_run_state",
        sa.Column("train_id", sa.Text, primary_key=True),
        sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("pinned", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    # One row counting every committed change: a server polls it and reads the tables again only
    # when it moved.
    counter = op.create_table(
        "mindinsight_edits_version",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("version", sa.BigInteger, nullable=False),
    )
    op.bulk_insert(counter, [{"id": 1, "version": 0}])
    # The workspace JSON stores (lineage/added_info.json of older versions) already imported.
    op.create_table(
        "mindinsight_imported_files",
        sa.Column("path", sa.Text, primary_key=True),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )


def downgrade() -> None:
    for table in ("mindinsight_imported_files", "mindinsight_edits_version", "mindinsight_run_state"):
        op.drop_table(table)
    op.drop_table("mindinsight_added_info")
