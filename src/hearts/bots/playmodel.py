"""A learned model of how a strong player chooses its card: a score per legal card.

The chance the model gives a legal card is a softmax of the cards' scores
(a conditional logit), and a card's score is the sum of the weights of its
features.  Every feature is a yes-or-no fact about the card seen from the
seat to play, and only from what that seat knows: its own hand, the cards
played, the trick on the table, who won which penalty cards.  So the model
can weigh the plays of an opponent in a sampled deal, or play for any seat
in a playout, without seeing a card its seat would not.

The features are split by the kind of play (a lead, a follow, a discard),
each kind with its own weights.  The weights are fitted offline
(``benchmarks/fit_play_model.py``) to the plays of a level in whole matches
(``benchmarks/play_games.py``) and ship as ``data/play_model.json``, read
here with the standard library.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Hashable
from dataclasses import dataclass
from importlib import resources
from typing import Final

from hearts.bots import policy
from hearts.cards import ALL_CARDS_MASK, HEARTS, QUEEN_OF_SPADES, SPADES, SUIT_MASK
from hearts.hand import HandState

FORMAT: Final = "hearts-play-model/1"

QS_BIT: Final = 1 << QUEEN_OF_SPADES
PENALTY_POINTS_MASK: Final = SUIT_MASK[HEARTS] | QS_BIT


def _names() -> tuple[str, ...]:
    """Every feature's name, in the order of the weights."""
    names: list[str] = []
    for kind in ("lead", "follow", "discard"):
        names += [f"{kind}:rank={r}" for r in range(13)]
        names += [f"{kind}:suit={s}" for s in range(4)]
        names += [f"{kind}:higher_out={b}" for b in range(5)]
        names += [f"{kind}:lower_out={b}" for b in range(4)]
        names += [f"{kind}:length={b}" for b in range(1, 6)]
        names += [f"{kind}:policy_of={b}" for b in ("2", "3-4", "5-7", "8+")]
        names += [f"{kind}:others_void={b}" for b in ("0", "1", "2+")]
        names += [f"{kind}:outstanding={b}" for b in ("0", "1-3", "4-6", "7+")]
        names += [
            f"{kind}:{fact}"
            for fact in (
                "queen",
                "spade_honour_queen_out",
                "spade_honour_queen_gone",
                "low_spade_queen_out",
                "spade_holding_queen",
                "highest_own",
                "lowest_own",
                "suit_gone",
                "high_heart",
                "threat_point",
                "threat_point_to_threat",
                "late",
                "late_boss",
                "last_card_of_suit",
            )
        ]
        if kind == "follow":
            names += [
                "follow:wins",
                "follow:wins_last",
                "follow:wins_points",
                "follow:wins_queen",
                "follow:wins_spade_queen_out",
                "follow:highest_duck",
                "follow:queen_under_honour",
                "follow:wins_second",
                "follow:wins_third",
                "follow:threat_wins_points",
                "follow:wins_void_behind",
            ]
        if kind == "discard":
            names += ["discard:trick_points", "discard:point_card"]
    return tuple(names)


NAMES: Final = _names()
INDEX: Final = {name: index for index, name in enumerate(NAMES)}
_LEAD: Final = 0
_FOLLOW: Final = INDEX["follow:rank=0"]
_DISCARD: Final = INDEX["discard:rank=0"]
# Offsets of the blocks every kind shares, from the kind's first feature.
_SUIT: Final = 13
_HIGHER: Final = _SUIT + 4
_LOWER: Final = _HIGHER + 5
_LENGTH: Final = _LOWER + 4
_POLICY: Final = _LENGTH + 5
_VOID: Final = _POLICY + 4
_OUTSTANDING: Final = _VOID + 3
_FACTS: Final = _OUTSTANDING + 4
_OUTSTANDING_BUCKET: Final = (0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3)
_CHOICE_BUCKET: Final = (0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3)
"""The ``policy_of`` bucket of a number of legal cards."""
(
    _QUEEN,
    _HONOUR_OUT,
    _HONOUR_GONE,
    _LOW_SPADE,
    _SPADE_WITH_QUEEN,
    _HIGHEST_OWN,
    _LOWEST_OWN,
    _SUIT_GONE,
    _HIGH_HEART,
    _THREAT_POINT,
    _THREAT_POINT_TO_THREAT,
    _LATE,
    _LATE_BOSS,
    _LAST_OF_SUIT,
) = range(_FACTS, _FACTS + 14)
_WINS: Final = INDEX["follow:wins"]
_DISCARD_TRICK_POINTS: Final = INDEX["discard:trick_points"]
_SPADES_MASK: Final = SUIT_MASK[SPADES]
_HONOURS: Final = (1 << (QUEEN_OF_SPADES + 1)) | (1 << (QUEEN_OF_SPADES + 2))


