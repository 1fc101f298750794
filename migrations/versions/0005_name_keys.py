"""Names of any script, unique by what they look like: `users.name_key`.

Each guest's and account's name gets its skeleton (server/names.py `skeleton`: accents,
case, separators and look-alike letters ignored) in a new unique column, so a new name that
would be mistaken for one in use is refused. Names stored before that share a skeleton keep
working: the first user (lowest id) gets the bare skeleton, later ones the skeleton with
`#id`, so neither blocks the other and both block new look-alikes. Bots keep a null key.
A change of `skeleton` needs a migration that computes the keys again.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

from server.names import skeleton

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("name_key", sa.String(100), nullable=True))
    users = sa.table(
        "users",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("kind", sa.String),
        sa.column("name_key", sa.String),
    )
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(users.c.id, users.c.name).where(users.c.kind != "bot").order_by(users.c.id)
    )
    seen: set[str] = set()
    for user_id, name in rows.all():
        key = skeleton(name)
        if key in seen:
            key = f"{key}#{user_id}"
        seen.add(key)
        conn.execute(sa.update(users).where(users.c.id == user_id).values(name_key=key))
    with op.batch_alter_table("users") as batch:
        batch.create_unique_constraint("uq_users_name_key", ["name_key"])


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint("uq_users_name_key", type_="unique")
        batch.drop_column("name_key")
