"""What a new player ran into (issue 12): each defect, checked through the page.

The helpers come from test_solo_game.py; the computers play at Easy with short
pauses (conftest.py), and ``/api/test/autoplay`` finishes a match quickly.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect
from test_solo_game import (
    CORNER,
    HAND,
    card,
    game_started,
    hand,
    in_menu,
    play,
    play_some,
    playable,
    start_match,
    wait_turn,
)


def test_rules_dialog_never_loads_the_game(page: Page) -> None:
    game_started(page)
    page.click("#btn-rules")
    expect(page.locator("#dlg-rules")).to_be_visible()
    frame = page.frame_locator("#rules-frame")
    expect(frame.locator("h1")).to_have_text("The rules of Hearts")
    # The framed article has no site navigation and no link back to the game;
    # any link in it leaves the frame for a new tab.
    expect(frame.locator("nav")).to_have_count(0)
    expect(frame.locator('a[href="/"]')).to_have_count(0)
    assert frame.locator("a").count() > 0
    targets = frame.locator("a").evaluate_all(
        "links => links.map(a => a.target || document.querySelector('base').target)"
    )
    assert set(targets) == {"_blank"}
    # Even if the frame is sent elsewhere, reopening shows the rules again.
    page.evaluate(
        "() => { document.getElementById('rules-frame').contentWindow.location = '/stats'; }"
    )
    expect(frame.locator("h1")).to_have_text("Your statistics")
    page.click("#btn-rules-close")
    page.click("#btn-rules")
    expect(frame.locator("h1")).to_have_text("The rules of Hearts")
    page.click("#btn-rules-close")
    # The game page is still the only one talking to the table.
    expect(page.locator(HAND)).to_have_count(13)


def focused(page: Page) -> dict[str, str | None]:
    return page.evaluate(
        "() => { const a = document.activeElement;"
        " return { id: a && a.id || null, card: a && a.dataset && a.dataset.card || null,"
        " tag: a ? a.tagName : null }; }"
    )


def test_focus_follows_the_next_decision(page: Page) -> None:
    # Start by keyboard: focus lands in the hand, where the pass is chosen.
    expect(page.locator("#start")).to_be_visible()
    page.focus("#level-easy")
    page.keyboard.press("Enter")
    page.focus("#btn-start")
    page.keyboard.press("Enter")
    expect(page.locator(HAND)).to_have_count(13)
    page.wait_for_function("() => !!document.activeElement.dataset.card")
    # Choose three by keyboard, then Pass: focus goes to Continue.
    page.keyboard.press("Home")
    for _ in range(3):
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
    page.focus("#btn-pass")
    page.keyboard.press("Enter")
    expect(page.locator("#btn-continue")).to_be_visible()
    expect(page.locator("#btn-continue")).to_be_focused()
    # Continue: focus goes back to the hand, ready for the first play.
    page.keyboard.press("Enter")
    expect(page.locator("#btn-continue")).to_be_hidden()
    page.wait_for_function("() => !!document.activeElement.dataset.card")
    assert focused(page)["card"] in hand(page)
    # One Enter plays when it is our turn: no Tab needed.
    assert wait_turn(page) == "turn"
    page.keyboard.press("End")
    while focused(page)["card"] not in playable(page):
        page.keyboard.press("ArrowLeft")
    chosen = focused(page)["card"]
    page.keyboard.press("Enter")
    expect(card(page, str(chosen))).to_have_count(0)
    assert focused(page)["card"] in hand(page)


def sent_frames(page: Page) -> list[dict[str, object]]:
    """Every message the page sends on its sockets from now on (parsed)."""
    frames: list[dict[str, object]] = []

    def follow(socket: object) -> None:
        socket.on("framesent", lambda payload: frames.append(json.loads(payload)))  # type: ignore[attr-defined]

    page.on("websocket", follow)
    return frames


def test_first_hint_in_a_ranked_match_asks_once(page: Page) -> None:
    frames = sent_frames(page)
    page.reload()  # the socket opens again, now watched
    game_started(page)
    expect(page.locator("#ranked")).to_have_text("Ranked")
    # Cancel: no hint is asked for, the match stays ranked.
    page.click("#btn-hint")
    expect(page.locator("#dlg-confirm")).to_be_visible()
    expect(page.locator("#confirm-title")).to_contain_text("unranked")
    expect(page.locator("#confirm-text")).to_contain_text("Expert")
    page.click("#btn-confirm-cancel")
    expect(page.locator("#dlg-confirm")).to_be_hidden()
    time.sleep(0.3)
    assert [f for f in frames if f.get("type") == "hint"] == []
    expect(page.locator(f"{HAND}.hinted")).to_have_count(0)
    # Accept: the hint is asked for with the consent, and shown.
    page.click("#btn-hint")
    page.click("#btn-confirm-ok")
    expect(page.locator(f"{HAND}.hinted")).to_have_count(1)
    hints = [f for f in frames if f.get("type") == "hint"]
    assert len(hints) == 1 and hints[0].get("accept_unranked") is True
    # The next hint (the next trick) does not ask again.
    play_some(page, 1)
    page.click("#btn-hint")
    expect(page.locator(f"{HAND}.hinted")).to_have_count(1)
    expect(page.locator("#dlg-confirm")).to_be_hidden()
    assert len([f for f in frames if f.get("type") == "hint"]) == 2


SEAT_AFTER_MOON = """async () => {
  const { renderSeat } = await import("/static/render.js");
  // Robin (seat 1) took every point: 26 cards' worth taken, 0 scored; everyone else 26.
  const table = {
    match_id: 1, phase: "hand_over", hand_number: 1, turn: null,
    players: ["You", "Robin", "Alex", "Sam"], cards_left: [0, 0, 0, 0],
    points_taken: [0, 26, 0, 0], totals: [26, 0, 26, 26],
    last_hand: { points: [26, 0, 26, 26], shooter: 1 },
  };
  const out = [];
  for (let seat = 0; seat < 4; seat++) {
    const node = document.createElement("section");
    renderSeat(node, seat, table);
    const text = (cls) => node.querySelector(cls).textContent;
    out.push([text(".seat-points"), text(".seat-total")]);
  }
  return out;
}"""


def test_seat_panels_agree_with_the_summary_after_a_moon(page: Page) -> None:
    panels = page.evaluate(SEAT_AFTER_MOON)
    assert panels[1] == ["This hand: 0", "Total: 0"]
    for seat in (0, 2, 3):
        assert panels[seat] == ["This hand: 26", "Total: 26"]


def received_states(page: Page) -> list[dict[str, object]]:
    """Every table state the page receives from now on."""
    states: list[dict[str, object]] = []

    def on_frame(payload: str | bytes) -> None:
        msg = json.loads(payload)
        if msg.get("type") == "state" and isinstance(msg.get("table"), dict):
            states.append(msg["table"])

    page.on("websocket", lambda socket: socket.on("framereceived", on_frame))
    return states


def test_claim_shows_only_when_a_claim_is_possible(page: Page) -> None:
    states = received_states(page)
    page.reload()
    game_started(page)
    expect(page.locator("#btn-claim")).to_be_hidden()  # nothing to claim on the first trick
    claimed = False
    while wait_turn(page) == "turn":
        page.wait_for_timeout(200)  # let the page draw the last state it got (and events arrive)
        assert states, "no state seen on the socket"
        can_claim = bool(states[-1].get("can_claim"))
        claim = page.locator("#btn-claim")
        if can_claim:
            expect(claim).to_be_visible()
            expect(claim).to_be_enabled()
            assert "finish the hand" in (claim.get_attribute("title") or "")
            claim.click()
            claimed = True
            break
        expect(claim).to_be_hidden()
        play(page, playable(page)[0])
    if claimed:
        expect(page.locator("#summary")).to_be_visible()


def test_no_stale_message_after_passing(page: Page) -> None:
    start_match(page)
    cards = hand(page)
    for text in cards[:4]:  # the fourth is refused, with a message
        card(page, text).click(position=CORNER)
    expect(page.locator("#message")).to_contain_text("three cards")
    page.click("#btn-pass")
    expect(page.locator("#btn-continue")).to_be_visible()
    expect(page.locator("#prompt")).to_contain_text("You received three cards")
    expect(page.locator("#message")).to_be_empty()


def test_the_pause_prompt_says_it_once(page: Page) -> None:
    game_started(page)
    in_menu(page, "#btn-pause").click()
    expect(page.locator("#btn-pause")).to_have_text("Resume")
    prompt = page.locator("#prompt")
    expect(prompt).to_have_text("Paused. Press Resume to go on")
    assert (prompt.text_content() or "").count("Paused") == 1


def record_where_south_leads() -> str:
    """A whole first hand in which South (the replay's "You") holds the two of clubs."""
    from hearts import Match, parse_card
    from hearts.record import dumps_record

    two = parse_card("2C")
    for seed in range(1, 200):
        match = Match(seed=seed)
        for seat in range(4):
            match.confirm_pass(seat, list(match.view(seat).hand)[-3:])
        if two not in match.view(0).hand:
            continue
        while match.phase.value == "playing":
            match.play(match.legal_moves()[0])
        return dumps_record(match)
    raise AssertionError("no seed gives South the two of clubs")


def test_replay_captions_agree_with_you(page: Page, server: object) -> None:
    page.goto(server.url + "/replay")  # type: ignore[attr-defined]
    page.fill("#replay-json", record_where_south_leads())
    page.click("#btn-replay-load")
    expect(page.locator("#replay-view")).to_be_visible()
    captions = []
    while page.locator("#btn-next").is_enabled():
        page.click("#btn-next")
        captions.append(page.locator("#replay-caption").text_content() or "")
    text = " ".join(captions)
    assert "You lead." in text
    assert "You leads" not in text and "You wins" not in text


def test_new_match_screen_pauses_the_table(page: Page) -> None:
    states = received_states(page)
    page.reload()
    game_started(page)
    in_menu(page, "#btn-new-match").click()
    expect(page.locator("#start")).to_be_visible()
    expect(page.locator("#btn-play")).to_be_visible()
    page.wait_for_timeout(300)
    assert states[-1].get("paused") is True, "the table runs while the start screen is open"
    # Back to the match: it runs again, and Pause is not left pressed.
    page.click("#btn-play")
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#btn-pause")).to_have_text("Pause")
    page.wait_for_timeout(300)
    assert states[-1].get("paused") is False
    assert wait_turn(page) == "turn"


def test_restart_hand_is_always_confirmed(page: Page) -> None:
    game_started(page)
    play_some(page, 1)
    page.click("#btn-undo")  # accept the unranked notice once, with Undo
    page.click("#btn-confirm-ok")
    expect(page.locator("#ranked")).to_have_text("Unranked")
    assert wait_turn(page) == "turn"
    before = hand(page)
    # Restart now asks every time; Cancel changes nothing.
    in_menu(page, "#btn-restart").click()
    expect(page.locator("#dlg-confirm")).to_be_visible()
    expect(page.locator("#confirm-title")).to_have_text("Restart this hand?")
    page.click("#btn-confirm-cancel")
    expect(page.locator("#dlg-confirm")).to_be_hidden()
    expect(page.locator("body")).to_have_attribute("data-phase", "playing")
    assert wait_turn(page) == "turn"
    assert hand(page) == before
    in_menu(page, "#btn-restart").click()
    page.click("#btn-confirm-ok")
    expect(page.locator("body")).to_have_attribute("data-phase", "passing")
    expect(page.locator(HAND)).to_have_count(13)


def test_the_clock_stops_while_reconnecting(page: Page, server: Any) -> None:
    game_started(page)
    page.wait_for_function("() => document.getElementById('clock').textContent !== '0:00'")
    server.kill()
    expect(page.locator("#conn")).to_have_attribute("data-status", "reconnecting")
    shown = page.locator("#clock").text_content()
    page.wait_for_timeout(2200)  # the clock shows whole seconds: watch it for two
    assert page.locator("#clock").text_content() == shown
    server.start()
    expect(page.locator("#conn")).to_have_attribute("data-status", "open", timeout=20_000)
    assert wait_turn(page) == "turn"


def test_a_guest_chooses_the_name_shown_at_a_friends_table(
    server: Any, people: Callable[[str], Any]
) -> None:
    ann, ben = people("ann"), people("ben")
    a = ann.page
    a.goto(server.url + "/tables/new")
    expect(a.locator("#player-name-field")).to_be_visible()  # a guest may choose
    a.fill("#table-name", "Tea time")
    a.fill("#player-name", "  Ann   the Bold ")
    with a.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as sent:
        a.click("#btn-create")
    assert sent.value.post_data_json["player_name"] == "Ann the Bold"
    a.wait_for_url(re.compile(r"/t/[^/?#]+$"))
    invite = a.url
    expect(a.locator('#lobby-seats li[data-rel="0"]')).to_contain_text("Ann the Bold")

    b = ben.page
    b.goto(invite)
    expect(b.locator("#seat-name-field")).to_be_visible()
    expect(b.locator('#lobby-seats li[data-seat="0"]')).to_contain_text("Ann the Bold")
    b.fill("#seat-name", "x" * 20 + "y")  # the field stops at 20
    assert len(b.locator("#seat-name").input_value()) == 20
    b.fill("#seat-name", "Ben")
    b.click('#lobby-seats button.sit[data-seat="2"]')
    expect(b.locator("body")).to_have_attribute("data-role", "player")
    expect(b.locator("#seat-name-field")).to_be_hidden()
    expect(a.locator('#lobby-seats li[data-rel="2"]')).to_contain_text("Ben")
    # The choice is kept for the next table in this browser.
    b.goto(server.url + "/tables/new")
    expect(b.locator("#player-name")).to_have_value("Ben")


def test_a_signed_in_player_on_an_empty_leaderboard(page: Page, server: Any) -> None:
    from test_account_pages import sign_up

    sign_up(page, server, "newcomer")
    page.goto(server.url + "/leaderboard")
    expect(page.locator("#lb-empty")).to_be_visible()
    expect(page.locator("#lb-empty")).not_to_contain_text("Create an account")
    expect(page.locator("#lb-empty")).to_contain_text("Finish a match")
    expect(page.locator("#lb-me")).not_to_contain_text("Create an account")
