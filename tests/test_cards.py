"""Cards: numbering, text forms, names, and CardSet."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.cards import (
    ACE_OF_SPADES,
    ALL_CARDS_MASK,
    CLUBS,
    DIAMONDS,
    HEARTS,
    HEARTS_MASK,
    JACK_OF_DIAMONDS,
    KING_OF_SPADES,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASK,
    TWO_OF_CLUBS,
    CardSet,
    card_label,
    card_name,
    card_symbol,
    card_text,
    cards_in,
    make_card,
    mask_of,
    parse_card,
    rank_of,
    suit_of,
)
from helpers import PROPERTY

cards = st.integers(min_value=0, max_value=51)
card_sets = st.integers(min_value=0, max_value=ALL_CARDS_MASK).map(CardSet)


def test_named_constants() -> None:
    assert card_text(TWO_OF_CLUBS) == "2C"
    assert card_text(QUEEN_OF_SPADES) == "QS"
    assert card_text(JACK_OF_DIAMONDS) == "JD"
    assert card_text(KING_OF_SPADES) == "KS"
    assert card_text(ACE_OF_SPADES) == "AS"


def test_suit_major_numbering() -> None:
    assert make_card(0, CLUBS) == 0
    assert make_card(12, HEARTS) == 51
    assert suit_of(parse_card("AD")) == DIAMONDS
    assert rank_of(parse_card("AD")) == 12
    assert parse_card("3S") > parse_card("2S")
    # Each suit is a contiguous 13-card slice of a mask.
    for suit in (CLUBS, DIAMONDS, SPADES, HEARTS):
        assert cards_in(SUIT_MASK[suit]) == list(range(suit * 13, suit * 13 + 13))
    assert str(CardSet(HEARTS_MASK)) == "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"


@pytest.mark.parametrize(("rank", "suit"), [(-1, 0), (13, 0), (0, 4), (0, -1)])
def test_make_card_rejects_out_of_range(rank: int, suit: int) -> None:
    with pytest.raises(ValueError):
        make_card(rank, suit)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("QS", "QS"),
        ("TH", "TH"),
        ("10H", "TH"),
        ("10h", "TH"),
        ("qs", "QS"),
        ("aH", "AH"),
        ("2c", "2C"),
        (" KD ", "KD"),
        ("Q♠", "QS"),
        ("10♥", "TH"),
        ("A♣", "AC"),
        ("7♦", "7D"),
        ("j♠", "JS"),
        ("3♧", "3C"),
        ("4♢", "4D"),
        ("5♤", "5S"),
        ("6♡", "6H"),
    ],
)
def test_parse_card(text: str, expected: str) -> None:
    assert card_text(parse_card(text)) == expected


@pytest.mark.parametrize(
    "text",
    ["", " ", "Q", "S", "1H", "11H", "1OH", "QX", "ZS", "QSS", "Q S", "♠Q", "0H", "HQ", "10", "T"],
)
def test_parse_card_rejects_bad_input(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


@PROPERTY
@given(cards)
def test_text_round_trip(card: int) -> None:
    assert parse_card(card_text(card)) == card
    assert parse_card(card_text(card).lower()) == card
    assert parse_card(card_symbol(card)) == card
    assert len(card_text(card)) == 2


def test_names_and_labels() -> None:
    assert card_name(QUEEN_OF_SPADES) == "queen of spades"
    assert card_label(QUEEN_OF_SPADES) == "Queen of spades"
    assert card_name(parse_card("10H")) == "ten of hearts"
    assert card_name(TWO_OF_CLUBS) == "two of clubs"
    assert card_label(parse_card("AD")) == "Ace of diamonds"
    assert card_symbol(parse_card("TH")) == "10♥"
    assert card_symbol(QUEEN_OF_SPADES) == "Q♠"
    assert len({card_name(card) for card in range(52)}) == 52


def test_card_set_parse_and_text() -> None:
    hand = CardSet.parse("QS 2C ah 10D")
    assert str(hand) == "2C TD QS AH"
    assert hand.texts() == ["2C", "TD", "QS", "AH"]
    assert len(hand) == 4
    assert QUEEN_OF_SPADES in hand
    assert parse_card("KS") not in hand
    assert CardSet.parse("QS,2C, AH") == CardSet.parse(["AH", "QS", "2C"])
    assert CardSet.parse("") == CardSet()
    assert eval(repr(hand), {"CardSet": CardSet}) == hand


def test_card_set_rejects_duplicates_and_bad_cards() -> None:
    with pytest.raises(ValueError, match="twice"):
        CardSet.parse("QS qs")
    with pytest.raises(ValueError):
        CardSet.parse("QS XX")
    with pytest.raises(ValueError):
        CardSet(1 << 52)
    with pytest.raises(ValueError):
        CardSet(-1)


def test_card_set_operations() -> None:
    a = CardSet.parse("2C 3C QS AH")
    b = CardSet.parse("3C KS AH")
    assert a | b == CardSet.parse("2C 3C QS KS AH")
    assert a & b == CardSet.parse("3C AH")
    assert a - b == CardSet.parse("2C QS")
    assert a.of_suit(CLUBS) == CardSet.parse("2C 3C")
    assert a.of_suit(DIAMONDS) == CardSet()
    assert list(a) == [parse_card(t) for t in ("2C", "3C", "QS", "AH")]
    assert bool(a) and not bool(CardSet())
    assert len(CardSet.full_deck()) == 52
    assert hash(a) == hash(CardSet.parse("AH QS 3C 2C"))
    assert a != a.mask  # a set is not its mask
    assert 52 not in CardSet.full_deck()
    assert "QS" not in a  # only card ints are members


def test_card_set_is_immutable() -> None:
    hand = CardSet.parse("QS")
    with pytest.raises(AttributeError):
        hand.mask = 0


@PROPERTY
@given(card_sets, card_sets)
def test_card_set_matches_python_sets(a: CardSet, b: CardSet) -> None:
    sa, sb = set(a), set(b)
    assert set(a | b) == sa | sb
    assert set(a & b) == sa & sb
    assert set(a - b) == sa - sb
    assert len(a) == len(sa)
    assert list(a) == sorted(sa)
    assert CardSet(sa) == a
    assert mask_of(sa) == a.mask
    assert CardSet.parse(a.texts()) == a
    assert CardSet.parse(str(a)) == a
    for suit in range(4):
        assert set(a.of_suit(suit)) == {card for card in sa if card // 13 == suit}
