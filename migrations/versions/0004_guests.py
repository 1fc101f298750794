"""Guests that never played can be cleaned up: when a user was last seen and first sat down.

`users.seen_at` is set when a user is created and when a guest says `hello` with his token
(and, every hour, for the guests connected to a server process); `users.played_at` when the
user first takes a seat. A guest with no `played_at` whose `seen_at` is older than the
`guest_days` setting is deleted with his sessions (server/store/db.py `delete_idle_guests`).
Existing users count as seen when they were created, and as having played if any stored
`seated` event names them.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None
CHUNK = 1000  # user ids per UPDATE


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("played_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_users_seen_at", ["seen_at"])
    users = sa.table(
        "users",
        sa.column("id", sa.Integer),
        sa.column("created_at", sa.DateTime(timezone=True)),
        sa.column("seen_at", sa.DateTime(timezone=True)),
        sa.column("played_at", sa.DateTime(timezone=True)),
    )
    events = sa.table("game_events", sa.column("kind", sa.String), sa.column("payload", sa.Text))
    conn = op.get_bind()
    conn.execute(sa.update(users).values(seen_at=users.c.created_at))
    seated = conn.execute(sa.select(events.c.payload).where(events.c.kind == "seated"))
    players = {json.loads(payload)["player"].get("user_id") for (payload,) in seated}
    players.discard(None)
    ordered = sorted(players)
    for start in range(0, len(ordered), CHUNK):
        conn.execute(
            sa.update(users)
            .where(users.c.id.in_(ordered[start : start + CHUNK]))
            .values(played_at=users.c.created_at)
        )


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_index("ix_users_seen_at")
        batch.drop_column("played_at")
        batch.drop_column("seen_at")
