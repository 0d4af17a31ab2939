"""Computer players. Each decides from a :class:`~hearts.view.SeatView` only.

>>> from hearts import Match
>>> import random
>>> bot = make_bot("normal")
>>> decision = bot.decide(Match(seed=3).view(1), random.Random(0))
>>> decision.kind, len(decision.cards)
('pass', 3)
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from hearts.bots.base import Bot, Decision, NothingToDecide

_CLASSES: Final = {
    "random": ("hearts.bots.easy", "RandomBot"),
    "beginner": ("hearts.bots.easy", "BeginnerBot"),
    "easy": ("hearts.bots.easy", "EasyBot"),
    "normal": ("hearts.bots.normal", "NormalBot"),
    "expert": ("hearts.bots.expert", "ExpertBot"),
    "expert-2026-11": ("hearts.bots.expert_2026_11", "Expert202611Bot"),
    "pimc": ("hearts.bots.reference", "PimcBot"),
    "ismcts": ("hearts.bots.reference", "IsmctsBot"),
    "pimc-uct": ("hearts.bots.reference", "PimcUctBot"),
}

LEVELS: Final = tuple(_CLASSES)
"""Every bot by name: the product offers easy, normal and expert; the arena all of them.

``expert-2026-11`` is the Expert as it was in November 2026, frozen as a yardstick."""

PLAYER_LEVELS: Final = ("easy", "normal", "expert")


def bot_class(level: str) -> type[Bot]:
    """The class of ``level``, imported only when first asked for."""
    try:
        module_name, class_name = _CLASSES[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})") from None
    cls: type[Bot] = getattr(importlib.import_module(module_name), class_name)
    return cls


def make_bot(level: str, **settings: Any) -> Bot:
    """The bot of ``level`` with its default settings, changed by ``settings``."""
    return bot_class(level)(**settings)


__all__ = ["LEVELS", "PLAYER_LEVELS", "Bot", "Decision", "NothingToDecide", "bot_class", "make_bot"]
