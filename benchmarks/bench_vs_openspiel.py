"""Random full hands per second: our engine against OpenSpiel's C++ Hearts.

Both are driven from Python on one core, in the same run, in alternating
rounds so that a change in the machine's speed hits both alike:

- ours: :func:`hearts.bench.run_bench` (deal, random passes, random legal
  plays through ``HandState``, scoring);
- OpenSpiel: ``pyspiel.load_game("hearts")`` played by the plain loop every
  OpenSpiel user writes: chance nodes get a random outcome, decision nodes a
  random legal action, until the state is terminal.  Its chance outcomes
  (pass direction, each dealt card) are all equally likely, so a uniform
  pick is an exact sample.  ``qs_breaks_hearts`` is turned off so that both
  engines play our standard rules.

Needs the optional ``bench`` extra (``pip install -e '.[bench]'``)::

    python benchmarks/bench_vs_openspiel.py --rounds 3 --seconds 5
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from hearts.bench import run_bench

OPENSPIEL_RULES = {"qs_breaks_hearts": False}
"""OpenSpiel's default lets the queen of spades break hearts; our standard game does not."""


def load_openspiel() -> Any:
    """The ``hearts`` game of pyspiel, or None when OpenSpiel is not installed."""
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        return None
    return pyspiel.load_game("hearts", OPENSPIEL_RULES)


def openspiel_hands_per_second(game: Any, seconds: float, seed: int) -> tuple[int, float]:
    """Play random OpenSpiel hands for ``seconds``: (hands played, hands per second)."""
    rand = random.Random(seed).random
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[int(rand() * len(outcomes))][0]
            else:
                legal = state.legal_actions()
                action = legal[int(rand() * len(legal))]
            state.apply_action(action)
        hands += 1
        if time.perf_counter() >= deadline:
            break
    return hands, hands / (time.perf_counter() - start)


def pin_to_one_core() -> str:
    """Run on a single CPU where the system allows it, so both sides get the same core."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--seconds", type=float, default=5.0, help="per side per round")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    game = load_openspiel()
    if game is None:
        print(
            "OpenSpiel (pyspiel) is not installed: pip install -e '.[bench]' "
            "(the package is open-spiel)",
            file=sys.stderr,
        )
        return 2

    print(f"Python {platform.python_version()} on {platform.machine()}, {pin_to_one_core()}")
    print(f"{args.rounds} rounds of {args.seconds:g} s per side, random full hands")
    print(f"OpenSpiel game: {game}")
    ratios = []
    for round_number in range(1, args.rounds + 1):
        seed = args.seed + round_number
        ours = run_bench(seconds=args.seconds, seed=seed)
        if ours.bad_hands:
            print(f"our engine scored {ours.bad_hands} hands wrongly", file=sys.stderr)
            return 1
        theirs_hands, theirs = openspiel_hands_per_second(game, args.seconds, seed)
        ratio = ours.hands_per_second / theirs
        ratios.append(ratio)
        print(
            f"round {round_number}: ours {ours.hands_per_second:,.0f} hands/s "
            f"({ours.hands} hands), OpenSpiel {theirs:,.0f} hands/s ({theirs_hands} hands), "
            f"ours/OpenSpiel {ratio:.2f}"
        )
    print(f"median ratio ours/OpenSpiel: {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
