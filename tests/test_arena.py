"""Duplicate-deal tournaments: complete legal hands, rotations, reproducible figures."""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from hearts import bots as bots_module
from hearts.arena import (
    MOON_THREAT_POINTS,
    Unit,
    deal_set_seed,
    decision_rng,
    make_entrants,
    moon_stopper,
    parse_settings,
    play_unit,
    run_arena,
)
from hearts.arena_figures import POINTS_FROM, ArenaError, ArenaResult
from hearts.bots.base import Bot
from hearts.bots.easy import EasyBot
from hearts.cards import HEARTS_MASK, JACK_OF_DIAMONDS, SPADES, SUIT_MASK, Card
from hearts.cli import main
from hearts.deal import seeded_deal
from hearts.match import Phase
from hearts.record import read_record
from hearts.rules import Rules
from hearts.stats import difference_ci95, percentile, ratio_ci95, t_975
from hearts.variants import variant_changes
from hearts.view import SeatView
from helpers import load_benchmark, mask


@dataclass(frozen=True)
class LowestBot(Bot):
    """A test bot: passes its three highest cards, plays its lowest legal card."""

    @property
    def level(self) -> str:
        return "lowest"

    def choose_pass(self, view: SeatView, rng: random.Random) -> list[Card]:
        return list(view.hand)[-3:]

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        return min(view.legal)


@dataclass(frozen=True)
class PickyBot(Bot):
    """A test bot that uses its generator for every choice."""

    @property
    def level(self) -> str:
        return "picky"

    def choose_pass(self, view: SeatView, rng: random.Random) -> list[Card]:
        return rng.sample(list(view.hand), 3)

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        return rng.choice(list(view.legal))


@dataclass(frozen=True)
class BrokenBot(LowestBot):
    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        if len(view.hand) < 10:
            raise RuntimeError("out of ideas")
        return min(view.legal)


ENTRANTS: list[Bot] = [LowestBot(), PickyBot(), PickyBot(), PickyBot()]


def figures(result: ArenaResult) -> dict[str, Any]:
    """The JSON figures without the decision times, which depend on the machine."""
    data = result.to_json()
    for level in data["levels"].values():
        del level["decision_ms_p50"], level["decision_ms_p95"], level["decision_ms_by_kind"]
    return data


# --- the hands played -------------------------------------------------------------


def test_every_hand_is_complete_legal_and_dealt_alike_in_all_rotations() -> None:
    result = run_arena(ENTRANTS, hands=32, seed=5, workers=1, keep_records=True)
    assert result.hands == 32 and result.deal_sets == 2 and result.matches == 0
    assert len(result.records) == 8  # 2 deal sets x 4 rotations
    for index, record in enumerate(result.records):
        deal_set, rotation = divmod(index, 4)
        match = read_record(record)  # replays every pass and play through the rules
        assert match.hand_number == 4 and match.phase is Phase.HAND_OVER
        assert len(match.results) == 4
        assert all(len(log.plays) == 52 for log in match.hand_logs)
        # Entrant i sits at seat (i + rotation) % 4.
        levels = record["meta"]["levels"]
        assert levels.index("lowest") == rotation
        for hand, log in enumerate(match.hand_logs, start=1):
            assert log.deal == seeded_deal(deal_set_seed(5, deal_set), hand)


def test_each_entrant_plays_each_seat_on_the_same_cards() -> None:
    entrants = [LowestBot(), PickyBot(), PickyBot(), PickyBot()]
    units = [
        Unit(1, 0, r, (entrants[0], entrants[1], entrants[2], entrants[3]), 1) for r in (0, 1, 2, 3)
    ]
    assert [unit.bot_at(r).level for r, unit in enumerate(units)] == ["lowest"] * 4
    records = [play_unit(replace(unit, keep_record=True)).record for unit in units]
    deals = {json.dumps(record["hands"][0]["deal"]) for record in records if record}
    assert len(deals) == 1


