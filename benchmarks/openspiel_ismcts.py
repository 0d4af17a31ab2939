"""OpenSpiel's information-set MCTS at our table: a reference opponent for the Expert.

:class:`OpenSpielIsmctsBot` hands every decision to OpenSpiel's C++
``ISMCTSBot`` (Cowling, Powley and Whitehouse's single-observer IS-MCTS with
random rollouts), playing OpenSpiel's own ``hearts`` game.  It decides from
the seat's :class:`~hearts.view.SeatView` only: each decision builds an
OpenSpiel state that agrees with the view (our hand, what we passed and
received, every played card, whose turn it is) with the hidden cards dealt
by :func:`~hearts.bots.knowledge.sample_hidden`, and the search resamples
those hidden cards from our player's information state anyway.

The runner plays a duplicate arena (:func:`hearts.arena.run_arena`) of the
Expert against three of these bots (or one of them against three Experts)
and prints the figures as ``hearts arena --json`` does: points per hand per
level, the Expert minus OpenSpiel difference with its paired 95% interval,
and the decision times.  Needs the optional ``bench`` extra
(``pip install -e '.[bench]'``)::

    python benchmarks/openspiel_ismcts.py --hands 40 --seed 1 --workers 1
    python benchmarks/openspiel_ismcts.py --hands 400 --simulations 2000 \\
        --set expert.samples=100 --seats-first openspiel

Mappings between the two games (checked by ``tests/bots/test_openspiel_ismcts.py``):

- seats: OpenSpiel's players are North 0, East 1, South 2, West 3, ours South
  0, West 1, North 2, East 3; both play in increasing number (clockwise).  The
  deciding seat always sits as OpenSpiel's North and the others follow round
  the table: OpenSpiel's player is our seat minus the deciding seat.  North
  because OpenSpiel passes player by player from North, and its resampler of
  hidden cards mishandles a pass already made to the player to move (it deals
  that real pass into a random world, and the search crashes); North passes
  before anyone.  Every rotation plays the same game otherwise.
- pass directions: OpenSpiel's pass-direction outcome is the clockwise
  offset of the receiver (0 no pass, 1 left, 2 across, 3 right), which is
  :class:`~hearts.rules.PassDirection`'s value.
- cards: OpenSpiel numbers a card ``rank * 4 + suit`` with suits clubs,
  diamonds, hearts, spades; ours is ``suit * 13 + rank`` with spades before
  hearts.

OpenSpiel's game differs from ours in what it models, not in its rules: it
plays one hand, its return is 26 minus the hand's points (moon added for the
others, as ours), and it passes one card per action, player by player.
Its resampler also ignores the suits a player has shown void in (OpenSpiel
says so in its source): the search's worlds may give a seat cards it cannot
hold.  That is OpenSpiel's method as published, and it is measured as such.

Not reproducible: the same view and seed give the same OpenSpiel state and
the same search seeds, but OpenSpiel's C++ search does not always return the
same card for them.  Its tree keeps each node's children in an absl hash map
whose order follows memory addresses, and it breaks UCT ties (frequent: the
returns are whole points) by a seeded draw among the tied children in that
order.  So two runs of this benchmark differ within their intervals, and,
unlike our bots, the figures depend on how the hands are spread over workers.
The decision still depends on nothing hidden from the seat: the hash order
carries no information about the cards.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from hearts.arena import DEFAULT_WORKERS, make_entrants, parse_settings, run_arena
from hearts.bots.base import Bot, NothingToDecide
from hearts.bots.knowledge import Knowledge, sample_hidden
from hearts.cards import Card, card_text, cards_in
from hearts.match import Phase
from hearts.rules import SEATS, PassDirection
from hearts.view import SeatView

try:
    import pyspiel
except ImportError:  # the runner says how to install it
    pyspiel = None

OPENSPIEL_RULES: Final = {
    "pass_cards": True,
    "no_pts_on_first_trick": True,
    "can_lead_any_club": False,
    "jd_bonus": False,
    "avoid_all_tricks_bonus": False,
    "must_break_hearts": True,
    "qs_breaks_hearts": False,
    "can_lead_hearts_instead_of_qs": False,
}
"""Our standard game in OpenSpiel's terms, every parameter spelled out.

OpenSpiel's default lets the queen of spades break hearts; ours does not.
The others are its defaults, named so that a change of default cannot change
the game: the first trick takes no points unless a player holds nothing else,
2C leads, a heart is led only once broken or when the leader has only hearts.
"""

OPENSPIEL_SUIT: Final = (0, 1, 3, 2)
"""OpenSpiel's suit number of each of ours (clubs, diamonds, spades, hearts)."""

