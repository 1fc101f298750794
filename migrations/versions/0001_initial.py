"""Initial schema: users, sessions, tables, the event log, games, results and ratings.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer, "sqlite")
_AT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("password_hash", sa.String(200)),
        sa.Column("created_at", _AT, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", _AT, nullable=False),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_at", _AT, nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "game_events",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("at", _AT, nullable=False),
        sa.UniqueConstraint("table_id", "seq", name="uq_game_events_table_seq"),
    )
    op.create_table(
        "games",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=False),
        sa.Column("record", sa.Text),
        sa.Column("finished_at", _AT, nullable=False),
        sa.UniqueConstraint("table_id", "number", name="uq_games_table_number"),
    )
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("standing", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_results"),
    )
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("lists", sa.Integer, nullable=False),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "game", name="pk_ratings"),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", _AT, nullable=False),
    )
    op.create_index("ix_rating_history_user_id", "rating_history", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_user_id", "rating_history")
    op.drop_table("rating_history")
    op.drop_table("ratings")
    op.drop_table("results")
    op.drop_table("games")
    op.drop_table("game_events")
    op.drop_index("ix_tables_status", "tables")
    op.drop_table("tables")
    op.drop_index("ix_sessions_user_id", "sessions")
    op.drop_table("sessions")
    op.drop_table("users")
