"""The game record, format ``hearts-record/1``: write, read, check, replay.

:func:`write_record` turns a match (finished or in progress) into the JSON
document of RECORD.md; :func:`read_record` replays such a document through
the rules into a :class:`~hearts.match.Match` at exactly the same point.
Anything that is not a valid record raises :class:`RecordError`, whose
message names the hand, the position and the reason, for example
``hand 2, play 17: North must follow spades``.

One extension keeps the round trip exact for every state of a match: in the
last hand of a match in progress, ``pass`` may hold ``null`` for the seats
that have not confirmed their pass yet.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from hearts.cards import CardSet, card_text, parse_card
from hearts.errors import IllegalMove
from hearts.match import HandLog, Match, Phase
from hearts.rules import SEAT_NAMES, PassDirection, Rules, RulesError

FORMAT: Final = "hearts-record/1"
MAX_HANDS: Final = 1000
"""No real match is this long; a longer record is refused rather than replayed."""


class RecordError(ValueError):
    """A document that is not a valid ``hearts-record/1`` record."""

    def __init__(self, reason: str, hand: int | None = None, position: str | None = None) -> None:
        self.reason = reason
        self.hand = hand
        self.position = position
        where = []
        if hand is not None:
            where.append(f"hand {hand}")
        if position:
            where.append(position)
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)


def write_record(match: Match, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``match`` as a JSON-ready dict.

    The seed is never written: whoever holds a record of a match in progress
    must not be able to compute the cards still hidden.
    """
    hands = [_hand_record(match.rules, log) for log in match.hand_logs]
    return _record(match, hands, meta)


class RecordWriter:
    """:func:`write_record` for a match that is written again after every move.

    A hand before the current one never changes, so its part of the record is
    made once and reused for as long as the match keeps the same hand logs (a
    copied or rebuilt match has new ones, written afresh). Records written
    this way share those parts: treat them as read-only.
    """

    def __init__(self) -> None:
        self._done: list[tuple[HandLog, dict[str, Any]]] = []

    def write(self, match: Match, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
        logs = match.hand_logs
        finished = logs[:-1]
        kept = 0
        while kept < min(len(self._done), len(finished)) and self._done[kept][0] is finished[kept]:
            kept += 1
        del self._done[kept:]
        self._done += [(log, _hand_record(match.rules, log)) for log in finished[kept:]]
        hands = [hand for _, hand in self._done]
        hands += [_hand_record(match.rules, log) for log in logs[len(finished) :]]
        return _record(match, hands, meta)


def _hand_record(rules: Rules, log: HandLog) -> dict[str, Any]:
    hand: dict[str, Any] = {"deal": [CardSet(mask).texts() for mask in log.deal]}
    if rules.pass_direction(log.number) is PassDirection.HOLD:
        hand["pass"] = None
    elif any(p is not None for p in log.passes):
        hand["pass"] = [None if p is None else CardSet(p).texts() for p in log.passes]
    hand["plays"] = [card_text(card) for card in log.plays]
    if log.moon_choice is not None:
        hand["moon_choice"] = log.moon_choice
    return hand


def _record(
    match: Match, hands: list[dict[str, Any]], meta: Mapping[str, Any] | None
) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": match.rules.to_dict(),
        "players": list(match.players),
        "hands": hands,
        "result": {
            "hand_points": [list(result.points) for result in match.results],
            "totals": list(match.totals),
            "winner": match.winner,
        },
    }
    if meta:
        record["meta"] = dict(meta)
    return record


def dumps_record(match: Match, meta: Mapping[str, Any] | None = None) -> str:
    """The record as JSON text, one hand per line block, readable in a diff.

    Lists of plain values (a seat's cards, the plays, a hand's points) stay on
    one line, so a finished match is a few hundred lines, not thousands.
    """
    return _dumps(write_record(match, meta), "") + "\n"


