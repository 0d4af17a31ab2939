"""``hearts bench``: real random hands, counted and scored, and its output format."""

from __future__ import annotations

import random
import re

import pytest

from hearts.bench import play_random_hand, random_pass, run_bench
from hearts.cli import main
from hearts.deal import random_deal
from hearts.rules import PassDirection, Rules


def test_bench_command_prints_the_figure_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--hands", "50"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(r"random hands per second: \d+", lines[-1])
    assert lines[0].startswith("played 50 random hands in ")
    assert any(line.endswith("points check (26 a hand, 78 with a moon): ok") for line in lines)


def test_bench_plays_the_hands_it_counts() -> None:
    result = run_bench(hands=400, seed=3)
    assert result.hands == 400
    assert result.bad_hands == 0
    # 26 points a hand, and a moon gives 26 to each of the three others instead.
    assert result.points == 26 * result.hands + 52 * result.moons
    assert result.directions == {direction: 100 for direction in PassDirection}
    assert result.hands_per_second > 0


def test_bench_is_reproducible_by_seed() -> None:
    first, again, other = (
        run_bench(hands=200, seed=1),
        run_bench(hands=200, seed=1),
        run_bench(hands=200, seed=2),
    )
    assert (first.points, first.moons) == (again.points, again.moons)
    assert first.points == 26 * 200 + 52 * first.moons
    assert other.points == 26 * 200 + 52 * other.moons


def test_bench_stops_after_the_time_given() -> None:
    result = run_bench(seconds=0.05, seed=1)
    assert result.hands >= 1
    assert result.seconds >= 0.05


def test_house_rules_keep_the_points_check_honest() -> None:
    rules = Rules(jack_of_diamonds=True, black_maria=True, passing="no-hold")
    result = run_bench(hands=300, seed=5, rules=rules)
    assert result.bad_hands == 0
    assert set(result.directions) == {PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS}
    # hearts 13 + QS 13 + KS 10 + AS 7 = 43, JD -10: 33 a hand; a moon adds 2 x 43.
    assert result.points == 33 * result.hands + 86 * result.moons


def test_random_pass_is_three_of_the_holding() -> None:
    rng = random.Random(0)
    for _ in range(100):
        holding = random_deal(rng)[0]
        passed = random_pass(holding, rng)
        assert passed.bit_count() == 3
        assert passed & ~holding == 0


def test_a_random_hand_scores_26_or_a_moon() -> None:
    rng = random.Random(9)
    for number in range(1, 200):
        points, shooter = play_random_hand(Rules(), number, rng)
        if shooter is None:
            assert sum(points) == 26 and min(points) >= 0
        else:
            assert points[shooter] == 0 and sorted(points) == [0, 26, 26, 26]


def test_bench_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0"]) == 1
    assert main(["bench", "--hands", "0"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "hearts: --seconds must be more than 0",
        "hearts: --hands must be at least 1",
    ]