def test_points_add_up() -> None:
    result = run_arena(ENTRANTS, hands=48, seed=2, workers=1)
    levels = result.levels
    total = sum(r.points_per_hand * r.hands for r in levels.values())
    moons = sum(r.moons_shot for r in levels.values())
    assert total == pytest.approx(26 * result.hands + 52 * moons)
    assert levels["lowest"].seats == 1 and levels["lowest"].hands == 48
    assert levels["picky"].seats == 3 and levels["picky"].hands == 144
    assert result.seats == ("lowest", "picky", "picky", "picky")


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(moon="choice", jack_of_diamonds=True), Rules(black_maria=True)]
)
def test_the_points_are_split_by_where_they_came_from(rules: Rules) -> None:
    entrants = [PickyBot(), PickyBot(), PickyBot(), LowestBot()]
    result = run_arena(entrants, hands=32, seed=2, workers=1, rules=rules)
    for report in result.levels.values():
        split = report.points_from
        assert split is not None and list(split) == list(POINTS_FROM)
        assert sum(split.values()) == pytest.approx(report.points_per_hand)
    # Hand by hand: every card is won by someone, and each seat's points split as they should.
    units = [
        Unit(2, d, r, (entrants[0], entrants[1], entrants[2], entrants[3]), 4, rules)
        for d in range(2)
        for r in range(4)
    ]
    moons = 0
    for unit in units:
        for outcome in play_unit(unit).hands:
            moons += outcome.shooter is not None
            assert sum(outcome.won) == (1 << 52) - 1
            for seat in range(4):
                hearts, spades, moon, other = outcome.points_from(seat, rules)
                assert hearts + spades + moon + other == outcome.points[seat]
                if outcome.shooter is None:
                    assert moon == 0
                    assert hearts == (outcome.won[seat] & HEARTS_MASK).bit_count()
                    assert spades == rules.hand_points_of_cards(
                        outcome.won[seat] & SUIT_MASK[SPADES]
                    )
                else:
                    assert hearts == spades == 0
                    assert moon in (0, rules.moon_points, -rules.moon_points)
                jack = rules.jack_of_diamonds and outcome.won[seat] >> JACK_OF_DIAMONDS & 1
                assert other == (-10 if jack else 0)
    assert moons  # this seed has a moon under every one of the rules


def test_house_rules_and_a_moon_to_choose() -> None:
    rules = Rules(moon="choice", jack_of_diamonds=True)
    result = run_arena(
        [PickyBot()] * 4, hands=16, seed=1, workers=1, rules=rules, keep_records=True
    )
    choices = [
        hand["moon_choice"] for r in result.records for hand in r["hands"] if "moon_choice" in hand
    ]
    assert choices  # this seed has moons; the shooter chose how they score
    assert result.levels["picky"].moons_shot == len(choices)
    for record in result.records:
        assert record["rules"] == {"jack_of_diamonds": True, "moon": "choice"}
        read_record(record)


def test_hands_are_rounded_up_to_a_multiple_of_four() -> None:
    result = run_arena(ENTRANTS, hands=21, seed=3, workers=1, keep_records=True)
    assert result.hands == 24 and result.deal_sets == 2
    assert [len(r["hands"]) for r in result.records] == [4] * 4 + [2] * 4


def test_matches_mode_plays_whole_matches_and_counts_wins() -> None:
    result = run_arena(ENTRANTS, hands=20, seed=4, matches=True, workers=1, keep_records=True)
    assert result.matches == 4 * result.deal_sets >= 4
    assert result.hands >= 20
    for record in result.records:
        assert read_record(record).phase is Phase.MATCH_OVER
    wins = sum(r.match_win_rate * r.seats * result.matches for r in result.levels.values())
    assert wins == pytest.approx(result.matches)
    # Only as many deal sets as needed: one fewer would not have reached the hands asked.
    last = sum(len(r["hands"]) for r in result.records[-4:])
    assert result.hands - last < 20


def test_hands_mode_has_no_win_rate() -> None:
    result = run_arena(ENTRANTS, hands=4, seed=1, workers=1)
    assert all(r.match_win_rate is None for r in result.levels.values())
    assert all(r.ci95 is None for r in result.levels.values())  # one deal set


# --- reproducible -----------------------------------------------------------------------


def test_the_same_seed_gives_the_same_result() -> None:
    first = run_arena(ENTRANTS, hands=32, seed=9, workers=1)
    again = run_arena(ENTRANTS, hands=32, seed=9, workers=1)
    other = run_arena(ENTRANTS, hands=32, seed=10, workers=1)
    assert figures(first) == figures(again)
    assert figures(first) != figures(other)


def test_two_workers_give_the_same_result_as_one() -> None:
    entrants = make_entrants(["random", "beginner", "random", "easy"])
    for matches in (False, True):
        one = run_arena(entrants, hands=40, seed=7, matches=matches, workers=1)
        two = run_arena(entrants, hands=40, seed=7, matches=matches, workers=2)
        assert figures(one) == figures(two)
        assert one.deal_sets == two.deal_sets


