"""The OpenSpiel IS-MCTS adapter (benchmarks/openspiel_ismcts.py): the state it builds is our view.

OpenSpiel's game must play our rules, the state handed to its search must
show our seat exactly what the view shows (hand, pass, tricks, legal cards,
turn), and it must be built from the view and the seed alone.
"""

from __future__ import annotations

import pickle
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_fairness import SMALL_BUDGET, position, positions

from hearts.arena import run_arena
from hearts.bots import make_bot
from hearts.cards import CardSet, card_text, parse_card
from hearts.match import Match, Phase
from hearts.rules import SEATS, PassDirection
from hearts.view import SeatView
from helpers import MOON_BY_SOUTH, WEST_24, WEST_25, match_after_pass, random_step, replay
from test_view import hidden_swaps, swapped

pyspiel = pytest.importorskip("pyspiel", reason="needs the bench extra (open-spiel)")

BENCHMARKS = str(Path(__file__).resolve().parents[2] / "benchmarks")
if BENCHMARKS not in sys.path:
    sys.path.append(BENCHMARKS)

from openspiel_ismcts import (  # noqa: E402
    ACTION_OF_CARD,
    CARD_OF_ACTION,
    PASS_DIRECTION_ACTION,
    OpenSpielIsmctsBot,
    build_state,
    openspiel_game,
    openspiel_state,
    player_of_seat,
    seat_of_player,
)

BOT = OpenSpielIsmctsBot(simulations=50)
"""A small budget: these tests check what the search is given, not how well it plays."""


def cards_of(actions: Any) -> CardSet:
    return CardSet(CARD_OF_ACTION[action] for action in actions)


def history(state: Any) -> list[int]:
    return [int(action) for action in state.history()]


# --- the mappings and the rules ------------------------------------------------------


def test_cards_map_one_to_one_and_read_alike() -> None:
    assert sorted(ACTION_OF_CARD) == list(range(52))
    state = openspiel_game().new_initial_state()
    state.apply_action(0)  # past the pass direction, actions are cards
    for card in range(52):
        assert CARD_OF_ACTION[ACTION_OF_CARD[card]] == card
        assert state.action_to_string(0, ACTION_OF_CARD[card]) == card_text(card)


def test_seats_and_directions_map_round_the_table() -> None:
    for observer in SEATS:
        assert player_of_seat(observer, observer) == 0
        for seat in SEATS:
            player = player_of_seat(seat, observer)
            assert seat_of_player(player, observer) == seat
            # The next seat to play is the next player in OpenSpiel too.
            assert player_of_seat((seat + 1) % 4, observer) == (player + 1) % 4
    names = {0: "No Pass", 1: "Left", 2: "Across", 3: "Right"}
    state = openspiel_game().new_initial_state()
    for direction, action in PASS_DIRECTION_ACTION.items():
        assert state.action_to_string(0, action) == names[action]
        assert action == direction.value  # the receiver's clockwise offset in both games


def play_in_lockstep(match: Match, choose: Callable[[Match], int]) -> None:
    """Play the match's hand to the end in both engines: the same legal cards, the same points."""
    assert match.phase is Phase.PLAYING
    log = match.current
    passes = [mask or 0 for mask in log.passes]
    state = openspiel_state(match.pass_direction, log.deal, passes, [], observer=0)
    while match.phase is Phase.PLAYING:
        seat = match.turn
        assert seat is not None
        assert state.current_player() == player_of_seat(seat, 0)
        assert cards_of(state.legal_actions()) == CardSet(match.legal_moves())
        card = choose(match)
        match.play(card)
        state.apply_action(ACTION_OF_CARD[card])
    assert state.is_terminal()
    returns = state.returns()
    points = tuple(26 - round(returns[player_of_seat(seat, 0)]) for seat in SEATS)
    assert points == match.results[-1].points


