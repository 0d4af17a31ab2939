"""How long the computers wait before acting, by pace."""

from __future__ import annotations

from typing import Final

PACES: Final = ("relaxed", "quick")

PLAY_DELAY: Final = {"relaxed": 0.9, "quick": 0.25}
"""Seconds between a state and a computer's next play."""

TRICK_DELAY: Final = {"relaxed": 1.6, "quick": 0.6}
"""Extra seconds a finished trick stays on the table before the next lead."""


def bot_delay(pace: str, after_trick: bool, scale: float) -> float:
    delay = PLAY_DELAY.get(pace, PLAY_DELAY["relaxed"])
    if after_trick:
        delay += TRICK_DELAY.get(pace, TRICK_DELAY["relaxed"])
    return delay * scale


NEXT_HAND_DELAY: Final = {"relaxed": 4.0, "quick": 2.0}
"""Seconds a shared table shows a hand's summary before dealing the next one."""


def next_hand_delay(pace: str, scale: float) -> float:
    return NEXT_HAND_DELAY.get(pace, NEXT_HAND_DELAY["relaxed"]) * scale
