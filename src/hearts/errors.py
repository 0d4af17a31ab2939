"""Exceptions with short human reasons, in the second and the third person."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A pass, play or other decision the rules do not allow now.

    ``str(error)`` speaks to the player ("you must follow clubs");
    :meth:`about` names them ("North must follow clubs"), as the record
    checker and logs do.
    """

    def __init__(self, reason: str, about: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self._about = about if about is not None else reason

    def about(self, who: str) -> str:
        return self._about.format(who=who)


class IllegalPass(IllegalMove):
    """A pass that is not three of the passer's own cards, or comes at the wrong time."""


class IllegalPlay(IllegalMove):
    """A card the rules do not allow on this trick."""


def not_your_turn() -> IllegalPlay:
    return IllegalPlay("not your turn", "not {who}'s turn")


def not_held(card_text: str) -> IllegalMove:
    return IllegalPlay("you do not hold that card", "{who} does not hold " + card_text)


def must_follow(suit_name: str) -> IllegalPlay:
    return IllegalPlay(f"you must follow {suit_name}", "{who} must follow " + suit_name)


def hearts_not_broken() -> IllegalPlay:
    return IllegalPlay(
        "hearts are not broken yet", "{who} may not lead hearts before they are broken"
    )


def no_points_first_trick() -> IllegalPlay:
    return IllegalPlay(
        "no points on the first trick", "{who} may not play points on the first trick"
    )


def first_lead_two_of_clubs() -> IllegalPlay:
    return IllegalPlay(
        "the first lead must be the two of clubs", "{who} must lead the two of clubs first"
    )
