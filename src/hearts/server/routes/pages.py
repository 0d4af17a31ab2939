"""The pages: the game, the replay viewer, account, statistics, leaderboard and help."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from string import Template
from typing import Final

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse

from hearts.server.routes.deps import RegistryDep, SettingsDep

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


PAGES: Final = {
    "/": "index.html",
    "/replay": "replay.html",
    "/tables/new": "new-table.html",
    "/t/{code}": "table.html",  # the page asks the socket; an unknown code is said there
    "/account": "account.html",
    "/stats": "stats.html",
    "/leaderboard": "leaderboard.html",
}
"""Each page's path and its file in the web folder."""


def _serve_file(name: str) -> Callable[..., FileResponse]:
    def page(settings: SettingsDep) -> FileResponse:
        return _page(settings.web_dir / name)

    return page


for path, name in PAGES.items():
    router.add_api_route(path, _serve_file(name), methods=["GET", "HEAD"], include_in_schema=False)


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
def healthz(registry: RegistryDep) -> PlainTextResponse:
    """``ok``; 503 with the reason once the database file was lost under the server."""
    lost = registry.env.db.lost
    if lost is not None:
        return PlainTextResponse(lost, status_code=503)
    return PlainTextResponse("ok")
