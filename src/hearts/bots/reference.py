"""Reference opponents: the classic search methods of the strongest public Hearts programs.

These are research bots, not product levels: baselines the Expert must beat.
Both decide from the seat's view only, by Monte Carlo over the hidden cards,
and both finish hands with *uniformly random* legal plays
(:meth:`~hearts.hand.HandState.play_random`), as the textbook methods do.

- :class:`PimcBot` is perfect-information Monte Carlo: sample deals of the
  unseen cards consistent with what the seat knows (voids, the cards it
  passed, hearts led early, points dropped on the first trick), play each
  candidate card in them followed by random playouts, and play the card with
  the lowest mean hand points (moon applied).
- :class:`IsmctsBot` is single-observer information-set MCTS (Cowling,
  Powley and Whitehouse 2012): one tree over the seat's information set, a
  fresh determinization per iteration, UCB1 with availability counts,
  one node expanded per iteration, a random playout, and each node credited
  with the reward of the seat that made its move.
- :class:`PimcUctBot` is PIMC with a search in each sampled deal: a UCT
  tree on the open cards of the deal (max^n, random playouts), the trees
  voting with their visit counts, as the strongest classical programs do.

Two refinements that strong implementations of the classic method use, and
that only sharpen the same estimates:

- Equivalent cards are searched once.  Two of our cards of one suit and the
  same point value with no card between them that another seat may hold
  (every card between them is ours or already gone) lead to the same
  outcomes, so only the lowest of each run is a candidate and the budget
  goes further (bridge programs since GIB do this).
- Common random numbers.  Every candidate is tried in the same deals with
  the same random stream: ``play_random`` draws exactly one number per card
  played, so playout ``k`` of each candidate starts at the same point of the
  stream, and the differences between candidates are measured with far less
  noise than independent playouts would give.

The pass is flat Monte Carlo too: a shortlist of three-card passes built from
the most dangerous cards by a simple rule, each tried in the same random deals
of the other 39 cards, with random passes by the other seats and random play.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Final

from hearts.bots.base import Bot
from hearts.bots.knowledge import Knowledge, sample_hidden, state_template
from hearts.cards import (
    ALL_CARDS_MASK,
    HEARTS,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASK,
    Card,
    cards_in,
)
from hearts.hand import HandState, random_card
from hearts.rules import Rules
from hearts.view import SeatView

SPADE_HONOURS_FROM_QUEEN: Final = SUIT_MASK[SPADES] & ~((1 << QUEEN_OF_SPADES) - 1)
"""The queen, king and ace of spades: the cards that take or are the queen."""
SPADES_BELOW_QUEEN: Final = SUIT_MASK[SPADES] & ((1 << QUEEN_OF_SPADES) - 1)


@dataclass(frozen=True)
class FlatPassBot(Bot):
    """What the reference players share: the flat Monte Carlo pass (see :func:`search_pass`)."""

    pass_simulations: int = 4000
    """Whole hands played per pass decision, shared equally by the candidate passes."""
    pass_shortlist: int = 6
    """The pass candidates are every three of this many most dangerous cards."""

    def choose_pass(self, view: SeatView, rng: random.Random) -> list[Card]:
        return search_pass(view, rng, self.pass_simulations, self.pass_shortlist)


@dataclass(frozen=True)
class PimcBot(FlatPassBot):
    """Perfect-information Monte Carlo with random playouts."""

    simulations: int = 2000
    """Playouts per play decision, shared equally by the candidate cards."""
    worlds: int = 40
    """Deals of the unseen cards sampled per play decision; playouts cycle through them."""

    @property
    def level(self) -> str:
        return "pimc"

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        candidates = distinct_cards(view)
        if len(candidates) == 1:
            return candidates[0]
        knowledge = Knowledge.from_view(view)
        worlds = []
        for _ in range(max(1, self.worlds)):
            world = sample_hidden(knowledge, rng)
            if world is None:
                break
            worlds.append(world)
        if not worlds:
            return candidates[0]  # contradictory constraints: only a hand-edited view
        template = state_template(view, worlds[0])
        seat = view.seat
        rules = view.rules
        per_card = max(1, self.simulations // len(candidates))
        playout_rng = random.Random(rng.getrandbits(64))
        stream = playout_rng.getstate()
        best_card, best_total = candidates[0], math.inf
        for card in candidates:
            playout_rng.setstate(stream)
            total = 0
            for k in range(per_card):
                state = template.copy()
                state.hands = worlds[k % len(worlds)][:]
                state.play(card)
                state.play_random(playout_rng)
                total += hand_points(rules, state.taken, seat)
            # Equal totals (equal means): the lower card, which comes first, stays.
            if total < best_total:
                best_card, best_total = card, total
        return best_card


@dataclass(frozen=True)
class IsmctsBot(FlatPassBot):
    """Single-observer information-set MCTS with random playouts."""

    iterations: int = 2000
    """Tree iterations per play decision, each in a freshly sampled deal."""
    exploration: float = 0.7
    """UCB1's exploration constant (rewards lie in [0, 1])."""

    @property
    def level(self) -> str:
        return "ismcts"

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        candidates = distinct_cards(view)
        if len(candidates) == 1:
            return candidates[0]
        knowledge = Knowledge.from_view(view)
        first = sample_hidden(knowledge, rng)
        if first is None:
            return candidates[0]
        template = state_template(view, first)
        root_moves = sum(1 << card for card in candidates)
        root = _Node(-1)
        rules = view.rules
        scale = 1.0 / max(1, rules.moon_points)
        exploration = self.exploration
        log, sqrt = math.log, math.sqrt
        world: list[int] | None = first
        for _ in range(max(1, self.iterations)):
            if world is None:
                world = sample_hidden(knowledge, rng)
                if world is None:
                    break
            state = template.copy()
            state.hands = world
            world = None
            node = root
            path = [root]
            while state.tricks_played < 13:
                legal = root_moves if node is root else state.legal_mask()
                untried = legal & ~node.tried
                if untried:
                    card = random_card(untried, rng)
                    child = _Node(state.turn)
                    node.children[card] = child
                    node.tried |= 1 << card
                    state.play(card)
                    path.append(child)
                    break
                # Every legal move has a child: UCB1, with availability in place of the
                # parent's visits (a move is only a choice in the deals where it is legal).
                children = node.children
                best_value = -math.inf
                best_card = -1
                moves = legal
                while moves:
                    low = moves & -moves
                    moves ^= low
                    card = low.bit_length() - 1
                    child = children[card]
                    child.avail += 1
                    value = child.reward / child.visits + exploration * sqrt(
                        log(child.avail) / child.visits
                    )
                    if value > best_value:
                        best_value, best_card = value, card
                node = children[best_card]
                state.play(best_card)
                path.append(node)
            state.play_random(rng)
            _back_up(path, rules.score_hand(state.taken, "add")[0], scale)
        # The most visited card; ties go to the better mean, then the lower card.
        return max(
            sorted(root.children),
            key=lambda card: (
                root.children[card].visits,
                root.children[card].reward / max(1, root.children[card].visits),
            ),
        )