def _dumps(value: object, indent: str) -> str:
    inner = indent + " "
    if isinstance(value, Mapping) and value:
        items = [f"{inner}{json.dumps(k)}: {_dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, list | Mapping) for v in value):
        items = [inner + _dumps(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


def loads_record(text: str | bytes, seed: int | None = None) -> Match:
    """Parse JSON text and replay it (see :func:`read_record`)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RecordError(f"not JSON ({error})") from None
    return read_record(data, seed=seed)


def read_record(data: object, seed: int | None = None) -> Match:
    """Replay a record into a match at exactly the point the record ends.

    ``seed`` only matters for hands dealt after the record ends; without it
    they are dealt from a fresh random seed.
    """
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    if "format" not in data:
        raise RecordError(f"no format: not a {FORMAT} record")
    if data.get("format") != FORMAT:
        stated = _show(data.get("format"))
        raise RecordError(f'unknown format {stated} (expected "{FORMAT}")')
    try:
        rules = Rules.from_dict(data.get("rules", {}))
    except RulesError as error:
        raise RecordError(str(error), position="rules") from None
    except TypeError:
        raise RecordError("rules must be an object of known rules", position="rules") from None
    players = data.get("players", ["South", "West", "North", "East"])
    if (
        not isinstance(players, list)
        or len(players) != 4
        or not all(isinstance(name, str) for name in players)
    ):
        raise RecordError("players must be a list of four names", position="players")
    hands = data.get("hands")
    if not isinstance(hands, list) or not hands:
        raise RecordError("hands must be a non-empty list")
    if len(hands) > MAX_HANDS:
        raise RecordError(f"more than {MAX_HANDS} hands")
    meta = data.get("meta")
    if meta is not None and not isinstance(meta, Mapping):
        raise RecordError("meta must be an object", position="meta")

    match: Match | None = None
    for index, hand in enumerate(hands):
        number = index + 1
        if not isinstance(hand, Mapping):
            raise RecordError("a hand must be an object", number)
        deal = _read_deal(hand.get("deal"), number)
        if match is None:
            match = Match(rules, players, seed=seed, deal=deal)
        elif match.phase is Phase.MATCH_OVER:
            raise RecordError("cards after the match ended", number)
        elif match.phase is not Phase.HAND_OVER:
            raise RecordError("the hand is not finished but another hand follows", number - 1)
        else:
            match.next_hand(deal)
        _replay_hand(match, hand, number, is_last=number == len(hands))
    assert match is not None
    if "result" in data:
        _check_result(match, data["result"])
    return match


def check_record(data: object) -> str | None:
    """None when ``data`` is a valid record, else the reason it is not."""
    try:
        read_record(data, seed=0)
    except RecordError as error:
        return str(error)
    return None


def _read_deal(deal: object, number: int) -> tuple[int, int, int, int]:
    if not isinstance(deal, list) or len(deal) != 4:
        raise RecordError("deal must list the cards of four seats", number, "deal")
    masks = []
    seen = 0
    for seat, cards in enumerate(deal):
        where = f"deal of {SEAT_NAMES[seat]}"
        if not isinstance(cards, list):
            raise RecordError("must be a list of cards", number, where)
        mask = 0
        for text in cards:
            card = _read_card(text, number, where)
            if (seen | mask) >> card & 1:
                raise RecordError(f"{card_text(card)} is dealt twice", number, where)
            mask |= 1 << card
        if len(cards) != 13:
            raise RecordError(f"{len(cards)} cards dealt instead of 13", number, where)
        seen |= mask
        masks.append(mask)
    return masks[0], masks[1], masks[2], masks[3]


def _read_card(text: object, number: int, where: str) -> int:
    if not isinstance(text, str):
        raise RecordError(f"not a card: {_show(text)}", number, where)
    try:
        return parse_card(text)
    except ValueError:
        raise RecordError(f"not a card: {_show(text)}", number, where) from None


def _replay_hand(match: Match, hand: Mapping[str, Any], number: int, is_last: bool) -> None:
    passes = hand.get("pass")
    direction = match.pass_direction
    if direction is PassDirection.HOLD:
        if passes is not None:
            raise RecordError("there is no pass on a hold hand", number, "pass")
    elif passes is not None:
        if not isinstance(passes, list) or len(passes) != 4:
            raise RecordError("pass must list the cards of four seats", number, "pass")
        for seat, cards in enumerate(passes):
            where = f"pass of {SEAT_NAMES[seat]}"
            if cards is None:
                if not is_last:
                    raise RecordError("missing pass", number, where)
                continue
            if not isinstance(cards, list):
                raise RecordError("must be a list of three cards", number, where)
            chosen = [_read_card(text, number, where) for text in cards]
            try:
                match.confirm_pass(seat, chosen)
            except IllegalMove as error:
                raise RecordError(error.about(SEAT_NAMES[seat]), number, where) from None

    plays = hand.get("plays", [])
    if not isinstance(plays, list):
        raise RecordError("plays must be a list of cards", number, "plays")
    for index, text in enumerate(plays):
        where = f"play {index + 1}"
        card = _read_card(text, number, where)
        if match.phase is Phase.PASSING:
            raise RecordError("a card is played before the pass is finished", number, where)
        if match.phase is Phase.MATCH_OVER:
            raise RecordError("cards after the match ended", number, where)
        mover = match.turn
        try:
            match.play(card)
        except IllegalMove as error:
            who = SEAT_NAMES[mover] if mover is not None else "nobody"
            raise RecordError(error.about(who), number, where) from None

    choice = hand.get("moon_choice")
    if choice is not None:
        if match.rules.moon != "choice":
            raise RecordError('moon_choice is only used under the rule moon: "choice"', number)
        shooter = match.moon_shooter
        if match.phase is not Phase.MOON_CHOICE or shooter is None:
            raise RecordError("moon_choice is given but nobody shot the moon", number)
        try:
            match.choose_moon(shooter, choice)
        except IllegalMove as error:
            raise RecordError(str(error), number, "moon_choice") from None
    if not is_last and match.phase not in (Phase.HAND_OVER, Phase.MATCH_OVER):
        raise RecordError("the hand is not finished but another hand follows", number)


def _check_result(match: Match, result: object) -> None:
    if not isinstance(result, Mapping):
        raise RecordError("result must be an object", position="result")
    expected_points = [list(r.points) for r in match.results]
    if "hand_points" in result and not _same(result["hand_points"], expected_points):
        got = result["hand_points"]
        if not isinstance(got, list):
            raise RecordError("hand_points must be a list", position="result")
        for index, (stated, replayed) in enumerate(zip(got, expected_points, strict=False)):
            if not _same(stated, replayed):
                raise RecordError(
                    f"hand_points say {_show(stated)} but the replay gives {replayed}",
                    index + 1,
                    "result",
                )
        raise RecordError(
            f"hand_points list {len(got)} hands but {len(expected_points)} are finished",
            position="result",
        )
    if "totals" in result and not _same(result["totals"], list(match.totals)):
        raise RecordError(
            f"totals are {_show(result['totals'])} but the replay gives {list(match.totals)}",
            position="result",
        )
    if "winner" in result and not _same(result["winner"], match.winner):
        raise RecordError(
            f"winner is {_show(result['winner'])} but the replay gives {json.dumps(match.winner)}",
            position="result",
        )


def _same(stated: object, replayed: object) -> bool:
    """JSON equality: unlike ``==`` in Python, ``true`` is not ``1`` and ``1.0`` is not ``1``."""
    if isinstance(replayed, list):
        return (
            isinstance(stated, list)
            and len(stated) == len(replayed)
            and all(_same(a, b) for a, b in zip(stated, replayed, strict=True))
        )
    return type(stated) is type(replayed) and stated == replayed


def _show(value: object) -> str:
    """A short description of a value found where something else was expected."""
    if isinstance(value, list) and not all(v is None or isinstance(v, int) for v in value):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    if not (value is None or isinstance(value, bool | int | float | str | list)):
        return f"a {type(value).__name__}"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except ValueError:  # an int too long to print
        return "a number"
    return text if len(text) <= 40 else text[:37] + "..."
