"""Tournaments: one row per bot tournament, and the tournament a table belongs to.

The row also holds the runner's standings after its last committed game (`played`,
`standings`), so the server shows a running tournament without replaying its games. A
tournament table is an ordinary table (its events, games, results and ratings are written as
for live play); `tables.tournament_id` marks it so the server does not resume it as a live
table, and a tournament's games are found through its tables.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_AT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("params", sa.Text, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("ratings_before", sa.Text, nullable=False),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("standings", sa.Text, nullable=False),
        sa.Column("created_at", _AT, nullable=False),
        sa.Column("finished_at", _AT),
    )
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("tournament_id", sa.String(16), nullable=True))
        batch.create_foreign_key(
            "fk_tables_tournament_id", "tournaments", ["tournament_id"], ["id"]
        )
        batch.create_index("ix_tables_tournament_id", ["tournament_id"])


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_tournament_id")
        batch.drop_constraint("fk_tables_tournament_id", type_="foreignkey")
        batch.drop_column("tournament_id")
    op.drop_table("tournaments")