def test_each_decision_has_its_own_generator() -> None:
    a = decision_rng(1, 2, 3, 4, 5).random()
    assert decision_rng(1, 2, 3, 4, 5).random() == a
    others = [(0, 2, 3, 4, 5), (1, 0, 3, 4, 5), (1, 2, 0, 4, 5), (1, 2, 3, 0, 5), (1, 2, 3, 4, 0)]
    assert all(decision_rng(*key).random() != a for key in others)
    assert deal_set_seed(1, 0) != deal_set_seed(1, 1) != deal_set_seed(2, 1)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_bot_is_named_with_the_position(workers: int) -> None:
    with pytest.raises(ArenaError, match=r"lowest bot failed \(deal set 0, rotation 0, hand 1"):
        run_arena([BrokenBot(), *ENTRANTS[1:]], hands=4, seed=1, workers=workers)


class Clock:
    """A stand-in for the arena's clock that moves only when a bot says it thought."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


@dataclass(frozen=True)
class SlowPassBot(LowestBot):
    """Thinks a second over each pass and a millisecond over each play, by the test's clock."""

    clock: Clock

    def choose_pass(self, view: SeatView, rng: random.Random) -> list[Card]:
        self.clock.now += 1.0
        return super().choose_pass(view, rng)

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        self.clock.now += 0.001
        return super().choose_play(view, rng)


def test_the_decision_times_are_kept_apart_by_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr("hearts.arena.time", clock)
    bot = SlowPassBot(clock)
    result = run_arena([bot, *ENTRANTS[1:]], hands=16, seed=4, workers=1)
    report = result.levels["lowest"]
    assert report.decision_ms_by_kind is not None
    assert list(report.decision_ms_by_kind) == ["pass", "play"]
    assert report.decision_ms_by_kind["pass"] == pytest.approx((1000.0, 1000.0))
    assert report.decision_ms_by_kind["play"] == pytest.approx((1.0, 1.0))
    # A hand of four is three passes and 52 plays, so the passes are the slowest
    # 5.5% of the decisions: the 95th percentile of them all falls among them.
    every = [1.0] * 52 * 4 + [1000.0] * 3 * 4
    assert report.decision_ms_p50 == pytest.approx(1.0)
    assert report.decision_ms_p95 == pytest.approx(percentile(every, 0.95))
    table = "\n".join(result.table())
    assert "lowest p50 / p95 ms by decision: pass 1000.000 / 1000.000, play 1.000 / 1.000" in table


# --- the figures ---------------------------------------------------------------------------


def test_confidence_interval_of_equal_deal_sets_is_the_t_interval_of_their_means() -> None:
    mean, ci = ratio_ci95([(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)])
    assert mean == 3.0
    # sd 1.5811, standard error 0.7071, t(4) = 2.776
    assert ci == pytest.approx((3 - 2.776 * 0.70711, 3 + 2.776 * 0.70711), abs=1e-4)
    # Totals over counts: the same means in clusters of 4 give the same interval.
    assert ratio_ci95([(4 * x, 4) for x in (1, 2, 3, 4, 5)]) == (mean, ci)


def test_confidence_interval_of_unequal_deal_sets() -> None:
    clusters = [(10.0, 4), (30.0, 8), (2.0, 2)]
    ratio, ci = ratio_ci95(clusters)
    assert ratio == 3.0
    spread = (10 - 12) ** 2 + (30 - 24) ** 2 + (2 - 6) ** 2
    error = (3 / 2 * spread) ** 0.5 / 14
    assert ci == pytest.approx((3 - 4.303 * error, 3 + 4.303 * error))


def test_confidence_interval_edge_cases() -> None:
    assert ratio_ci95([(7, 2)]) == (3.5, None)
    assert ratio_ci95([(7, 2), (9, 0)]) == (3.5, None)  # an empty cluster is no sample
    with pytest.raises(ValueError):
        ratio_ci95([])


def test_t_quantiles() -> None:
    assert t_975(1) == 12.706
    assert t_975(30) == 2.042
    assert t_975(31) == pytest.approx(2.0395, abs=1e-3)
    assert t_975(120) == pytest.approx(1.9799, abs=1e-3)
    assert t_975(10**9) == pytest.approx(1.96, abs=1e-3)
    with pytest.raises(ValueError):
        t_975(0)


def test_percentile() -> None:
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert percentile([1.0, 2.0], 0.5) == 1.5
    assert percentile(list(map(float, range(101))), 0.95) == 95.0
    assert percentile([4.0], 0.95) == 4.0


