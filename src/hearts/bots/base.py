"""The bot interface: a seat's view and a seeded generator in, a decision out.

A bot never receives a :class:`~hearts.match.Match`, only a
:class:`~hearts.view.SeatView`, so it cannot reach a hidden card: fairness is
a matter of what the function is given, not of the bot's good manners.
Bots are frozen dataclasses: their settings pickle, they keep no state
between decisions, and the same view, seed and settings give the same
decision in any process.
"""

from __future__ import annotations

import abc
import random
from dataclasses import dataclass
from typing import Literal

from hearts.cards import Card, card_text
from hearts.match import MoonStyle, Phase
from hearts.view import SeatView

DecisionKind = Literal["pass", "play", "moon"]


@dataclass(frozen=True)
class Decision:
    """Three cards to pass, one card to play, or how to score a moon."""

    kind: DecisionKind
    cards: tuple[Card, ...] = ()
    moon: MoonStyle | None = None

    def texts(self) -> list[str]:
        """The decision as card texts (``["QS", "AS", "KH"]``) or the moon style."""
        if self.kind == "moon":
            return [self.moon or "add"]
        return [card_text(card) for card in self.cards]


class NothingToDecide(ValueError):
    """The view's seat owes no decision now."""


@dataclass(frozen=True)
class Bot(abc.ABC):
    """A computer player. Subclasses add their settings as dataclass fields."""

    @property
    @abc.abstractmethod
    def level(self) -> str:
        """The level's name, e.g. ``"expert"``."""

    @abc.abstractmethod
    def choose_pass(self, view: SeatView, rng: random.Random) -> list[Card]:
        """Three cards of ``view.hand`` to pass to ``view.pass_to``."""

    @abc.abstractmethod
    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        """One card of ``view.legal``."""

    def choose_moon(self, view: SeatView, rng: random.Random) -> MoonStyle:
        """How to score our moon under ``moon: "choice"``: whichever leaves us better placed."""
        return best_moon_style(view)

    def decide(self, view: SeatView, rng: random.Random) -> Decision:
        """The decision ``view.seat`` owes now; :class:`NothingToDecide` if none."""
        seat = view.seat
        if view.phase is Phase.PASSING and not view.pass_confirmed[seat]:
            cards = self.choose_pass(view, rng)
            if len(set(cards)) != 3 or any(card not in view.hand for card in cards):
                raise AssertionError(f"{self.level} bot passed {cards} from {view.hand}")
            return Decision("pass", tuple(sorted(cards)))
        if view.phase is Phase.PLAYING and view.turn == seat:
            if len(view.legal) == 1:
                return Decision("play", (next(iter(view.legal)),))
            card = self.choose_play(view, rng)
            if card not in view.legal:
                raise AssertionError(f"{self.level} bot played {card} outside {view.legal}")
            return Decision("play", (card,))
        if view.phase is Phase.MOON_CHOICE and view.turn == seat:
            return Decision("moon", moon=self.choose_moon(view, rng))
        raise NothingToDecide(f"{view.players[seat]} has no decision to make now")


def taken_cards(view: SeatView) -> list[int]:
    """The cards each seat has won in this hand's complete tricks, as masks."""
    taken = [0, 0, 0, 0]
    for trick in view.tricks:
        if trick.winner is not None:
            for _, card in trick.cards:
                taken[trick.winner] |= 1 << card
    return taken


def best_moon_style(view: SeatView) -> MoonStyle:
    """Win the match now if a style does; otherwise keep the widest lead."""
    seat = view.seat
    taken = taken_cards(view)

    def standing(style: MoonStyle) -> tuple[int, int]:
        points, _ = view.rules.score_hand(taken, style)
        totals = [view.totals[s] + points[s] for s in range(4)]
        best_other = min(totals[s] for s in range(4) if s != seat)
        over = max(totals) >= view.rules.target
        outcome = 1 if not over else 0 if totals[seat] < best_other else 2
        return outcome, totals[seat] - best_other

    return min(("add", "subtract"), key=standing)
