"""The engine, sessions, and running the migrations at startup."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Concatenate, Final, ParamSpec, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, inspect, text
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


class StorageLost(RuntimeError):
    """The database file was deleted or replaced under the running server.

    Nothing written from then on would be found again after a restart, so
    the server stops accepting changes (and says so) instead of acknowledging
    moves it did not keep.
    """


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for another database or an in-memory one)."""
    if not url.startswith("sqlite"):
        return None
    path = url.split("///", 1)[1] if "///" in url else ""
    return Path(path) if path and path != ":memory:" else None


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
        self.file = sqlite_path(url)
        self._identity: tuple[int, int] | None = None
        self.lost: str | None = None
        """Why the database can no longer be trusted (None while it can)."""

    def _stat(self) -> tuple[int, int] | None:
        assert self.file is not None
        try:
            info = os.stat(self.file)
        except OSError:
            return None
        return info.st_dev, info.st_ino

    def check_file(self) -> None:
        """Raise :class:`StorageLost` if the SQLite file is not the one opened at start-up."""
        if self.lost is not None:
            raise StorageLost(self.lost)
        if self.file is None or self._identity is None:
            return
        now_there = self._stat()
        if now_there == self._identity:
            return
        what = "deleted" if now_there is None else "replaced by another file"
        self.lost = (
            f"The database file {self.file} was {what} while the server ran: "
            "changes made from now on would be lost, so none are accepted. "
            "Stop the server, put the data folder back, and start it again."
        )
        log.critical("%s", self.lost)
        raise StorageLost(self.lost)

    async def run(
        self,
        call: Callable[Concatenate[sessionmaker[Session], P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """``call(sessions, *args, **kwargs)``, off the event loop when it would wait.

        On a SQLite file, the file is checked before and after the call: what
        was committed into a deleted or replaced file is not acknowledged
        (:class:`StorageLost`), and nothing is accepted from then on.
        """
        if self.inline:
            self.check_file()
            result = call(self.sessions, *args, **kwargs)
            self.check_file()
            return result
        return await asyncio.to_thread(call, self.sessions, *args, **kwargs)

    def start(self) -> None:
        """Note which file is the database; begin the SQLite checkpoints (in the event loop)."""
        if self.file is not None:
            self._identity = self._stat()
        if self.inline and self._checkpoints is None:
            self._checkpoints = asyncio.create_task(self._checkpoint_every_second())

    async def _checkpoint_every_second(self) -> None:
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            with contextlib.suppress(StorageLost):
                self.check_file()  # says so loudly, once, even while nobody plays
            if self.lost is not None:
                continue
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
        if not inspect(connection).has_table("alembic_version"):
            log.warning(
                "The database %s is empty: creating a new one (no accounts, no matches). "
                "If you expected existing data, stop the server and check DATABASE_URL "
                "or the data folder.",
                engine.url.render_as_string(hide_password=True),
            )
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
