"""The learned play model: what it may see, what it gives, and how the Expert weighs deals by it."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest
from test_expert import weighed_positions

from hearts.bots import playmodel, policy
from hearts.bots.expert import ExpertBot
from hearts.deal import seeded_deal
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import SeatView

RULES = Rules()


def played_hands(count: int) -> list[tuple[list[int], list[int]]]:
    """(holdings, the 52 plays) of hands played mostly by the rule policy, with no pass."""
    hands = []
    for seed in range(count):
        deal = list(seeded_deal(seed, 0))
        state = HandState(RULES, deal)
        rng = random.Random(seed)
        plays = []
        while not state.is_over:
            legal = state.legal_mask()
            card = rng.choice([c for c in range(52) if legal >> c & 1])
            if rng.random() < 0.7:
                card = policy.choose(state, legal, policy.AVOID, policy.moon_threat(state))
            plays.append(card)
            state.play(card)
        hands.append((deal, plays))
    return hands


def decisions(count: int) -> list[tuple[HandState, int, int, int]]:
    """(state, legal cards, threat, known voids) at every play with a choice of those hands."""
    found = []
    for deal, plays in played_hands(count):
        state = HandState(RULES, deal)
        threat = -1
        voids = 0
        for card in plays:
            legal = state.legal_mask()
            if legal & (legal - 1):
                found.append((state.copy(), legal, threat, voids))
            voids |= playmodel.void_bits(state, card)
            if state.play(card) >= 0:
                threat = policy.moon_threat(state)
    return found


def test_the_shipped_model_loads_and_has_a_weight_per_feature() -> None:
    model = playmodel.shipped()
    assert len(model.weights) == len(playmodel.NAMES)
    assert len(set(playmodel.NAMES)) == len(playmodel.NAMES)
    assert any(weight != 0 for weight in model.weights)


def test_chances_cover_the_legal_cards_and_add_up_to_one() -> None:
    model = playmodel.shipped()
    for state, legal, threat, voids in decisions(6):
        chances = model.chances(state, legal, threat, voids)
        assert set(chances) == {card for card in range(52) if legal >> card & 1}
        assert all(chance > 0 for chance in chances.values())
        assert sum(chances.values()) == pytest.approx(1.0)


def test_features_see_only_the_hand_of_the_seat_to_play() -> None:
    # Moving cards between the other seats' hands changes no feature of any card.
    rng = random.Random(3)
    checked = 0
    for state, legal, threat, voids in decisions(6):
        others = [seat for seat in range(4) if seat != state.turn and state.hands[seat]]
        if len(others) < 2:
            continue
        a, b = rng.sample(others, 2)
        moved = state.copy()
        low = moved.hands[a] & -moved.hands[a]
        moved.hands[a] ^= low
        moved.hands[b] |= low
        expected = policy.choose(state, legal, policy.AVOID, threat)
        for card in range(52):
            if legal >> card & 1:
                before = playmodel.features(state, card, threat, expected, legal.bit_count(), voids)
                after = playmodel.features(moved, card, threat, expected, legal.bit_count(), voids)
                assert before == after
        checked += 1
    assert checked > 100


def test_a_discard_shows_a_void_and_a_follow_or_lead_does_not() -> None:
    state = HandState(RULES, list(seeded_deal(4, 0)))
    assert playmodel.void_bits(state, state.legal_mask().bit_length() - 1) == 0  # a lead
    for _ in range(40):
        legal = state.legal_mask()
        card = legal.bit_length() - 1
        led = state.led_mask
        bits = playmodel.void_bits(state, card)
        if led and not led >> card & 1:
            suit = playmodel.SUIT_MASK.index(led)
            assert bits == 1 << (4 * state.turn + suit)
        else:
            assert bits == 0
        state.play(card)


def model_text(**changes: object) -> str:
    data = json.loads(resources.files("hearts.bots").joinpath("data/play_model.json").read_text())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format": "hearts-play-model/0"}, "not a hearts-play-model/1"),
        ({"features": ["lead:rank=0"]}, "not this code's features"),
        ({"weights": [0.0]}, "one weight per feature"),
    ],
)
def test_a_model_file_that_does_not_fit_the_code_is_refused(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        playmodel.PlayModel.from_json(model_text(**changes))


def model_likelihood(view: SeatView, world: list[int], floor: float) -> float:
    """The play model's likelihood written the plain way: replay the whole hand in the deal."""
    model = playmodel.shipped()
    start = world[:]
    for trick in view.tricks:
        for who, card in trick.cards:
            start[who] |= 1 << card
    state = HandState(view.rules, start)
    likelihood = 1.0
    threat = -1
    voids = 0
    for who, card in view.plays:
        legal = state.legal_mask()
        if who != view.seat and legal & (legal - 1):
            count = legal.bit_count()
            chance = model.chances(state, legal, threat, voids)[card]
            likelihood *= (1 - floor) * chance + floor / count
        voids |= playmodel.void_bits(state, card)
        if state.play(card) >= 0:
            threat = policy.moon_threat(state)
    return likelihood


@pytest.mark.parametrize("floor", [0.3, 0.05])
def test_the_expert_weighs_deals_by_the_model(floor: float) -> None:
    # Worked out once per play and holding that decides it, the weights are the
    # same as replaying the hand in each deal.
    bot = ExpertBot(play_model=True, model_floor=floor)
    compared = 0
    for view, worlds in weighed_positions(23, 8):
        weights = bot.deal_weights(view, worlds)
        for world, weight in zip(worlds, weights, strict=True):
            assert weight == pytest.approx(model_likelihood(view, world, floor), rel=1e-9)
            compared += weight < 1.0
    assert compared > 100


def test_a_card_is_drawn_with_the_models_chances() -> None:
    model = playmodel.shipped()
    memo: playmodel.Memo = {}
    for state, legal, threat, _ in decisions(4):
        chances = model.chances(state, legal, threat)
        cumulative = 0.0
        for card, chance in sorted(chances.items()):
            # Any u inside a card's share of [0, 1) draws that card, with or without a memo.
            for u in (cumulative + chance * 0.01, cumulative + chance * 0.99):
                assert model.draw(state, legal, threat, u) == card
                assert model.draw(state, legal, threat, u, memo) == card
            cumulative += chance
    assert memo  # the scores were kept for the next deal at the same position
