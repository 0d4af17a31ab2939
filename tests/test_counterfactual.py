"""benchmarks/counterfactual.py: a change measured decision by decision, on the arena's hands."""

from __future__ import annotations

import json

import pytest

from hearts.arena import Unit, play_unit
from hearts.bots import make_bot
from helpers import load_benchmark

counterfactual = load_benchmark("counterfactual")


def job(rotation: int, variant: dict[str, float], rollouts: int = 3) -> object:
    kinds = ("pass", "lead", "follow", "discard")
    return counterfactual.Job("easy", 5, 0, rotation, {}, variant, "random", rollouts, kinds)


@pytest.mark.parametrize("rotation", [0, 2])
def test_the_hands_are_the_arenas_own(rotation: int) -> None:
    result = counterfactual.run_job(job(rotation, {"high_follow": 0.9}))
    easy, random_bot = make_bot("easy"), make_bot("random")
    unit = Unit(5, 0, rotation, (easy, random_bot, random_bot, random_bot), hands=4)
    played = play_unit(unit)
    seat = rotation
    expected = [
        outcome.points[seat] - (sum(outcome.points) - outcome.points[seat]) / 3
        for outcome in played.hands
    ]
    assert list(result.scores) == expected


def test_a_variant_that_changes_nothing_differs_nowhere() -> None:
    result = counterfactual.run_job(job(1, {}))
    assert result.decisions > 0 and result.differing == ()


def test_each_differing_decision_is_played_on_both_ways() -> None:
    results = [counterfactual.run_job(job(r, {"high_follow": 0.95})) for r in range(4)]
    differing = [item for result in results for item in result.differing]
    assert differing
    for item in differing:
        assert item.default != item.variant
        assert len(item.diffs) == 3
        assert item.kind in ("pass", "lead", "follow", "discard")


def test_the_command_prints_the_change_and_its_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--level", "easy", "--opponent", "random", "--variant", "high_follow=0.95"]
    argv += ["--hands", "32", "--rollouts", "2", "--workers", "1", "--seed", "3", "--json"]
    assert counterfactual.main(argv) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[1].startswith("32 hands, ")
    assert lines[2].startswith("change: ") and "over 2 deal sets" in lines[2]
    summary = json.loads(lines[-1])
    assert summary["hands"] == 32 and summary["rollouts"] == 2
    assert len(summary["ci95"]) == 2
