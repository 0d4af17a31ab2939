"""What a change to the Expert is worth, decision by decision, against the real opponents.

``hearts arena --variant`` plays every hand again with the change, so a
change that moves one decision in ten still carries the whole luck of the
rest of each hand: a paired run of 1,000 hands has a standard error of about
0.3 points per hand.  This measures the same thing where it happens.  The
hands are the arena's (the same deal sets, rotations and decision seeds, the
Expert in one seat against three of ``--opponent``).  At each of the
Expert's decisions the variant decides too, from the same view and seed; where
the two choose differently, both choices are played on to the end of the
hand ``--rollouts`` times, on the real cards, every seat deciding as usual
from its own view, each rollout with its own decision seeds, the same for
both choices.  A rollout is scored as the arena scores a hand: the Expert's
points minus the average of the other three seats' (a moon applied).

The **change** is the sum, over the decisions that differ, of the variant's
choice minus the default's, averaged over the rollouts, divided by the
Expert's hands: points per hand, negative when the variant's choices take
fewer.  It is what adopting the variant for one decision at a time is worth,
with the default deciding afterwards (to first order, what adopting it
everywhere is worth: the states come from the default's play, not the
variant's).  Its 95% interval is cluster-robust over the deal sets, as the
arena's is.  The game itself goes on with the default's choice, so the hands
are those of the arena's control run.

Each differing decision is listed with its kind (pass, lead, follow,
discard), the trick, both cards and the mean difference, and the change is
split by kind.

Example::

    python benchmarks/counterfactual.py --variant replies=true --hands 100 --seed 300
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from hearts.arena import deal_set_seed, decision_rng, parse_settings
from hearts.bots import make_bot
from hearts.bots.base import Bot
from hearts.match import Match, Phase
from hearts.stats import ratio_ci95

HANDS_PER_SET = 4
"""A deal set is one pass cycle, as in the arena's hands mode."""


@dataclass(frozen=True)
class Job:
    level: str
    seed: int
    deal_set: int
    rotation: int
    default: dict[str, Any]
    variant: dict[str, Any]
    opponent: str
    rollouts: int
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class Differing:
    deal_set: int
    rotation: int
    hand: int
    kind: str
    trick: int
    default: tuple[int, ...]
    variant: tuple[int, ...]
    diffs: tuple[float, ...]
    """Per rollout: the variant's score minus the default's (negative: the variant's is better)."""

    @property
    def mean(self) -> float:
        return statistics.fmean(self.diffs)


@dataclass(frozen=True)
class JobResult:
    deal_set: int
    decisions: int
    hands: int
    differing: tuple[Differing, ...]
    seconds: float
    scores: tuple[float, ...]
    """The level's score in each hand as played (by the default): the arena's control."""


def hand_score(match: Match, seat: int) -> float:
    """The last hand's points of ``seat`` minus the average of the others'."""
    points = match.results[-1].points
    return points[seat] - (sum(points) - points[seat]) / 3


