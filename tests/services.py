"""Throwaway PostgreSQL and Redis servers for the tests, on free loopback ports.

``postgres()`` makes a fresh cluster with Debian's ``initdb`` and runs it with
``pg_ctl``; ``redis()`` runs ``redis-server`` without persistence.  Both listen
on 127.0.0.1 only, yield a URL, and at exit stop the server and delete its
folder.  ``make test`` installs the binaries (scripts/ensure-services.sh) and
sets HEARTS_REQUIRE_SERVICES=1, so that missing ones fail the tests instead of
skipping them (``require_services``).

PostgreSQL refuses to run as root: as root, the cluster belongs to the
``postgres`` system user (made by Debian's package; created here if missing).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

POSTGRES_ROOT = Path("/usr/lib/postgresql")
POSTGRES_USER = "postgres"
POSTGRES_BINARIES = ("initdb", "pg_ctl", "postgres")
START_TIMEOUT = 60.0
"""Seconds a server may take to accept connections (PostgreSQL takes about one)."""
ATTEMPTS = 3
"""Tries on new ports, should another program take the free port we picked first."""


class ServiceError(RuntimeError):
    """A server that would not start (the message carries the end of its log)."""


# --- finding the binaries ----------------------------------------------------------


def postgres_bin_dir() -> Path | None:
    """The bin folder of the highest PostgreSQL version with initdb, pg_ctl and postgres."""
    if not POSTGRES_ROOT.is_dir():
        return None
    versions = sorted(
        (entry for entry in POSTGRES_ROOT.iterdir() if _version_key(entry.name) is not None),
        key=lambda entry: _version_key(entry.name) or (),
        reverse=True,
    )
    for version in versions:
        bin_dir = version / "bin"
        if all(os.access(bin_dir / name, os.X_OK) for name in POSTGRES_BINARIES):
            return bin_dir
    return None


def _version_key(name: str) -> tuple[int, ...] | None:
    try:
        return tuple(int(part) for part in name.split("."))
    except ValueError:
        return None


def redis_server_path() -> str | None:
    return shutil.which("redis-server")


def services_available() -> bool:
    """Whether both PostgreSQL's server binaries and redis-server are installed."""
    return postgres_bin_dir() is not None and redis_server_path() is not None


def require_services(*, postgres: bool = True, redis: bool = True) -> None:
    """Skip the test when a server binary is missing, or fail under HEARTS_REQUIRE_SERVICES=1.

    Call it from a fixture before starting a server.
    """
    missing = []
    if postgres and postgres_bin_dir() is None:
        missing.append(f"PostgreSQL (initdb, pg_ctl, postgres under {POSTGRES_ROOT}/*/bin)")
    if redis and redis_server_path() is None:
        missing.append("redis-server")
    if not missing:
        return
    what = " and ".join(missing)
    if os.environ.get("HEARTS_REQUIRE_SERVICES") == "1":
        pytest.fail(
            f"{what} required but not installed (HEARTS_REQUIRE_SERVICES=1): run "
            "`sh scripts/ensure-services.sh` as root, or apt-get install postgresql redis-server",
            pytrace=False,
        )
    pytest.skip(f"{what} not installed (make test installs Debian's postgresql and redis-server)")


# --- PostgreSQL ---------------------------------------------------------------------


