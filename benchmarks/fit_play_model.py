"""Fit the learned play model (:mod:`hearts.bots.playmodel`) to a level's plays, and score it.

Reads hands written by ``benchmarks/play_games.py``, replays each one, and
takes every play with more than one legal card as a decision: the features
of each legal card (what the seat to play knew, nothing else) and the card
chosen.  The matches are split by seed: one in five (seed divisible by 5)
is held out, the rest fit the weights by maximum likelihood (a conditional
logit, L-BFGS with an L2 penalty ``--l2``).

Printed, on the held-out decisions, by kind of play: how often the model's
top card and the rule policy's card (:func:`hearts.bots.policy.choose`,
avoiding points) are the card played, and the mean log-chance of the card
played under the model and under the policy with noise (the Expert's
likelihood: the policy's card, or with chance ``noise`` any legal card; the
noise per kind chosen on the training decisions).  Higher is better for
both.  With ``--out``, the weights are written as a ``hearts-play-model/1``
file.

Needs numpy and scipy (``pip install scipy``); the model it writes is read
by the standard library alone.

Example::

    python benchmarks/fit_play_model.py /tmp/learn/games.jsonl \\
        --out src/hearts/bots/data/play_model.json
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize, sparse

from hearts.bots import playmodel, policy
from hearts.hand import HandState
from hearts.rules import Rules

KINDS = ("lead", "follow", "discard")


@dataclass
class Decisions:
    """Decisions as rows of candidates: the features of each legal card, grouped by decision."""

    rows: list[list[int]] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)
    """The row of the card played, for each decision."""
    kinds: list[int] = field(default_factory=list)
    policy_hit: list[bool] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)


def read_decisions(path: str, held_out: bool) -> Decisions:
    rules = Rules()
    found = Decisions()
    with open(path) as lines:
        for line in lines:
            hand = json.loads(line)
            if (hand["seed"] % 5 == 0) != held_out:
                continue
            state = HandState(rules, hand["hands"])
            threat = -1
            voids = 0
            for card in hand["plays"]:
                legal = state.legal_mask()
                if legal & (legal - 1):
                    led = state.led_mask
                    found.kinds.append(0 if not led else 1 if legal & led else 2)
                    found.starts.append(len(found.rows))
                    found.counts.append(legal.bit_count())
                    expected = policy.choose(state, legal, policy.AVOID, threat)
                    found.policy_hit.append(expected == card)
                    cards = legal
                    while cards:
                        low = cards & -cards
                        cards ^= low
                        candidate = low.bit_length() - 1
                        if candidate == card:
                            found.chosen.append(len(found.rows))
                        found.rows.append(
                            playmodel.features(
                                state, candidate, threat, expected, legal.bit_count(), voids
                            )
                        )
                voids |= playmodel.void_bits(state, card)
                if state.play(card) >= 0:
                    threat = policy.moon_threat(state)
    return found


def design(found: Decisions) -> tuple[sparse.csr_matrix, np.ndarray, np.ndarray]:
    """The candidates' feature matrix, each candidate's decision, each decision's first row."""
    indptr = [0]
    indices: list[int] = []
    for row in found.rows:
        indices += row
        indptr.append(len(indices))
    matrix = sparse.csr_matrix(
        (np.ones(len(indices)), np.array(indices), np.array(indptr)),
        shape=(len(found.rows), len(playmodel.NAMES)),
    )
    starts = np.array(found.starts)
    group = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(found.rows))))
    return matrix, group, starts


def log_chances(
    weights: np.ndarray, matrix: sparse.csr_matrix, group: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """The log-chance of every candidate within its decision."""
    scores = matrix @ weights
    top = np.maximum.reduceat(scores, starts)[group]
    exps = np.exp(scores - top)
    totals = np.add.reduceat(exps, starts)[group]
    result: np.ndarray = scores - top - np.log(totals)
    return result


def fit(found: Decisions, l2: float) -> np.ndarray:
    matrix, group, starts = design(found)
    chosen = np.array(found.chosen)
    target = np.zeros(len(found.rows))
    target[chosen] = 1.0
    count = len(found.starts)

    def loss(weights: np.ndarray) -> tuple[float, np.ndarray]:
        logs = log_chances(weights, matrix, group, starts)
        value = -logs[chosen].sum() / count + l2 * float(weights @ weights)
        gradient = matrix.T @ (np.exp(logs) - target) / count + 2 * l2 * weights
        return value, gradient

    result = optimize.minimize(
        loss,
        np.zeros(len(playmodel.NAMES)),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 2000},
    )
    weights: np.ndarray = result.x
    return weights


def policy_noise(found: Decisions) -> list[float]:
    """Per kind of play, the noise that gives the policy's likelihood its best log score."""
    best = []
    for kind in range(3):
        pairs = [
            (hit, n)
            for hit, n, k in zip(found.policy_hit, found.counts, found.kinds, strict=True)
            if k == kind
        ]
        grid = [g / 100 for g in range(5, 100, 5)]
        best.append(max(grid, key=lambda noise: policy_log(pairs, noise)))
    return best


def policy_log(pairs: list[tuple[bool, int]], noise: float) -> float:
    return sum(math.log(noise / n + ((1 - noise) if hit else 0.0)) for hit, n in pairs)


def report(found: Decisions, weights: np.ndarray, noise: list[float]) -> None:
    matrix, group, starts = design(found)
    logs = log_chances(weights, matrix, group, starts)
    ends = np.append(starts[1:], len(found.rows))
    print(
        f"{'kind':8} {'decisions':>9} {'model top':>9} {'policy':>7} {'model log':>9} "
        f"{'policy log':>10} {'noise':>5}"
    )
    for kind in (*range(3), None):
        picked = [i for i, k in enumerate(found.kinds) if kind is None or k == kind]
        if not picked:
            continue
        top = sum(
            int(np.argmax(logs[starts[i] : ends[i]]) + starts[i] == found.chosen[i]) for i in picked
        )
        hits = sum(found.policy_hit[i] for i in picked)
        model_log = sum(float(logs[found.chosen[i]]) for i in picked)
        rule_log = sum(
            math.log(
                noise[found.kinds[i]] / found.counts[i]
                + ((1 - noise[found.kinds[i]]) if found.policy_hit[i] else 0.0)
            )
            for i in picked
        )
        n = len(picked)
        name = "all" if kind is None else KINDS[kind]
        print(
            f"{name:8} {n:9d} {top / n:9.3f} {hits / n:7.3f} {model_log / n:9.3f} "
            f"{rule_log / n:10.3f} {'' if kind is None else f'{noise[kind]:.2f}':>5}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", help="hands written by benchmarks/play_games.py")
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--out", help="write the fitted model here")
    args = parser.parse_args()
    started = time.process_time()
    train = read_decisions(args.games, held_out=False)
    test = read_decisions(args.games, held_out=True)
    weights = fit(train, args.l2)
    noise = policy_noise(train)
    print(
        f"{len(train.starts)} decisions fitted, {len(test.starts)} held out, "
        f"{time.process_time() - started:.0f} s CPU"
    )
    print("held out:")
    report(test, weights, noise)
    if args.out:
        model = {
            "format": playmodel.FORMAT,
            "fitted_on": args.games.rsplit("/", 1)[-1],
            "decisions": len(train.starts),
            "l2": args.l2,
            "features": list(playmodel.NAMES),
            "weights": [round(float(w), 5) for w in weights],
        }
        with open(args.out, "w") as out:
            json.dump(model, out, indent=0)
            out.write("\n")
        print(f"written: {args.out}")


if __name__ == "__main__":
    main()
