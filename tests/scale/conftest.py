"""Fixtures for the several-processes tests: one PostgreSQL and one Redis per test session.

Each is a throwaway server of our own (see ``tests/services.py``) on a free
127.0.0.1 port, stopped and deleted when the session ends.  A test that wants
an empty database makes one on the server (``CREATE DATABASE``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

TESTS = str(Path(__file__).resolve().parent.parent)
if TESTS not in sys.path:
    # Run alone (``pytest tests/scale``), pytest would not put tests/ on the path.
    sys.path.insert(0, TESTS)

import services  # noqa: E402


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """``postgresql+psycopg://postgres@127.0.0.1:PORT/postgres`` (superuser, no password)."""
    services.require_services(postgres=True, redis=False)
    with services.postgres() as url:
        yield url


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """``redis://127.0.0.1:PORT/0`` on a Redis server that saves nothing."""
    services.require_services(postgres=False, redis=True)
    with services.redis() as url:
        yield url
