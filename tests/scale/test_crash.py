"""A server killed in the middle of play loses nothing it acknowledged.

Twelve browsers (scripts: ``scale_client.Player``) each play solo matches
against Easy computers on one ``hearts serve`` with its SQLite file.  While
they play, the server's whole process group gets SIGKILL (no shutdown code
runs), and a new server starts on the same data folder and port.  Every
client reconnects by itself with backoff and says ``hello``.  Then, for each:

- the table it gets back is at least as new as the newest state it had
  seen before the crash (every state is sent only after its commit), and
  the very same table when the versions are equal;
- every play it saw acknowledged in that match is in the table's tricks,
  or the table has gone on to a later hand; the match is still active;
- it goes on playing (more of its intents are acknowledged).

Twice in a row. At the end every acknowledged intent (new match, pass,
play, next hand) of every client is checked against the rows in the
database.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

from scale_client import Player, ServerProcess, Stats, seat0_cards

from services import free_port

CLIENTS = 12
KILLS = 2
PLAYS_BEFORE_KILL = 4
"""Acknowledged plays each client makes between (re)starts before the next kill."""
ACKS_AFTER_RESTART = 4
SAME_TABLE_FIELDS = (
    "match_id",
    "phase",
    "status",
    "hand_number",
    "hand",
    "tricks",
    "turn",
    "totals",
    "pass_confirmed",
    "awaiting_continue",
)


def test_a_killed_server_loses_no_acknowledged_action(tmp_path: Path) -> None:
    asyncio.run(asyncio.wait_for(scenario(tmp_path), timeout=150))


async def scenario(tmp_path: Path) -> None:
    server = ServerProcess(
        free_port(),
        # No HEARTS_SECRET_KEY: the key kept in the data folder must survive the crash too.
        {"HEARTS_PACE_SCALE": "0.02", "HEARTS_BOT_WORKERS": "1"},
        tmp_path / "server.log",
        data_dir=tmp_path / "data",
    )
    await asyncio.to_thread(server.start)
    stats = Stats()
    players = [
        Player(server.url, stats=stats, backoff=(0.05, 0.5), ack_timeout=20, stuck_timeout=10)
        for _ in range(CLIENTS)
    ]
    tasks = [asyncio.create_task(player.run()) for player in players]
    log = ""
    try:
        for kill in range(1, KILLS + 1):
            marks = [len(player.plays_acked()) for player in players]
            await everyone(
                players,
                lambda i, p, marks=marks: len(p.plays_acked()) >= marks[i] + PLAYS_BEFORE_KILL,
                "plays before the kill",
            )
            connections = [player.connections for player in players]
            await asyncio.to_thread(server.kill)
            await asyncio.to_thread(server.start)
            await everyone(
                players,
                lambda i, p, before=connections: len(p.resumes) > before[i],
                f"every client back after kill {kill}",
            )
            for player in players:
                check_resume(player, player.resumes[-1])
            acks = [len(ok_acks(player)) for player in players]
            await everyone(
                players,
                lambda i, p, acks=acks: len(ok_acks(p)) >= acks[i] + ACKS_AFTER_RESTART,
                f"play going on after kill {kill}",
            )
    finally:
        for player in players:
            player.stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        # The log up to here: SIGTERM to the group at the end also stops the bot
        # workers under a server that may still be deciding (as systemd would).
        log = server.log.read_text(errors="replace")
        await asyncio.to_thread(server.stop)

    for number, task in enumerate(tasks):
        assert task.exception() is None, f"client {number}: {task.exception()!r}"
    # A crash may take one unanswered intent per client with it; nothing else may go wrong.
    errors = {code: count for code, count in stats.errors.items() if code != "lost"}
    assert errors == {}, (errors, server.log_tail())
    assert stats.errors["lost"] <= CLIENTS * KILLS
    assert stats.resyncs == 0
    for player in players:
        assert player.versions_went_back == 0
        assert all(ack.shown for ack in player.plays_acked()), "a play's ack did not show it"
    checked = check_database(tmp_path / "data" / "hearts.db", players)
    ahead = sum(r.version > r.seen_version for p in players for r in p.resumes[1:])
    print(
        f"{CLIENTS} clients, {KILLS} kills: {checked} acknowledged intents found in the database; "
        f"{stats.errors['lost']} intents lost with a connection; "
        f"{ahead} of {CLIENTS * KILLS} tables came back newer than their client had seen"
    )
    assert "Traceback" not in log, log[-4000:]


def ok_acks(player: Player) -> list[Any]:
    return [ack for ack in player.acked if ack.error is None]


async def everyone(players: list[Player], condition: Any, what: str, timeout: float = 40) -> None:
    await asyncio.gather(
        *(
            player.wait_for(lambda i=i, p=player: condition(i, p), timeout, f"{what} (client {i})")
            for i, player in enumerate(players)
        )
    )


def check_resume(player: Player, resume: Any) -> None:
    """The table after the restart against what the client had seen and had acknowledged."""
    before, after = resume.seen_table, resume.table
    assert before is not None and after is not None
    assert resume.version >= resume.seen_version, (resume.version, resume.seen_version)
    if after["match_id"] != before["match_id"]:
        # Only a match that was over is replaced (the client's new_match went through).
        assert before["status"] == "finished", (before["status"], after["match_id"])
        assert resume.version > resume.seen_version
        assert after["status"] == "active"
        return
    if resume.version == resume.seen_version:
        for name in SAME_TABLE_FIELDS:
            assert after[name] == before[name], (name, before[name], after[name])
    if before["status"] == "finished":
        assert after["status"] == "finished"
    elif after["status"] != "active":
        # Only a change the client had not seen yet may have ended it (the last trick).
        assert after["status"] == "finished" and resume.version > resume.seen_version, after
    shown = seat0_cards(after)
    for ack in player.plays_acked():
        if ack.match_id != after["match_id"] or ack.version > resume.seen_version:
            continue  # another match, or acknowledged after this restart
        assert ack.hand_number is not None
        assert ack.hand_number <= after["hand_number"]
        if ack.hand_number == after["hand_number"]:
            assert ack.card in shown, (ack.card, after["tricks"])


def check_database(path: Path, players: list[Player]) -> int:
    """Every acknowledged intent of every client is in the match rows."""
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT id, record FROM matches").fetchall()
    records: dict[str, dict[str, Any]] = {match_id: json.loads(text) for match_id, text in rows}
    checked = 0
    for player in players:
        for ack in ok_acks(player):
            if ack.kind not in ("new_match", "confirm_pass", "play", "next_hand"):
                continue
            assert ack.match_id in records, ack
            hands = records[ack.match_id]["hands"]
            assert ack.hand_number is not None and len(hands) >= ack.hand_number, ack
            hand = hands[ack.hand_number - 1]
            if ack.kind == "play":
                assert hand["plays"].count(ack.card) == 1, (ack, hand["plays"])
            elif ack.kind == "confirm_pass":
                assert sorted(hand["pass"][0]) == sorted(ack.cards), (ack, hand.get("pass"))
            checked += 1
    assert checked >= CLIENTS * KILLS * (PLAYS_BEFORE_KILL + ACKS_AFTER_RESTART)
    return checked
