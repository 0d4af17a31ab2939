"""The pages: the game, the replay viewer, account, statistics, leaderboard and help."""

from __future__ import annotations

from pathlib import Path
from string import Template
from typing import Final

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse

from hearts.server.routes.deps import SettingsDep

HELP_TITLES: Final = {
    "rules": "Rules",
    "first-game": "Your first game",
    "strategy": "Strategy",
    "mistakes": "Common mistakes",
    "adjudications": "Our adjudications",
    "history": "History",
    "faq": "FAQ",
}
HELP_PAGES: Final = tuple(HELP_TITLES)

router = APIRouter()


def _page(path: Path) -> FileResponse:
    if not path.is_file():
        raise HTTPException(status_code=404, detail="No such page")
    return FileResponse(path, media_type="text/html; charset=utf-8")


@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
def game_page(settings: SettingsDep) -> FileResponse:
    return _page(settings.web_dir / "index.html")


@router.api_route("/replay", methods=["GET", "HEAD"], include_in_schema=False)
def replay_page(settings: SettingsDep) -> FileResponse:
    return _page(settings.web_dir / "replay.html")


@router.api_route("/tables/new", methods=["GET", "HEAD"], include_in_schema=False)
def new_table_page(settings: SettingsDep) -> FileResponse:
    return _page(settings.web_dir / "new-table.html")


@router.api_route("/t/{code}", methods=["GET", "HEAD"], include_in_schema=False)
def table_page(code: str, settings: SettingsDep) -> FileResponse:
    """A shared table (the page asks the socket for it; an unknown code is said there)."""
    return _page(settings.web_dir / "table.html")


@router.api_route("/account", methods=["GET", "HEAD"], include_in_schema=False)
def account_page(settings: SettingsDep) -> FileResponse:
    return _page(settings.web_dir / "account.html")


@router.api_route("/stats", methods=["GET", "HEAD"], include_in_schema=False)
def stats_page(settings: SettingsDep) -> FileResponse:
    return _page(settings.web_dir / "stats.html")


@router.api_route("/leaderboard", methods=["GET", "HEAD"], include_in_schema=False)
def leaderboard_page(settings: SettingsDep) -> FileResponse:
    return _page(settings.web_dir / "leaderboard.html")


@router.api_route("/help/{page}", methods=["GET", "HEAD"], include_in_schema=False)
def help_page(page: str, settings: SettingsDep) -> HTMLResponse:
    """The page's article in the help frame shared by all of them (``help/_layout.html``)."""
    if page not in HELP_TITLES:
        raise HTTPException(status_code=404, detail="No such help page")
    folder = settings.web_dir / "help"
    article = folder / f"{page}.html"
    if not article.is_file():
        raise HTTPException(status_code=404, detail="No such page")
    content = article.read_text(encoding="utf-8")
    layout = folder / "_layout.html"
    if not layout.is_file():
        return HTMLResponse(content)
    current = ' aria-current="page"'
    nav = "\n".join(
        f'        <li><a href="/help/{slug}"{current if slug == page else ""}>{title}</a></li>'
        for slug, title in HELP_TITLES.items()
    )
    html = Template(layout.read_text(encoding="utf-8")).substitute(
        title=HELP_TITLES[page], nav=nav, content=content
    )
    return HTMLResponse(html)


@router.head("/healthz", include_in_schema=False)
@router.get("/healthz", response_class=PlainTextResponse)
def healthz() -> str:
    return "ok"
