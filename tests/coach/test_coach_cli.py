"""``hearts analyse``: the coach from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from coach_positions import STOP_THE_MOON, STOP_THE_MOON_PLAYS, hand_record

import hearts.cli
from hearts import Budget, Match, Rules
from hearts.cli import main
from hearts.record import dumps_record

SMALL = Budget(samples=24, pass_samples=12)


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hearts.cli, "DEFAULT_BUDGET", SMALL)


@pytest.fixture
def moon_duck(tmp_path: Path) -> Path:
    """South ducks the heart that was the only way to stop East's moon (trick 11)."""
    path = tmp_path / "moon.json"
    path.write_text(json.dumps(hand_record(STOP_THE_MOON, [*STOP_THE_MOON_PLAYS, "2H"])))
    return path


def test_the_table_shows_each_decision_and_its_verdict(
    moon_duck: Path, small_budget: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", str(moon_duck), "--seat", "south"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Hand 1, South (You):")
    assert "accuracy" in lines[0] and "average loss" in lines[0]
    assert "verdict" in lines[1]
    rows = {line.split()[1]: line for line in lines[2:] if line.startswith("  trick")}
    assert len(rows) == 13
    eleven = rows["11"].split()
    assert eleven[2:4] == ["2H", "AH"]  # made, best
    assert "blunder" in eleven
    assert "forced" in rows["1"] or "fine" in rows["1"]


def test_json_is_one_object_per_decision(
    moon_duck: Path, small_budget: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", str(moon_duck), "--hand", "1", "--json"]) == 0
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["trick"] for o in objects] == list(range(1, 14))
    assert all(o["kind"] == "play" and o["seat"] == 0 and o["hand"] == 1 for o in objects)
    eleven = objects[10]
    assert (eleven["made"], eleven["best"], eleven["verdict"]) == (["2H"], ["AH"], "blunder")
    assert {o["choice"][0] for o in eleven["options"]} == set(eleven["legal"])


def test_the_seed_option_is_used(
    moon_duck: Path, small_budget: None, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["analyse", str(moon_duck), "--json", "--seed", "1"])
    first = capsys.readouterr().out
    main(["analyse", str(moon_duck), "--json", "--seed", "2"])
    assert capsys.readouterr().out != first


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--seat", "5"], "no seat '5'"),
        (["--hand", "2"], "no hand 2"),
        (["--hand", "0"], "no hand 0"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(
    moon_duck: Path, arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", str(moon_duck), *arguments]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("hearts: ") and message in captured.err
    assert len(captured.err.splitlines()) == 1


def test_a_hand_in_play_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = Match(Rules(passing="none"), seed=3)
    for _ in range(5):
        match.play(match.legal_moves()[0])
    path = tmp_path / "playing.json"
    path.write_text(dumps_record(match))
    assert main(["analyse", str(path), "--hand", "1"]) == 1
    assert "hand 1 is still being played" in capsys.readouterr().err
    assert main(["analyse", str(path)]) == 1
    assert "no hand is over yet" in capsys.readouterr().err


def test_an_unreadable_record_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{ nope")
    assert main(["analyse", str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"hearts: {path}: not JSON")
