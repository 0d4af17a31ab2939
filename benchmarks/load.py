"""Load test of the web game: N browsers playing solo matches at once against one or more servers.

Starts ``hearts serve`` itself on 127.0.0.1 (a free port, a fresh temporary
data folder, SQLite unless ``--postgres``), then drives ``--tables`` clients,
each a guest with its own session and WebSocket playing solo matches against
Easy computers (``new_match``, then ``confirm_pass`` / ``continue`` / ``play``
/ ``next_hand`` as the states ask; a new match when one ends), ramped up
over ``--ramp`` seconds.  Every intent carries ``seq`` and ``version``; its
latency runs from sending it to its acknowledgement: the first ``state``
whose ``version`` is greater than the one it was sent against, or an
``error`` echoing its ``seq``.  Latencies and actions/s are taken over the
window after the ramp.

Each client sends its own ``X-Forwarded-For`` address (uvicorn trusts it
from 127.0.0.1, as from nginx), so that the server's per-address limits see
many browsers as in production (``--one-address``: all are 127.0.0.1).

Errors: every ``error`` code counts, except ``stale`` (harmless: the intent
was sent against a version the table had already left, nothing changed, the
client acts on the next state; reported apart).  ``timeout`` is an intent
not answered within ``--ack-timeout``; ``lost`` one whose connection
dropped before its answer.

    .venv/bin/python benchmarks/load.py --pace-scale 1        # 200 tables at quick pace, SQLite
    .venv/bin/python benchmarks/load.py                       # the same twenty times faster
    .venv/bin/python benchmarks/load.py --tables 50 --seconds 30
    .venv/bin/python benchmarks/load.py --processes 2 --postgres --redis
    .venv/bin/python benchmarks/load.py --json > result.json

Needs the venv with the server, ``websockets`` and ``httpx`` (``make test``
installs them); ``--postgres``/``--redis`` need Debian's postgresql and
redis-server (``make services``).  The client code is
``tests/scale/scale_client.py``, shared with the crash test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import random
import secrets
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


sc = _load("scale_client", ROOT / "tests" / "scale" / "scale_client.py")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=(
            "Load test: start hearts serve (SQLite by default) and drive N concurrent "
            "browsers, each playing solo matches against the computers; print actions/s, "
            "latency percentiles, errors, reconnects and the servers' memory."
        ),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    load = parser.add_argument_group("load")
    load.add_argument(
        "--tables", type=int, default=200, help="concurrent clients, each with its own solo table"
    )
    load.add_argument(
        "--seconds",
        type=float,
        default=60.0,
        help="time limit of the whole run, ramp included; figures are taken after the ramp",
    )
    load.add_argument(
        "--ramp", type=float, default=10.0, help="seconds over which the clients start, evenly"
    )
    load.add_argument(
        "--actions",
        type=int,
        default=1_000_000,
        help="cap on the intents sent by all clients together (the run stops when it is spent)",
    )
    load.add_argument(
        "--level", choices=("easy", "normal", "expert"), default="easy", help="the computers' level"
    )
    load.add_argument(
        "--pace",
        choices=("quick", "relaxed", "none"),
        default="quick",
        help="the pace each client sets on its table (set_pace); none: leave the default",
    )
    load.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a client waits before each intent (0: act at once; a person: ~1-3)",
    )
    load.add_argument(
        "--ack-timeout",
        type=float,
        default=30.0,
        help="seconds without an answer after which an intent counts as a timeout",
    )
    load.add_argument(
        "--no-compression",
        action="store_true",
        help="clients do not offer permessage-deflate (browsers do; saves CPU on both sides)",
    )
    load.add_argument(
        "--one-address",
        action="store_true",
        help=(
            "do not send X-Forwarded-For: every client is 127.0.0.1, so the server's "
            "per-address limits (HTTP rate, open sockets) apply to all of them together"
        ),
    )
    load.add_argument("--seed", type=int, default=1, help="seed of the clients' jitter")

    server = parser.add_argument_group("server")
    server.add_argument(
        "--processes", type=int, default=1, help="hearts serve processes (more than 1 needs PG)"
    )
    server.add_argument(
        "--postgres",
        action="store_true",
        help="a throwaway PostgreSQL cluster (tests/services.py) instead of SQLite",
    )
    server.add_argument(
        "--redis",
        action="store_true",
        help="a throwaway Redis (REDIS_URL): the processes share tables over it",
    )
    server.add_argument(
        "--pace-scale",
        type=float,
        default=0.05,
        help="HEARTS_PACE_SCALE of the servers: multiplies the computers' pacing delays",
    )
    server.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        help="HEARTS_BOT_WORKERS per process (default: about the cores divided by --processes)",
    )
    server.add_argument(
        "--bot-threads",
        action="store_true",
        help="HEARTS_BOT_PROCESSES=false: bots think in threads of the server process",
    )
    server.add_argument(
        "--url",
        action="append",
        default=None,
        help="use this running server instead of starting one (repeatable; no memory figures)",
    )
    server.add_argument(
        "--keep",
        action="store_true",
        help="keep the temporary folder (server logs, SQLite file) and print its path",
    )

    output = parser.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print the results as one JSON object")
    output.add_argument(
        "--no-uvloop", action="store_true", help="run the clients on asyncio's own loop"
    )
    args = parser.parse_args(argv)
    if args.processes < 1 or args.tables < 1:
        parser.error("--processes and --tables must be at least 1")
    if args.processes > 1 and not (args.postgres and args.redis) and not args.url:
        parser.error("several processes need --postgres and --redis (SQLite is one process)")
    if args.ramp >= args.seconds:
        parser.error("--ramp must be shorter than --seconds (figures are taken after the ramp)")
    return args


# --- servers ----------------------------------------------------------------------------


def server_env(args: argparse.Namespace, secret: str) -> dict[str, str]:
    workers = args.bot_workers
    if workers is None:
        workers = max(1, ((os.cpu_count() or 2) - 1) // args.processes)
    return {
        "HEARTS_PACE_SCALE": str(args.pace_scale),
        "HEARTS_BOT_WORKERS": str(workers),
        "HEARTS_BOT_PROCESSES": "false" if args.bot_threads else "true",
        "HEARTS_SECRET_KEY": secret,
    }


def start_servers(
    args: argparse.Namespace, folder: Path, database_url: str | None, redis_url: str | None
) -> list[Any]:
    secret = secrets.token_urlsafe(32)
    env = server_env(args, secret)
    if database_url:
        env["DATABASE_URL"] = database_url
    if redis_url:
        env["REDIS_URL"] = redis_url
    servers = []
    try:
        for number in range(args.processes):
            server = sc.ServerProcess(
                _free_port(),
                env,
                folder / f"server-{number + 1}.log",
                data_dir=folder / f"data-{number + 1}",
            )
            server.start()
            servers.append(server)
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return servers


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- measuring --------------------------------------------------------------------------


class Sampler:
    """The servers' memory (process + bot workers, via /proc) every second."""

    def __init__(self, roots: list[int]) -> None:
        self.roots = roots
        self.max_mb = 0.0
        self.last_mb = 0.0
        self.per_process_max: list[float] = [0.0] * len(roots)

    def sample(self) -> None:
        total = 0.0
        for index, root in enumerate(self.roots):
            mb = sum(sc.rss_mb(pid) for pid in sc.process_tree(root))
            self.per_process_max[index] = max(self.per_process_max[index], mb)
            total += mb
        self.last_mb = total
        self.max_mb = max(self.max_mb, total)

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await asyncio.to_thread(self.sample)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)


