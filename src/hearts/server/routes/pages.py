"""The pages: the game, the replay viewer and the help (files of the web folder)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, PlainTextResponse

from hearts.server.routes.deps import SettingsDep

HELP_PAGES: Final = (
    "rules",
    "first-game",
    "strategy",
    "mistakes",
    "adjudications",
    "history",
    "faq",
)

router = APIRouter()


def _page(path: Path) -> FileResponse:
    if not path.is_file():
        raise HTTPException(status_code=404, detail="No such page")
    return FileResponse(path, media_type="text/html; charset=utf-8")


@router.get("/", include_in_schema=False)
def game_page(settings: SettingsDep) -> FileResponse:
    return _page(settings.web_dir / "index.html")


@router.get("/replay", include_in_schema=False)
def replay_page(settings: SettingsDep) -> FileResponse:
    return _page(settings.web_dir / "replay.html")


@router.get("/help/{page}", include_in_schema=False)
def help_page(page: str, settings: SettingsDep) -> FileResponse:
    if page not in HELP_PAGES:
        raise HTTPException(status_code=404, detail="No such help page")
    return _page(settings.web_dir / "help" / f"{page}.html")


@router.get("/healthz", response_class=PlainTextResponse)
def healthz() -> str:
    return "ok"
