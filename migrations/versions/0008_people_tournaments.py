"""Tournaments for people: an organiser, a start time, registrations and live tables.

A people's tournament is a `tournaments` row with its `organizer_id` and `starts_at` (the
server re-arms its start timer from them after a restart) and the `series` drawn last (which
process draws the next one is settled by moving it, compare-and-set). `tournament_entries`
are the registered players. Its tables are live tables (served, leased and resumed like any
other, so `tables.tournament_id` stays empty; their options name the tournament);
`tournament_tables` ties each to its tournament and series with the players drawn for its
seats, so standings and result lists are found from the tournament.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_AT = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("organizer_id", sa.Integer, nullable=True))
        batch.add_column(sa.Column("starts_at", _AT, nullable=True))
        batch.add_column(sa.Column("series", sa.Integer, nullable=True))
        batch.create_index("ix_tournaments_status", ["status"])
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("at", _AT, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name="pk_tournament_entries"),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("series", sa.Integer, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "table_id", name="pk_tournament_tables"),
    )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_table("tournament_entries")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_index("ix_tournaments_status")
        batch.drop_column("series")
        batch.drop_column("starts_at")
        batch.drop_column("organizer_id")
