"""Where database calls run: SQLite in the event loop with checkpoints in a thread,
PostgreSQL in threads."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from hearts.server.db import store
from hearts.server.db.session import Database, upgrade


def _thread(_sessions: object) -> int:
    return threading.get_ident()


def test_sqlite_calls_run_in_the_loop_and_checkpoints_in_a_thread(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'hearts.db'}")
    upgrade(db.engine)
    wal = tmp_path / "hearts.db-wal"
    checkpoints: list[int] = []
    checkpoint = db.checkpoint

    def counted() -> None:
        checkpoints.append(threading.get_ident())
        checkpoint()

    db.checkpoint = counted  # type: ignore[method-assign]

    async def scenario() -> None:
        db.start()
        assert await db.run(_thread) == threading.get_ident()
        tokens = [await db.run(store.create_guest) for _ in range(200)]
        assert await db.run(store.player_exists, tokens[-1])
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        assert wal.stat().st_size > 0  # the commits went to the log...
        await asyncio.sleep(1.3)
        assert checkpoints and threading.get_ident() not in checkpoints  # ...copied by a thread
        await db.close()

    asyncio.run(scenario())
    with db.engine.connect() as connection:
        busy, frames, copied = connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
        assert busy == 0 and frames == copied  # everything is in the database file
        assert connection.exec_driver_sql("SELECT count(*) FROM players").scalar() == 200
    db.engine.dispose()


def test_postgresql_calls_run_in_threads() -> None:
    db = Database("postgresql+psycopg://hearts@127.0.0.1:1/hearts")  # never connects

    async def scenario() -> None:
        db.start()  # no checkpoints to take
        assert await db.run(_thread) != threading.get_ident()
        await db.close()

    assert not db.inline
    asyncio.run(scenario())
