"""Hints make a match unranked (``matches.used_hint``); signed-in sessions kept on the server
(``auth_sessions``) so that signing out or changing the password ends them everywhere.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "matches",
        sa.Column("used_hint", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "auth_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_token", sa.String(64), sa.ForeignKey("players.token"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_auth_sessions_player_token", "auth_sessions", ["player_token"])


def downgrade() -> None:
    op.drop_index("ix_auth_sessions_player_token", table_name="auth_sessions")
    op.drop_table("auth_sessions")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("used_hint")
