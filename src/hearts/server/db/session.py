"""The engine, sessions, and running the migrations at startup."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, Concatenate, Final, ParamSpec, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

log = logging.getLogger(__name__)

MIGRATIONS: Final = Path(__file__).parent / "migrations"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file's folder is made when missing."""
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        # Used from the event loop's thread and from asyncio.to_thread (the routes).
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
    # A write-ahead log: readers never wait for the writer, and a commit is one
    # append to the log instead of rewriting the journal. With synchronous=NORMAL
    # the log is flushed to disk at checkpoints, not at every commit: a committed
    # move survives the server being killed (the log is in the file system), and
    # only a power cut or an OS crash could lose the last moments of play.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def make_sessions(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


P = ParamSpec("P")
T = TypeVar("T")


CHECKPOINT_SECONDS: Final = 1.0
"""How often a SQLite server copies its write-ahead log back into the database."""


class Database:
    """The engine, its sessions, and where the tables' blocking calls run.

    On PostgreSQL a call waits for the network and the row locks, so it runs
    in one of asyncio's threads. On SQLite a call is a few hundred
    microseconds of CPU (in WAL mode a commit does not wait for the disk):
    handing it to a thread would cost more than it saves, and SQLite has one
    writer anyway, so it runs right in the event loop's thread. The one
    SQLite step that waits for the disk, the checkpoint, is taken out of the
    commits and done every second by a thread of its own (:meth:`start`).
    """

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self.sessions = make_sessions(self.engine)
        self.inline = self.engine.dialect.name == "sqlite"
        self._checkpoints: asyncio.Task[None] | None = None
        if self.inline:
            event.listen(self.engine, "connect", _no_autocheckpoint)

    async def run(
        self,
        call: Callable[Concatenate[sessionmaker[Session], P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """``call(sessions, *args, **kwargs)``, off the event loop when it would wait."""
        if self.inline:
            return call(self.sessions, *args, **kwargs)
        return await asyncio.to_thread(call, self.sessions, *args, **kwargs)

    def start(self) -> None:
        """Begin the SQLite checkpoints (in the running event loop)."""
        if self.inline and self._checkpoints is None:
            self._checkpoints = asyncio.create_task(self._checkpoint_every_second())

    async def _checkpoint_every_second(self) -> None:
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            try:
                await asyncio.to_thread(self.checkpoint)
            except Exception:  # the next one will try again
                log.exception("SQLite checkpoint failed")

    def checkpoint(self) -> None:
        """Copy what the write-ahead log holds into the database file (never blocks writers)."""
        with self.engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    async def close(self) -> None:
        if self._checkpoints is not None:
            self._checkpoints.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpoints
        if self.inline:
            await asyncio.to_thread(self.checkpoint)
        self.engine.dispose()


def _no_autocheckpoint(connection: Any, _record: Any) -> None:
    """Commits on this engine leave checkpoints to :meth:`Database.checkpoint`."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


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
