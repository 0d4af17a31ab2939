"""Hands built card by card for the coach's tests: the known positions and their records."""

from __future__ import annotations

import random
from typing import Any

from hearts.bots import make_bot
from hearts.cards import CardSet, parse_card
from hearts.match import Match, Phase
from hearts.record import write_record
from hearts.rules import Rules

NO_PASS = Rules(passing="none")


def hand_record(
    holdings: list[str], plays: list[str], rules: Rules = NO_PASS, finish_seed: int = 0
) -> dict[str, Any]:
    """A one-hand record: ``holdings`` (South, West, North, East) played as ``plays``,
    then finished by Normal bots, so the hand is over and the coach may look at it."""
    masks = [CardSet.parse(text).mask for text in holdings]
    match = Match(rules, seed=0, deal=(masks[0], masks[1], masks[2], masks[3]))
    assert match.phase is Phase.PLAYING
    for text in plays:
        match.play(parse_card(text))
    bot = make_bot("normal")
    rng = random.Random(finish_seed)
    while match.phase is Phase.PLAYING:
        turn = match.turn
        assert turn is not None
        match.play(bot.decide(match.view(turn), rng).cards[0], turn)
    return write_record(match)


# South holds the king and queen of spades; East leads the ace of spades at trick 2.
# Playing the king keeps a queen that is now the highest spade left: drop the queen.
QUEEN_ON_ACE = [
    "KS QS 3C 8C 9C TC 3D 8D 9D TD 3H 8H 9H",
    "2C 6C 7C 6D 7D JD 6H 7H TH 5S 6S 7S 8S",
    "JC QC KC QD KD AD JH QH KH AH 9S TS JS",
    "AC AS 4C 5C 2D 4D 5D 2H 4H 5H 2S 3S 4S",
]
QUEEN_ON_ACE_PLAYS = ["2C", "JC", "AC", "3C", "AS"]  # then South: QS, not KS

# East has won the queen and ten hearts; West and North are known to be out of
# diamonds, so East's last two cards are diamonds.  East leads the nine of hearts
# at trick 11: only the ace of hearts, now, stops the moon.
STOP_THE_MOON = [
    "TD 9D 8D 7D 6D 5D 4D 3D 2D AH 2H 3S 2S",
    "2C 3C 4C 5C 6C QS KH QH JH TH AS KS JS",
    "3H 4H 5H 6H 7H 8H TS 9S 8S 7S 6S 5S 4S",
    "AC KC QC JC TC 9C 8C 7C 9H AD KD QD JD",
]
STOP_THE_MOON_PLAYS = [
    "2C", "4S", "AC", "2D",  # trick 1: West leads, East wins
    "KC", "3D", "3C", "8H",  # East leads clubs (East, South, West, North)
    "QC", "4D", "4C", "7H",
    "JC", "5D", "5C", "6H",
    "TC", "6D", "6C", "5H",
    "9C", "7D", "KH", "4H",  # West is out of clubs now
    "8C", "8D", "QH", "3H",
    "7C", "2S", "JH", "5S",
    "AD", "9D", "TH", "6S",  # West and North show they have no diamonds
    "KD", "TD", "QS", "7S",
    "9H",  # trick 11: South to play, AH or 2H
]  # fmt: skip

# East wins trick 1 and leads diamonds; West and North show no diamonds at trick 2.
# At trick 3 East leads the five: the ace wins a trick both others will load.
DUCK_WITH_THE_TWO = [
    "AD 3D 2D 3C 4C 5C 2S 3S 4S 5S 2H 3H 4H",
    "2C 6C 7C 8C QS AS KS AH KH QH JH TH 9H",
    "9C TC JC JS TS 9S 8S 7S 6S 8H 7H 6H 5H",
    "KD QD JD TD 9D 8D 7D 6D 5D 4D AC KC QC",
]
DUCK_WITH_THE_TWO_PLAYS = ["2C", "9C", "AC", "3C", "KD", "3D", "6C", "TC", "5D"]
