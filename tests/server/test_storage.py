"""The migrations build exactly the models' tables; the core never imports the server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import sqlalchemy
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext

from hearts.server.db import players, store
from hearts.server.db.models import Base
from hearts.server.db.session import MIGRATIONS, make_engine, make_sessions, upgrade
from hearts.server.settings import Settings


def test_migrations_match_the_models(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'new' / 'hearts.db'}")
    upgrade(engine)
    upgrade(engine)  # a second run at startup is harmless
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert differences == []


def test_guests_of_the_first_version_keep_their_match(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    with engine.begin() as connection:
        connection.execute(
            sqlalchemy.text("INSERT INTO guests VALUES ('tok', '2026-01-01 00:00:00', 'm1')")
        )
        connection.execute(
            sqlalchemy.text(
                "INSERT INTO matches VALUES ('m1', 'tok', 'easy', 'active', '{}', 1, '[]',"
                " 0, 0, 'quick', 0, NULL, 0, 1, 3, '2026-01-01', '2026-01-01', NULL)"
            )
        )
    upgrade(engine)
    sessions = make_sessions(engine)
    info = players.player_info(sessions, "tok")
    assert info is not None and info.guest and info.ranking_points == 0
    data = store.current_match(sessions, "tok")
    assert data is not None and data.id == "m1" and data.version == 3
    engine.dispose()


def test_settings_from_the_environment(tmp_path: Path) -> None:
    settings = Settings.from_env({"HEARTS_DATA_DIR": str(tmp_path), "HEARTS_PORT": "9000"})
    assert settings.port == 9000
    assert settings.db_url == f"sqlite:///{tmp_path.as_posix()}/hearts.db"
    url = "postgresql+psycopg://h@db/hearts"
    assert Settings.from_env({"DATABASE_URL": url}).db_url == url
    settings = Settings.from_env(
        {
            "HEARTS_SECRET_KEY": "k" * 40,
            "HEARTS_ALLOWED_ORIGINS": "https://hearts.example/, https://b.example",
            "HEARTS_TEST_AUTOPLAY": "1",
        }
    )
    assert settings.secret_key == "k" * 40 and settings.test_autoplay
    assert settings.allowed_origins == ("https://hearts.example", "https://b.example")
    assert not Settings.from_env({}).test_autoplay
    rates = Settings.from_env({"HEARTS_SOCKET_RATE": "5", "HEARTS_SOCKET_BURST": "0"})
    assert (rates.socket_rate, rates.socket_burst) == (5.0, 1.0)


def test_the_command_line_imports_the_server_only_to_serve() -> None:
    script = (
        "import sys, hearts.cli; print(any(m.startswith('hearts.server') for m in sys.modules))"
    )
    output = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert output.stdout.strip() == "False"
