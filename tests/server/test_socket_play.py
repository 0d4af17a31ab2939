"""The table over the WebSocket: pass, continue, play, undo, restart, hint, claim, hands."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient
from player import Player, Table, connect, new_guest

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "S": "spades", "H": "hearts"}


def test_new_match_state(player: Player) -> None:
    table = player.start("normal")
    assert table["level"] == "normal" and table["status"] == "active"
    assert table["players"] == ["You", "Robin", "Alex", "Sam"]
    assert table["phase"] == "passing" and table["hand_number"] == 1
    assert table["pass_direction"] == "left" and table["pass_to"] == 1
    assert table["prompt"] == "Pass three cards to Robin"
    assert len(table["hand"]) == 13 and table["pass_confirmed"] == [False, True, True, True]
    assert table["ranked"] is True and table["used_undo"] is False
    assert table["pace"] == "relaxed" and table["paused"] is False
    assert player.version >= 1


def test_select_deselect_and_confirm_pass_shows_received_cards(player: Player) -> None:
    table = player.start()
    hand = table["hand"]
    player.send("select_pass", cards=hand[:2])
    assert player.state()["pass_selection"] == sorted(hand[:2], key=hand.index)
    player.send("select_pass", cards=hand[:1])
    assert player.state()["pass_selection"] == hand[:1]
    player.send("confirm_pass", cards=hand[10:13])
    table = player.until(lambda t: t["awaiting_continue"])
    assert table["passed"] is not None and sorted(table["passed"]) == sorted(hand[10:13])
    received = table["received"]
    assert len(received) == 3 and set(received) <= set(table["hand"])
    assert table["received_from"] == 3
    assert table["prompt"] == "You received three cards from Sam. Press Continue"
    assert table["legal"] == []


def test_play_waits_for_continue(player: Player) -> None:
    table = player.start()
    player.send("confirm_pass", cards=table["hand"][:3])
    table = player.until(lambda t: t["awaiting_continue"])
    player.send("play", card=table["hand"][0])
    error = player.error()
    assert error["code"] == "not_now" and error["message"] == "Press Continue first"
    player.send("continue")
    table = player.until(lambda t: not t["awaiting_continue"])
    assert table["phase"] == "playing"


def test_play_a_legal_card(player: Player) -> None:
    table = player.pass_and_continue(player.start())
    table = player.my_turn()
    card = table["legal"][0]
    player.send("play", card=card, seq=7)
    table = player.state()
    assert card not in table["hand"] and table["cards_left"][0] == 12
    assert [0, card] in table["tricks"][-1]["cards"]


def expected_reason(table: Table, card: str) -> str:
    trick = table["tricks"][-1] if table["tricks"] else None
    if trick is None or trick["winner"] is not None:
        if not table["tricks"]:
            return "The first lead must be the two of clubs"
        return "Hearts are not broken yet"
    led = trick["cards"][0][1][1]
    if any(c[1] == led for c in table["hand"]):
        return f"You must follow {SUIT_NAMES[led]}"
    return "No points on the first trick"


def test_illegal_play_says_why_and_changes_nothing(player: Player) -> None:
    player.pass_and_continue(player.start())
    table = player.my_turn()
    illegal = [card for card in table["hand"] if card not in table["legal"]]
    assert illegal, "the fixed deal gives an illegal card on the first trick"
    version = player.version
    player.send("play", card=illegal[0], seq=3)
    error = player.error()
    assert error == {
        "type": "error",
        "code": "illegal",
        "message": expected_reason(table, illegal[0]),
        "seq": 3,
    }
    player.send("play", card="AS" if "AS" not in table["hand"] else "2D")
    assert player.error()["message"] == "You do not hold that card"
    player.send("play", card=table["legal"][0], version=version)
    assert player.state()["cards_left"][0] == 12


def test_out_of_turn(paced_client: TestClient) -> None:
    new_guest(paced_client)
    with connect(paced_client) as socket:
        player = Player(socket)
        player.send("hello")
        player.receive()
        player.send("set_pace", pace="relaxed")
        player.error()  # no match yet
        table = player.pass_and_continue(player.start())
        table = player.my_turn()
        player.send("play", card=table["legal"][0])
        table = player.state()
        assert table["turn"] != 0
        # The bots wait 0.9 s at the relaxed pace: it is still not our turn.
        player.send("play", card=table["hand"][0])
        error = player.error()
        assert error["code"] == "not_your_turn" and error["message"] == "Not your turn"


def test_undo_takes_back_the_last_play_and_unranks(player: Player) -> None:
    player.pass_and_continue(player.start())
    table = player.my_turn()
    card = table["legal"][0]
    player.send("play", card=card)
    table = player.until(lambda t: t["turn"] == 0 or t["phase"] != "playing")
    assert table["can_undo"] is True
    player.send("undo", version=player.version)
    table = player.state()
    assert card in table["hand"] and table["turn"] == 0
    assert table["used_undo"] is True and table["ranked"] is False


def test_undo_with_nothing_to_undo(player: Player) -> None:
    table = player.start()
    assert table["can_undo"] is False
    player.send("undo")
    error = player.error()
    assert error["message"] == "You have nothing to undo in this hand"
    assert error["code"] == "illegal"


def test_restart_hand_replays_the_same_deal(player: Player) -> None:
    first = player.start()
    table = player.pass_and_continue(first)
    table = player.my_turn()
    player.send("play", card=table["legal"][0])
    player.state()
    player.send("restart_hand")
    table = player.until(lambda t: t["phase"] == "passing" and all(t["pass_confirmed"][1:]))
    assert sorted(table["hand"]) == sorted(first["hand"]) and table["hand_number"] == 1
    assert table["tricks"] == [] and table["ranked"] is False


def test_hint_suggests_a_pass_and_a_play(player: Player) -> None:
    table = player.start()
    assert table["ranked"] is True
    version = player.version
    player.send("hint", seq=1)  # in a ranked match the first hint must be accepted
    refused = player.receive()
    assert refused["type"] == "error" and refused["code"] == "confirm_unranked"
    assert refused["seq"] == 1 and player.version == version
    player.send("hint", seq=2, accept_unranked=True)
    table = player.state()  # the match is unranked first, then the hint comes
    assert table["ranked"] is False and table["used_hint"] and not table["used_undo"]
    hint = player.receive()
    assert hint["type"] == "hint" and hint["seq"] == 2
    assert len(hint["cards"]) == 3 and set(hint["cards"]) <= set(table["hand"])
    player.pass_and_continue(table)
    table = player.my_turn()
    player.send("hint")  # unranked already: no confirmation needed
    hint = player.receive()
    assert hint["type"] == "hint" and len(hint["cards"]) == 1
    assert hint["cards"][0] in table["legal"]


def test_claim_refused_while_points_remain(player: Player) -> None:
    player.pass_and_continue(player.start())
    table = player.my_turn()
    assert table["can_claim"] is False
    player.send("claim")
    error = player.error()
    assert error["code"] == "not_now" and error["message"].startswith("You can claim only")


def play_hand(player: Player, claim: bool = False) -> Table:
    """Play our legal cards until the hand is over (claiming when offered)."""
    table = player.pass_and_continue(player.table or {})
    while True:
        table = player.my_turn()
        if table["phase"] != "playing":
            return table
        if claim and table["can_claim"]:
            player.claimed = True
            player.send("claim")
            return player.until(lambda t: t["phase"] != "playing")
        player.send("play", card=table["legal"][-1])


def test_a_whole_hand_and_its_summary_then_next_hand(player: Player) -> None:
    player.start()
    table = play_hand(player)
    assert table["phase"] == "hand_over" and table["cards_left"] == [0, 0, 0, 0]
    assert len(table["tricks"]) == 13 and sum(t["points"] for t in table["tricks"]) == 26
    assert table["last_hand"]["points"] == table["hand_points"][0] == table["totals"]
    assert table["prompt"].endswith("Press Next hand") and table["can_undo"] is True
    player.send("next_hand")
    table = player.until(lambda t: t["hand_number"] == 2 and all(t["pass_confirmed"][1:]))
    assert table["pass_direction"] == "right" and table["pass_to"] == 3
    assert table["prompt"] == "Pass three cards to Sam"
    assert table["totals"] == table["hand_points"][0]


def test_next_hand_before_the_hand_is_over(player: Player) -> None:
    player.start()
    player.send("next_hand")
    assert player.error()["message"] == "The hand is not over yet"


def test_claim_finishes_the_hand(player: Player) -> None:
    player.start()
    for _ in range(4):
        table = play_hand(player, claim=True)
        if player.claimed:
            break
        player.send("next_hand")
        player.until(lambda t: t["phase"] != "hand_over" and all(t["pass_confirmed"][1:]))
    assert player.claimed, "the fixed deals offer a claim within four hands"
    assert table["phase"] in ("hand_over", "match_over") and table["cards_left"] == [0, 0, 0, 0]
    assert sum(t["points"] for t in table["tricks"]) == 26


def test_pause_stops_the_bots_until_resume(paced_client: TestClient) -> None:
    new_guest(paced_client)
    with connect(paced_client) as socket:
        player = Player(socket)
        player.send("hello")
        player.receive()
        player.pass_and_continue(player.start())
        table = player.my_turn()
        player.send("play", card=table["legal"][0])
        played = player.state()
        player.send("pause")
        paused = player.state()
        assert paused["paused"] is True and paused["prompt"] == "Paused"
        assert paused["tricks"] == played["tricks"]
        time.sleep(1.5)  # longer than a bot's wait: no bot may play meanwhile
        player.send("play", card=played["hand"][0])
        assert player.error()["code"] == "paused"
        player.send("resume")
        resumed = player.state()
        assert resumed["paused"] is False and resumed["tricks"] == played["tricks"]
        later = player.state()
        assert sum(later["cards_left"]) == sum(played["cards_left"]) - 1


def test_set_pace(player: Player) -> None:
    player.start()
    player.send("set_pace", pace="quick")
    assert player.state()["pace"] == "quick"
    player.send("set_pace", pace="slow")
    assert player.error()["code"] == "bad_message"