ACTION_OF_CARD: Final = tuple((card % 13) * 4 + OPENSPIEL_SUIT[card // 13] for card in range(52))
"""OpenSpiel's card action for each of our cards."""

CARD_OF_ACTION: Final = tuple(sorted(range(52), key=ACTION_OF_CARD.__getitem__))
"""Our card for each OpenSpiel card action."""

PASS_DIRECTION_ACTION: Final = {
    PassDirection.HOLD: 0,
    PassDirection.LEFT: 1,
    PassDirection.ACROSS: 2,
    PassDirection.RIGHT: 3,
}
"""OpenSpiel's first chance outcome for each direction: "No Pass", "Left", "Across", "Right"."""


def player_of_seat(seat: int, observer: int) -> int:
    """OpenSpiel's player for our ``seat`` when ``observer`` decides: the observer is North (0)."""
    return (seat - observer) % 4


def seat_of_player(player: int, observer: int) -> int:
    """Our seat of OpenSpiel's ``player`` when ``observer`` decides."""
    return (player + observer) % 4


@functools.cache
def openspiel_game() -> Any:
    """OpenSpiel's hearts under our rules, loaded once per process."""
    if pyspiel is None:
        raise RuntimeError("OpenSpiel is not installed: pip install -e '.[bench]'")
    return pyspiel.load_game("hearts", OPENSPIEL_RULES)


def openspiel_state(
    direction: PassDirection,
    dealt: Sequence[int],
    passes: Sequence[int],
    plays: Sequence[tuple[int, Card]],
    observer: int,
) -> Any:
    """OpenSpiel's state after this deal, these passes and plays (seats and cards ours).

    ``passes[seat]`` is what ``seat`` passed (0 for no pass yet); OpenSpiel
    applies them player by player from North, ``observer``'s seat.
    """
    state = openspiel_game().new_initial_state()
    state.apply_action(PASS_DIRECTION_ACTION[direction])
    # The deal gives card k to player k % 4.
    hands = [cards_in(dealt[seat_of_player(player, observer)]) for player in range(4)]
    for round_cards in zip(*hands, strict=True):
        for card in round_cards:
            state.apply_action(ACTION_OF_CARD[card])
    for player in range(4):
        for card in cards_in(passes[seat_of_player(player, observer)]):
            state.apply_action(ACTION_OF_CARD[card])
    for seat, card in plays:
        if state.current_player() != player_of_seat(seat, observer):
            raise AssertionError(
                f"OpenSpiel has player {state.current_player()} to play, not {seat}"
            )
        state.apply_action(ACTION_OF_CARD[card])
    return state


def deal_and_passes(
    view: SeatView, start: list[int], rng: random.Random
) -> tuple[list[int], list[int]]:
    """A deal and passes that leave the seats holding ``start`` when play begins.

    What we passed and received are the view's; each other pass is three
    random cards of what its receiver held when play began.  Any three will
    do: passes are exchanged at once, so no received card can have been
    passed on, and nobody sees the passes between the other seats.
    """
    direction = view.pass_direction
    passes = [0, 0, 0, 0]
    if direction is PassDirection.HOLD:
        return start[:], passes
    assert view.passed is not None and view.received is not None
    seat = view.seat
    passes[seat] = view.passed.mask
    passes[direction.giver(seat)] = view.received.mask
    for other in SEATS:
        if not passes[other]:
            receiver = direction.receiver(other)
            passes[other] = sum(1 << card for card in rng.sample(cards_in(start[receiver]), 3))
    dealt = [(start[s] & ~passes[direction.giver(s)]) | passes[s] for s in SEATS]
    assert dealt[seat] == view.dealt.mask, "the view's pass does not add up"
    return dealt, passes


def build_state(view: SeatView, rng: random.Random) -> Any:
    """An OpenSpiel state that agrees with ``view``, in which our seat is to pass or play.

    The other seats' cards are a random deal consistent with everything the
    view shows; OpenSpiel's search resamples them from our information state.
    """
    seat = view.seat
    hidden = sample_hidden(Knowledge.from_view(view), rng)
    if hidden is None:
        raise ValueError("no deal of the hidden cards agrees with this view")
    start = hidden[:]
    for who, card in view.plays:
        start[who] |= 1 << card
    if view.phase is Phase.PASSING:
        if view.passed is not None:
            raise NothingToDecide("this seat has passed already")
        # We pass first (as North), so no pass is in the state yet.
        dealt, passes = start, [0, 0, 0, 0]
    elif view.phase is Phase.PLAYING:
        dealt, passes = deal_and_passes(view, start, rng)
    else:
        raise NothingToDecide(f"nothing to decide in the {view.phase.value} phase")
    state = openspiel_state(view.pass_direction, dealt, passes, view.plays, seat)
    if state.current_player() != player_of_seat(seat, seat):
        raise AssertionError(f"OpenSpiel has player {state.current_player()} to move, not us")
    return state


@dataclass(frozen=True)
class OpenSpielIsmctsBot(Bot):
    """OpenSpiel's C++ information-set MCTS with random rollouts, deciding from our view."""

    simulations: int = 1000
    """Search iterations per OpenSpiel action (a pass is three actions)."""
    uct_c: float = 2.0
    """UCT's exploration constant (OpenSpiel's returns lie in [0, 26])."""
    max_world_samples: int = -1
    """Deals of the hidden cards the search cycles through; -1 draws a fresh one every iteration."""
    rollouts: int = 1
    """Random rollouts per evaluated leaf."""

    def __post_init__(self) -> None:
        if self.simulations < 2:
            raise ValueError("simulations must be at least 2 (the first only expands the root)")
        if self.rollouts < 1:
            raise ValueError("rollouts must be at least 1")
        if self.max_world_samples != -1 and self.max_world_samples < 1:
            raise ValueError("max_world_samples must be -1 (no limit) or at least 1")

    @property
    def level(self) -> str:
        return "openspiel-ismcts"

    def _search(self, rng: random.Random) -> Any:
        evaluator = pyspiel.RandomRolloutEvaluator(self.rollouts, rng.getrandbits(31))
        return pyspiel.ISMCTSBot(
            rng.getrandbits(31),
            evaluator,
            self.uct_c,
            self.simulations,
            self.max_world_samples,
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            False,  # key the tree by information-state strings (hearts has no observation string)
            False,  # a seat's legal cards follow from its information state
        )

    def choose_pass(self, view: SeatView, rng: random.Random) -> list[Card]:
        state = build_state(view, rng)
        search = self._search(rng)
        chosen: list[Card] = []
        for _ in range(3):
            action = search.step(state)
            card = CARD_OF_ACTION[action]
            if card not in view.hand or card in chosen:
                raise AssertionError(f"OpenSpiel passed {card_text(card)} from {view.hand}")
            chosen.append(card)
            state.apply_action(action)
        return chosen

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        state = build_state(view, rng)
        action = self._search(rng).step(state)
        card = CARD_OF_ACTION[action]
        if card not in view.legal:
            raise AssertionError(f"OpenSpiel played {card_text(card)} outside {view.legal}")
        return card


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400, help="hands to play (default 400)")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument(
        "--workers",
        type=int,
        default=DEFAULT_WORKERS,
        help=f"processes to play in (default {DEFAULT_WORKERS})",
    )
    parser.add_argument(
        "--simulations",
        type=int,
        default=OpenSpielIsmctsBot.simulations,
        help="OpenSpiel search iterations per action (default %(default)s)",
    )
    parser.add_argument(
        "--uct-c",
        type=float,
        default=OpenSpielIsmctsBot.uct_c,
        help="OpenSpiel's UCT exploration constant (default %(default)s)",
    )
    parser.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="expert.NAME=VALUE",
        help="change an Expert setting, e.g. expert.samples=100 (repeatable)",
    )
    parser.add_argument(
        "--seats-first",
        choices=("expert", "openspiel"),
        default="expert",
        help="the lone entrant: expert (one Expert, three OpenSpiel bots) or openspiel",
    )
    args = parser.parse_args(argv)

    if pyspiel is None:
        print("OpenSpiel (pyspiel) is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    try:
        # Four seats is what make_entrants checks settings against; one Expert is kept.
        expert = make_entrants(["expert"] * 4, parse_settings(args.settings))[0]
        reference = OpenSpielIsmctsBot(simulations=args.simulations, uct_c=args.uct_c)
        if args.seats_first == "expert":
            entrants: list[Bot] = [expert, reference, reference, reference]
        else:
            entrants = [reference, expert, expert, expert]
        result = run_arena(entrants, hands=args.hands, seed=args.seed, workers=args.workers)
    except ValueError as error:  # an ArenaError or a bad setting
        print(error, file=sys.stderr)
        return 2
    print("\n".join(result.table()))
    print(result.json_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