@contextlib.contextmanager
def postgres(parent: str | Path | None = None) -> Iterator[str]:
    """A fresh PostgreSQL cluster on a free 127.0.0.1 port; yields its SQLAlchemy URL.

    The cluster lives in a new folder under ``parent`` (default the system's
    temporary folder), which must be reachable by the ``postgres`` user when
    running as root: pytest's own ``tmp_path`` folders are not (mode 0700).
    Superuser ``postgres``, no password (trust), no fsync: for tests only.
    """
    bin_dir = postgres_bin_dir()
    if bin_dir is None:
        raise ServiceError(f"PostgreSQL's server binaries are not under {POSTGRES_ROOT}/*/bin")
    owner = _postgres_owner()
    base = Path(tempfile.mkdtemp(prefix="hearts-pg-", dir=parent))
    try:
        data, sockets, log = base / "data", base / "sockets", base / "postgres.log"
        sockets.mkdir()
        if owner is not None:
            for path in (base, sockets):
                os.chown(path, owner.pw_uid, owner.pw_gid)
        _run_as(
            owner,
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-A",
                "trust",
                "-U",
                POSTGRES_USER,
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
            cwd=base,
        )
        port = _start_postgres(bin_dir, owner, base, data, sockets, log)
        try:
            yield f"postgresql+psycopg://{POSTGRES_USER}@127.0.0.1:{port}/postgres"
        finally:
            _run_as(
                owner,
                [str(bin_dir / "pg_ctl"), "-D", str(data), "stop", "-m", "fast", "-w"],
                cwd=base,
                check=False,
            )
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _start_postgres(
    bin_dir: Path, owner: pwd.struct_passwd | None, base: Path, data: Path, sockets: Path, log: Path
) -> int:
    for attempt in range(ATTEMPTS):
        port = free_port()
        options = (
            f"-c listen_addresses=127.0.0.1 -k {sockets} -p {port} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        started = _run_as(
            owner,
            [
                str(bin_dir / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(log),
                "-o",
                options,
                "-w",
                "-t",
                str(int(START_TIMEOUT)),
                "start",
            ],
            cwd=base,
            check=False,
        )
        if started.returncode == 0 and _wait_for_port(port):
            return port
        # Stop whatever may have come up before trying another port.
        _run_as(
            owner,
            [str(bin_dir / "pg_ctl"), "-D", str(data), "stop", "-m", "immediate", "-w"],
            cwd=base,
            check=False,
        )
        if attempt == ATTEMPTS - 1:
            raise ServiceError(
                f"PostgreSQL did not start: {started.stdout}{started.stderr}\n{_tail(log)}"
            )
    raise AssertionError("unreachable")


def _postgres_owner() -> pwd.struct_passwd | None:
    """The user to run PostgreSQL as: ``postgres`` when we are root, else ourselves (None)."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(POSTGRES_USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--user-group", "--no-create-home", POSTGRES_USER],
            check=True,
            capture_output=True,
        )
        return pwd.getpwnam(POSTGRES_USER)


def _run_as(
    owner: pwd.struct_passwd | None, command: list[str], *, cwd: Path, check: bool = True
) -> subprocess.CompletedProcess[str]:
    if owner is not None:
        command = ["runuser", "-u", owner.pw_name, "--", *command]
    # pg_ctl's server writes to its -l log, so it does not hold our pipes open.
    result = subprocess.run(
        command,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT + 30,
        check=False,
    )
    if check and result.returncode != 0:
        raise ServiceError(f"{' '.join(command)} failed: {result.stdout}{result.stderr}")
    return result


# --- Redis --------------------------------------------------------------------------


@contextlib.contextmanager
def redis(parent: str | Path | None = None) -> Iterator[str]:
    """A ``redis-server`` on a free 127.0.0.1 port, nothing saved; yields ``redis://...``."""
    server = redis_server_path()
    if server is None:
        raise ServiceError("redis-server is not installed")
    base = Path(tempfile.mkdtemp(prefix="hearts-redis-", dir=parent))
    process: subprocess.Popen[bytes] | None = None
    try:
        for attempt in range(ATTEMPTS):
            port = free_port()
            log = base / f"redis-{port}.log"
            with log.open("wb") as output:
                process = subprocess.Popen(
                    [
                        server,
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--dir",
                        str(base),
                    ],
                    cwd=base,
                    stdin=subprocess.DEVNULL,
                    stdout=output,
                    stderr=subprocess.STDOUT,
                )
            if _wait_for_redis(port, process):
                break
            _stop(process)
            process = None
            if attempt == ATTEMPTS - 1:
                raise ServiceError(f"redis-server did not start:\n{_tail(log)}")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        if process is not None:
            _stop(process)
        shutil.rmtree(base, ignore_errors=True)


def _wait_for_redis(port: int, process: subprocess.Popen[bytes]) -> bool:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1) as sock:
            sock.sendall(b"PING\r\n")
            if sock.recv(64).startswith(b"+PONG"):
                return True
        time.sleep(0.05)
    return False


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# --- shared -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for_port(port: int) -> bool:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return True
        time.sleep(0.05)
    return False


def _tail(log: Path, lines: int = 20) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return f"(no log at {log})"


@contextlib.contextmanager
def fresh_database(server_url: str, prefix: str = "hearts_test") -> Iterator[str]:
    """A new, empty database on the PostgreSQL server ``server_url``, dropped afterwards."""
    import uuid

    import sqlalchemy

    url = sqlalchemy.make_url(server_url)
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = sqlalchemy.create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()
