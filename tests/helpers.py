"""Shared helpers for the engine tests: crafted deals, scripted and random matches."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from hearts.cards import SUIT_LETTERS, Card, CardSet, card_text
from hearts.deal import Holdings
from hearts.hand import HandState
from hearts.match import Match, Phase
from hearts.rules import SEATS, PassDirection, Rules
from hearts.view import SeatView

STANDARD = Rules()

# Reproducible property runs: the same examples on every run and every machine.
PROPERTY = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def load_benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/NAME.py`` as a module (registered under its name, where its
    dataclasses look their module up)."""
    path = Path(__file__).parents[1] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def examples(count: int) -> settings:
    """The reproducible property settings with ``count`` examples."""
    return settings(PROPERTY, max_examples=count)


seeds = st.integers(min_value=0, max_value=2**32 - 1)

house_rules = st.builds(
    Rules,
    target=st.sampled_from([100, 100, 50, 26]),
    jack_of_diamonds=st.booleans(),
    moon=st.sampled_from(["add", "subtract", "choice"]),
    queen_breaks_hearts=st.booleans(),
    passing=st.sampled_from(["standard", "none", "left-only", "no-hold"]),
    black_maria=st.booleans(),
)
"""Any combination of the house rules of RULES.md."""


# --- cards and deals ----------------------------------------------------------


def c(text: str) -> Card:
    """One card from its text, e.g. ``c("QS")``."""
    return next(iter(CardSet.parse(text)))


def cs(text: str) -> list[Card]:
    """Cards from a space-separated text, in the order written."""
    return [c(part) for part in text.split()]


def mask(text: str) -> int:
    return CardSet.parse(text).mask


def texts(cards: int | Sequence[Card] | CardSet) -> str:
    """Cards as sorted text, for readable assertions."""
    if isinstance(cards, int):
        cards = CardSet(cards)
    return " ".join(card_text(card) for card in sorted(cards))


def make_deal(*seats: str, voids: dict[int, str] | None = None) -> Holdings:
    """Four holdings from card texts; seats listing fewer than 13 cards are topped up.

    Missing cards are handed out lowest first, seat by seat, never of a suit
    listed for that seat in ``voids`` (e.g. ``{1: "C"}``: seat 1 gets no club).
    """
    if len(seats) != 4:
        raise ValueError("four seats")
    masks = [mask(text) for text in seats]
    used = 0
    for m in masks:
        if m & used:
            raise ValueError("a card is listed for two seats")
        used |= m
    free = [card for card in range(52) if not used >> card & 1]
    voids = voids or {}
    for seat in SEATS:
        banned = {SUIT_LETTERS.index(letter) for letter in voids.get(seat, "")}
        for card in list(free):
            if masks[seat].bit_count() == 13:
                break
            if card // 13 not in banned:
                masks[seat] |= 1 << card
                free.remove(card)
        if masks[seat].bit_count() != 13:
            raise ValueError(f"seat {seat} cannot be given 13 cards")
    assert not free
    return masks[0], masks[1], masks[2], masks[3]


def hand_state(
    *seats: str, rules: Rules = STANDARD, voids: dict[int, str] | None = None
) -> HandState:
    return HandState(rules, make_deal(*seats, voids=voids))


def play_texts(state: HandState, text: str) -> None:
    """Play cards on a HandState, checking each one first."""
    for card in cs(text):
        state.check_play(card)
        state.play(card)


# --- matches with chosen holdings after the pass -------------------------------


def deal_for(after_pass: Holdings, direction: PassDirection) -> tuple[Holdings, list[int] | None]:
    """A deal and the passes that leave each seat holding ``after_pass[seat]``.

    Each seat passes three cards its receiver must end with; the highest three
    of each final holding are the ones that travel.
    """
    if direction is PassDirection.HOLD:
        return after_pass, None
    travelling = [sum(1 << card for card in list(CardSet(h))[-3:]) for h in after_pass]
    passes = [travelling[direction.receiver(seat)] for seat in SEATS]
    deal = [(after_pass[seat] & ~travelling[seat]) | passes[seat] for seat in SEATS]
    return (deal[0], deal[1], deal[2], deal[3]), passes


def exchange(match: Match, passes: Sequence[int] | None) -> None:
    if passes is None:
        assert match.phase is Phase.PLAYING
        return
    for seat in SEATS:
        match.confirm_pass(seat, CardSet(passes[seat]))
    assert match.phase is Phase.PLAYING


def match_after_pass(after_pass: Holdings, rules: Rules = STANDARD) -> Match:
    """A new match whose first hand is ready to play with these holdings."""
    direction = rules.pass_direction(1)
    deal, passes = deal_for(after_pass, direction)
    match = Match(rules, seed=0, deal=deal)
    exchange(match, passes)
    assert all(match.holding(seat).mask == after_pass[seat] for seat in SEATS)
    return match


def next_hand_after_pass(match: Match, after_pass: Holdings) -> None:
    direction = match.rules.pass_direction(match.hand_number + 1)
    deal, passes = deal_for(after_pass, direction)
    match.next_hand(deal)
    exchange(match, passes)