def test_openspiel_plays_our_rules() -> None:
    # Random hands in every pass direction, then crafted deals where a seat holds
    # only points on the first trick, hearts must be led, and the moon is shot.
    rng = random.Random(8)
    hands = Counter[PassDirection]()
    for seed in range(6):
        match = Match(seed=seed)
        while match.hand_number <= 8 and match.phase is not Phase.MATCH_OVER:
            while match.phase is Phase.PASSING:
                random_step(match, rng)
            hands[match.pass_direction] += 1
            play_in_lockstep(match, lambda m: rng.choice(m.legal_moves()))
            if match.phase is Phase.HAND_OVER:
                match.next_hand()
    assert min(hands[d] for d in PassDirection) >= 10
    for deal in (MOON_BY_SOUTH, WEST_25, WEST_24):
        match = match_after_pass(deal)
        play_in_lockstep(match, lambda m: min(m.legal_moves()))
    assert match.results[-1].points == (0, 24, 2, 0)


# --- the state built from a view ------------------------------------------------------


def decision_views(seed: int, hands: int = 4) -> list[SeatView]:
    """Every view that owes a decision in the first ``hands`` hands of a random match."""
    rng = random.Random(seed)
    match = Match(seed=seed)
    found = []
    while match.hand_number <= hands and match.phase is not Phase.MATCH_OVER:
        if match.phase is Phase.PASSING:
            found.extend(match.view(seat) for seat in match.waiting_for())
        elif match.phase is Phase.PLAYING:
            assert match.turn is not None
            found.append(match.view(match.turn))
        random_step(match, rng)
    return found


def assert_state_agrees(view: SeatView, state: Any) -> None:
    """What OpenSpiel shows our player, and the play so far, are the view's."""
    seat = view.seat
    me = player_of_seat(seat, seat)
    assert state.current_player() == me
    # The information state the search keys its tree by: direction, dealt,
    # passed, received and current cards.
    tensor = state.information_state_tensor(me)

    def section(index: int) -> CardSet:
        start = 4 + 52 * index
        return cards_of(a for a in range(52) if tensor[start + a])

    assert list(tensor[:4]).index(1) == PASS_DIRECTION_ACTION[view.pass_direction]
    assert section(0) == view.dealt
    assert section(1) == (view.passed or CardSet())
    assert section(2) == (view.received or CardSet())
    assert section(3) == view.hand
    legal = cards_of(state.legal_actions())
    assert legal == (view.hand if view.phase is Phase.PASSING else view.legal)

    struct = state.to_struct()
    tricks = [
        [(seat_of_player("NESW".index(who), seat), parse_card(text)) for who, text in trick]
        for trick in struct.tricks
    ]
    assert tricks == [list(trick.cards) for trick in view.tricks]
    assert tuple(round(struct.points[player_of_seat(s, seat)]) for s in SEATS) == (
        view.points_taken
    )
    assert struct.hearts_broken == view.hearts_broken
    if view.phase is Phase.PLAYING and view.pass_to is not None:
        # Our cards went to the seat the view says, and we hold what we received.
        assert view.passed is not None and view.received is not None
        receiver = player_of_seat(view.pass_to, seat)
        assert CardSet.parse(struct.received_cards[receiver]) == view.passed
        assert CardSet.parse(struct.received_cards[me]) == view.received


def test_the_state_agrees_with_the_view() -> None:
    seen = Counter[str]()
    for seed in (11, 12):
        for index, view in enumerate(decision_views(seed)):
            state = build_state(view, random.Random(index))
            assert_state_agrees(view, state)
            direction = view.pass_direction.name
            if view.phase is Phase.PASSING:
                seen[f"pass {direction}"] += 1
                continue
            seen[f"play {direction}"] += 1
            trick = len(view.tricks) if view.current_trick else len(view.tricks) + 1
            seen[f"trick {trick}"] += 1
            seen["follow" if view.current_trick else "lead"] += 1
            seen["hearts broken" if view.hearts_broken else "hearts unbroken"] += 1
    for direction in ("LEFT", "RIGHT", "ACROSS"):
        assert seen[f"pass {direction}"] >= 8, seen
    assert seen["pass HOLD"] == 0
    for direction in ("LEFT", "RIGHT", "ACROSS", "HOLD"):
        assert seen[f"play {direction}"] >= 50, seen
    for key in ("trick 1", "trick 2", "trick 13", "lead", "follow"):
        assert seen[key] >= 8, seen
    assert seen["hearts broken"] >= 50 and seen["hearts unbroken"] >= 50, seen


