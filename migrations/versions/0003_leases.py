"""Table ownership for several server processes: an owner per table and a row per process.

Each unfinished live table is owned by one process (`tables.owner`). A process is alive while
it renews its row in `nodes` (`seen_at`, Unix seconds by its clock; processes run NTP, and a
lease lasts seconds); another process takes the tables of one that stopped renewing. Every
append checks, in its transaction, that the appending process still owns the table (a fence),
so a process that stalled past its lease cannot write after the new owner loaded the table.
`nodes` also holds the URL at which clients reach each process, for redirects.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("url", sa.Text, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(64), nullable=True))
        batch.create_index("ix_tables_owner", ["owner"])


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_owner")
        batch.drop_column("owner")
    op.drop_table("nodes")
