"""The coach measured: its speed, the stability of its verdicts, and Expert against Normal.

Three measurements, each printing figures (nothing is asserted):

``speed``
    Analyse one seat's hands at the default budget, one after the other on
    one core, and print the seconds per hand (mean, median, worst).  The
    hands are from Expert-and-Normal matches played here with a fixed seed.

``stability``
    Analyse the same hands with several seeds and, per decision that was not
    forced, compare: how often the verdict is not the same for every seed,
    how often "mistake or worse" is given by some seeds but not all, and the
    spread (standard deviation across seeds) of the loss.

``arena``
    Play ``hearts arena`` hands (one Expert, three Normal, duplicate deals,
    the arena's seed), analyse every seat of every hand, and print the average
    loss per decision and the accuracy of each level with 95% intervals (one
    hand of a deal set, its four rotations together, is one sample).

    .venv/bin/python benchmarks/coach.py speed --hands 8
    .venv/bin/python benchmarks/coach.py stability --hands 24 --seeds 5 --samples 300
    .venv/bin/python benchmarks/coach.py arena --hands 48

Everything runs in this one process, on one core.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from hearts import Match, Phase
from hearts.arena import make_entrants, run_arena
from hearts.bots import make_bot
from hearts.coach import DEFAULT_BUDGET, Budget, analyse_match
from hearts.coach.review import MISTAKE, THRESHOLDS, accuracy_of
from hearts.record import read_record
from hearts.stats import ratio_ci95

LEVELS = ("expert", "normal", "normal", "expert")


def played_match(seed: int, hands: int) -> Match:
    """A match of Expert and Normal bots (South and East Expert), stopped after ``hands`` hands."""
    match = Match(seed=seed)
    bots = [make_bot(level) for level in LEVELS]
    rng = random.Random(seed)
    while True:
        if match.phase is Phase.PASSING:
            chosen = [bots[s].decide(match.view(s), rng).cards for s in range(4)]
            for seat in range(4):
                match.confirm_pass(seat, chosen[seat])
        while match.phase in (Phase.PLAYING, Phase.MOON_CHOICE):
            turn = match.turn
            assert turn is not None
            decision = bots[turn].decide(match.view(turn), rng)
            if decision.kind == "moon":
                match.choose_moon(turn, "subtract" if decision.moon == "subtract" else "add")
            else:
                match.play(decision.cards[0], turn)
        if match.phase is Phase.MATCH_OVER or len(match.results) >= hands:
            return match
        match.next_hand()


def sample_hands(count: int, seed: int) -> list[tuple[Match, int, int]]:
    """``count`` (match, hand, seat) triples: hands of a few matches, seats in turn."""
    found: list[tuple[Match, int, int]] = []
    match_seed = seed
    while len(found) < count:
        match = played_match(match_seed, hands=8)
        for result in match.results:
            if len(found) < count:
                found.append((match, result.number, len(found) % 4))
        match_seed += 1
    return found


def budget_of(args: argparse.Namespace) -> Budget:
    samples = args.samples or DEFAULT_BUDGET.samples
    pass_samples = args.pass_samples or DEFAULT_BUDGET.pass_samples
    return Budget(samples=samples, pass_samples=pass_samples)


def speed(args: argparse.Namespace) -> dict[str, Any]:
    budget = budget_of(args)
    times = []
    decisions = 0
    for match, hand, _ in sample_hands(args.hands, args.seed):
        started = time.process_time()
        analysis = analyse_match(match, 0, hand, budget=budget)
        times.append(time.process_time() - started)
        decisions += len(analysis.decisions)
        print(f"hand {hand}: {times[-1]:.2f} s CPU", file=sys.stderr)
    return {
        "measure": "speed",
        "budget": [budget.samples, budget.pass_samples],
        "hands": len(times),
        "seconds_mean": round(statistics.fmean(times), 2),
        "seconds_median": round(statistics.median(times), 2),
        "seconds_max": round(max(times), 2),
        "decisions": decisions,
    }


def stability(args: argparse.Namespace) -> dict[str, Any]:
    budget = budget_of(args)
    seeds = list(range(args.seeds))
    changed = unsure_mistakes = sure_mistakes = counted = 0
    spreads: list[float] = []
    noises: list[float] = []
    best_changed = 0
    verdict_counts: dict[str, int] = defaultdict(int)
    losses: list[float] = []
    for match, hand, seat in sample_hands(args.hands, args.seed):
        runs = [analyse_match(match, seat, hand, seed, budget=budget).decisions for seed in seeds]
        for per_seed in zip(*runs, strict=True):
            if per_seed[0].forced:
                continue
            counted += 1
            verdicts = {d.verdict for d in per_seed}
            changed += len(verdicts) > 1
            bad = [d.verdict in ("mistake", "blunder") for d in per_seed]
            if any(bad):
                if all(bad):
                    sure_mistakes += 1
                else:
                    unsure_mistakes += 1
            if len(verdicts) > 1 or any(bad):
                runs = [(" ".join(d.best), round(d.loss, 2), round(d.noise, 2)) for d in per_seed]
                where = f"hand {hand} seat {seat} {per_seed[0].kind} {per_seed[0].trick}"
                print(f"{where}: {sorted(verdicts)} {runs}", file=sys.stderr)
            best_changed += len({d.best for d in per_seed}) > 1
            spreads.append(statistics.pstdev([d.loss for d in per_seed]))
            noises += [d.noise for d in per_seed]
            losses += [d.loss for d in per_seed]
            for d in per_seed:
                verdict_counts[d.verdict] += 1
        print(f"hand {hand} seat {seat}: {counted} decisions so far", file=sys.stderr)
    spreads.sort()
    losses.sort()
    return {
        "measure": "stability",
        "budget": [budget.samples, budget.pass_samples],
        "hands": args.hands,
        "seeds": len(seeds),
        "decisions": counted,
        "verdict_changed": round(changed / counted, 4),
        "mistake_all_seeds": sure_mistakes,
        "mistake_some_seeds": unsure_mistakes,
        "best_changed": round(best_changed / counted, 4),
        "loss_sd_mean": round(statistics.fmean(spreads), 3),
        "loss_sd_p90": round(percentile(spreads, 0.9), 3),
        "loss_sd_max": round(spreads[-1], 3),
        "noise_mean": round(statistics.fmean(noises), 3),
        "loss_p50": round(percentile(losses, 0.5), 3),
        "loss_p90": round(percentile(losses, 0.9), 3),
        "loss_p99": round(percentile(losses, 0.99), 3),
        "verdicts": dict(verdict_counts),
        "thresholds": {verdict: threshold for threshold, verdict in THRESHOLDS},
    }


def arena(args: argparse.Namespace) -> dict[str, Any]:
    budget = budget_of(args)
    entrants = make_entrants(["expert", "normal", "normal", "normal"], {})
    result = run_arena(entrants, hands=args.hands, seed=args.seed, workers=1, keep_records=True)
    # Deal set d is played in rotations 0..3: records 4d .. 4d+3 (hands mode keeps that order).
    # One sample is one hand of one deal set, its four rotations together (they share the cards;
    # the hands of a deal set have different cards and share only the running scores).
    clusters: dict[str, dict[tuple[int, int], list[float]]] = defaultdict(lambda: defaultdict(list))
    accuracy: dict[str, dict[tuple[int, int], list[float]]] = defaultdict(lambda: defaultdict(list))
    verdicts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for index, record in enumerate(result.records):
        deal_set = index // 4
        match = read_record(record, seed=0)
        levels = record["meta"]["levels"]
        for seat in range(4):
            analysis = analyse_match(match, seat, budget=budget)
            for decision in analysis.decisions:
                if decision.forced:
                    continue
                key = (deal_set, decision.hand)
                clusters[levels[seat]][key].append(decision.loss)
                accuracy[levels[seat]][key].append(accuracy_of(decision.loss))
                verdicts[levels[seat]][decision.verdict] += 1
        print(f"record {index + 1}/{len(result.records)}", file=sys.stderr)
        print(json.dumps(arena_report(clusters, accuracy, verdicts)), file=sys.stderr)
    report: dict[str, Any] = {
        "measure": "arena",
        "budget": [budget.samples, budget.pass_samples],
        "hands": result.hands,
        "seed": args.seed,
    }
    report.update(arena_report(clusters, accuracy, verdicts))
    return report


def arena_report(
    clusters: dict[str, dict[tuple[int, int], list[float]]],
    accuracy: dict[str, dict[tuple[int, int], list[float]]],
    verdicts: dict[str, dict[str, int]],
) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for level, by_set in clusters.items():
        loss, loss_ci = ratio_ci95([(sum(v), len(v)) for v in by_set.values()])
        acc, acc_ci = ratio_ci95([(sum(v), len(v)) for v in accuracy[level].values()])
        mistakes = verdicts[level]["mistake"] + verdicts[level]["blunder"]
        decisions = sum(verdicts[level].values())
        report[level] = {
            "decisions": decisions,
            "samples": len(by_set),
            "loss_per_decision": round(loss, 3),
            "loss_ci95": None if loss_ci is None else [round(x, 3) for x in loss_ci],
            "accuracy": round(acc, 1),
            "accuracy_ci95": None if acc_ci is None else [round(x, 1) for x in acc_ci],
            "mistakes_per_100": round(100 * mistakes / decisions, 2),
            "verdicts": dict(verdicts[level]),
        }
    return report


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("measure", choices=("speed", "stability", "arena"))
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--seeds", type=int, default=5, help="stability: seeds per hand")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, help="sampled deals per play (default: the coach's)")
    parser.add_argument("--pass-samples", type=int, help="sampled deals per pass")
    args = parser.parse_args()
    started = time.perf_counter()
    figures = {"speed": speed, "stability": stability, "arena": arena}[args.measure](args)
    figures["mistake_threshold"] = MISTAKE
    figures["wall_seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