def test_moon_stopped_needs_a_threat_of_sixteen_points() -> None:
    rules = Rules()
    queen_and_hearts = mask("QS 2H 3H")  # 15 points
    assert MOON_THREAT_POINTS == 16
    # North holds 16 points, all the penalty so far; West then wins a heart.
    assert moon_stopper([(2, queen_and_hearts | mask("4H")), (1, mask("5H"))], rules) == 1
    # 15 points are no threat yet.
    assert moon_stopper([(2, queen_and_hearts), (1, mask("5H"))], rules) is None
    # Tricks without penalty cards break nothing; the threat taking more goes on.
    tricks = [(2, queen_and_hearts | mask("4H")), (3, mask("2C 3C 4C 5C")), (2, mask("6H"))]
    assert moon_stopper(tricks, rules) is None
    assert moon_stopper([*tricks, (0, mask("7H"))], rules) == 0
    # Points split from the start: no threat.
    assert moon_stopper([(2, mask("QS")), (1, mask("2H")), (2, mask("3H 4H 5H"))], rules) is None


# --- settings and levels ----------------------------------------------------------------


def test_settings() -> None:
    assert parse_settings(["expert.samples=20", "easy.high_follow=0.5", "expert.name=x"]) == {
        "expert": {"samples": 20, "name": "x"},
        "easy": {"high_follow": 0.5},
    }
    for bad in ("samples=20", "expert.samples", "expert.=3", ".x=1"):
        with pytest.raises(ArenaError):
            parse_settings([bad])


def test_entrants_by_level() -> None:
    bots = make_entrants(["easy", "random", "easy", "beginner"], {"easy": {"high_follow": 0.1}})
    assert [bot.level for bot in bots] == ["easy", "random", "easy", "beginner"]
    assert isinstance(bots[0], EasyBot) and bots[0].high_follow == 0.1
    assert bots[0] is bots[2]
    with pytest.raises(ArenaError, match="unknown level 'master'"):
        make_entrants(["master", "easy", "easy", "easy"])
    with pytest.raises(ArenaError, match="four seats"):
        make_entrants(["easy", "easy", "easy"])
    with pytest.raises(ArenaError, match="no seat plays"):
        make_entrants(["easy"] * 4, {"normal": {}})
    with pytest.raises(ArenaError, match="easy"):
        make_entrants(["easy"] * 4, {"easy": {"no_such_setting": 1}})


# --- the command --------------------------------------------------------------------------


def test_arena_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--seats", "beginner,random,random,random", "--hands", "32", "--seed", "3"]
    assert main([*argv, "--json", "--workers", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    data = json.loads(lines[-1])
    assert set(data) == {
        "levels",
        "differences",
        "part_differences",
        "hands",
        "matches",
        "seed",
        "seats",
    }
    assert data["hands"] == 32 and data["matches"] == 0 and data["seed"] == 3
    assert data["seats"] == ["beginner", "random", "random", "random"]
    assert list(data["levels"]) == ["beginner", "random"]
    keys = {
        "points_per_hand", "ci95", "match_win_rate", "decision_ms_p50", "decision_ms_p95",
        "moons_shot", "moons_stopped", "points_from", "decision_ms_by_kind", "seats", "hands",
    }  # fmt: skip
    for level in data["levels"].values():
        assert set(level) == keys
        low, high = level["ci95"]
        assert low <= level["points_per_hand"] <= high
        assert level["match_win_rate"] is None
        assert 0 <= level["decision_ms_p50"] <= level["decision_ms_p95"]
    assert data["levels"]["random"]["seats"] == 3 and data["levels"]["random"]["hands"] == 96
    assert any(line.startswith("beginner") for line in lines[:-1])  # the table comes first
    [difference] = data["differences"]
    assert difference["level"] == "beginner" and difference["other"] == "random"
    levels = data["levels"]
    gap = levels["beginner"]["points_per_hand"] - levels["random"]["points_per_hand"]
    assert difference["points_per_hand"] == pytest.approx(gap, abs=1e-3)
    assert any(line.startswith("beginner minus random:") for line in lines[:-1])

    assert main([*argv, "--matches", "--json", "--workers", "2"]) == 0
    data = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert data["matches"] > 0 and data["hands"] >= 32
    assert sum(lvl["match_win_rate"] * lvl["seats"] for lvl in data["levels"].values()) == (
        pytest.approx(1.0, abs=1e-3)
    )


def test_arena_command_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--seats", "easy,random,random,random", "--hands", "8", "--workers", "1"]
    assert main([*argv, "--set", "easy.high_follow=1.0"]) == 0
    out = capsys.readouterr().out
    assert "8 hands (1 deal sets x 4 rotations)" in out
    assert "{" not in out
    assert "easy pts/hand from hearts " in out and ", moons " in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "easy,easy,easy"], "four seats"),
        (["--seats", "easy,easy,easy,master"], "unknown level 'master'"),
        (["--seats", "easy,easy,easy,easy", "--hands", "0"], "at least one hand"),
        (["--seats", "easy,easy,easy,easy", "--workers", "0"], "at least one worker"),
        (["--seats", "easy,easy,easy,easy", "--set", "easy.nothing=1"], "easy"),
        (["--seats", "easy,easy,easy,easy", "--set", "samples"], "LEVEL.NAME=VALUE"),
    ],
)
def test_arena_command_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", *args]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and message in captured.err


