"""Duplicate-deal tournaments between bots: who scores fewer points on the same cards.

The luck of the deal dwarfs the difference between two bots, so every deal
is played four times with the seats rotated: in rotation ``r`` the entrant
listed ``i``-th sits at seat ``(i + r) % 4``, and each entrant plays each seat
on the same cards.  A *deal set* is the sequence of hands of one match seed,
:func:`deal_set_seed` of the arena seed and the deal set's number; hand ``k``
of it is ``seeded_deal(deal_set_seed(seed, d), k)``, whichever rotation plays it.

Two modes:

- hands (the default): each deal set is a block of :data:`BLOCK` consecutive
  hands of a match (so the pass directions cycle left, right, across, hold),
  played in the four rotations; points are counted per hand.  The number of
  hands asked for is rounded up to a multiple of four.
- matches: each deal set is a whole match to the target (the match's own
  end rule), played in the four rotations; deal sets are added until at
  least the asked number of hands was played, and match wins are counted.

Every decision gets its own generator, seeded from the arena seed, the deal
set, the rotation, the hand number and the decision's index in the hand, so
the result never depends on how the work was spread over processes.

The figures per level (all seats of that level pooled):

- ``points_per_hand``: points a seat of the level scored per hand (moons
  applied), with a 95% confidence interval.  The four rotations of a deal set
  share their cards, so they are not independent; the deal sets are.  The
  interval treats each deal set as one sample: the average is a ratio
  (points over seat-hands), its standard error the cluster-robust one,
  ``sqrt(D / (D - 1) * sum((y_d - R * n_d)**2)) / sum(n_d)`` over the ``D``
  deal sets with ``y_d`` points in ``n_d`` seat-hands, which is the usual
  standard error of the mean of the deal sets' averages when they are all
  the same length; the multiplier is Student's t with ``D - 1`` degrees of
  freedom.
- ``match_win_rate``: matches won by a seat of the level over matches times
  seats of the level (matches mode only).
- ``moons_shot``: hands in which a seat of the level shot the moon.
- ``points_from``: where a seat of the level's points came from, per hand: ``hearts``
  and ``spades`` (the queen, and under Black Maria the ace and king) won in hands
  nobody shot, ``moons`` (the points of hands somebody shot, its bonus cards apart),
  and ``other`` (the jack of diamonds' bonus); they add up to ``points_per_hand``.
- ``moons_stopped``: hands in which, after some trick, one seat had won every
  penalty card played so far and they were worth at least
  :data:`MOON_THREAT_POINTS` points, and then on a later trick another seat
  won a penalty card (after which nobody can shoot that hand).  The hand counts
  for the level of that other seat, the one that won the trick that broke the
  run, whatever its intention.
- ``decision_ms_p50`` / ``decision_ms_p95``: the median and 95th percentile of
  the wall time of ``bot.decide`` (passes, plays and moon choices);
  ``decision_ms_by_kind`` gives the same two figures for each kind of decision
  apart (``pass``, ``play``, ``moon``), since a hand has one pass and thirteen
  plays and the 95th percentile of them all can hide a slow pass.
- ``differences``: the points per hand of the first entrant's level minus
  those of each other level, with a 95% interval that pairs the two levels
  deal set by deal set (:func:`hearts.stats.difference_ci95`).  This is the figure to
  compare two levels by: their own intervals overlap much more, because the
  cards of a deal set move both levels' points the same way.

A *variant* (:func:`hearts.variants.variant_changes`, ``hearts arena --variant``) is the
same tournament played again with some settings changed; how much that
moved each difference is paired deal set by deal set with the control.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import random
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from hearts.arena_figures import ArenaError, ArenaResult, Tally, paired_differences
from hearts.cards import HEARTS_MASK
from hearts.match import Match, Phase, TrickWon
from hearts.record import write_record
from hearts.rules import SEATS, Rules

if TYPE_CHECKING:
    from hearts.bots.base import Bot

BLOCK: Final = 4
"""Hands per deal set in hands mode: one full cycle of pass directions."""

MOON_THREAT_POINTS: Final = 16
"""A seat holding every penalty card so far, worth at least this much, threatens a moon."""

DEFAULT_WORKERS: Final = 2


def deal_set_seed(seed: int, deal_set: int) -> int:
    """The match seed of deal set ``deal_set`` of the arena seeded ``seed``."""
    digest = hashlib.sha256(f"hearts-arena-deal:{seed}:{deal_set}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def decision_rng(seed: int, deal_set: int, rotation: int, hand: int, index: int) -> random.Random:
    """The generator for one decision (seeding from a string hashes it with SHA-512)."""
    return random.Random(f"hearts-arena:{seed}:{deal_set}:{rotation}:{hand}:{index}")


# --- one deal set in one rotation --------------------------------------------


@dataclass(frozen=True)
class Unit:
    """One deal set in one rotation: the work a process does in one go."""

    seed: int
    deal_set: int
    rotation: int
    entrants: tuple[Bot, Bot, Bot, Bot]
    hands: int | None
    """How many hands to play; None for a whole match."""
    rules: Rules = field(default_factory=Rules)
    keep_record: bool = False

    def bot_at(self, seat: int) -> Bot:
        """Entrant ``i`` sits at seat ``(i + rotation) % 4``."""
        return self.entrants[(seat - self.rotation) % 4]


@dataclass(frozen=True)
class HandOutcome:
    points: tuple[int, int, int, int]
    """By seat, moon applied."""
    shooter: int | None
    stopper: int | None
    """The seat that broke a moon threat (see the module's docstring)."""
    won: tuple[int, int, int, int]
    """By seat, the cards it won in tricks (a mask)."""

    def points_from(self, seat: int, rules: Rules) -> tuple[int, int, int, int]:
        """The seat's points split into hearts, penalty spades, moons and bonus cards
        (:data:`hearts.arena_figures.POINTS_FROM`); they add up to its points."""
        won = self.won[seat]
        other = rules.hand_points_of_cards(won & ~rules.penalty_mask)
        if self.shooter is not None:
            return 0, 0, self.points[seat] - other, other
        hearts = rules.hand_points_of_cards(won & rules.penalty_mask & HEARTS_MASK)
        spades = rules.hand_points_of_cards(won & rules.penalty_mask & ~HEARTS_MASK)
        return hearts, spades, 0, other


@dataclass(frozen=True)
class UnitResult:
    deal_set: int
    rotation: int
    hands: tuple[HandOutcome, ...]
    winner: int | None
    """The seat that won the match, if it ended."""
    decision_seconds: tuple[tuple[tuple[str, float], ...], ...]
    """By seat: every decision's kind (``pass``, ``play`` or ``moon``) and time."""
    record: dict[str, Any] | None = None


def play_unit(unit: Unit) -> UnitResult:
    """Play one deal set in one rotation (a module-level function: it runs in workers)."""
    match = Match(unit.rules, seed=deal_set_seed(unit.seed, unit.deal_set))
    times: list[list[tuple[str, float]]] = [[], [], [], []]
    outcomes: list[HandOutcome] = []
    while True:
        outcomes.append(_play_hand(unit, match, times))
        if match.phase is Phase.MATCH_OVER:
            break
        if unit.hands is not None and len(outcomes) >= unit.hands:
            break
        match.next_hand()
    levels = [unit.bot_at(seat).level for seat in SEATS]
    return UnitResult(
        deal_set=unit.deal_set,
        rotation=unit.rotation,
        hands=tuple(outcomes),
        winner=match.winner,
        decision_seconds=tuple(tuple(t) for t in times),
        record=write_record(match, {"levels": levels}) if unit.keep_record else None,
    )


def _play_hand(unit: Unit, match: Match, times: list[list[tuple[str, float]]]) -> HandOutcome:
    hand = match.hand_number
    index = 0

    def decide(seat: int) -> tuple[str, tuple[int, ...], str | None]:
        nonlocal index
        bot = unit.bot_at(seat)
        view = match.view(seat)
        rng = decision_rng(unit.seed, unit.deal_set, unit.rotation, hand, index)
        index += 1
        start = time.perf_counter()
        try:
            decision = bot.decide(view, rng)
        except Exception as error:
            where = f"deal set {unit.deal_set}, rotation {unit.rotation}, hand {hand}, seat {seat}"
            raise ArenaError(f"{bot.level} bot failed ({where}): {error!r}") from error
        times[seat].append((decision.kind, time.perf_counter() - start))
        return decision.kind, decision.cards, decision.moon

    if match.phase is Phase.PASSING:
        # Every seat chooses before any confirms: nobody even sees who was first.
        chosen = [decide(seat)[1] for seat in SEATS]
        for seat in SEATS:
            match.confirm_pass(seat, chosen[seat])

    tricks: list[tuple[int, int]] = []
    while match.phase in (Phase.PLAYING, Phase.MOON_CHOICE):
        turn = match.turn
        assert turn is not None
        kind, cards, moon = decide(turn)
        if kind == "moon":
            match.choose_moon(turn, "subtract" if moon == "subtract" else "add")
            continue
        for event in match.play(cards[0], turn):
            if isinstance(event, TrickWon):
                tricks.append((event.seat, sum(1 << card for _, card in event.cards)))
    result = match.results[-1]
    won = [0, 0, 0, 0]
    for winner, trick in tricks:
        won[winner] |= trick
    return HandOutcome(
        result.points,
        result.shooter,
        moon_stopper(tricks, unit.rules),
        (won[0], won[1], won[2], won[3]),
    )


def moon_stopper(tricks: Iterable[tuple[int, int]], rules: Rules) -> int | None:
    """The seat that stopped a moon in a hand of tricks ``(winner, cards as a mask)``.

    A moon is threatened once one seat has won every penalty card played so
    far and they are worth at least :data:`MOON_THREAT_POINTS`; the stopper
    is the seat that then wins a trick holding a penalty card.  None if no
    threat was broken.
    """
    penalty = rules.penalty_mask
    taken = [0, 0, 0, 0]
    for winner, cards in tricks:
        won = cards & penalty
        if won:
            holders = [seat for seat in SEATS if taken[seat]]
            if len(holders) == 1 and holders[0] != winner:
                threat = rules.hand_points_of_cards(taken[holders[0]])
                if threat >= MOON_THREAT_POINTS:
                    return winner
            taken[winner] |= won
    return None


def _count(tallies: dict[str, Tally], unit: Unit, result: UnitResult) -> None:
    for seat in SEATS:
        tally = tallies[unit.bot_at(seat).level]
        for outcome in result.hands:
            tally.add_hand(
                result.deal_set,
                outcome.points[seat],
                outcome.points_from(seat, unit.rules),
                shot=outcome.shooter == seat,
                stopped=outcome.stopper == seat,
            )
        tally.wins += result.winner == seat
        for kind, seconds in result.decision_seconds[seat]:
            tally.seconds.setdefault(kind, []).append(seconds)


# --- running a tournament ----------------------------------------------------------


def run_arena(
    entrants: Sequence[Bot],
    hands: int,
    seed: int,
    matches: bool = False,
    workers: int = DEFAULT_WORKERS,
    rules: Rules | None = None,
    keep_records: bool = False,
    progress: Callable[[int, int], None] | None = None,
    deal_set_limit: int | None = None,
) -> ArenaResult:
    """Play a duplicate tournament between four bots (see the module's docstring).

    The figures are pooled by ``bot.level``: entrants of one level should
    share their settings.  ``progress(hands_done, hands_asked)`` is called
    after each deal set.  With ``deal_set_limit``, only the first deal sets
    of the tournament are played, exactly as in the whole one.
    """
    if len(entrants) != 4:
        raise ArenaError("an arena seats exactly four bots")
    if hands < 1:
        raise ArenaError("play at least one hand")
    if workers < 1:
        raise ArenaError("use at least one worker")
    four = (entrants[0], entrants[1], entrants[2], entrants[3])
    rules = rules if rules is not None else Rules()

    def units_of(deal_set: int, count: int | None) -> list[Unit]:
        return [Unit(seed, deal_set, r, four, count, rules, keep_records) for r in range(4)]

    units: Iterator[Unit]
    if matches:
        units = (unit for d in _naturals() for unit in units_of(d, None))
    else:
        per_rotation = math.ceil(hands / 4)
        blocks = [min(BLOCK, per_rotation - start) for start in range(0, per_rotation, BLOCK)]
        units = (unit for d, count in enumerate(blocks) for unit in units_of(d, count))
    if deal_set_limit is not None:
        units = itertools.islice(units, 4 * deal_set_limit)

    levels = [bot.level for bot in four]
    tallies = {level: Tally(seats=levels.count(level)) for level in dict.fromkeys(levels)}
    records: list[dict[str, Any]] = []
    played = deal_sets = rotations_done = 0
    results = _results_in_order(units, workers)
    try:
        for unit, result in results:
            _count(tallies, unit, result)
            played += len(result.hands)
            if result.record is not None:
                records.append(result.record)
            rotations_done += 1
            if rotations_done % 4 == 0:
                deal_sets += 1
                if progress is not None:
                    progress(played, hands)
                if matches and played >= hands:
                    break
    finally:
        results.close()
    match_count = deal_sets * 4 if matches else None
    per_deal_set = {
        level: {d: (y, n) for d, (y, n) in tally.per_deal_set.items()}
        for level, tally in tallies.items()
    }
    parts_per_deal_set = {
        level: {d: tuple(parts) for d, parts in tally.parts_per_deal_set.items()}
        for level, tally in tallies.items()
    }
    return ArenaResult(
        seed=seed,
        seats=(levels[0], levels[1], levels[2], levels[3]),
        levels={level: tally.report(match_count) for level, tally in tallies.items()},
        hands=played,
        matches=match_count or 0,
        deal_sets=deal_sets,
        records=tuple(records),
        differences=paired_differences(levels, per_deal_set),
        per_deal_set=per_deal_set,
        parts_per_deal_set=parts_per_deal_set,
        part_differences=paired_differences(levels, per_deal_set, parts_per_deal_set),
    )


def _naturals() -> Iterator[int]:
    n = 0
    while True:
        yield n
        n += 1


def _results_in_order(
    units: Iterable[Unit], workers: int
) -> Generator[tuple[Unit, UnitResult], None, None]:
    """Play the units, in this process or in ``workers`` processes; results in unit order.

    Only a window of units is submitted ahead of the one awaited, so an
    endless stream of units (matches mode) is fine: closing the generator
    cancels what has not started.
    """
    if workers == 1:
        for unit in units:
            yield unit, play_unit(unit)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: deque[tuple[Unit, Future[UnitResult]]] = deque()
        try:
            for unit in units:
                pending.append((unit, pool.submit(play_unit, unit)))
                if len(pending) >= 4 * workers:
                    first, future = pending.popleft()
                    yield first, future.result()
            while pending:
                first, future = pending.popleft()
                yield first, future.result()
        finally:
            for _, future in pending:
                future.cancel()


# --- bots by level, with settings ----------------------------------------------------


def parse_settings(items: Iterable[str]) -> dict[str, dict[str, Any]]:
    """``["expert.samples=20"]`` -> ``{"expert": {"samples": 20}}``; values are JSON or text."""
    settings: dict[str, dict[str, Any]] = {}
    for item in items:
        name, equals, text = item.partition("=")
        level, dot, key = name.strip().partition(".")
        if not equals or not dot or not level or not key.isidentifier():
            raise ArenaError(f"a setting is written LEVEL.NAME=VALUE, not {item!r}")
        try:
            value: Any = json.loads(text)
        except ValueError:
            value = text
        settings.setdefault(level, {})[key] = value
    return settings


def make_entrants(
    levels: Sequence[str], settings: Mapping[str, Mapping[str, Any]] | None = None
) -> list[Bot]:
    """One bot per level name, each level with its settings (one bot object per level)."""
    from hearts.bots import LEVELS, make_bot

    settings = settings or {}
    if len(levels) != 4:
        raise ArenaError(f"name four seats, not {len(levels)}")
    for level in [*levels, *settings]:
        if level not in LEVELS:
            raise ArenaError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
    for level in settings:
        if level not in levels:
            raise ArenaError(f"settings for {level}, which no seat plays")
    bots: dict[str, Bot] = {}
    for level in dict.fromkeys(levels):
        try:
            bots[level] = make_bot(level, **settings.get(level, {}))
        except (TypeError, ValueError) as error:
            raise ArenaError(f"{level}: {error}") from None
    return [bots[level] for level in levels]
