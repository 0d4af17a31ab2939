"""Cards as small ints, sets of cards as bitmasks, and their text forms.

A card is an ``int`` from 0 to 51, numbered suit-major: ``suit * 13 + rank``,
with suits in the order clubs, diamonds, spades, hearts and ranks from the two
(0) to the ace (12).  So every suit is a contiguous 13-bit slice of a mask and
"the cards of the led suit" is one AND, and within a suit a higher card is a
higher number.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

Card = int
"""A card: ``suit * 13 + rank`` (0..51)."""

Suit = int
"""A suit: 0 clubs, 1 diamonds, 2 spades, 3 hearts."""

CLUBS: Final = 0
DIAMONDS: Final = 1
SPADES: Final = 2
HEARTS: Final = 3
SUITS: Final = (CLUBS, DIAMONDS, SPADES, HEARTS)

SUIT_LETTERS: Final = "CDSH"
SUIT_SYMBOLS: Final = "♣♦♠♥"
SUIT_NAMES: Final = ("clubs", "diamonds", "spades", "hearts")
RANK_LETTERS: Final = "23456789TJQKA"
RANK_NAMES: Final = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)  # fmt: skip

SUIT_MASK: Final = tuple(0x1FFF << (13 * s) for s in SUITS)
ALL_CARDS_MASK: Final = (1 << 52) - 1
HEARTS_MASK: Final = SUIT_MASK[HEARTS]


def make_card(rank: int, suit: Suit) -> Card:
    """The card of ``rank`` (0 = two .. 12 = ace) in ``suit``."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise ValueError(f"no such card: rank {rank}, suit {suit}")
    return suit * 13 + rank


def suit_of(card: Card) -> Suit:
    return card // 13


def rank_of(card: Card) -> int:
    return card % 13


TWO_OF_CLUBS: Final = make_card(0, CLUBS)
JACK_OF_DIAMONDS: Final = make_card(9, DIAMONDS)
QUEEN_OF_SPADES: Final = make_card(10, SPADES)
KING_OF_SPADES: Final = make_card(11, SPADES)
ACE_OF_SPADES: Final = make_card(12, SPADES)

_SUIT_BY_CHAR: Final = {
    **{letter: s for s, letter in enumerate(SUIT_LETTERS)},
    **{symbol: s for s, symbol in enumerate(SUIT_SYMBOLS)},
    "♧": CLUBS, "♢": DIAMONDS, "♤": SPADES, "♡": HEARTS,
}  # fmt: skip
_RANK_BY_TEXT: Final = {
    **{letter: r for r, letter in enumerate(RANK_LETTERS)},
    "10": RANK_LETTERS.index("T"),
}


def parse_card(text: str) -> Card:
    """Read a card written as ``QS``, ``TH``, ``10h`` or ``Q♠``.

    >>> card_text(parse_card("10♥"))
    'TH'
    """
    if not isinstance(text, str):
        raise ValueError(f"not a card: {text!r}")
    cleaned = text.strip().upper()
    if len(cleaned) < 2:
        raise ValueError(f"not a card: {text!r}")
    rank = _RANK_BY_TEXT.get(cleaned[:-1])
    suit = _SUIT_BY_CHAR.get(cleaned[-1])
    if rank is None or suit is None:
        raise ValueError(f"not a card: {text!r}")
    return suit * 13 + rank


_TEXTS: Final = tuple(rank + suit for suit in SUIT_LETTERS for rank in RANK_LETTERS)
"""Every card's text, by card number (suit * 13 + rank)."""


def card_text(card: Card) -> str:
    """The canonical two-letter form, e.g. ``QS``."""
    return _TEXTS[card]


def card_symbol(card: Card) -> str:
    """A short form with the suit symbol, e.g. ``Q♠`` (``10♥`` for the ten)."""
    rank = card % 13
    return ("10" if rank == 8 else RANK_LETTERS[rank]) + SUIT_SYMBOLS[card // 13]


def card_name(card: Card) -> str:
    """The name people say, e.g. ``queen of spades``."""
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


def card_label(card: Card) -> str:
    """The name a screen reader announces, e.g. ``Queen of spades``."""
    return card_name(card).capitalize()


def bit(card: Card) -> int:
    return 1 << card


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> list[Card]:
    """The cards of a mask, lowest first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


class CardSet:
    """An immutable set of cards backed by a 52-bit mask.

    >>> hand = CardSet.parse("QS 2C ah 10D")
    >>> str(hand), len(hand), parse_card("QS") in hand
    ('2C TD QS AH', 4, True)
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: Iterable[Card] | int = 0) -> None:
        mask = cards if isinstance(cards, int) else mask_of(cards)
        if mask < 0 or mask > ALL_CARDS_MASK:
            raise ValueError("a card set holds only cards 0..51")
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        # Pickle by mask (views travel to worker processes); __setattr__ is closed.
        return CardSet, (self.mask,)

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """Read cards separated by spaces or commas, or an iterable of card texts."""
        parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        cards = [parse_card(part) for part in parts]
        result = cls(cards)
        if len(result) != len(cards):
            raise ValueError("the same card is listed twice")
        return result

    @classmethod
    def full_deck(cls) -> CardSet:
        return cls(ALL_CARDS_MASK)

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_in(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def of_suit(self, suit: Suit) -> CardSet:
        return CardSet(self.mask & SUIT_MASK[suit])

    def texts(self) -> list[str]:
        return [_TEXTS[card] for card in cards_in(self.mask)]

    def __str__(self) -> str:
        return " ".join(self.texts())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
