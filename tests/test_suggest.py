"""A bot's suggestion for one seat at the end of a record: ``hearts.suggest`` and the command."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import hearts
from hearts import RecordError, suggest
from hearts.bots import LEVELS, NothingToDecide
from hearts.cards import CardSet, parse_card
from hearts.cli import main
from hearts.match import Match, Phase
from hearts.record import write_record
from hearts.rules import Rules
from hearts.suggest import DEFAULT_SEED, NoSuchSeat, UnknownLevel
from helpers import MOON_BY_SOUTH, match_after_pass, play_lowest, random_step, replay
from test_view import hidden_swaps, swapped

CHEAP = ("random", "beginner", "easy", "normal")


def started(seed: int, plays: int) -> Match:
    """A match after the first pass and ``plays`` random plays."""
    match = Match(seed=seed)
    rng = random.Random(seed)
    for _ in range(4 + plays):
        random_step(match, rng)
    assert match.phase is Phase.PLAYING
    return match


# --- what is suggested ------------------------------------------------------------------


@pytest.mark.parametrize("level", CHEAP)
def test_a_pass_is_three_of_the_seats_cards(level: str) -> None:
    match = Match(seed=11)
    record = write_record(match)
    for seat in range(4):
        cards = suggest(record, seat, level=level)
        assert len(cards) == 3 == len(set(cards))
        assert set(map(parse_card, cards)) <= set(match.holding(seat))


@pytest.mark.parametrize("level", CHEAP)
def test_a_play_is_one_legal_card(level: str) -> None:
    for plays in (0, 5, 17, 40):
        match = started(12 + plays, plays)
        turn = match.turn
        assert turn is not None
        cards = suggest(write_record(match), turn, level=level)
        assert len(cards) == 1 and parse_card(cards[0]) in match.legal_moves()


def test_the_expert_is_the_default_level() -> None:
    match = started(13, 6)
    turn = match.turn
    assert turn is not None
    record = write_record(match)
    assert suggest(record, turn) == suggest(record, turn, level="expert")
    assert parse_card(suggest(record, turn)[0]) in match.legal_moves()


def test_a_hand_without_a_pass_asks_for_the_pass() -> None:
    match = started(14, 51)
    play_lowest(match)  # the last card: the first hand is over
    match.next_hand()
    record = write_record(match)
    assert "pass" not in record["hands"][-1]
    cards = suggest(record, 2, level="beginner")
    assert len(cards) == 3 and set(map(parse_card, cards)) <= set(match.holding(2))


def test_a_seat_still_to_pass_while_others_have() -> None:
    match = Match(seed=15)
    match.confirm_pass(0, list(match.holding(0))[:3])
    record = write_record(match)
    assert len(suggest(record, 1, level="random")) == 3
    with pytest.raises(NothingToDecide, match="South has already passed"):
        suggest(record, 0, level="random")


def test_the_moon_style_under_moon_choice() -> None:
    match = match_after_pass(MOON_BY_SOUTH, Rules(moon="choice"))
    play_lowest(match)
    assert match.phase is Phase.MOON_CHOICE and match.turn == 0
    record = write_record(match)
    # Nobody is near 100: "add" leaves South 26 ahead of everyone.
    assert suggest(record, 0, level="normal") == ["add"]
    with pytest.raises(NothingToDecide, match="South chooses how the moon scores"):
        suggest(record, 1, level="normal")


def test_the_default_seed_gives_the_same_answer_every_time() -> None:
    record = write_record(Match(seed=16))
    assert DEFAULT_SEED == 0
    first = suggest(record, 3, level="random")
    assert suggest(record, 3, level="random") == first
    assert suggest(record, 3, level="random", seed=DEFAULT_SEED) == first
    others = {tuple(suggest(record, 3, level="random", seed=seed)) for seed in range(1, 8)}
    assert others - {tuple(first)}  # the seed matters to a random bot


def test_cards_hidden_from_the_seat_do_not_change_the_suggestion() -> None:
    for seed in range(3):
        match = started(17 + seed, 9)
        turn = match.turn
        assert turn is not None
        swaps = hidden_swaps(match, turn)
        assert swaps
        for swap in swaps[:: max(1, len(swaps) // 4)]:
            other = replay(match, last_deal=swapped(match.current.deal, swap))
            assert other.view(turn) == match.view(turn)
            for level in ("random", "normal", "expert"):
                mine = suggest(write_record(match), turn, level=level, seed=seed)
                assert suggest(write_record(other), turn, level=level, seed=seed) == mine


# --- errors -------------------------------------------------------------------------------


def test_an_invalid_record() -> None:
    record: dict[str, Any] = write_record(Match(seed=18))
    record["hands"][0]["deal"][0] = record["hands"][0]["deal"][0][:12]
    with pytest.raises(RecordError, match="hand 1, deal of South: 12 cards dealt instead of 13"):
        suggest(record, 0)
    with pytest.raises(RecordError, match="a record must be a JSON object"):
        suggest("not a record", 0)


@pytest.mark.parametrize("seat", [-1, 4, True, "0", 1.0, None])
def test_no_such_seat(seat: Any) -> None:
    with pytest.raises(NoSuchSeat, match="the seats are 0 South, 1 West, 2 North, 3 East"):
        suggest(write_record(Match(seed=19)), seat)


@pytest.mark.parametrize("level", ["master", "Expert", "", None])
def test_unknown_level(level: Any) -> None:
    with pytest.raises(UnknownLevel, match="choose from random, beginner"):
        suggest(write_record(Match(seed=20)), 0, level=level)


def test_nothing_to_decide() -> None:
    match = started(21, 5)
    turn = match.turn
    assert turn is not None
    waiting = (turn + 1) % 4
    with pytest.raises(NothingToDecide, match="turn to play"):
        suggest(write_record(match), waiting, level="random")
    play_lowest(match)
    assert match.phase is Phase.HAND_OVER
    with pytest.raises(NothingToDecide, match="the hand is over"):
        suggest(write_record(match), 0, level="random")


def test_every_error_is_a_value_error() -> None:
    for error in (RecordError, NoSuchSeat, UnknownLevel, NothingToDecide):
        assert issubclass(error, ValueError)


# --- the package --------------------------------------------------------------------------


def test_suggest_is_exported_and_import_hearts_loads_no_bot() -> None:
    assert "suggest" in hearts.__all__ and hearts.suggest is suggest and callable(suggest)
    script = (
        "import sys, hearts; print(sorted(m for m in sys.modules if m.startswith('hearts.bots')))"
    )
    output = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "[]"


def test_levels_are_the_known_ones() -> None:
    # The search levels (expert and the reference players) are tested with small budgets elsewhere.
    assert set(CHEAP) | {"expert", "expert-2026-11", "pimc", "ismcts", "pimc-uct"} == set(LEVELS)


# --- the command ----------------------------------------------------------------------------


@pytest.fixture
def passing(tmp_path: Path) -> Path:
    path = tmp_path / "passing.json"
    path.write_text(json.dumps(write_record(Match(seed=22))), encoding="utf-8")
    return path


def test_suggest_command(passing: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["suggest", str(passing), "--seat", "1", "--level", "beginner"]) == 0
    out = capsys.readouterr().out
    cards = out.split()
    assert out == " ".join(cards) + "\n" and len(cards) == 3
    assert CardSet.parse(cards).mask & ~Match(seed=22).holding(1).mask == 0
    assert main(["suggest", str(passing), "--seat", "west", "--level", "beginner"]) == 0
    assert capsys.readouterr().out == out
    assert main(["suggest", str(passing), "--seat", "1", "--level", "random", "--seed", "4"]) == 0
    expected = suggest(json.loads(passing.read_text()), 1, level="random", seed=4)
    assert capsys.readouterr().out.split() == expected


def test_suggest_command_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = started(23, 3)
    path = tmp_path / "playing.json"
    path.write_text(json.dumps(write_record(match)), encoding="utf-8")
    assert main(["suggest", str(path), "--seat", str(match.turn), "--level", "normal"]) == 0
    (card,) = capsys.readouterr().out.split()
    assert parse_card(card) in match.legal_moves()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "4"], "no seat '4'"),
        (["--seat", "northeast"], "no seat 'northeast'"),
        (["--seat", "0", "--level", "master"], "unknown level 'master'"),
    ],
)
def test_suggest_command_errors(
    passing: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["suggest", str(passing), *args]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and message in captured.err


def test_suggest_command_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.json"
    assert main(["suggest", str(missing), "--seat", "0"]) == 1
    assert capsys.readouterr().err.startswith(f"hearts: {missing}: cannot read the file")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert main(["suggest", str(broken), "--seat", "0"]) == 1
    assert "not JSON" in capsys.readouterr().err
    match = Match(seed=24)
    match.confirm_pass(2, list(match.holding(2))[:3])
    done = tmp_path / "done.json"
    done.write_text(json.dumps(write_record(match)), encoding="utf-8")
    assert main(["suggest", str(done), "--seat", "north"]) == 1
    err = capsys.readouterr().err
    assert err == "hearts: North has no decision to make now: North has already passed\n"
