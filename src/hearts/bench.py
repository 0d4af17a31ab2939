"""Random full hands as fast as one core plays them: deal, pass, play, score.

This is the engine's raw speed, the figure that search and playout bots
live on, measured the way OpenSpiel's own random simulations are (see
``benchmarks/bench_vs_openspiel.py``).  Every hand is real: a fresh random
deal, three random cards passed by each seat in the hand's direction, random
legal plays through :class:`~hearts.hand.HandState` and scoring by
:meth:`~hearts.rules.Rules.score_hand`, whose points are checked.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from hearts.cards import ALL_CARDS_MASK
from hearts.deal import random_deal
from hearts.hand import HandState
from hearts.rules import PassDirection, Rules


@dataclass
class BenchResult:
    """What a run played and how long it took."""

    rules: Rules = field(default_factory=Rules)
    hands: int = 0
    seconds: float = 0.0
    points: int = 0
    """Points scored over all hands (standard game: 26 a hand, 78 when the moon is shot)."""
    moons: int = 0
    bad_hands: int = 0
    """Hands whose points do not add up; always 0 unless the engine is wrong."""
    directions: Counter[PassDirection] = field(default_factory=Counter)

    def expected_points(self, moon: bool) -> int:
        """The points every hand must add up to, with or without a moon."""
        every_card = self.rules.hand_points_of_cards(ALL_CARDS_MASK)
        # A moon scored "add" gives each of the three others the moon's points.
        return every_card + 2 * self.rules.moon_points if moon else every_card

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0


def random_pass(holding: int, rng: random.Random) -> int:
    """Three random cards of ``holding``, as a mask."""
    rand = rng.random
    chosen = 0
    for left in (13, 12, 11):
        rest = holding & ~chosen
        for _ in range(int(rand() * left)):
            rest &= rest - 1
        chosen |= rest & -rest
    return chosen


def play_random_hand(
    rules: Rules, hand_number: int, rng: random.Random
) -> tuple[tuple[int, int, int, int], int | None]:
    """Deal, pass and play one hand at random; its points and its moon shooter."""
    h0, h1, h2, h3 = random_deal(rng)
    offset = rules.pass_direction(hand_number).value
    if offset:
        p0, p1, p2, p3 = (random_pass(h, rng) for h in (h0, h1, h2, h3))
        holdings = [h0 ^ p0, h1 ^ p1, h2 ^ p2, h3 ^ p3]
        for seat, passed in enumerate((p0, p1, p2, p3)):
            holdings[(seat + offset) & 3] |= passed
    else:
        holdings = [h0, h1, h2, h3]
    state = HandState(rules, holdings)
    state.play_random(rng)
    return rules.score_hand(state.taken, "add")


def run_bench(
    seconds: float = 5.0,
    hands: int | None = None,
    seed: int = 0,
    rules: Rules | None = None,
) -> BenchResult:
    """Play random hands for ``seconds`` (or exactly ``hands`` hands when given)."""
    rules = rules if rules is not None else Rules()
    rng = random.Random(seed)
    result = BenchResult(rules)
    expected_plain = result.expected_points(moon=False)
    expected_moon = result.expected_points(moon=True)
    limit = hands if hands is not None else 1 << 62
    played = points_sum = moons = bad = 0
    # The hand number cycles so every pass direction of the rules occurs; the
    # clock is read every 64 hands, not every hand.
    start = time.perf_counter()
    deadline = start + seconds if hands is None else float("inf")
    while played < limit:
        played += 1
        points, shooter = play_random_hand(rules, played, rng)
        total = points[0] + points[1] + points[2] + points[3]
        points_sum += total
        if shooter is not None:
            moons += 1
            bad += total != expected_moon
        else:
            bad += total != expected_plain
        if not played & 63 and time.perf_counter() >= deadline:
            break
    result.seconds = time.perf_counter() - start
    result.hands, result.points, result.moons, result.bad_hands = played, points_sum, moons, bad
    # Counted after the clock stopped, so it costs the measurement nothing.
    result.directions.update(rules.pass_direction(number) for number in range(1, played + 1))
    return result


def report(result: BenchResult) -> list[str]:
    """The lines ``hearts bench`` prints; the last one is the figure."""
    directions = ", ".join(
        f"{direction.name.lower()} {result.directions[direction]}"
        for direction in (
            PassDirection.LEFT,
            PassDirection.RIGHT,
            PassDirection.ACROSS,
            PassDirection.HOLD,
        )
    )
    check = "ok" if result.bad_hands == 0 else f"FAILED in {result.bad_hands} hands"
    normal, moon = result.expected_points(moon=False), result.expected_points(moon=True)
    return [
        f"played {result.hands} random hands in {result.seconds:.2f} s on one core",
        f"pass directions: {directions}",
        f"points: {result.points} in all, {result.moons} moons; "
        f"points check ({normal} a hand, {moon} with a moon): {check}",
        f"random hands per second: {round(result.hands_per_second)}",
    ]
