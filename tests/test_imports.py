"""The core imports only the standard library: no web, database or server module."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import hearts

CORE = ("cards", "rules", "errors", "deal", "hand", "match", "view", "record")
FORBIDDEN = (
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "redis",
    "asyncpg",
    "psycopg",
    "psycopg2",
    "aiosqlite",
    "sqlite3",
    "pydantic",
    "jinja2",
    "httpx",
    "requests",
    "websockets",
    "hearts.server",
)
SOURCE = Path(hearts.__file__).parent


def modules_after(statement: str) -> set[str]:
    """The modules loaded by ``statement`` in a fresh interpreter, beyond its startup."""
    script = (
        "import sys, json\n"
        "before = set(sys.modules)\n"
        f"{statement}\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    loaded: list[str] = json.loads(output)
    return set(loaded)


def forbidden_in(modules: set[str]) -> set[str]:
    return {m for m in modules for bad in FORBIDDEN if m == bad or m.startswith(bad + ".")}


def test_import_hearts_loads_no_web_or_database_module() -> None:
    loaded = modules_after("import hearts")
    assert "hearts" in loaded and "hearts.match" in loaded
    assert forbidden_in(loaded) == set()


def test_import_hearts_loads_only_the_standard_library() -> None:
    loaded = modules_after("import hearts")
    outside = {
        name
        for name in loaded
        if name.split(".")[0] not in sys.stdlib_module_names and name.split(".")[0] != "hearts"
    }
    assert outside == set()


@pytest.mark.parametrize("module", CORE)
def test_core_modules_never_import_the_server(module: str) -> None:
    loaded = modules_after(f"import hearts.{module}")
    assert f"hearts.{module}" in loaded
    assert forbidden_in(loaded) == set()


@pytest.mark.parametrize("module", CORE)
def test_core_sources_name_no_server_import(module: str) -> None:
    tree = ast.parse((SOURCE / f"{module}.py").read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            imported.add(node.module)
            imported |= {f"{node.module}.{alias.name}" for alias in node.names}
    assert forbidden_in(imported) == set()
    for name in imported:
        top = name.split(".")[0]
        assert top in sys.stdlib_module_names or top == "hearts", name


def test_the_check_can_see_a_forbidden_import() -> None:
    # The control: a module the check must catch is caught.
    assert forbidden_in(modules_after("import json.decoder; import sqlite3")) >= {"sqlite3"}


def test_the_public_api() -> None:
    for name in hearts.__all__:
        assert hasattr(hearts, name), name
    assert hearts.__version__