class LagMonitor:
    """How late the load client's own event loop wakes up (its share of the latencies)."""

    def __init__(self) -> None:
        self.lags: list[float] = []

    async def run(self, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            start = loop.time()
            await asyncio.sleep(0.05)
            self.lags.append((loop.time() - start - 0.05) * 1000)


def address(number: int) -> str:
    """A distinct client address per browser (10.0.0.1, 10.0.0.2, ...)."""
    number += 1
    return f"10.{number >> 16 & 255}.{number >> 8 & 255}.{number & 255}"


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of sorted ``values`` (0 when empty)."""
    if not values:
        return 0.0
    rank = max(1, min(len(values), int(fraction * len(values) + 0.999999)))
    return values[rank - 1]


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "p50": percentile(ordered, 0.50),
        "p95": percentile(ordered, 0.95),
        "p99": percentile(ordered, 0.99),
        "max": ordered[-1] if ordered else 0.0,
    }


# --- the run ----------------------------------------------------------------------------


async def drive(args: argparse.Namespace, urls: list[str], roots: list[int]) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    stats = sc.Stats()
    budget = sc.Budget(args.actions)
    rng = random.Random(args.seed)
    pace = None if args.pace == "none" else args.pace
    players = []
    for number in range(args.tables):
        home = urls[number % len(urls)]
        # After a failed attempt a client tries the next process (as nginx would).
        order = urls[urls.index(home) :] + urls[: urls.index(home)]
        players.append(
            sc.Player(
                home,
                urls=order,
                stats=stats,
                budget=budget,
                level=args.level,
                pace=pace,
                think=args.think,
                ack_timeout=args.ack_timeout,
                rng=random.Random(rng.random()),
                compression=None if args.no_compression else "deflate",
                forwarded_for=None if args.one_address else address(number),
            )
        )
    stop_monitors = asyncio.Event()
    sampler = Sampler(roots)
    lag = LagMonitor()
    monitors = [asyncio.create_task(lag.run(stop_monitors))]
    if roots:
        monitors.append(asyncio.create_task(sampler.run(stop_monitors)))

    started = loop.time()
    perf_start = time.perf_counter()
    tasks: list[asyncio.Task[None]] = []

    async def ramp() -> None:
        for number, player in enumerate(players):
            moment = started + args.ramp * number / len(players)
            await asyncio.sleep(max(0.0, moment - loop.time()))
            tasks.append(asyncio.create_task(player.run()))

    ramping = asyncio.create_task(ramp())
    await asyncio.sleep(args.ramp)
    await ramping
    window_start = time.perf_counter()
    cpu_before = sc.cpu_snapshot(roots)
    client_before = os.times()
    lag.lags.clear()
    deadline = started + args.seconds
    while loop.time() < deadline and not budget.spent:
        await asyncio.sleep(min(0.2, max(0.0, deadline - loop.time())))
    window_end = time.perf_counter()
    cpu_after = sc.cpu_snapshot(roots)
    client_after = os.times()
    lags = list(lag.lags)
    if roots:
        await asyncio.to_thread(sampler.sample)
    for player in players:
        player.stop.set()
    # Let the intents in flight be answered (their latencies count; they were sent in time).
    await asyncio.wait(tasks, timeout=args.ack_timeout + 5)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    stop_monitors.set()
    await asyncio.gather(*monitors, return_exceptions=True)

    measured = [(sent, ms, kind) for sent, ms, kind in stats.latencies if sent >= window_start]
    window = window_end - window_start
    harmless = {c: n for c, n in stats.errors.items() if c in sc.HARMLESS_ERRORS}
    errors = {c: n for c, n in stats.errors.items() if c not in sc.HARMLESS_ERRORS}
    by_kind: dict[str, list[float]] = {}
    for _, ms, kind in measured:
        by_kind.setdefault(kind, []).append(ms)
    wall = cpu_after.wall - cpu_before.wall

    def pct(seconds: float) -> float:
        return round(100 * seconds / wall, 1) if wall > 0 else 0.0

    client_cpu = (client_after.user + client_after.system) - (
        client_before.user + client_before.system
    )
    machine_busy = cpu_after.machine_busy - cpu_before.machine_busy
    server_cpu = {
        "event_loop": pct(cpu_after.loop - cpu_before.loop),
        "other_threads": pct(cpu_after.threads - cpu_before.threads),
        "bot_workers": pct(cpu_after.workers - cpu_before.workers),
    }
    return {
        "clients": args.tables,
        "processes": len(urls),
        "database": "postgresql" if args.postgres else "sqlite",
        "redis": bool(args.redis),
        "pace": args.pace,
        "pace_scale": args.pace_scale,
        "think_s": args.think,
        "bot_workers": None if args.url else int(server_env(args, "")["HEARTS_BOT_WORKERS"]),
        "bot_processes": not args.bot_threads,
        "compression": not args.no_compression,
        "ramp_s": args.ramp,
        "duration_s": round(window, 2),
        "total_s": round(time.perf_counter() - perf_start, 2),
        "actions_sent": len(measured),
        "actions_sent_all": stats.sent,
        "actions_per_s": round(len(measured) / window, 1) if window > 0 else 0.0,
        "latency_ms": {k: round(v, 1) for k, v in summary([ms for _, ms, _ in measured]).items()},
        "latency_ms_by_type": {
            kind: {"count": len(values), **{k: round(v, 1) for k, v in summary(values).items()}}
            for kind, values in sorted(by_kind.items())
        },
        "errors": dict(sorted(errors.items())),
        "harmless_errors": dict(sorted(harmless.items())),
        "reconnects": stats.reconnects,
        "resyncs": stats.resyncs,
        "matches_started": stats.matches_started,
        "matches_finished": stats.matches_finished,
        "server_memory_mb": (
            {
                "max": round(sampler.max_mb, 1),
                "end": round(sampler.last_mb, 1),
                "max_per_process": [round(mb, 1) for mb in sampler.per_process_max],
            }
            if roots
            else None
        ),
        "cpu_percent": {
            "cores": os.cpu_count(),
            "server": server_cpu if roots else None,
            "load_client": pct(client_cpu),
            "machine": pct(machine_busy),
            "other": (
                pct(machine_busy - client_cpu - sum(s * wall / 100 for s in server_cpu.values()))
                if roots
                else None
            ),
        },
        "client_loop_lag_ms": {k: round(v, 1) for k, v in summary(lags).items()},
        "connect_failures": dict(
            Counter(f.split(":", 1)[0] for p in players for f in p.failures).most_common()
        ),
    }


def report(result: dict[str, Any]) -> str:
    lat = result["latency_ms"]
    errors = ", ".join(f"{code} {count}" for code, count in result["errors"].items()) or "none"
    harmless = ", ".join(f"{c} {n}" for c, n in result["harmless_errors"].items())
    if harmless:
        errors += f" (harmless: {harmless})"
    setup = (
        f"{result['processes']} process{'es' if result['processes'] > 1 else ''}, "
        f"{result['database']}{' + redis' if result['redis'] else ''}, "
        f"pace {result['pace']} x {result['pace_scale']}, think {result['think_s']} s, "
        f"bots: {result['bot_workers']} "
        f"{'worker process' if result['bot_processes'] else 'thread'}(s) per process"
    )
    cpu = result["cpu_percent"]
    lines = [
        f"setup              {setup}",
        f"clients            {result['clients']} (ramp {result['ramp_s']:g} s)",
        f"duration           {result['duration_s']:.1f} s measured after the ramp "
        f"({result['total_s']:.1f} s in all)",
        f"actions sent       {result['actions_sent']} in the window "
        f"({result['actions_sent_all']} in all)",
        f"actions/s          {result['actions_per_s']:.1f}",
        f"latency ms         p50 {lat['p50']:.1f}  p95 {lat['p95']:.1f}  "
        f"p99 {lat['p99']:.1f}  max {lat['max']:.1f}",
        f"errors             {errors}",
        f"reconnects         {result['reconnects']}"
        + (f" (resyncs {result['resyncs']})" if result["resyncs"] else ""),
    ]
    memory = result["server_memory_mb"]
    if memory is not None:
        per = " + ".join(f"{mb:.0f}" for mb in memory["max_per_process"])
        lines.append(
            f"server memory MB   max {memory['max']:.1f}, end {memory['end']:.1f} "
            f"(RSS of the server process(es) and bot workers; max per process {per})"
        )
    if cpu["server"] is not None:
        server = cpu["server"]
        lines.append(
            f"CPU % (window)     server event loop {server['event_loop']}, server other threads "
            f"{server['other_threads']}, bot workers {server['bot_workers']}, load client "
            f"{cpu['load_client']}, other {cpu['other']}; machine {cpu['machine']} "
            f"of {100 * (cpu['cores'] or 1)} (busy before the run: {cpu['background_before']})"
        )
    else:
        lines.append(
            f"CPU % (window)     load client {cpu['load_client']}, machine {cpu['machine']}"
        )
    if result.get("server_log_tracebacks") or result.get("server_died"):
        lines.append(
            f"server problems    {result.get('server_log_tracebacks', 0)} tracebacks in the logs; "
            f"died: {', '.join(result.get('server_died') or []) or 'none'}"
        )
    if result["connect_failures"]:
        failures = ", ".join(f"{k} {n}" for k, n in result["connect_failures"].items())
        lines.append(f"connect failures   {failures} (retried with backoff)")
    lag = result["client_loop_lag_ms"]
    lines.append(f"client loop lag ms p99 {lag['p99']:.1f}, max {lag['max']:.1f}")
    lines.append(
        f"matches            started {result['matches_started']}, "
        f"finished {result['matches_finished']}"
    )
    for kind, figures in result["latency_ms_by_type"].items():
        lines.append(
            f"  {kind:<16} {figures['count']:>7}  p50 {figures['p50']:.1f}  "
            f"p95 {figures['p95']:.1f}  p99 {figures['p99']:.1f}  max {figures['max']:.1f}"
        )
    return "\n".join(lines)


def background_cpu(seconds: float = 2.0) -> float:
    """How busy the machine is before the run (other programs), in % of one core."""
    busy, total = sc.machine_cpu()
    time.sleep(seconds)
    busy2, total2 = sc.machine_cpu()
    cores = os.cpu_count() or 1
    return round(100 * cores * (busy2 - busy) / max(1e-9, total2 - total), 1)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    before = background_cpu()
    folder = Path(tempfile.mkdtemp(prefix="hearts-load-"))
    stack = contextlib.ExitStack()
    servers: list[Any] = []
    try:
        urls = args.url
        roots: list[int] = []
        if not urls:
            database_url = redis_url = None
            if args.postgres or args.redis:
                services = _load("services", ROOT / "tests" / "services.py")
                if args.postgres:
                    database_url = stack.enter_context(services.postgres())
                if args.redis:
                    redis_url = stack.enter_context(services.redis())
            servers = start_servers(args, folder, database_url, redis_url)
            urls = [server.url for server in servers]
            roots = [server.pid for server in servers]
        runner: Any = asyncio.run
        if not args.no_uvloop:
            with contextlib.suppress(ImportError):
                import uvloop

                runner = uvloop.run
        result = runner(drive(args, urls, roots))
        result["cpu_percent"]["background_before"] = before
        failed = [s for s in servers if s.process is not None and s.process.poll() is not None]
        result["server_died"] = [s.url for s in failed]
        result["server_log_tracebacks"] = sum(
            s.log.read_text(errors="replace").count("Traceback") for s in servers
        )
    finally:
        for server in servers:
            server.stop()
        stack.close()
        if args.keep:
            print(f"logs and data kept in {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
