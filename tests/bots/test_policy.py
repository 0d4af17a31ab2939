"""The playout policy's rules of thumb, in positions where each one decides."""

from __future__ import annotations

from hearts.bots import policy
from hearts.cards import card_text
from hearts.hand import HandState
from helpers import STANDARD, cs, make_deal


def policy_card(hands: tuple[int, int, int, int], plays: str) -> str:
    state = HandState.replayed(STANDARD, hands, cs(plays))
    card = policy.choose(state, state.legal_mask(), policy.AVOID, policy.moon_threat(state))
    return card_text(card)


def heart_lead_deal(hearts: str, others: str) -> tuple[int, int, int, int]:
    """South (seat 0) will lead the third trick holding ``hearts``, hearts broken by the ace."""
    return make_deal(
        f"2C AC KC 5C 6C 7C 4D 9S TS JS AS {hearts}",
        "3C AD KD QD JD TD 9D 8D 7D 6D 5D 3D 2D",
        f"4C QS AH {others}",
        "9C TC JC QC 8C 2S 3S 4S 5S 6S 7S 8S KS",
    )


# South leads 2C and West wins with the nine; West leads the ten, South's ace
# wins it while East discards the ace of hearts: South is on lead, hearts broken.
TWO_TRICKS = "2C 3C 4C 9C TC AC AD AH"


def test_leads_a_heart_that_hardly_any_outstanding_heart_is_under() -> None:
    deal = heart_lead_deal("2H 3H", "4H 5H 6H 7H 8H 9H TH JH QH KH")
    assert policy_card(deal, TWO_TRICKS) == "2H"


def test_keeps_its_hearts_when_many_outstanding_hearts_are_lower() -> None:
    deal = heart_lead_deal("9H TH", "2H 3H 4H 5H 6H 7H 8H JH QH KH")
    # Seven outstanding hearts are lower than the nine: the usual lead instead,
    # the lowest card outside hearts (spades wait while the queen is out).
    assert policy_card(deal, TWO_TRICKS) == "4D"


def test_last_to_a_trick_without_points_takes_it_with_the_highest_card() -> None:
    deal = make_deal("2C", "9C", "4C", "5C KC", voids={3: "C"})
    assert policy_card(deal, "2C 9C 4C") == "KC"


def test_last_to_a_spade_trick_still_drops_the_queen_under_the_king() -> None:
    deal = make_deal("2C QS AS", "AC KS", "3C 3S", "4C 4S")
    # West wins the first trick with the ace of clubs and leads the king of spades.
    assert policy_card(deal, "2C AC 3C 4C KS 3S 4S") == "QS"


def test_discards_a_singleton_before_a_higher_card() -> None:
    hearts = "2H 3H 4H 5H 6H 7H 8H 9H TH JH"
    deal = make_deal("2C", f"5D 2S JS {hearts}", "3C", "4C")
    # West has no club and may not throw a heart on the first trick: the lone
    # diamond goes, which leaves West void in diamonds, rather than the jack of spades.
    assert policy_card(deal, "2C") == "5D"
