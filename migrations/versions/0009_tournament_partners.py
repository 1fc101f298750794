"""Tichu pairs registering together: the partner a player names when he registers for a
people's tournament (a pair is two players who named each other).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_entries") as batch:
        batch.add_column(sa.Column("partner", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_entries") as batch:
        batch.drop_column("partner")
