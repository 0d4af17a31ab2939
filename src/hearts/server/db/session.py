"""The engine, sessions, and running the migrations at startup."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Concatenate, Final, ParamSpec, TypeVar

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


class Database:
    """The engine, its sessions, and the threads that run the tables' blocking calls.

    SQLite has one writer at a time: calls from several threads would only
    queue for its lock (the sqlite3 driver sleeps and retries), so on SQLite
    they run one after the other in a single thread of their own. PostgreSQL
    locks rows, and its calls run in asyncio's default threads.
    """

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self.sessions = make_sessions(self.engine)
        self._executor: ThreadPoolExecutor | None = None
        if self.engine.dialect.name == "sqlite":
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")

    async def run(
        self,
        call: Callable[Concatenate[sessionmaker[Session], P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """``call(sessions, *args, **kwargs)`` off the event loop."""
        if self._executor is None:
            return await asyncio.to_thread(call, self.sessions, *args, **kwargs)
        job = functools.partial(call, self.sessions, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._executor, job)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True)
        self.engine.dispose()


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