Memo = dict[tuple[Hashable, int, int], float]
"""Cards' scores without the policy's feature, by position, card and the player's own cards of
its suit and the queen (:meth:`PlayModel.scores`)."""


def features(
    state: HandState, card: int, threat: int, expected: int, choices: int, voids: int
) -> list[int]:
    """The features (indices into :data:`NAMES`) of playing ``card``, a legal card of the seat
    to play; ``threat`` is the seat that may be shooting the moon, or -1; ``expected`` is the
    rule policy's card (:func:`hearts.bots.policy.choose`), ``choices`` the number of legal
    cards; ``voids`` has bit ``4 * seat + suit`` set for each suit a seat is known to lack
    (:func:`void_bits`)."""
    seat = state.turn
    hand = state.hands[seat]
    suit = card // 13
    rank = card - 13 * suit
    suit_mask = SUIT_MASK[suit]
    bit = 1 << card
    out = ALL_CARDS_MASK & ~state.played_mask & ~hand  # the cards only the others may hold
    out_suit = out & suit_mask
    higher = (out_suit >> (card + 1)).bit_count()
    lower = (out_suit & (bit - 1)).bit_count()
    own = hand & suit_mask
    length = own.bit_count()
    led = state.led_mask
    base = _LEAD if not led else _FOLLOW if led & bit else _DISCARD
    found = [
        base + rank,
        base + _SUIT + suit,
        base + _HIGHER + min(higher, 4),
        base + _LOWER + min(lower, 3),
        base + _LENGTH + min(length, 5) - 1,
    ]
    if card == expected:
        found.append(base + _POLICY + _CHOICE_BUCKET[choices])
    others_void = 0
    for other in range(4):
        if other != seat and voids >> (4 * other + suit) & 1:
            others_void += 1
    found.append(base + _VOID + min(others_void, 2))
    found.append(base + _OUTSTANDING + _OUTSTANDING_BUCKET[out_suit.bit_count()])
    queen_out = bool(out & QS_BIT)
    if card == QUEEN_OF_SPADES:
        found.append(base + _QUEEN)
    elif bit & _HONOURS:
        found.append(base + (_HONOUR_OUT if queen_out else _HONOUR_GONE))
    elif suit == SPADES:
        if queen_out:
            found.append(base + _LOW_SPADE)
        elif hand & QS_BIT:
            found.append(base + _SPADE_WITH_QUEEN)
    if not own >> (card + 1):
        found.append(base + _HIGHEST_OWN)
    if not own & (bit - 1):
        found.append(base + _LOWEST_OWN)
    if not out_suit:
        found.append(base + _SUIT_GONE)
    if suit == HEARTS and rank >= 9:
        found.append(base + _HIGH_HEART)
    if length == 1:
        found.append(base + _LAST_OF_SUIT)
    if state.tricks_played >= 8:
        found.append(base + _LATE)
        if not higher:
            found.append(base + _LATE_BOSS)
    point = bool(bit & PENALTY_POINTS_MASK)
    if threat >= 0 and threat != seat and point:
        found.append(
            base + (_THREAT_POINT_TO_THREAT if state.best_seat == threat else _THREAT_POINT)
        )
    if base == _FOLLOW:
        if card > state.best_card:
            trick_points = state.trick_mask & PENALTY_POINTS_MASK
            found.append(_WINS)
            position = state.trick_count
            if position == 3:
                found.append(_WINS + 1)
            elif position == 1:
                found.append(_WINS + 7)
            else:
                found.append(_WINS + 8)
            if trick_points or point:
                found.append(_WINS + 2)
                if threat >= 0 and threat != seat:
                    found.append(_WINS + 9)
            if state.trick_mask & QS_BIT:
                found.append(_WINS + 3)
            if suit == SPADES and queen_out and position < 3:
                found.append(_WINS + 4)
            for behind in range(position + 1, 4):
                if voids >> (4 * ((seat + behind - position) & 3) + suit) & 1:
                    found.append(_WINS + 10)
                    break
        else:
            between = ((1 << state.best_card) - 1) & ~((bit << 1) - 1)
            if not own & between:
                found.append(_WINS + 5)
            if card == QUEEN_OF_SPADES:
                found.append(_WINS + 6)
    elif base == _DISCARD:
        if state.trick_mask & PENALTY_POINTS_MASK:
            found.append(_DISCARD_TRICK_POINTS)
        if point:
            found.append(_DISCARD_TRICK_POINTS + 1)
    return found


