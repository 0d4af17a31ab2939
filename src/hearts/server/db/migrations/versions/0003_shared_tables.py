"""Shared tables: a match may be a table with other people, reached by an invite code.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "matches", sa.Column("kind", sa.String(16), nullable=False, server_default="solo")
    )
    op.add_column("matches", sa.Column("code", sa.String(16), nullable=True))
    op.add_column("matches", sa.Column("name", sa.String(64), nullable=True))
    op.add_column("matches", sa.Column("seats", sa.JSON(), nullable=True))
    op.create_index("ix_matches_code", "matches", ["code"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_matches_code", table_name="matches")
    with op.batch_alter_table("matches") as batch:
        for name in ("seats", "name", "code", "kind"):
            batch.drop_column(name)
