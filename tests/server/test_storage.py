"""The migrations build exactly the models' tables; the core never imports the server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from hearts.server.db.models import Base
from hearts.server.db.session import make_engine, upgrade
from hearts.server.settings import Settings


def test_migrations_match_the_models(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'new' / 'hearts.db'}")
    upgrade(engine)
    upgrade(engine)  # a second run at startup is harmless
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert differences == []


def test_settings_from_the_environment(tmp_path: Path) -> None:
    settings = Settings.from_env({"HEARTS_DATA_DIR": str(tmp_path), "HEARTS_PORT": "9000"})
    assert settings.port == 9000
    assert settings.db_url == f"sqlite:///{tmp_path.as_posix()}/hearts.db"
    url = "postgresql+psycopg://h@db/hearts"
    assert Settings.from_env({"DATABASE_URL": url}).db_url == url


def test_the_command_line_imports_the_server_only_to_serve() -> None:
    script = (
        "import sys, hearts.cli; print(any(m.startswith('hearts.server') for m in sys.modules))"
    )
    output = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert output.stdout.strip() == "False"
