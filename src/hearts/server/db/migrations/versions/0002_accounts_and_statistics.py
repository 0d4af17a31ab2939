"""Accounts, match results, statistics and sign-in throttling.

Guests become players: an account is a player row with a username and a
password hash, so signing up keeps the guest's match and statistics.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.rename_table("guests", "players")
    op.add_column("players", sa.Column("username", sa.String(32), nullable=True))
    op.add_column("players", sa.Column("username_key", sa.String(32), nullable=True))
    op.add_column("players", sa.Column("password_hash", sa.String(255), nullable=True))
    op.add_column("players", sa.Column("signed_up_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column(
        "players",
        sa.Column("ranking_points", sa.Integer(), nullable=False, server_default="0"),
    )
    # Unique regardless of case: the key is the lower-cased name.
    op.create_index("ix_players_username_key", "players", ["username_key"], unique=True)
    op.create_table(
        "match_results",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("player_token", sa.String(64), sa.ForeignKey("players.token"), nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("final_score", sa.Integer(), nullable=True),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("moons", sa.Integer(), nullable=False),
        sa.Column("queens", sa.Integer(), nullable=False),
        sa.Column("ranking_points", sa.Integer(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_match_results_player_token", "match_results", ["player_token"])
    op.create_table(
        "player_stats",
        sa.Column("player_token", sa.String(64), sa.ForeignKey("players.token"), primary_key=True),
        sa.Column("level", sa.String(16), primary_key=True),
        *(
            sa.Column(name, sa.Integer(), nullable=False)
            for name in (
                "played",
                "won",
                "finished",
                "final_score_sum",
                "hands",
                "points",
                "moons",
                "queens",
                "current_streak",
                "best_streak",
            )
        ),
        sa.Column("best_winning_total", sa.Integer(), nullable=True),
    )
    op.create_table(
        "auth_failures",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(128), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_auth_failures_key", "auth_failures", ["key"])
    op.create_index("ix_auth_failures_at", "auth_failures", ["at"])


def downgrade() -> None:
    op.drop_index("ix_auth_failures_at", table_name="auth_failures")
    op.drop_index("ix_auth_failures_key", table_name="auth_failures")
    op.drop_table("auth_failures")
    op.drop_table("player_stats")
    op.drop_index("ix_match_results_player_token", table_name="match_results")
    op.drop_table("match_results")
    op.drop_index("ix_players_username_key", table_name="players")
    with op.batch_alter_table("players") as batch:
        for name in ("ranking_points", "signed_up_at", "password_hash", "username_key", "username"):
            batch.drop_column(name)
    op.rename_table("players", "guests")