@dataclass(frozen=True)
class PimcUctBot(FlatPassBot):
    """PIMC whose every sampled deal gets a real search: UCT on the open cards of that deal.

    In each of ``worlds`` deals of the unseen cards, a UCT tree is grown over
    the perfect-information game (every seat's cards known, as in that deal)
    for ``simulations`` iterations: UCB1 descent, one node expanded per
    iteration, a random playout, and every seat choosing for its own reward
    (max^n).  The trees vote: a candidate card's visits are summed over the
    deals and the most visited card is played (ties: the better mean reward).
    This is how the strongest classical Hearts programs search.
    """

    simulations: int = 200
    """UCT iterations in each sampled deal."""
    worlds: int = 20
    """Deals of the unseen cards sampled per play decision, each searched by its own tree."""
    exploration: float = 0.7
    """UCB1's exploration constant (rewards lie in [0, 1])."""

    @property
    def level(self) -> str:
        return "pimc-uct"

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        candidates = distinct_cards(view)
        if len(candidates) == 1:
            return candidates[0]
        knowledge = Knowledge.from_view(view)
        root_moves = sum(1 << card for card in candidates)
        visits = dict.fromkeys(candidates, 0)
        rewards = dict.fromkeys(candidates, 0.0)
        template = None
        for _ in range(max(1, self.worlds)):
            world = sample_hidden(knowledge, rng)
            if world is None:
                break
            if template is None:
                template = state_template(view, world)
            root = _uct_in_world(template, world, root_moves, self, view.rules, rng)
            for card, child in root.children.items():
                visits[card] += child.visits
                rewards[card] += child.reward
        if template is None:
            return candidates[0]  # contradictory constraints: only a hand-edited view
        return max(
            candidates,
            key=lambda card: (visits[card], rewards[card] / max(1, visits[card]), -card),
        )


