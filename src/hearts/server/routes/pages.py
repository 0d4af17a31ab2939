"""The pages: the game, the replay viewer, account, statistics, leaderboard and help."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from string import Template
from typing import Final

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from hearts.server.routes.deps import RegistryDep, SettingsDep
from hearts.server.settings import Settings

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
HELP_SUMMARIES: Final = {
    "rules": "How a hand is played and scored, from the deal to the end of the match.",
    "first-game": "A walk through your first match: passing, playing, the buttons on the table.",
    "strategy": "Ideas that win: what to pass, when to duck, when to go for the moon.",
    "mistakes": "The slips new players make most, and how to avoid them.",
    "adjudications": "How this game settles the points the rules leave open, and the house rules.",
    "history": "Where Hearts comes from, and the variants people play.",
    "faq": "Short answers: the queen, ties, ranking points, saving, accounts.",
}
NOT_API: Final = ("/api/", "/ws", "/static/", "/healthz", "/openapi.json", "/docs", "/redoc")
"""Paths whose 404 stays a JSON problem: the API and the machinery."""

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


def _help_html(settings: Settings, title: str, content: str, current: str | None) -> str:
    """``content`` in the help frame (``help/_layout.html``), its navigation marking ``current``."""
    layout = settings.web_dir / "help" / "_layout.html"
    if not layout.is_file():
        return content
    mark = ' aria-current="page"'
    nav = "\n".join(
        f'        <li><a href="/help/{slug}"{mark if slug == current else ""}>{name}</a></li>'
        for slug, name in HELP_TITLES.items()
    )
    return Template(layout.read_text(encoding="utf-8")).substitute(
        title=title, nav=nav, content=content
    )


_EMBED: Final = Template("""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>$title — Hearts help</title>
  <link rel="stylesheet" href="/static/style.css">
  <base target="_blank">
</head>
<body class="help-page help-embed">
  <main>
$content
  </main>
</body>
</html>
""")
"""A help article alone, for the game's Rules dialog: no site navigation in the
frame, and its links open a new tab, so the game page is never loaded inside
the dialog and the match is not left."""


@router.api_route("/help", methods=["GET", "HEAD"], include_in_schema=False)
@router.api_route("/help/", methods=["GET", "HEAD"], include_in_schema=False)
def help_index(settings: SettingsDep) -> HTMLResponse:
    """The list of help pages, each with a line on what it holds."""
    items = "\n".join(
        f'  <li><a href="/help/{slug}">{title}</a> <span class="help-summary">'
        f"{HELP_SUMMARIES[slug]}</span></li>"
        for slug, title in HELP_TITLES.items()
    )
    content = (
        '<h1>Help</h1>\n<p>New here? Start with <a href="/help/first-game">your first game</a>.'
        f'</p>\n<ul class="help-index">\n{items}\n</ul>'
    )
    return HTMLResponse(_help_html(settings, "Help", content, None))


@router.api_route("/help/{page}", methods=["GET", "HEAD"], include_in_schema=False)
def help_page(page: str, settings: SettingsDep, embed: bool = False) -> HTMLResponse:
    """The page's article in the help frame shared by all of them (``help/_layout.html``);
    ``?embed=1``: the article alone, as the Rules dialog of a game page shows it."""
    if page not in HELP_TITLES:
        raise HTTPException(status_code=404, detail="No such help page")
    article = settings.web_dir / "help" / f"{page}.html"
    if not article.is_file():
        raise HTTPException(status_code=404, detail="No such page")
    content = article.read_text(encoding="utf-8")
    if embed:
        return HTMLResponse(_EMBED.substitute(title=HELP_TITLES[page], content=content))
    return HTMLResponse(_help_html(settings, HELP_TITLES[page], content, page))


NOT_FOUND_TEXT: Final = """<h1>There is no page here</h1>
<p>The address may be mistyped, or the page has moved.</p>
<ul>
  <li><a href="/">Play against the computer</a></li>
  <li><a href="/tables/new">Play with friends</a></li>
  <li><a href="/help">Help</a></li>
</ul>"""


async def not_found(request: Request, error: Exception) -> Response:
    """A 404 for a page: a friendly page in the site's layout. The API and the
    machinery (``NOT_API``) keep their JSON problems, and any other error is
    answered as FastAPI would."""
    assert isinstance(error, StarletteHTTPException)
    path = request.url.path
    if (
        error.status_code != 404
        or path.startswith(NOT_API)
        or request.method not in ("GET", "HEAD")
    ):
        return await http_exception_handler(request, error)
    settings: Settings = request.app.state.settings
    html = _help_html(settings, "Page not found", NOT_FOUND_TEXT, None)
    return HTMLResponse(html, status_code=404)


def install_not_found(app: FastAPI) -> None:
    """Answer unknown pages with ``not_found`` (called by the app factory)."""
    app.add_exception_handler(StarletteHTTPException, not_found)


@router.head("/healthz", include_in_schema=False)
@router.get("/healthz", response_class=PlainTextResponse)
def healthz(registry: RegistryDep) -> PlainTextResponse:
    """``ok``; 503 with the reason once the database file was lost under the server."""
    lost = registry.env.db.lost
    if lost is not None:
        return PlainTextResponse(lost, status_code=503)
    return PlainTextResponse("ok")