def _kind(match: Match, seat: int) -> str:
    view = match.view(seat)
    if view.phase is Phase.PASSING:
        return "pass"
    trick = view.current_trick
    if trick is None or not trick.cards:
        return "lead"
    led = trick.cards[0][1] // 13
    return "follow" if any(card // 13 == led for card in view.legal) else "discard"


def _finish_hand(match: Match, bots: list[Bot], tag: str) -> None:
    """Play the hand in ``match`` to its end, seat by seat, each from its own view."""
    index = 0
    while match.phase in (Phase.PLAYING, Phase.MOON_CHOICE):
        turn = match.turn
        assert turn is not None
        decision = bots[turn].decide(match.view(turn), random.Random(f"{tag}:{index}"))
        index += 1
        if decision.kind == "moon":
            match.choose_moon(turn, "subtract" if decision.moon == "subtract" else "add")
        else:
            match.play(decision.cards[0], turn)


def _rollout(
    match: Match,
    bots: list[Bot],
    seat: int,
    choice: tuple[int, ...],
    passes: list[tuple[int, ...]] | None,
    tag: str,
) -> float:
    trial = match.copy()
    if passes is not None:
        for other in range(4):
            cards = choice if other == seat else passes[other]
            trial.confirm_pass(other, cards)
    else:
        trial.play(choice[0], seat)
    _finish_hand(trial, bots, tag)
    return hand_score(trial, seat)


def run_job(job: Job) -> JobResult:
    started = time.process_time()
    seat = job.rotation  # the Expert is the first entrant: seat (0 + rotation) % 4
    default = make_bot(job.level, **job.default)
    variant = make_bot(job.level, **job.variant)
    opponent = make_bot(job.opponent)
    bots = [default if s == seat else opponent for s in range(4)]
    match = Match(seed=deal_set_seed(job.seed, job.deal_set))
    differing: list[Differing] = []
    scores: list[float] = []
    decisions = hands = 0
    for _ in range(HANDS_PER_SET):
        hand = match.hand_number  # as the arena numbers it, for the decision seeds
        index = 0
        hands += 1

        def compare(
            passes: list[tuple[int, ...]] | None, chosen: tuple[int, ...], hand: int, index: int
        ) -> None:
            nonlocal decisions
            kind = _kind(match, seat)
            if kind not in job.kinds:
                return
            view = match.view(seat)
            if kind != "pass" and len(view.legal) < 2:
                return
            decisions += 1
            other = variant.decide(
                view, decision_rng(job.seed, job.deal_set, job.rotation, hand, index)
            )
            if sorted(other.cards) == sorted(chosen):
                return
            diffs = []
            for k in range(job.rollouts):
                tag = f"hearts-cf:{job.seed}:{job.deal_set}:{job.rotation}:{hand}:{index}:{k}"
                mine = _rollout(match, bots, seat, tuple(other.cards), passes, tag)
                base = _rollout(match, bots, seat, chosen, passes, tag)
                diffs.append(mine - base)
            trick = len([t for t in view.tricks if t.complete]) + 1 if kind != "pass" else 0
            differing.append(
                Differing(
                    job.deal_set, job.rotation, hand, kind, trick,
                    tuple(chosen), tuple(other.cards), tuple(diffs),
                )
            )  # fmt: skip

        if match.phase is Phase.PASSING:
            chosen = []
            for s in range(4):
                rng = decision_rng(job.seed, job.deal_set, job.rotation, hand, index)
                chosen.append(tuple(bots[s].decide(match.view(s), rng).cards))
                index += 1
            compare(chosen, chosen[seat], hand, seat)
            for s in range(4):
                match.confirm_pass(s, chosen[s])
        while match.phase in (Phase.PLAYING, Phase.MOON_CHOICE):
            turn = match.turn
            assert turn is not None
            rng = decision_rng(job.seed, job.deal_set, job.rotation, hand, index)
            decision = bots[turn].decide(match.view(turn), rng)
            if decision.kind == "moon":
                match.choose_moon(turn, "subtract" if decision.moon == "subtract" else "add")
                index += 1
                continue
            if turn == seat:
                compare(None, tuple(decision.cards), hand, index)
            index += 1
            match.play(decision.cards[0], turn)
        scores.append(hand_score(match, seat))
        if match.phase is Phase.MATCH_OVER:
            break
        match.next_hand()
    seconds = time.process_time() - started
    return JobResult(job.deal_set, decisions, hands, tuple(differing), seconds, tuple(scores))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", required=True, metavar="NAME=VALUE")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting of the default (and so of the variant too)")  # fmt: skip
    parser.add_argument(
        "--hands",
        type=int,
        default=100,
        help="the level's hands in all (a deal set of 4 hands is played in 4 rotations)",
    )
    parser.add_argument("--seed", type=int, default=300)
    parser.add_argument("--rollouts", type=int, default=8)
    parser.add_argument("--level", default="expert", help="the level measured (default expert)")
    parser.add_argument("--opponent", default="expert-2026-11")
    parser.add_argument("--kinds", default="pass,lead,follow,discard")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="also print every differing decision")
    args = parser.parse_args(argv)
    level = args.level
    default = parse_settings(f"{level}.{item}" for item in args.set).get(level, {})
    variant = dict(default)
    variant.update(parse_settings(f"{level}.{item}" for item in args.variant).get(level, {}))
    sets = max(1, -(-args.hands // (4 * HANDS_PER_SET)))
    kinds = tuple(args.kinds.split(","))
    jobs = [
        Job(level, args.seed, d, r, default, variant, args.opponent, args.rollouts, kinds)
        for d in range(sets)
        for r in range(4)
    ]
    started = time.perf_counter()
    if args.workers > 1:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            results = pool.map(run_job, jobs, chunksize=1)
    else:
        results = [run_job(job) for job in jobs]
    wall = time.perf_counter() - started
    clusters: dict[int, list[float]] = defaultdict(lambda: [0.0, 0])
    by_kind: dict[str, list[float]] = defaultdict(list)
    rollout_sd: list[float] = []
    for result in results:
        cluster = clusters[result.deal_set]
        cluster[1] += result.hands
        for item in result.differing:
            cluster[0] += item.mean
            by_kind[item.kind].append(item.mean)
            if len(item.diffs) > 1:
                rollout_sd.append(statistics.stdev(item.diffs))
    hands = sum(r.hands for r in results)
    decisions = sum(r.decisions for r in results)
    differing = [item for r in results for item in r.differing]
    change, interval = ratio_ci95([(total, int(count)) for total, count in clusters.values()])
    low, high = interval if interval else (float("nan"), float("nan"))
    print(f"variant {' '.join(args.variant)} against the default"
          f"{' with ' + ' '.join(args.set) if args.set else ''}; opponents {args.opponent}; "
          f"seed {args.seed}; {args.rollouts} rollouts")  # fmt: skip
    print(f"{hands} hands, {decisions} decisions, {len(differing)} differ "
          f"({len(differing) / max(decisions, 1):.1%})")  # fmt: skip
    print(f"change: {change:+.3f} pts/hand, 95% CI [{low:+.3f}, {high:+.3f}] "
          f"over {len(clusters)} deal sets")  # fmt: skip
    for kind in ("pass", "lead", "follow", "discard"):
        values = by_kind.get(kind, [])
        if values:
            print(f"  {kind}: {len(values)} differ, {sum(values) / hands:+.3f} pts/hand, "
                  f"mean {statistics.fmean(values):+.2f} per decision")  # fmt: skip
    if rollout_sd:
        # How much of the interval is the rollouts' own noise (the rest is which hands came).
        noise = math.sqrt(sum(sd * sd for sd in rollout_sd) / args.rollouts) / hands
        print(
            f"a rollout's spread within a decision: median sd {statistics.median(rollout_sd):.2f}; "
            f"the rollouts' own noise: {noise:.3f} pts/hand (standard error)"
        )
    cpu = sum(r.seconds for r in results)
    print(f"CPU {cpu:.0f} s, wall {wall:.0f} s")
    if args.json:
        for item in differing:
            print(json.dumps({**item.__dict__, "mean": item.mean}), file=sys.stderr)
        out = {"change": change, "ci95": interval, "hands": hands, "decisions": decisions,
               "differ": len(differing), "seed": args.seed, "variant": args.variant,
               "set": args.set, "rollouts": args.rollouts}  # fmt: skip
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
