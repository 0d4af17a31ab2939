"""The bots cannot cheat: a decision depends on the seat's view and the seed, nothing else.

For every level, at many positions of random matches (passes and plays), a
second match is built that differs only in cards hidden from the deciding
seat: two unplayed, never passed cards of one suit are swapped between two
other seats in the deal, and the same passes and plays are replayed.  The
deciding seat's views are equal, the two other seats' views are not, and
the bot decides the same with the same seed in both.
"""

from __future__ import annotations

import ast
import pickle
import random
import typing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

import hearts.bots
from hearts.bots import LEVELS, make_bot
from hearts.bots.base import Bot, Decision
from hearts.match import Match, Phase
from hearts.view import SeatView
from helpers import STANDARD, random_prefix, random_step, replay
from test_view import hidden_swaps, swapped

SMALL_BUDGET: dict[str, dict[str, Any]] = {
    "expert": {
        "samples": 6,
        "pass_samples": 3,
        "rounds": 2,
        "pass_rounds": 2,
        "pool": 12,
        "shoot_prior": 0.2,
        "moon_table": True,
        "give_up": True,
        "seize": 10,
        "playout_noise": 0.2,
        "shoot_check": True,
        "pass_shoot_check": True,
        "pass_tell": True,
        "pass_wide": True,
        "pass_moon": True,
        "spread_passes": True,
        "lookahead": 1,
        "moon_lookahead": 2,
        "moon_fit": 4.0,
        "shoot_lookahead": 2,
        "replies": True,
        "model_replies": 3,
        "sharp": True,
        "endgame": 3,
        "shoot_bias": 5.0,
        "late_shoot_bias": 5.0,
        "pass_shoot_bias": 5.0,
        "lead_noise": 0.9,
        "discard_noise": 0.8,
        "pass_noise": 0.7,
        "min_effective": 8.0,
        "max_samples": 18,
    },
    "expert-2026-11": {"samples": 6, "pass_samples": 3},
    "pimc": {"simulations": 60, "worlds": 6, "pass_simulations": 60},
    "ismcts": {"iterations": 60, "pass_simulations": 60},
    "pimc-uct": {"simulations": 20, "worlds": 4, "pass_simulations": 60},
}
"""Settings that keep the search bots quick here; fairness does not depend on the budget."""

POSITIONS = {"expert": 24, "expert-2026-11": 24, "pimc": 24, "ismcts": 24, "pimc-uct": 24}
"""Positions per level (half passes, half plays); the default is below."""
DEFAULT_POSITIONS = 100


def bot_for(level: str) -> Bot:
    """The level's bot, with a small budget where the level has one."""
    names = {f.name for f in fields(type(make_bot(level)))}
    wanted = SMALL_BUDGET.get(level, {})
    if wanted and not set(wanted) <= names:
        missing = ", ".join(sorted(set(wanted) - names))
        pytest.skip(f"{level} bot has no {missing} setting yet: it would be too slow here")
    return make_bot(level, **wanted)


def position(seed: int, passing: bool) -> tuple[Match, int]:
    """A random match stopped where a seat owes a pass (``passing``) or a play, and that seat."""
    rng = random.Random(seed)
    while True:
        match = random_prefix(STANDARD, seed, stop=0.02)
        wanted = Phase.PASSING if passing else Phase.PLAYING
        while match.phase is not wanted and match.phase is not Phase.MATCH_OVER:
            random_step(match, rng)
        if match.phase is not Phase.MATCH_OVER:
            break
        seed += 1_000_003
    if passing:
        # Some seats may have confirmed already.
        for seat in match.waiting_for()[: rng.randint(0, 2)]:
            match.confirm_pass(seat, rng.sample(list(match.holding(seat)), 3))
        return match, rng.choice(match.waiting_for())
    turn = match.turn
    assert turn is not None
    return match, turn


def positions(count: int, first_seed: int) -> list[tuple[Match, int]]:
    return [position(first_seed + i, passing=i % 2 == 0) for i in range(count)]


def decide(bot: Bot, view: SeatView, seed: int) -> Decision:
    return bot.decide(view, random.Random(seed))


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_do_not_change_a_decision(level: str) -> None:
    check_hidden_swaps(bot_for(level), POSITIONS.get(level, DEFAULT_POSITIONS))