def play_lowest(match: Match) -> None:
    """Play the lowest legal card until no play is due."""
    while match.phase is Phase.PLAYING:
        match.play(min(match.legal_moves()))


def rotate(holdings: Holdings, by: int) -> Holdings:
    """The same holdings moved ``by`` seats clockwise (seat s gets seat s-by's cards)."""
    h = [holdings[(seat - by) % 4] for seat in SEATS]
    return h[0], h[1], h[2], h[3]


# Seat 0 holds every club: it leads 2C, keeps the lead and takes all 13 tricks.
MOON_BY_SOUTH: Holdings = make_deal(
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
)

# East holds all the hearts (one falls on every trick); West takes twelve tricks
# with its clubs and the queen, North the last trick. Lowest-card play scores
# (0, 25, 1, 0).
WEST_25: Holdings = make_deal(
    "2C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2S",
    "AD 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
)

# The same idea with two tricks for North: lowest-card play scores (0, 24, 2, 0).
WEST_24: Holdings = make_deal(
    "2C 3C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
    "4C 5C 6C 7C 8C 9C TC JC QC KC AC 2S 3S",
    "KD AD 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
)


# --- random play --------------------------------------------------------------


def random_step(match: Match, rng: random.Random, select_first: bool = False) -> None:
    """Make one random decision: a pass, a play, a moon choice, or the next hand."""
    phase = match.phase
    if phase is Phase.PASSING:
        seat = rng.choice(match.waiting_for())
        cards = rng.sample(list(match.holding(seat)), 3)
        if select_first and rng.random() < 0.5:
            match.select_pass(seat, rng.sample(list(match.holding(seat)), rng.randint(0, 3)))
            match.select_pass(seat, cards)
            match.confirm_pass(seat)
        else:
            match.confirm_pass(seat, cards)
    elif phase is Phase.PLAYING:
        match.play(rng.choice(match.legal_moves()))
    elif phase is Phase.MOON_CHOICE:
        turn = match.turn
        assert turn is not None
        match.choose_moon(turn, rng.choice(["add", "subtract"]))
    elif phase is Phase.HAND_OVER:
        match.next_hand()
    else:
        raise AssertionError("the match is over")


def random_prefix(
    rules: Rules,
    seed: int,
    stop: float = 0.01,
    select: bool = False,
    pending_selection: bool = False,
) -> Match:
    """A match stopped at a random decision point (possibly before any decision).

    With ``pending_selection``, seats still to confirm their pass may be left
    with a hidden, unconfirmed selection.
    """
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    while match.phase is not Phase.MATCH_OVER and rng.random() >= stop:
        random_step(match, rng, select_first=select)
    if pending_selection and match.phase is Phase.PASSING:
        for seat in match.waiting_for():
            if rng.random() < 0.5:
                match.select_pass(seat, rng.sample(list(match.holding(seat)), rng.randint(1, 3)))
    return match


# --- replaying a match from its logs --------------------------------------------


def replay(
    source: Match,
    last_deal: Holdings | None = None,
    last_plays: int | None = None,
    keep_moon_choice: bool = True,
    last_passes: Sequence[int | None] | None = None,
) -> Match:
    """A fresh match that took the same decisions as ``source``.

    For the current hand one may swap in another deal, keep only the first
    ``last_plays`` plays, drop the moon choice, or confirm other passes (and
    then play nothing). Hidden selections of seats yet to confirm their pass
    are copied too.
    """
    logs = source.hand_logs
    match: Match | None = None
    for index, log in enumerate(logs):
        last = index == len(logs) - 1
        deal = last_deal if last and last_deal is not None else log.deal
        if match is None:
            match = Match(source.rules, source.players, seed=source.seed, deal=deal)
        else:
            match.next_hand(deal)
        passes = last_passes if last and last_passes is not None else log.passes
        for seat in SEATS:
            passed = passes[seat]
            if passed is not None:
                match.confirm_pass(seat, CardSet(passed))
        plays = log.plays[:last_plays] if last and last_plays is not None else log.plays
        if last and last_passes is not None:
            plays = []
        for card in plays:
            match.play(card)
        choice = log.moon_choice
        if last and (not keep_moon_choice or len(plays) < len(log.plays)):
            choice = None
        if choice is not None:
            turn = match.turn
            assert turn is not None
            match.choose_moon(turn, choice)
    assert match is not None
    if match.phase is Phase.PASSING:
        for seat in match.waiting_for():
            selection = source.pass_selection(seat)
            if selection:
                match.select_pass(seat, selection)
    return match


def views(match: Match) -> list[SeatView]:
    return [match.view(seat) for seat in SEATS]


def same_state(a: Match, b: Match) -> bool:
    """Equal views for every seat, and the same phase, turn, totals and winner."""
    return (
        views(a) == views(b)
        and a.phase is b.phase
        and a.turn == b.turn
        and a.totals == b.totals
        and a.winner == b.winner
        and a.hand_number == b.hand_number
    )