def _kind(state: HandState, card: int) -> int:
    """The first feature of the kind of play ``card`` would be: a lead, a follow or a discard."""
    led = state.led_mask
    return _LEAD if not led else _FOLLOW if led >> card & 1 else _DISCARD


def void_bits(state: HandState, card: int) -> int:
    """The void bit (see :func:`features`) that playing ``card`` now shows, or 0: the seat to
    play does not follow the suit led."""
    led = state.led_mask
    if not led or led >> card & 1:
        return 0
    return 1 << (4 * state.turn + SUIT_MASK.index(led))


@dataclass(frozen=True)
class PlayModel:
    """Weights for :data:`NAMES`: a card's score is the sum of its features' weights."""

    weights: tuple[float, ...]

    def scores(
        self,
        state: HandState,
        legal: int,
        threat: int,
        voids: int = 0,
        memo: Memo | None = None,
        index: Hashable = 0,
    ) -> list[tuple[int, float]]:
        """(card, score) for every card of the mask ``legal``, lowest card first (``voids``: see
        :func:`features`).

        All but one feature of a card (whether it is the policy's) depend on the player's own
        cards of its suit and the queen of spades alone, the rest of the state being given:
        with ``memo``, that part of each card's score is kept there under (``index``, card,
        those cards), so a caller scoring the same play in many deals (the Expert's
        likelihood, the play's number as ``index``; :meth:`draw`, the position) works each
        out once.
        """
        weights = self.weights
        expected = policy.choose(state, legal, policy.AVOID, threat)
        bonus = weights[_kind(state, expected) + _POLICY + _CHOICE_BUCKET[legal.bit_count()]]
        hand = state.hands[state.turn]
        queen = hand & QS_BIT
        scored = []
        cards = legal
        while cards:
            low = cards & -cards
            cards ^= low
            card = low.bit_length() - 1
            if memo is None:
                score = self._base_score(state, card, threat, voids)
            else:
                key = (index, card, hand & SUIT_MASK[card // 13] | queen)
                known = memo.get(key)
                if known is None:
                    known = memo[key] = self._base_score(state, card, threat, voids)
                score = known
            scored.append((card, score + bonus if card == expected else score))
        return scored

    def _base_score(self, state: HandState, card: int, threat: int, voids: int) -> float:
        """A card's score without the policy's feature."""
        weights = self.weights
        return sum(weights[f] for f in features(state, card, threat, -1, 0, voids))

    def chances(
        self,
        state: HandState,
        legal: int,
        threat: int,
        voids: int = 0,
        memo: Memo | None = None,
        index: Hashable = 0,
    ) -> dict[int, float]:
        """The model's chance of each legal card (``memo``, ``index``: see :meth:`scores`)."""
        scored = self.scores(state, legal, threat, voids, memo, index)
        top = max(score for _, score in scored)
        exps = [(card, math.exp(score - top)) for card, score in scored]
        total = sum(e for _, e in exps)
        return {card: e / total for card, e in exps}

    def draw(
        self,
        state: HandState,
        legal: int,
        threat: int,
        u: float,
        memo: Memo | None = None,
    ) -> int:
        """A card of the mask ``legal`` for the seat to play, drawn with the model's chances by
        the uniform number ``u`` (in [0, 1)): the same ``u`` draws the same card from the same
        chances.  With ``memo`` (see :meth:`scores`), the position is told by the cards
        played, the seat to play, the trick by seat and the threat, so deals that share a
        position score it once."""
        position = (state.played_mask, state.turn, *state.trick, threat)
        scored = self.scores(state, legal, threat, 0, memo, position)
        top = max(score for _, score in scored)
        exps = [(card, math.exp(score - top)) for card, score in scored]
        point = u * sum(e for _, e in exps)
        for card, e in exps:
            point -= e
            if point < 0:
                return card
        return exps[-1][0]

    @classmethod
    def from_json(cls, text: str) -> PlayModel:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} model")
        if list(data["features"]) != list(NAMES):
            raise ValueError("the model's features are not this code's features")
        weights = tuple(float(w) for w in data["weights"])
        if len(weights) != len(NAMES):
            raise ValueError("one weight per feature is needed")
        return cls(weights)


@functools.cache
def shipped() -> PlayModel:
    """The model that ships with the package (``hearts/bots/data/play_model.json``)."""
    text = resources.files("hearts.bots").joinpath("data/play_model.json").read_text()
    return PlayModel.from_json(text)
