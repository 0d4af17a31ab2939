"""The engine, sessions, and running the migrations at startup."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS: Final = Path(__file__).parent / "migrations"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file's folder is made when missing."""
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        # Sessions run in worker threads (asyncio.to_thread), one at a time per table.
        kwargs["connect_args"] = {"check_same_thread": False}
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_sessions(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


MIGRATION_LOCK: Final = 0x4845415254
"""The PostgreSQL advisory lock held while migrating ("HEART")."""


def upgrade(engine: Engine) -> None:
    """``alembic upgrade head`` on ``engine``'s database.

    On PostgreSQL under an advisory lock, so that server processes starting
    together migrate one after the other (the later ones find nothing to do).
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