def test_difference_pairs_the_levels_deal_set_by_deal_set() -> None:
    # Equal lengths: the mean and standard error of the per-deal-set differences.
    first = {0: (10.0, 4), 1: (2.0, 4), 2: (6.0, 4), 3: (14.0, 4)}
    second = {0: (30.0, 12), 1: (15.0, 12), 2: (18.0, 12), 3: (36.0, 12)}
    gaps = [first[d][0] / 4 - second[d][0] / 12 for d in range(4)]
    mean = sum(gaps) / 4
    se = (sum((g - mean) ** 2 for g in gaps) / 3 / 4) ** 0.5
    diff, ci = difference_ci95(first, second)
    assert diff == pytest.approx(mean)
    assert ci is not None
    assert ci[0] == pytest.approx(mean - t_975(3) * se)
    assert ci[1] == pytest.approx(mean + t_975(3) * se)
    # A constant gap has no spread at all, however much the deal sets differ.
    same = {d: (y + 4 * 2.0, n) for d, (y, n) in first.items()}
    assert difference_ci95(same, first) == (
        pytest.approx(2.0),
        (pytest.approx(2.0), pytest.approx(2.0)),
    )
    assert difference_ci95({0: (1.0, 1)}, {0: (2.0, 1)}) == (-1.0, None)
    with pytest.raises(ValueError):
        difference_ci95({0: (1.0, 1)}, {1: (2.0, 1)})


def test_arena_reports_the_first_level_minus_the_others() -> None:
    result = run_arena([LowestBot(), EasyBot(), EasyBot(), EasyBot()], hands=32, seed=4, workers=1)
    [difference] = result.differences
    assert (difference.level, difference.other) == ("lowest", "easy")
    gap = result.levels["lowest"].points_per_hand - result.levels["easy"].points_per_hand
    assert difference.points_per_hand == pytest.approx(gap)
    assert difference.ci95 is not None
    assert difference.ci95[0] < difference.points_per_hand < difference.ci95[1]


@pytest.mark.parametrize("rules", [Rules(), Rules(moon="choice", jack_of_diamonds=True)])
def test_the_difference_is_split_by_part_each_paired_by_deal_set(rules: Rules) -> None:
    result = run_arena([LowestBot(), EasyBot(), EasyBot(), EasyBot()], 32, 4, 1, rules=rules)
    [whole] = result.differences
    parts = result.part_differences
    assert [p.part for p in parts] == list(POINTS_FROM)
    assert {(p.level, p.other) for p in parts} == {("lowest", "easy")}
    # The parts share the seat-hands of the whole, so their differences add up to it.
    assert sum(p.points_per_hand for p in parts) == pytest.approx(whole.points_per_hand)
    for p in parts:
        levels = result.levels
        mine, theirs = levels["lowest"].points_from, levels["easy"].points_from
        assert mine is not None and theirs is not None and p.part is not None
        assert p.points_per_hand == pytest.approx(mine[p.part] - theirs[p.part])
        # Each part is paired deal set by deal set, as the whole is.
        index = POINTS_FROM.index(p.part)
        hands = result.per_deal_set
        assert (p.points_per_hand, p.ci95) == difference_ci95(
            {
                d: (s[index], hands["lowest"][d][1])
                for d, s in result.parts_per_deal_set["lowest"].items()
            },
            {
                d: (s[index], hands["easy"][d][1])
                for d, s in result.parts_per_deal_set["easy"].items()
            },
        )
    for level, sets in result.parts_per_deal_set.items():
        for d, split in sets.items():
            assert sum(split) == result.per_deal_set[level][d][0]
    line = next(line for line in result.table() if line.startswith("  of which "))
    assert "hearts " in line and ", spades " in line and ", moons " in line
    assert ("other" in line) == rules.jack_of_diamonds