# --- the view and the seed alone ---------------------------------------------------------


def test_the_same_view_and_seed_give_the_same_state_and_a_legal_decision() -> None:
    """The search gets the same state and the same seeds; its card is legal.

    The decision itself is not compared: OpenSpiel's C++ search is not
    reproducible from its seed (its tree keeps children in hash maps whose
    order follows memory addresses, and UCT ties are broken in that order).
    """
    for match, seat in positions(8, first_seed=77):
        view = match.view(seat)
        first, again = random.Random(5), random.Random(5)
        state = build_state(view, first)
        assert history(build_state(pickle.loads(pickle.dumps(view)), again)) == history(state)
        assert first.getstate() == again.getstate()
        decision = BOT.decide(view, random.Random(5))
        if view.phase is Phase.PASSING:
            assert decision.kind == "pass" and len(set(decision.cards)) == 3
            assert set(decision.cards) <= set(view.hand)
        else:
            assert decision.kind == "play" and decision.cards[0] in view.legal


def test_a_hand_of_decisions_at_every_seat_is_legal() -> None:
    rng = random.Random(3)
    match = Match(seed=3)
    while match.phase in (Phase.PASSING, Phase.PLAYING):
        seat = match.waiting_for()[0]
        decision = BOT.decide(match.view(seat), random.Random(rng.getrandbits(32)))
        if decision.kind == "pass":
            match.confirm_pass(seat, decision.cards)
        else:
            match.play(decision.cards[0], seat)
    assert match.phase is Phase.HAND_OVER


def test_hidden_cards_do_not_change_what_the_search_is_given() -> None:
    """Swap cards hidden from the deciding seat: the state and the seeds stay the same.

    The positions and the swap are test_fairness's; the search sees nothing but
    the state and the seeds, so the decision depends on the view alone.
    """
    tested = Counter[Phase]()
    for index, (match, seat) in enumerate(positions(24, first_seed=24_000)):
        swaps = hidden_swaps(match, seat)
        if not swaps:
            continue
        pick = random.Random(index)
        swap = pick.choice(swaps)
        other = replay(match, last_deal=swapped(match.current.deal, swap))
        assert other.current.deal != match.current.deal
        assert other.view(seat) == match.view(seat)
        seed = pick.randrange(2**32)
        mine, theirs = random.Random(seed), random.Random(seed)
        state = build_state(match.view(seat), mine)
        assert history(build_state(other.view(seat), theirs)) == history(state)
        assert mine.getstate() == theirs.getstate()
        tested[match.phase] += 1
    assert min(tested[Phase.PASSING], tested[Phase.PLAYING]) >= 6, tested


# --- the bot in the arena -----------------------------------------------------------------


def test_the_bot_pickles_and_checks_its_settings() -> None:
    copy = pickle.loads(pickle.dumps(BOT))
    assert copy == BOT and copy.level == "openspiel-ismcts"
    match, seat = position(3, passing=False)
    assert copy.decide(match.view(seat), random.Random(9)).cards[0] in match.view(seat).legal
    with pytest.raises(ValueError):
        OpenSpielIsmctsBot(simulations=1)
    with pytest.raises(ValueError):
        OpenSpielIsmctsBot(max_world_samples=0)


def test_a_tiny_arena_completes() -> None:
    expert = make_bot("expert", **SMALL_BUDGET["expert"])
    result = run_arena([expert, BOT, BOT, BOT], hands=4, seed=2, workers=1)
    assert result.hands == 4
    assert result.levels["expert"].hands == 4
    assert result.levels["openspiel-ismcts"].hands == 12
    total = sum(r.points_per_hand * r.hands for r in result.levels.values())
    assert round(total) % 26 == 0 and round(total) >= 4 * 26