def _uct_in_world(
    template: HandState,
    world: list[int],
    root_moves: int,
    bot: PimcUctBot,
    rules: Rules,
    rng: random.Random,
) -> _Node:
    """The root of a max^n UCT tree grown on the open cards of one deal."""
    root = _Node(-1)
    scale = 1.0 / max(1, rules.moon_points)
    exploration = bot.exploration
    log, sqrt = math.log, math.sqrt
    for _ in range(max(1, bot.simulations)):
        state = template.copy()
        state.hands = world[:]
        node = root
        path = [root]
        while state.tricks_played < 13:
            legal = root_moves if node is root else state.legal_mask()
            untried = legal & ~node.tried
            if untried:
                card = random_card(untried, rng)
                child = _Node(state.turn)
                node.children[card] = child
                node.tried |= 1 << card
                state.play(card)
                path.append(child)
                break
            # With the cards open, a node's moves are the same on every visit: plain UCB1.
            parent_log = log(node.visits)
            best_value = -math.inf
            best_card = -1
            for card, child in node.children.items():
                value = child.reward / child.visits + exploration * sqrt(parent_log / child.visits)
                if value > best_value:
                    best_value, best_card = value, card
            node = node.children[best_card]
            state.play(best_card)
            path.append(node)
        state.play_random(rng)
        _back_up(path, rules.score_hand(state.taken, "add")[0], scale)
    return root