def test_a_variant_is_paired_with_its_control_deal_set_by_deal_set() -> None:
    others = [PickyBot(), PickyBot(), PickyBot()]
    control = run_arena([EasyBot(), *others], hands=48, seed=6, workers=1)
    # The same settings again: every deal set identical, no change, no spread.
    again = run_arena([EasyBot(), *others], hands=48, seed=6, workers=1)
    [same] = variant_changes(control, again)
    assert (same.level, same.other, same.identical, same.deal_sets) == ("easy", "picky", 3, 3)
    assert same.change == 0 and same.ci95 == (0, 0)
    # Only runs of the same seats on the same deals can be paired.
    with pytest.raises(ArenaError):
        variant_changes(control, run_arena([EasyBot(), *others], hands=48, seed=7, workers=1))
    with pytest.raises(ArenaError):
        variant_changes(control, run_arena([LowestBot(), *others], hands=48, seed=6, workers=1))


def test_a_variant_of_a_different_level_is_paired_by_its_per_deal_set_gaps() -> None:
    others = [PickyBot(), PickyBot(), PickyBot()]
    control = run_arena([EasyBot(), *others], hands=64, seed=8, workers=1)
    variant = run_arena([EasyBot(high_follow=0.9), *others], hands=64, seed=8, workers=1)
    [change] = variant_changes(control, variant)
    # Every deal set has the same length: the mean and t interval of the per-deal-set
    # changes of "easy minus picky".
    deltas = []
    for d in range(4):
        gap = []
        for run in (control, variant):
            (y1, n1), (y2, n2) = run.per_deal_set["easy"][d], run.per_deal_set["picky"][d]
            gap.append(y1 / n1 - y2 / n2)
        deltas.append(gap[1] - gap[0])
    mean = sum(deltas) / 4
    se = (sum((x - mean) ** 2 for x in deltas) / 3 / 4) ** 0.5
    assert change.change == pytest.approx(mean)
    assert change.ci95 is not None
    assert change.ci95[0] == pytest.approx(mean - t_975(3) * se)
    assert change.ci95[1] == pytest.approx(mean + t_975(3) * se)


