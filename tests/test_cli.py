"""The ``hearts`` command: record check and show, deal, help."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hearts.cli import MAX_RECORD_BYTES, main
from hearts.match import Match, Phase
from hearts.record import dumps_record, loads_record, write_record
from hearts.rules import Rules


def play_to_end(match: Match, seed: int) -> Match:
    rng = random.Random(seed)
    while match.phase is not Phase.MATCH_OVER:
        if match.phase is Phase.PASSING:
            for seat in match.waiting_for():
                match.confirm_pass(seat, rng.sample(list(match.holding(seat)), 3))
        elif match.phase is Phase.PLAYING:
            match.play(rng.choice(match.legal_moves()))
        elif match.phase is Phase.MOON_CHOICE:
            shooter = match.moon_shooter
            assert shooter is not None
            match.choose_moon(shooter, "add")
        else:
            match.next_hand()
    return match


@pytest.fixture
def finished(tmp_path: Path) -> Path:
    path = tmp_path / "finished.json"
    path.write_text(dumps_record(play_to_end(Match(seed=4), 4)), encoding="utf-8")
    return path


@pytest.fixture
def in_progress(tmp_path: Path) -> Path:
    match = Match(Rules(target=50), seed=5)
    for seat in range(4):
        match.confirm_pass(seat, list(match.holding(seat))[:3])
    for _ in range(6):
        match.play(match.legal_moves()[0])
    path = tmp_path / "in_progress.json"
    path.write_text(dumps_record(match), encoding="utf-8")
    return path


@pytest.fixture
def invalid(tmp_path: Path) -> Path:
    record = write_record(Match(seed=6))
    record["hands"][0]["deal"][2] = record["hands"][0]["deal"][2][:12]
    path = tmp_path / "invalid.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


# --- record check ------------------------------------------------------------


def test_check_valid_files(
    finished: Path, in_progress: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["record", "check", str(finished), str(in_progress)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{finished}: ok", f"{in_progress}: ok"]


def test_check_reports_each_file_and_fails_if_any_is_invalid(
    finished: Path, invalid: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_json = tmp_path / "not.json"
    not_json.write_text("{ nope", encoding="utf-8")
    missing = tmp_path / "missing.json"
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    files = [finished, invalid, not_json, missing, binary, tmp_path]
    assert main(["record", "check", *map(str, files)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{finished}: ok"
    assert lines[1] == f"{invalid}: hand 1, deal of North: 12 cards dealt instead of 13"
    assert lines[2].startswith(f"{not_json}: not JSON")
    assert lines[3] == f"{missing}: cannot read the file (No such file or directory)"
    assert lines[4].startswith(f"{binary}: not JSON")
    assert lines[5].startswith(f"{tmp_path}: cannot read the file")
    assert len(lines) == 6


def test_check_refuses_a_huge_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(MAX_RECORD_BYTES + 1)
    assert main(["record", "check", str(huge)]) == 1
    assert capsys.readouterr().out.startswith(f"{huge}: file too large")


def test_check_play_breaking_a_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = Match(Rules(passing="none"), seed=7)
    match.play(match.legal_moves()[0])
    record = write_record(match)
    led = match.play_state
    assert led is not None
    follower = match.holding(led.turn)
    off_suit = [c for c in record["hands"][0]["deal"][led.turn] if c[-1] != "C"]
    assert len(list(follower.of_suit(0))) > 0, "the seed was chosen so the follower holds clubs"
    record["hands"][0]["plays"].append(off_suit[0])
    path = tmp_path / "rule.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["record", "check", str(path)]) == 1
    seat_name = ["South", "West", "North", "East"][led.turn]
    assert capsys.readouterr().out == f"{path}: hand 1, play 2: {seat_name} must follow clubs\n"


# --- record show -------------------------------------------------------------


def test_show_finished_match(finished: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", "show", str(finished)]) == 0
    out = capsys.readouterr().out
    match = loads_record(finished.read_text(encoding="utf-8"))
    assert match.winner is not None
    assert out.startswith("Players: South You, West Robin, North Alex, East Sam\nRules: standard\n")
    assert "Hand 1 (pass left)" in out
    assert "Hand 2 (pass right)" in out
    assert "Hand 4 (no pass)" in out
    assert "    South  ♣ " in out
    assert "    South to West " in out
    assert "  1. " in out and " 13. " in out
    assert "won by " in out
    totals = ", ".join(
        f"{name} {total}"
        for name, total in zip(("South", "West", "North", "East"), match.totals, strict=True)
    )
    assert f"  Totals: {totals}" in out
    assert out.count("  Points: ") == len(match.results)
    winner = match.winner
    name = match.players[winner]
    assert out.rstrip().splitlines()[-1].startswith(f"Winner: {name} (")
    assert f"with {match.totals[winner]} points" in out


def test_show_match_in_progress(in_progress: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", "show", str(in_progress)]) == 0
    out = capsys.readouterr().out
    assert "Rules: target 50" in out
    assert "(in progress)" in out  # trick 2 has two cards of four
    assert out.rstrip().splitlines()[-1].startswith("In progress: hand 1, ")
    assert out.rstrip().endswith(" to play")


def test_show_waiting_for_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = Match(seed=8)
    match.confirm_pass(1, list(match.holding(1))[:3])
    path = tmp_path / "passing.json"
    path.write_text(dumps_record(match), encoding="utf-8")
    assert main(["record", "show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "    South to West   (not yet)" in out
    assert out.rstrip().endswith("In progress: hand 1, waiting for the pass of South, North, East")


def test_show_a_moon(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # South holds every heart and spade from the ace down and wins every trick.
    deal = (
        "AC KC QC AD KD QD AS KS QS AH KH QH JH",
        "2C 3C 4C 5C 2D 3D 4D 5D 2S 3S 4S 5S 2H",
        "6C 7C 8C 9C 6D 7D 8D 9D 6S 7S 8S 9S 3H",
        "TC JC TD JD TS JS 4H 5H 6H 7H 8H 9H TH",
    )
    record = {
        "format": "hearts-record/1",
        "rules": {"passing": "none"},
        "players": ["A", "B", "C", "D"],
        "hands": [{"deal": [seat.split() for seat in deal], "plays": []}],
    }
    match = loads_record(json.dumps(record))
    while match.phase is Phase.PLAYING:
        match.play(max(match.legal_moves()))
    assert match.results[0].shooter is not None
    path = tmp_path / "moon.json"
    path.write_text(dumps_record(match), encoding="utf-8")
    assert main(["record", "show", str(path)]) == 0
    out = capsys.readouterr().out
    shooter = ["South", "West", "North", "East"][match.results[0].shooter]
    assert f"{shooter} shot the moon: the others score 26" in out


def test_show_invalid_record(invalid: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", "show", str(invalid)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert (
        captured.err == f"hearts: {invalid}: hand 1, deal of North: 12 cards dealt instead of 13\n"
    )


# --- deal --------------------------------------------------------------------


def test_deal_is_determined_by_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--seed", "42"]) == 0
    first = capsys.readouterr().out
    assert main(["deal", "--seed", "42"]) == 0
    assert capsys.readouterr().out == first
    assert main(["deal", "--seed", "43"]) == 0
    assert capsys.readouterr().out != first

    match = loads_record(first)
    assert match.hand_number == 1
    assert match.phase is Phase.PASSING
    assert match.current.plays == []
    assert first == dumps_record(Match(seed=42))


def test_deal_to_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.json"
    assert main(["deal", "--seed", "1", "--output", str(path)]) == 0
    assert capsys.readouterr().out == ""
    assert path.read_text(encoding="utf-8") == dumps_record(Match(seed=1))
    assert main(["record", "check", str(path)]) == 0


def test_deal_to_an_unwritable_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "no such folder" / "deal.json"
    assert main(["deal", "--seed", "1", "--output", str(target)]) == 1
    assert capsys.readouterr().err.startswith(f"hearts: {target}: cannot write")


# --- help and usage ----------------------------------------------------------


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for command in ("record", "deal", "bench"):
        assert f"    {command} " in out


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert "COMMAND" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv", [["record"], ["record", "check"], ["deal"], ["deal", "--seed", "x"], ["nope"]]
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "usage: hearts" in capsys.readouterr().err
