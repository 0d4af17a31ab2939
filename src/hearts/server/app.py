"""The app factory: storage, bots, tables, sessions, routes, the socket and static files."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from hearts import __version__
from hearts.server.db.session import Database, StorageLost, upgrade
from hearts.server.limits import Bucket, Connections, Guard, client_address
from hearts.server.routes import accounts, api, coach, pages, stats, tables, testing
from hearts.server.routes.deps import display_name, session_player
from hearts.server.security import (
    SAFE_METHODS,
    CsrfCheck,
    SessionCookies,
    check_data_folder,
    origin_allowed,
    session_secret,
)
from hearts.server.settings import Settings
from hearts.server.tables.bus import Bus, LocalBus, RedisBus
from hearts.server.tables.registry import TableRegistry
from hearts.server.tables.table import TableEnv
from hearts.server.work import BoundedWork
from hearts.server.workers import BotPool, CoachPool, Hints
from hearts.server.ws import connection

log = logging.getLogger(__name__)


class StorageGuard:
    """Refuse every change (503) once the database file was deleted or replaced."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            registry: TableRegistry | None = getattr(scope["app"].state, "registry", None)
            if registry is not None:
                try:
                    registry.env.db.check_file()
                except StorageLost as error:
                    await JSONResponse({"detail": str(error)}, status_code=503)(
                        scope, receive, send
                    )
                    return
        await self.app(scope, receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The ASGI app; ``settings`` default to the environment's."""
    settings = settings if settings is not None else Settings.from_env()
    check_data_folder(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.db_url)
        upgrade(db.engine)
        db.start()
        pool = BotPool(settings.bot_workers, settings.bot_processes)
        hints = Hints(BotPool(settings.hint_workers, settings.bot_processes), settings.hint_queue)
        coach = CoachPool(settings.bot_processes)
        bus: Bus = RedisBus(settings.redis_url) if settings.redis_url else LocalBus()
        env = TableEnv(
            db,
            pool,
            hints,
            settings.pace_scale,
            settings.grace_seconds,
            bus,
            coach=coach if settings.coach_after_hand else None,
        )
        registry = TableRegistry(env)
        await bus.start(registry.on_change)
        app.state.registry = registry
        app.state.coach = coach
        # Expensive work a client can ask for, bounded (work.py): password hashes in two
        # threads of their own, replays in one, each at most one per client at a time.
        app.state.passwords = BoundedWork("password check", workers=2, max_waiting=16)
        app.state.replays = BoundedWork("replay", workers=1, max_waiting=8)
        try:
            yield
        finally:
            registry.close()
            await bus.close()
            pool.close()
            hints.close()
            app.state.passwords.close()
            app.state.replays.close()
            coach.close()
            await db.close()

    app = FastAPI(title="Hearts", version=__version__, lifespan=lifespan)
    app.state.settings = settings
    app.state.connections = Connections(
        settings.max_sockets_per_player, settings.max_sockets_per_address
    )
    app.add_middleware(StorageGuard)  # no change accepted once the database file is gone
    app.add_middleware(CsrfCheck)  # inside the sessions: it reads the session's token
    app.add_middleware(SessionCookies, secret_key=session_secret(settings))
    app.add_middleware(Guard)  # outermost: headers on every answer, limits before anything

    app.include_router(pages.router)
    pages.install_not_found(app)  # an unknown page gets a page; the API keeps JSON
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

    @app.exception_handler(StorageLost)
    async def storage_lost(request: Request, error: StorageLost) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=503)

    app.mount(
        "/static",
        StaticFiles(directory=settings.web_dir / "static", check_dir=False),
        name="static",
    )
    return app
