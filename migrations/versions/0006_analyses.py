"""Deal analyses: `analyses`, one row per analysed deal (table and deal number), the
analysis as JSON (bots/skat/analysis, docs/protocol.md `analyze`).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("analysis", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "number", name="pk_analyses"),
    )


def downgrade() -> None:
    op.drop_table("analyses")