def test_arena_command_variant(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--seats", "easy,random,random,random", "--hands", "32", "--workers", "1"]
    assert main([*argv, "--variant", "easy.high_follow=0.9", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    data = json.loads(lines[-1])
    assert set(data) == {"control", "variant", "changes"}
    [change] = data["changes"]
    control = data["control"]["differences"][0]["points_per_hand"]
    variant = data["variant"]["differences"][0]["points_per_hand"]
    assert change["change"] == pytest.approx(variant - control, abs=1e-3)
    assert lines[0] == "control:" and "variant:" in lines
    assert any(line.startswith("variant minus control (easy minus random):") for line in lines)
    # A bad variant is refused before anything is played.
    assert main([*argv, "--variant", "easy.nothing=1"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "easy" in captured.err


def test_the_first_deal_sets_of_a_tournament_play_as_in_the_whole() -> None:
    bots = [EasyBot(), EasyBot(), PickyBot(), PickyBot()]
    whole = run_arena(bots, hands=48, seed=9, workers=1)
    first = run_arena(bots, hands=48, seed=9, workers=1, deal_set_limit=2)
    assert (first.deal_sets, first.hands) == (2, 32)
    for level, sets in whole.per_deal_set.items():
        assert first.per_deal_set[level] == {d: sets[d] for d in (0, 1)}


def test_a_saved_result_reads_back() -> None:
    result = run_arena([EasyBot(), PickyBot(), PickyBot(), PickyBot()], hands=32, seed=2, workers=1)
    saved = json.loads(json.dumps(result.to_saved({"seed": 2})))
    back, run = ArenaResult.from_saved(saved)
    assert run == {"seed": 2}
    assert back.per_deal_set == result.per_deal_set
    assert (back.seed, back.seats, back.hands, back.deal_sets) == (2, result.seats, 32, 2)
    assert back.levels["easy"].points_per_hand == pytest.approx(
        result.levels["easy"].points_per_hand, abs=1e-4
    )
    assert back.differences[0].ci95 == pytest.approx(result.differences[0].ci95, abs=1e-4)
    assert back.levels["easy"].points_from == pytest.approx(result.levels["easy"].points_from)
    by_kind = result.levels["easy"].decision_ms_by_kind
    assert by_kind is not None and list(by_kind) == ["pass", "play"]
    read = back.levels["easy"].decision_ms_by_kind
    assert read is not None and list(read) == ["pass", "play"]
    for kind, times in by_kind.items():
        assert read[kind] == pytest.approx(times, abs=1e-3)
    assert back.parts_per_deal_set == result.parts_per_deal_set
    assert len(back.part_differences) == len(result.part_differences) == len(POINTS_FROM)
    for read, part in zip(back.part_differences, result.part_differences, strict=True):
        assert (read.level, read.other, read.part) == (part.level, part.other, part.part)
        assert read.points_per_hand == pytest.approx(part.points_per_hand, abs=1e-4)
        assert read.ci95 == pytest.approx(part.ci95, abs=1e-4)
    # A result saved before the points were split reads back without the split.
    for report in saved["levels"].values():
        del report["points_from"], report["decision_ms_by_kind"]
    del saved["parts_per_deal_set"], saved["part_differences"]
    old = ArenaResult.from_saved(saved)[0]
    assert old.levels["easy"].points_from is None
    assert old.levels["easy"].decision_ms_by_kind is None
    assert not any("by decision" in line for line in old.table())
    assert old.parts_per_deal_set == {} and old.part_differences == ()
    assert not any(line.startswith("  of which") for line in old.table())
    for broken in (
        {},
        {**saved, "format": "other"},
        {**saved, "per_deal_set": {"easy": 3}},
        {**saved, "parts_per_deal_set": {"easy": {"0": [1, 2, 3]}}},
        {**saved, "part_differences": [{**saved["differences"][0], "part": "clubs"}]},
    ):
        with pytest.raises(ArenaError):
            ArenaResult.from_saved(broken)


def test_a_saved_control_stands_in_for_the_control(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "control.json"
    argv = ["arena", "--seats", "easy,random,random,random", "--hands", "48", "--workers", "1"]
    variant = ["--variant", "easy.high_follow=0.9", "--json"]
    changed = tmp_path / "variant.json"
    assert main([*argv, *variant, "--save", str(saved), "--save-variant", str(changed)]) == 0
    played = json.loads(capsys.readouterr().out.splitlines()[-1])
    # The variant's run is saved as the run of its settings: a control for the next one.
    again = ["--set", "easy.high_follow=0.9", "--variant", "easy.high_follow=0.9", "--json"]
    assert main([*argv, *again, "--control", str(changed)]) == 0
    [same] = json.loads(capsys.readouterr().out.splitlines()[-1])["changes"]
    assert same["change"] == 0 and same["control"] == played["changes"][0]["variant"]
    # Read back, the control gives the same changes without being played again
    # (only its first deal sets are, as a check).
    assert main([*argv, *variant, "--control", str(saved)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out.splitlines()[-1])["changes"] == played["changes"]
    assert "note" not in captured.err
    # The code that played it has changed: said, and the check still passes.
    data = json.loads(saved.read_text())
    saved.write_text(json.dumps({**data, "run": {**data["run"], "source": "before"}}))
    assert main([*argv, *variant, "--control", str(saved)]) == 0
    assert "the code has changed" in capsys.readouterr().err
    # A control that no longer plays the same is refused.
    data["per_deal_set"]["easy"]["1"][0] += 1
    saved.write_text(json.dumps(data))
    assert main([*argv, *variant, "--control", str(saved)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "deal set 1" in captured.err
    assert "play the control again" in captured.err
    # A file whose bots' settings are garbled is refused before anything is played.
    saved.write_text(json.dumps({**data, "run": {**data["run"], "bots": {"easy": 3}}}))
    assert main([*argv, *variant, "--control", str(saved)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "bad field: bots" in captured.err


@pytest.mark.parametrize(
    ("extra", "content", "message"),
    [
        (["--seed", "5"], None, "seed"),
        (["--set", "easy.high_follow=0.5"], None, "easy.high_follow=0.55"),
        ([], "not json", "is not JSON"),
        ([], "{}", "not a saved arena result"),
    ],
)
def test_a_saved_control_of_another_tournament_is_refused(
    extra: list[str],
    content: str | None,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    saved = tmp_path / "control.json"
    argv = ["arena", "--seats", "easy,random,random,random", "--hands", "8", "--workers", "1"]
    assert main([*argv, "--save", str(saved)]) == 0
    capsys.readouterr()
    if content is not None:
        saved.write_text(content)
    variant = ["--variant", "easy.high_follow=0.9", "--control", str(saved)]
    assert main([*argv, *extra, *variant]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err


def test_control_and_save_are_refused_where_they_make_no_sense(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["arena", "--seats", "easy,random,random,random", "--hands", "8", "--workers", "1"]
    missing = str(tmp_path / "missing.json")
    for extra, message in [
        (["--control", missing], "--variant"),
        (["--save-variant", missing], "--variant"),
        (["--variant", "easy.high_follow=0.9", "--control", missing, "--save", missing], "both"),
        (["--variant", "easy.high_follow=0.9", "--control", missing], "cannot read"),
        (["--save", str(tmp_path / "no" / "folder.json")], "cannot write"),
        (["--variant", "easy.high_follow=0.9", "--save-variant", str(tmp_path)], "cannot write"),
    ]:
        assert main([*argv, *extra]) == 1
        captured = capsys.readouterr()
        assert captured.out == "" and message in captured.err


def test_saved_runs_of_several_seeds_are_pooled_deal_set_by_deal_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pool_variants = load_benchmark("pool_variants")
    argv = ["arena", "--seats", "easy,random,random,random", "--hands", "32", "--workers", "1"]
    pairs = []
    for seed in ("1", "2"):
        control, variant = tmp_path / f"c{seed}.json", tmp_path / f"v{seed}.json"
        extra = ["--seed", seed, "--variant", "easy.high_follow=0.9"]
        assert main([*argv, *extra, "--save", str(control), "--save-variant", str(variant)]) == 0
        pairs.append(f"{control}:{variant}")
    capsys.readouterr()
    controls = [
        ArenaResult.from_saved(json.loads(Path(p.split(":")[0]).read_text()))[0] for p in pairs
    ]
    variants = [
        ArenaResult.from_saved(json.loads(Path(p.split(":")[1]).read_text()))[0] for p in pairs
    ]
    # Pooled, the clusters are every deal set of both seeds.
    [change] = variant_changes(pool_variants.pooled(controls), pool_variants.pooled(variants))
    assert change.deal_sets == 4
    [one] = variant_changes(controls[0], variants[0])
    [two] = variant_changes(controls[1], variants[1])
    assert change.change == pytest.approx((one.change + two.change) / 2)
    monkeypatch.setattr(sys, "argv", ["pool_variants.py", *pairs])
    assert pool_variants.main() == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].startswith("all 2 seeds, 64 hands: variant minus control")
    # A control and a variant of different seeds are refused.
    monkeypatch.setattr(
        sys, "argv", ["pool_variants.py", f"{pairs[0].split(':')[0]}:{pairs[1].split(':')[1]}"]
    )
    assert pool_variants.main() == 1
    assert "not the same tournament" in capsys.readouterr().err
    # Single runs give the standing: each seed's as the arena printed it, then all pooled.
    runs = [p.split(":")[0] for p in pairs]
    monkeypatch.setattr(sys, "argv", ["pool_variants.py", *runs])
    assert pool_variants.main() == 0
    lines = capsys.readouterr().out.splitlines()
    # Each standing is followed by its parts, which add up to it.
    wholes, parts = lines[0::2], lines[1::2]
    figures = [float(line.split(" minus random ")[1].split()[0]) for line in wholes]
    assert figures[:2] == [round(run.differences[0].points_per_hand, 3) for run in controls]
    assert wholes[2].startswith("all 2 runs, 64 hands: easy minus random")
    assert figures[2] == pytest.approx(sum(figures[:2]) / 2, abs=0.002)
    for figure, line in zip(figures, parts, strict=True):
        assert line.startswith("  of which hearts ")
        split = [float(part.split()[1]) for part in line.removeprefix("  of which ").split("], ")]
        assert sum(split) == pytest.approx(figure, abs=0.004)


def test_a_saved_variant_is_the_control_once_its_setting_is_the_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["arena", "--seats", "easy,random,random,random", "--hands", "32", "--workers", "1"]
    changed = tmp_path / "variant.json"
    variant = ["--variant", "easy.high_follow=0.9"]
    assert (
        main([*argv, *variant, "--save", str(tmp_path / "c.json"), "--save-variant", str(changed)])
        == 0
    )
    capsys.readouterr()
    # A later default: Easy follows high 90% of the time unless told otherwise.
    make_bot = bots_module.make_bot

    def later_default(level: str, **settings: Any) -> Bot:
        if level == "easy":
            settings = {"high_follow": 0.9, **settings}
        return make_bot(level, **settings)

    monkeypatch.setattr(bots_module, "make_bot", later_default)
    assert main([*argv, "--variant", "easy.high_follow=0.5", "--control", str(changed)]) == 0
    assert "variant minus control" in capsys.readouterr().out
    # Without it, the saved run is not the control of today's default.
    monkeypatch.setattr(bots_module, "make_bot", make_bot)
    assert main([*argv, "--variant", "easy.high_follow=0.5", "--control", str(changed)]) == 1
    assert "easy.high_follow=0.9" in capsys.readouterr().err
