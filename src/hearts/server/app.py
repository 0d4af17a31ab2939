"""The app factory: storage, bots, tables, sessions, routes, the socket and static files."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, WebSocket
from fastapi.staticfiles import StaticFiles

from hearts import __version__
from hearts.server.db.session import Database, upgrade
from hearts.server.limits import Bucket, Connections, Guard, client_address
from hearts.server.routes import accounts, api, coach, pages, stats, tables, testing
from hearts.server.routes.deps import display_name, session_player
from hearts.server.security import CsrfCheck, SessionCookies, origin_allowed, session_secret
from hearts.server.settings import Settings
from hearts.server.tables.bus import Bus, LocalBus, RedisBus
from hearts.server.tables.registry import TableRegistry
from hearts.server.tables.table import TableEnv
from hearts.server.workers import BotPool, CoachPool
from hearts.server.ws import connection

log = logging.getLogger(__name__)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The ASGI app; ``settings`` default to the environment's."""
    settings = settings if settings is not None else Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.db_url)
        upgrade(db.engine)
        db.start()
        pool = BotPool(settings.bot_workers, settings.bot_processes)
        coach = CoachPool(settings.bot_processes)
        bus: Bus = RedisBus(settings.redis_url) if settings.redis_url else LocalBus()
        env = TableEnv(
            db,
            pool,
            settings.pace_scale,
            settings.grace_seconds,
            bus,
            coach=coach if settings.coach_after_hand else None,
        )
        registry = TableRegistry(env)
        await bus.start(registry.on_change)
        app.state.registry = registry
        app.state.coach = coach
        try:
            yield
        finally:
            registry.close()
            await bus.close()
            pool.close()
            coach.close()
            await db.close()

    app = FastAPI(title="Hearts", version=__version__, lifespan=lifespan)
    app.state.settings = settings
    app.state.connections = Connections(
        settings.max_sockets_per_player, settings.max_sockets_per_address
    )
    app.add_middleware(CsrfCheck)  # inside the sessions: it reads the session's token
    app.add_middleware(SessionCookies, secret_key=session_secret(settings))
    app.add_middleware(Guard)  # outermost: headers on every answer, limits before anything

    app.include_router(pages.router)
    app.include_router(accounts.router)
    app.include_router(api.router)
    app.include_router(coach.router)
    app.include_router(stats.router)
    app.include_router(tables.router)
    if settings.test_autoplay:
        app.include_router(testing.router)

    @app.websocket("/ws")
    async def table_socket(socket: WebSocket) -> None:
        """Only for a page of this site (Origin) with a player in its session cookie."""
        registry: TableRegistry = socket.app.state.registry
        player = None
        if origin_allowed(socket.headers, settings):
            player = await session_player(registry.env.sessions, socket.session)
        if player is None:
            await socket.close(code=1008)  # before accept: the handshake gets HTTP 403
            return
        connections: Connections = socket.app.state.connections
        address = client_address(socket.scope)
        if not connections.open(player.token, address):
            await socket.close(code=1013)  # too many sockets open: try again later
            return
        try:
            rate = Bucket(settings.socket_rate, settings.socket_burst)
            await connection.serve(socket, registry, player.token, display_name(player), rate)
        finally:
            connections.close(player.token, address)

    app.mount(
        "/static",
        StaticFiles(directory=settings.web_dir / "static", check_dir=False),
        name="static",
    )
    return app