class _Node:
    """A node of a search tree: the move that led here and its statistics."""

    __slots__ = ("avail", "children", "reward", "seat", "tried", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        """The seat that made the move into this node (-1 at the root)."""
        self.children: dict[Card, _Node] = {}
        self.tried = 0
        """The cards that have a child, as a mask."""
        self.visits = 0
        self.avail = 1
        self.reward = 0.0


def _back_up(path: list[_Node], points: tuple[int, int, int, int], scale: float) -> None:
    """Count a playout's hand points in every node on its path, each for the seat that moved."""
    for visited in path:
        visited.visits += 1
        if visited.seat >= 0:
            visited.reward += 1.0 - points[visited.seat] * scale


# --- shared pieces -------------------------------------------------------------------


def hand_points(rules: Rules, taken: list[int], seat: int) -> int:
    """The hand points of ``seat`` for the won cards ``taken``, a moon scored "add"."""
    points, _ = rules.score_hand(taken, "add")
    return points[seat]


def distinct_cards(view: SeatView) -> list[Card]:
    """The legal cards worth searching: the lowest of each run of equivalent cards, lowest first.

    Two legal cards of one suit are equivalent when they score the same and
    every card between them is ours or gone in a complete trick: no other
    seat can ever hold a card that one beats and the other does not.  A card
    on the table is not gone: it may lie between them and decide the trick.
    """
    legal = view.legal.mask
    gone = 0
    for trick in view.tricks:
        if trick.complete:
            for _, card in trick.cards:
                gone |= 1 << card
    settled = gone | view.hand.mask
    card_points = view.rules.card_points
    candidates = []
    previous = -1
    for card in cards_in(legal):
        if previous >= 0 and previous // 13 == card // 13:
            between = ((1 << card) - 1) & ~((2 << previous) - 1)
            if not between & ~settled and card_points[card] == card_points[previous]:
                previous = card
                continue
        candidates.append(card)
        previous = card
    return candidates


def pass_danger(card: Card, hand: int) -> int:
    """How much ``card`` wants to leave ``hand``: a simple club player's rule of thumb.

    The queen, king and ace of spades when fewer than four low spades guard
    them; high hearts; high cards, more so in short suits (a void to discard into).
    """
    suit, rank = divmod(card, 13)
    if suit == SPADES and (1 << card) & SPADE_HONOURS_FROM_QUEEN:
        guarded = (hand & SPADES_BELOW_QUEEN).bit_count() >= 4
        return rank if guarded else 60 + rank
    if suit == SPADES:
        return rank - 13  # low spades guard the queen
    if suit == HEARTS:
        return 2 * rank + 6 if rank >= 7 else rank
    length = (hand & SUIT_MASK[suit]).bit_count()
    return 2 * rank + (3 - length) * 4 if length <= 3 else 2 * rank


def pass_candidates(hand: int, shortlist: int) -> list[int]:
    """Every three of the ``shortlist`` most dangerous cards, most dangerous set first."""
    ranked = sorted(cards_in(hand), key=lambda card: (-pass_danger(card, hand), -card))
    top = ranked[: max(3, shortlist)]
    return [(1 << a) | (1 << b) | (1 << c) for a, b, c in itertools.combinations(top, 3)]


def random_three(holding: int, rng: random.Random) -> int:
    """Three random cards of ``holding``, as a mask."""
    chosen = 0
    for _ in range(3):
        chosen |= 1 << random_card(holding & ~chosen, rng)
    return chosen


def search_pass(view: SeatView, rng: random.Random, simulations: int, shortlist: int) -> list[Card]:
    """The shortlisted pass with the fewest mean points over random deals, passes and play."""
    hand = view.hand.mask
    candidates = pass_candidates(hand, shortlist)
    receiver = view.pass_to
    if receiver is None or len(candidates) == 1:
        return cards_in(candidates[0])
    seat = view.seat
    direction = view.pass_direction
    others = [s for s in range(4) if s != seat]
    unseen = cards_in(ALL_CARDS_MASK & ~hand)
    per_pass = max(1, simulations // len(candidates))
    # The same deals and the same passes by the other seats for every candidate.
    deals: list[list[int]] = []
    for _ in range(per_pass):
        rng.shuffle(unseen)
        holdings = [0, 0, 0, 0]
        for index, card in enumerate(unseen):
            holdings[others[index // 13]] |= 1 << card
        passes = [0, 0, 0, 0]
        for s in others:
            passes[s] = random_three(holdings[s], rng)
            holdings[s] &= ~passes[s]
        for s in others:
            holdings[direction.receiver(s)] |= passes[s]
        deals.append(holdings)
    rules = view.rules
    playout_rng = random.Random(rng.getrandbits(64))
    stream = playout_rng.getstate()
    best, best_total = candidates[0], math.inf
    for passed in candidates:
        playout_rng.setstate(stream)
        total = 0
        for holdings in deals:
            after = holdings[:]
            after[seat] |= hand & ~passed
            after[receiver] |= passed
            state = HandState(rules, after)
            state.play_random(playout_rng)
            total += hand_points(rules, state.taken, seat)
        if total < best_total:
            best, best_total = passed, total
    return cards_in(best)
