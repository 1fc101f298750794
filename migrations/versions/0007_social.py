"""Players find each other: friends, blocks, the lobby chat, reports, moderators and mutes.

`friends` holds one row per direction: (a, b) alone is a request of a to b, (a, b) and (b, a)
together a friendship; so asking, accepting, refusing and removing are single inserts and
deletes. `blocks` (a blocks b) hides a's presence from b and stops b's invitations and chat
reaching a. `lobby_chat` keeps the lobby's lines (the server reads the last 50 at start).
`reports` are players' complaints for a moderator to read; `roles` names the users with a
role (`moderator`: may mute), `mutes` who may not chat until when. Rows that name a guest
go with him when he is deleted (`Store.delete_idle_guests`): the foreign keys cascade.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _user(name: str) -> sa.Column[int]:
    return sa.Column(
        name, sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "friends",
        _user("user_id"),
        _user("friend_id"),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "friend_id", name="pk_friends"),
    )
    op.create_index("ix_friends_friend_id", "friends", ["friend_id"])
    op.create_table(
        "blocks",
        _user("user_id"),
        _user("blocked_id"),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "blocked_id", name="pk_blocks"),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "lobby_chat",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer, "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        _user("user_id"),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _user("reporter_id"),
        _user("reported_id"),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "roles",
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("role", sa.String(16), nullable=False),
    )
    op.create_table(
        "mutes",
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by_id", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    for table in ("mutes", "roles", "reports", "lobby_chat", "blocks", "friends"):
        op.drop_table(table)
