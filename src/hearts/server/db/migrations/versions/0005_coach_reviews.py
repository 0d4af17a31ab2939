"""The coach's reviews: one per match, finished hand and seat.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "coach_reviews",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("hand", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("hand_digest", sa.String(64), nullable=False),
        sa.Column("player_token", sa.String(64), sa.ForeignKey("players.token"), nullable=True),
        sa.Column("accuracy", sa.Float(), nullable=True),
        sa.Column("review", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_coach_reviews_player_token", "coach_reviews", ["player_token"])


def downgrade() -> None:
    op.drop_index("ix_coach_reviews_player_token", table_name="coach_reviews")
    op.drop_table("coach_reviews")
