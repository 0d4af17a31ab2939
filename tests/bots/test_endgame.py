"""The last tricks played exactly: the solver against a plain search, and known positions."""

from __future__ import annotations

import random

import pytest

from hearts.bots import endgame, policy
from hearts.bots.endgame import solve
from hearts.bots.expert import ExpertBot
from hearts.cards import ALL_CARDS_MASK, SUIT_MASK
from hearts.hand import HandState
from hearts.match import Match, Phase
from hearts.rules import Rules
from helpers import STANDARD, c, mask, random_step

Costs = tuple[float, float, float, float]


def late(rules: Rules, leader: int, hands: list[str], taken: list[str]) -> HandState:
    """A hand at the start of a trick, ``leader`` to lead, hearts broken."""
    state = HandState(rules, [SUIT_MASK[s] for s in range(4)])
    state.hands = [mask(text) for text in hands]
    state.taken = [mask(text) for text in taken]
    left = state.hands[0].bit_count()
    assert all(h.bit_count() == left for h in state.hands)
    held = state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
    assert held & (state.taken[0] | state.taken[1] | state.taken[2] | state.taken[3]) == 0
    state.tricks_played = 13 - left
    state.played_mask = ALL_CARDS_MASK & ~held
    state.hearts_broken = True
    state.turn = state.leader = leader
    return state


def own_points(rules: Rules, root: int) -> endgame.CostOf:
    return lambda taken: float(rules.score_hand(taken, "add")[0][root])


def plain(state: HandState, root: int, cost: endgame.CostOf) -> Costs:
    """The same search trying every legal card, written the obvious way."""
    if state.tricks_played == 13:
        scored, _ = state.rules.score_hand(state.taken, "add")
        each = [p - (sum(scored) - p) / 3 for p in scored]
        each[root] = cost(state.taken)
        return (each[0], each[1], each[2], each[3])
    seat = state.turn
    results = []
    for card in range(52):
        if state.legal_mask() >> card & 1:
            child = state.copy()
            child.play(card)
            results.append(plain(child, root, cost))
    least = min(result[seat] for result in results)
    tied = [result for result in results if result[seat] <= least + endgame.TIE]
    return tied[0] if seat == root else max(tied, key=lambda result: result[root])


def near_the_end(seed: int, tricks_left: int, rules: Rules) -> HandState:
    """A hand played by the rule of thumb until ``tricks_left`` tricks are left, then some
    cards into the next trick."""
    rng = random.Random(seed)
    cards = list(range(52))
    rng.shuffle(cards)
    state = HandState(rules, [sum(1 << x for x in cards[13 * s : 13 * s + 13]) for s in range(4)])
    while 13 - state.tricks_played > tricks_left:
        state.play(policy.choose(state, state.legal_mask(), policy.AVOID))
    for _ in range(rng.randrange(4)):
        state.play(policy.choose(state, state.legal_mask(), policy.AVOID))
    return state


@pytest.mark.parametrize("rules", [STANDARD, Rules(jack_of_diamonds=True, moon="subtract")])
def test_the_solver_agrees_with_a_search_of_every_card(rules: Rules) -> None:
    # Equivalent cards are searched once; that must not change any seat's result.
    for seed in range(40):
        state = near_the_end(seed, 3 if seed % 2 else 2, rules)
        root = state.turn
        cost = own_points(rules, root)
        for card in range(52):
            if state.legal_mask() >> card & 1:
                child = state.copy()
                child.play(card)
                assert solve(child, root, cost) == pytest.approx(plain(child, root, cost)[root])


def test_the_last_trick_is_simply_played() -> None:
    state = late(
        STANDARD,
        0,
        ["2H", "QS", "3C", "4C"],
        ["", "AS 2C 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "", ""],
    )
    # South leads the two of hearts, West drops the queen of spades on it: South takes
    # 14 of the 26 points, West 12.
    assert solve(state, 0, own_points(STANDARD, 0)) == 14.0
    assert solve(state, 1, own_points(STANDARD, 1)) == 12.0


def test_a_seat_keeps_the_card_that_stops_the_moon() -> None:
    # West has won every penalty card but the queen and king of hearts; it leads the
    # ace of spades.  South must throw the three of clubs and keep the king of hearts,
    # to win West's queen of hearts next and stop the moon.
    west = "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH AH"
    state = late(STANDARD, 1, ["KH 3C", "QH AS", "4C 5D", "5C 6D"], ["", west, "", ""])
    state.play(c("AS"))
    state.play(c("4C"))
    state.play(c("5C"))
    points = own_points(STANDARD, 0)
    keep_king, throw_king = state.copy(), state.copy()
    keep_king.play(c("3C"))
    throw_king.play(c("KH"))
    # Kept: South takes two hearts, West the other 24 points; thrown: West shoots.
    assert solve(keep_king, 0, points) == 2.0
    assert solve(throw_king, 0, points) == 26.0
    assert endgame.solve(keep_king, 1, own_points(STANDARD, 1)) == 24.0


def test_a_seat_with_nothing_to_lose_is_expected_to_hurt_us() -> None:
    # South leads the ace of clubs, then the two of diamonds to North's ace.  West, void
    # in both, ends with no points whichever trick it drops the two of hearts on: South
    # expects it on its own ace (paranoid ties), and North, searching, on North's.
    state = late(STANDARD, 0, ["AC 2D", "2H 2S", "3C AD", "4C 3D"], ["", "", "", ""])
    assert solve(state, 0, own_points(STANDARD, 0)) == 1.0
    assert solve(state, 2, own_points(STANDARD, 2)) == 1.0


def late_play_position(seed: int, cards_left: int) -> tuple[Match, int]:
    """A match at a play of a seat holding ``cards_left`` cards with more than one legal."""
    rng = random.Random(seed)
    match = Match(STANDARD, seed=seed)
    while True:
        random_step(match, rng)
        if match.phase is Phase.PLAYING and match.turn is not None:
            view = match.view(match.turn)
            if view.hand.mask.bit_count() == cards_left and len(view.legal) > 1:
                return match, match.turn


def test_the_expert_scores_the_last_tricks_with_the_solver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    real = endgame.solve

    def counted(state: HandState, root: int, cost: endgame.CostOf) -> float:
        calls.append(root)
        return real(state, root, cost)

    monkeypatch.setattr(endgame, "solve", counted)
    bot = ExpertBot(samples=8, pool=16, endgame=3)
    match, seat = late_play_position(3, 3)
    weighed = bot.weigh_plays(match.view(seat), random.Random(1))
    assert calls and set(calls) == {seat}
    assert weighed.chosen in match.view(seat).legal
    calls.clear()
    match, seat = late_play_position(5, 4)
    bot.weigh_plays(match.view(seat), random.Random(1))
    assert not calls
