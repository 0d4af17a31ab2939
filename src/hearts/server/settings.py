"""One Settings object, read from the environment (and overridden by ``hearts serve``)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from hearts.server.limits import SOCKET_BURST, SOCKET_RATE

WEB_DIR: Final = Path(__file__).parent / "web"


def _default_workers() -> int:
    return max(1, min(4, (os.cpu_count() or 2) - 1))


@dataclass(frozen=True)
class Settings:
    """Everything the server can be told. Each field has an environment variable."""

    data_dir: Path = Path("data")
    """HEARTS_DATA_DIR: where the SQLite file lives (made when missing)."""
    database_url: str = ""
    """DATABASE_URL: any SQLAlchemy URL; default ``sqlite:///<data_dir>/hearts.db``."""
    host: str = "127.0.0.1"
    """HEARTS_HOST"""
    port: int = 8000
    """HEARTS_PORT"""
    bot_workers: int = field(default_factory=_default_workers)
    """HEARTS_BOT_WORKERS: how many bots may think at once."""
    hint_workers: int = 1
    """HEARTS_HINT_WORKERS: how many hints may be thought out at once (apart from the bots)."""
    hint_queue: int = 8
    """HEARTS_HINT_QUEUE: hints in flight at once, all players together (one per player)."""
    bot_processes: bool = True
    """HEARTS_BOT_PROCESSES: think in worker processes (true) or threads (false)."""
    coach_after_hand: bool = True
    """HEARTS_COACH_AFTER_HAND: review each person's decisions as soon as a hand ends (in the
    coach's own worker, stored), so the review is ready when asked for."""
    pace_scale: float = 1.0
    """HEARTS_PACE_SCALE: multiplies every pacing delay; 0 makes bots act at once (tests)."""
    web_dir: Path = WEB_DIR
    """HEARTS_WEB_DIR: the pages, help and static files."""
    secret_key: str = ""
    """HEARTS_SECRET_KEY: signs session cookies; default a key kept in ``<data_dir>/secret.key``."""
    allowed_origins: tuple[str, ...] = ()
    """HEARTS_ALLOWED_ORIGINS: more origins whose pages may open the WebSocket (comma-separated)."""
    redis_url: str = ""
    """REDIS_URL: with a PostgreSQL DATABASE_URL, lets several server processes share tables."""
    grace_seconds: float = 60.0
    """HEARTS_GRACE_SECONDS: how long a disconnected person's seat waits before a bot plays it."""
    max_sockets_per_player: int = 12
    """HEARTS_MAX_SOCKETS_PER_PLAYER: open WebSockets one session may have (per process)."""
    max_sockets_per_address: int = 500
    """HEARTS_MAX_SOCKETS_PER_ADDRESS: open WebSockets one client address may have (per process)."""
    socket_rate: float = SOCKET_RATE
    """HEARTS_SOCKET_RATE: messages a second one WebSocket may keep up."""
    socket_burst: float = SOCKET_BURST
    """HEARTS_SOCKET_BURST: messages one WebSocket may send at once before it is slowed down."""
    head_timeout: float = 10.0
    """HEARTS_HEAD_TIMEOUT: seconds a connection has to send a whole request head."""
    test_autoplay: bool = False
    """HEARTS_TEST_AUTOPLAY: adds POST /api/test/autoplay to finish a match quickly (tests)."""

    @property
    def db_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'hearts.db').as_posix()}"

    def with_changes(self, **changes: Any) -> Settings:
        """A copy with ``changes`` applied; ``None`` values are ignored."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if environ is None else environ)
        values: dict[str, Any] = {}
        if "HEARTS_DATA_DIR" in env:
            values["data_dir"] = Path(env["HEARTS_DATA_DIR"])
        if "DATABASE_URL" in env:
            values["database_url"] = env["DATABASE_URL"]
        if "HEARTS_HOST" in env:
            values["host"] = env["HEARTS_HOST"]
        if "HEARTS_PORT" in env:
            values["port"] = int(env["HEARTS_PORT"])
        if "HEARTS_BOT_WORKERS" in env:
            values["bot_workers"] = max(1, int(env["HEARTS_BOT_WORKERS"]))
        if "HEARTS_HINT_WORKERS" in env:
            values["hint_workers"] = max(1, int(env["HEARTS_HINT_WORKERS"]))
        if "HEARTS_HINT_QUEUE" in env:
            values["hint_queue"] = max(1, int(env["HEARTS_HINT_QUEUE"]))
        if "HEARTS_BOT_PROCESSES" in env:
            values["bot_processes"] = _flag(env["HEARTS_BOT_PROCESSES"])
        if "HEARTS_COACH_AFTER_HAND" in env:
            values["coach_after_hand"] = _flag(env["HEARTS_COACH_AFTER_HAND"])
        if "HEARTS_PACE_SCALE" in env:
            values["pace_scale"] = max(0.0, float(env["HEARTS_PACE_SCALE"]))
        if "HEARTS_WEB_DIR" in env:
            values["web_dir"] = Path(env["HEARTS_WEB_DIR"])
        if "HEARTS_SECRET_KEY" in env:
            values["secret_key"] = env["HEARTS_SECRET_KEY"]
        if "HEARTS_ALLOWED_ORIGINS" in env:
            origins = env["HEARTS_ALLOWED_ORIGINS"].split(",")
            cleaned = (origin.strip().rstrip("/") for origin in origins)
            values["allowed_origins"] = tuple(origin for origin in cleaned if origin)
        if "REDIS_URL" in env:
            values["redis_url"] = env["REDIS_URL"]
        if "HEARTS_GRACE_SECONDS" in env:
            values["grace_seconds"] = max(0.0, float(env["HEARTS_GRACE_SECONDS"]))
        if "HEARTS_MAX_SOCKETS_PER_PLAYER" in env:
            values["max_sockets_per_player"] = max(1, int(env["HEARTS_MAX_SOCKETS_PER_PLAYER"]))
        if "HEARTS_MAX_SOCKETS_PER_ADDRESS" in env:
            values["max_sockets_per_address"] = max(1, int(env["HEARTS_MAX_SOCKETS_PER_ADDRESS"]))
        if "HEARTS_SOCKET_RATE" in env:
            values["socket_rate"] = max(0.1, float(env["HEARTS_SOCKET_RATE"]))
        if "HEARTS_SOCKET_BURST" in env:
            values["socket_burst"] = max(1.0, float(env["HEARTS_SOCKET_BURST"]))
        if "HEARTS_HEAD_TIMEOUT" in env:
            values["head_timeout"] = max(0.1, float(env["HEARTS_HEAD_TIMEOUT"]))
        if "HEARTS_TEST_AUTOPLAY" in env:
            values["test_autoplay"] = _flag(env["HEARTS_TEST_AUTOPLAY"])
        return cls(**values)


def _flag(text: str) -> bool:
    return text.strip().lower() in ("1", "true", "yes")