CONSISTENT = {"samples": 12, "pool": 24, "pass_samples": 3, "consistent": 2, "moon_lookahead": 0}
"""The Expert's search of its next card by what it will have seen (``lookahead`` would take
the place of that search, so it is a test of its own)."""


def test_hidden_cards_do_not_change_a_consistent_search() -> None:
    check_hidden_swaps(make_bot("expert", **CONSISTENT), 24)


PLAY_MODEL = {"samples": 6, "pool": 24, "pass_samples": 3, "play_model": True}
"""The Expert weighing its deals by the learned play model instead of the noisy policy."""


def test_hidden_cards_do_not_change_a_search_weighed_by_the_play_model() -> None:
    check_hidden_swaps(make_bot("expert", **PLAY_MODEL), 24)


def check_hidden_swaps(bot: Bot, count: int) -> None:
    """Swapping two cards the seat cannot see never changes its decision."""
    tested = {Phase.PASSING: 0, Phase.PLAYING: 0}
    for index, (match, seat) in enumerate(positions(count, first_seed=1000 * count)):
        swaps = hidden_swaps(match, seat)
        if not swaps:
            continue  # late in a hand every unplayed card may be known
        pick = random.Random(index)
        a, card_a, b, card_b = swap = pick.choice(swaps)
        assert card_a // 13 == card_b // 13
        other = replay(match, last_deal=swapped(match.current.deal, swap))
        assert other.current.deal != match.current.deal
        assert other.view(seat) == match.view(seat)
        assert other.view(a) != match.view(a) and other.view(b) != match.view(b)
        seed = pick.randrange(2**32)
        assert decide(bot, other.view(seat), seed) == decide(bot, match.view(seat), seed)
        tested[match.phase] += 1
    assert min(tested.values()) >= count // 4, tested


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_view_and_seed_give_the_same_decision(level: str) -> None:
    bot = bot_for(level)
    for match, seat in positions(6, first_seed=77):
        view = match.view(seat)
        first = decide(bot, view, 5)
        assert decide(bot, view, 5) == first
        assert decide(bot, pickle.loads(pickle.dumps(view)), 5) == first
        assert decide(make_bot(level, **SMALL_BUDGET.get(level, {})), view, 5) == first


@pytest.mark.parametrize("level", LEVELS)
def test_bots_pickle(level: str) -> None:
    bot = bot_for(level)
    copy = pickle.loads(pickle.dumps(bot))
    assert copy == bot and type(copy) is type(bot) and copy.level == level
    match, seat = position(3, passing=False)
    assert decide(copy, match.view(seat), 9) == decide(bot, match.view(seat), 9)


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_is_given_only_a_view(level: str) -> None:
    cls = type(make_bot(level))
    for method in ("decide", "choose_pass", "choose_play", "choose_moon"):
        hints = typing.get_type_hints(getattr(cls, method))
        assert hints["view"] is SeatView, (cls.__name__, method)
        assert set(hints) == {"view", "rng", "return"}, (cls.__name__, method)


# Modules that would let a bot reach past its view: the caller's frames, the match,
# other objects in memory.
FORBIDDEN_IMPORTS = {"inspect", "sys", "gc", "ctypes", "traceback", "hearts.record", "hearts.cli"}


def test_bot_modules_cannot_reach_the_match() -> None:
    sources = sorted(Path(hearts.bots.__file__).parent.glob("*.py"))
    assert len(sources) >= 4
    for source in sources:
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module is not None:
                names = {node.module}
                if node.module == "hearts.match":
                    imported = {alias.name for alias in node.names}
                    assert "Match" not in imported and "HandLog" not in imported, source.name
            else:
                continue
            assert not names & FORBIDDEN_IMPORTS, (source.name, names)


def decide_elsewhere(bot: Bot, view_bytes: bytes, seed: int) -> Decision:
    """Runs in a worker process that has no match at all, only the pickled view."""
    view = pickle.loads(view_bytes)
    assert isinstance(view, SeatView)
    return bot.decide(view, random.Random(seed))


def test_a_view_alone_in_another_process_gives_the_same_decision() -> None:
    bot = bot_for("normal")
    cases = positions(6, first_seed=500)
    with ProcessPoolExecutor(max_workers=1) as pool:
        futures = [
            pool.submit(decide_elsewhere, bot, pickle.dumps(match.view(seat)), 11)
            for match, seat in cases
        ]
        remote = [future.result() for future in futures]
    assert remote == [decide(bot, match.view(seat), 11) for match, seat in cases]
