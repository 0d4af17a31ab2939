"""A table: the match, its seats and its row.

Every intent goes the same way (:meth:`Table.change`): take the row's lock,
catch up with the row (another server process may have moved the table on),
check the intent, apply it through :mod:`hearts.match`, write the row and
commit; then send each seat its own view and let :mod:`.turns` schedule the
bots and timers.  A refused intent changes nothing: the match and the row
are restored.

A solo table is one person (South) against three bots.  A shared table
(``kind == "shared"``) has a seating phase, up to four people, spectators,
a grace period for people who lose their connection, and no take-backs
once two people play.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from hearts.bots import NothingToDecide
from hearts.cards import parse_card
from hearts.errors import IllegalMove, not_your_turn
from hearts.match import Match, Phase
from hearts.record import RecordWriter, read_record, write_record
from hearts.rules import SEATS, Rules
from hearts.server.coaching import review_in_background
from hearts.server.db import store
from hearts.server.db.session import Database
from hearts.server.db.store import MatchData, Sessions, now
from hearts.server.results import Outcome, outcome
from hearts.server.tables.bus import Bus, LocalBus
from hearts.server.tables.claim import can_claim, play_out
from hearts.server.tables.pacing import PACES
from hearts.server.tables.seats import (
    BOT_NAMES,
    SOLO_NAMES,
    Place,
    Seat,
    TableError,
    human,
    places_of,
    shared_seats,
    solo_seats,
)
from hearts.server.tables.state import table_json
from hearts.server.tables.turns import Turns
from hearts.server.workers import BotPool, CoachPool, Hints, HintsBusy
from hearts.view import SeatView

log = logging.getLogger(__name__)

Listener = Callable[[dict[str, Any]], None]
"""Takes a message for one socket without blocking (it queues it)."""


@dataclass
class Subscriber:
    """One socket following a table: whose it is, and whether it asked only to watch.

    It remembers no seat: what it is sent and what it may do are worked out
    from the seats as they are at that moment (:meth:`Table.position`).
    """

    token: str
    watch: bool = False


Mutation = Callable[[], object]


@dataclass(frozen=True)
class TableEnv:
    db: Database
    pool: BotPool
    """Where the computers think."""
    hints: Hints
    """Where hints are thought out: an executor of their own, bounded per player."""
    pace_scale: float
    grace_seconds: float = 60.0
    bus: Bus = field(default_factory=LocalBus)
    coach: CoachPool | None = None
    """Reviews each person's decisions as soon as a hand ends (None: only when asked)."""

    @property
    def sessions(self) -> Sessions:
        return self.db.sessions


def _hand_ended(before: Phase, after: Phase) -> bool:
    over = (Phase.HAND_OVER, Phase.MATCH_OVER)
    return before not in over and after in over


def _rebuild(data: MatchData) -> Match:
    """The match of a row: its record replayed, plus the unconfirmed pass selections."""
    match = read_record(data.record, seed=data.seed)
    match.rewound = data.used_undo
    for seat, texts in enumerate(data.pass_selections):
        if texts and match.phase is Phase.PASSING and match.current.passes[seat] is None:
            match.select_pass(seat, [parse_card(text) for text in texts])
    return match


class Table:
    """One match and the four seats playing it."""

    def __init__(self, data: MatchData, match: Match, env: TableEnv) -> None:
        self.data = data
        self.match = match
        self.env = env
        self.lock = asyncio.Lock()
        self.subscribers: dict[Listener, Subscriber] = {}
        """Every socket following this table, and whose it is."""
        self._present: set[int] = set()
        """The seats this process has told the bus it holds a connection for."""
        self.autoplaying = False
        """Test-only (HEARTS_TEST_AUTOPLAY): a bot plays the person's seat to the end."""
        self.seats: tuple[Seat, ...] = self._seats()
        self.turns = Turns(self)
        self.records = RecordWriter()
        self._coach_tasks: set[asyncio.Task[None]] = set()

    @classmethod
    def new(cls, token: str, level: str, pace: str, version: int, env: TableEnv) -> Table:
        """A solo match for ``token`` against three computers of ``level``."""
        match = Match(players=SOLO_NAMES)
        return cls(_new_data(match, token, level, pace, version), match, env)

    @classmethod
    def new_shared(
        cls, creator: str, creator_name: str, name: str, level: str, rules: Rules, env: TableEnv
    ) -> Table:
        """A shared table in its seating phase, the creator at South."""
        match = Match(players=BOT_NAMES, rules=rules)
        data = _new_data(match, creator, level, PACES[0], 1)
        data.status = "seating"
        data.kind = "shared"
        data.ranked = False
        data.name = name
        data.code = uuid.uuid4().hex[:8]
        places = [Place(creator, creator_name), Place(), Place(), Place()]
        data.seats = [place.to_json() for place in places]
        return cls(data, match, env)

    @classmethod
    def restore(cls, data: MatchData, env: TableEnv) -> Table:
        """Rebuild the table exactly from its row (after a restart, even a crash)."""
        if data.running_since is not None and data.kind == "solo":
            # The server stopped without stopping the clock: count up to its last commit.
            ran = data.updated_at - data.running_since
            data.elapsed_ms += max(0, int(ran.total_seconds() * 1000))
            data.running_since = None
        return cls(data, _rebuild(data), env)

    # --- what kind of table ---------------------------------------------------

    @property
    def version(self) -> int:
        return self.data.version

    @property
    def shared(self) -> bool:
        return self.data.kind == "shared"

    def places(self) -> list[Place]:
        return places_of(self.data.seats)

    def seat_of(self, token: str) -> int | None:
        """The seat of the person ``token`` at this shared table (None if not seated or gone)."""
        for seat, place in enumerate(self.places()):
            if place.token == token and not place.left:
                return seat
        return None

    def seat_for(self, token: str) -> int | None:
        """The seat ``token`` holds now: South for a solo table's owner, else :meth:`seat_of`."""
        if not self.shared:
            return 0 if token == self.data.owner_token else None
        return self.seat_of(token)

    def position(self, subscriber: Subscriber) -> tuple[int | None, str]:
        """The seat a socket sees (None: the public view) and its role, from the seats now."""
        seat = None if subscriber.watch else self.seat_for(subscriber.token)
        if seat is not None:
            return seat, "player"
        if self.data.status == "seating" and not subscriber.watch:
            return None, "visitor"
        return None, "spectator"

    def connected_seats(self) -> set[int]:
        """The seats whose person has a socket here now (watching sockets do not count)."""
        seats = (self.position(subscriber)[0] for subscriber in self.subscribers.values())
        return {seat for seat in seats if seat is not None}

    def spectators(self) -> int:
        roles = (self.position(subscriber)[1] for subscriber in self.subscribers.values())
        return sum(1 for role in roles if role == "spectator")

    def acting_seat(self, token: str) -> int:
        """The seat an intent of ``token`` acts for: the one they hold at this moment."""
        seat = self.seat_for(token)
        if seat is None:
            raise TableError(
                "not_seated", "You have no seat at this table now: you are watching it"
            )
        return seat

    def people(self) -> int:
        """How many people sit at the table (those who left for good do not count)."""
        if not self.shared:
            return 1
        return sum(1 for place in self.places() if place.person and not place.left)

    def take_backs_allowed(self) -> bool:
        """Undo, Restart hand and Pause: only while one person plays (against computers)."""
        return self.people() <= 1

    def _seats(self) -> tuple[Seat, ...]:
        if self.shared:
            seats = shared_seats(self.places(), self.data.level)
        else:
            seats = solo_seats(self.data.level)
        if self.autoplaying:
            seats = (replace(seats[0], bot_level="normal"), *seats[1:])
        return seats

    def result(self, seat: int = 0, *, abandoned: bool = False) -> Outcome:
        """What the match counts for ``seat`` now that it is over (or abandoned)."""
        data = self.data
        return outcome(self.match, seat, data.level, data.ranked, abandoned=abandoned)

    def has_decision(self, seat: int = 0) -> bool:
        """Whether ``seat`` has decided anything in this match (undone decisions do not count)."""
        match = self.match
        if match.hand_number > 1 or match.current.passes[seat] is not None:
            return True
        return any(player == seat for player, _ in match.view(seat).plays)

    # --- sockets, presence and the clock --------------------------------------

    async def subscribe(self, listener: Listener, token: str, *, watch: bool = False) -> None:
        """Send ``listener`` this table from now on: its player's seat's view, or a spectator's."""
        async with self.lock:
            self.subscribers[listener] = Subscriber(token, watch)
            if not self.shared and self._start_clock():
                await self._save_clock()
        await self.sync_presence()
        async with self.lock:
            subscriber = self.subscribers.get(listener)  # gone already if it closed meanwhile
            if subscriber is not None and self.shared and self.position(subscriber)[0] is None:
                self.broadcast()  # everyone sees the count of spectators change
            elif subscriber is not None:
                listener(self.state_for(subscriber))
            if not self.turns.busy():
                self.turns.schedule()  # a table restored after a restart picks up here
            self.turns.schedule_grace()

    async def unsubscribe(self, listener: Listener) -> None:
        async with self.lock:
            gone = self.subscribers.pop(listener, None)
            if gone is not None and self.shared and self.position(gone)[0] is None:
                self.broadcast()
            if not self.has_listeners() and self._stop_clock():
                await self._save_clock()
        await self.sync_presence()

    async def sync_presence(self) -> None:
        """Tell the bus which seats have a connection here, after sockets or seats changed.

        A person whose last connection (in any process) closed is marked away;
        one who comes back is marked here again, and takes the seat back from
        the bot.
        """
        if not self.shared:
            return
        now_here = self.connected_seats()
        arrived, departed = now_here - self._present, self._present - now_here
        self._present = now_here
        for seat in sorted(arrived):
            await self.env.bus.arrive(self.data.id, seat)
        for seat in sorted(departed):
            still_here = await self.env.bus.depart(self.data.id, seat)
            place = self.places()[seat]
            if not still_here and place.person and not place.left and place.away_since is None:
                await self._presence(seat, away_since=now().isoformat())
        for seat in sorted(arrived):
            if seat in self.connected_seats() and self._is_away(seat):
                await self._presence(seat, away_since=None, bot=False)

    async def _presence(self, seat: int, **changes: Any) -> None:
        with contextlib.suppress(TableError, LookupError):
            await self.change(None, lambda: self.set_place(seat, **changes), presence=True)

    def _is_away(self, seat: int) -> bool:
        place = self.places()[seat]
        return place.away_since is not None or place.bot

    def set_place(self, seat: int, **changes: Any) -> None:
        places = self.places()
        places[seat] = replace(places[seat], **changes)
        self.data.seats = [place.to_json() for place in places]

    def has_listeners(self) -> bool:
        return bool(self.subscribers)

    def elapsed_ms(self) -> int:
        running = self.data.running_since
        extra = 0 if running is None else int((now() - running).total_seconds() * 1000)
        return self.data.elapsed_ms + max(0, extra)

    def _start_clock(self) -> bool:
        data = self.data
        stopped = data.running_since is None and data.status == "active" and not data.paused
        if stopped and self.has_listeners():
            data.running_since = now()
            return True
        return False

    def _stop_clock(self) -> bool:
        if self.data.running_since is None:
            return False
        self.data.elapsed_ms = self.elapsed_ms()
        self.data.running_since = None
        return True

    async def _save_clock(self) -> None:
        data = self.data
        await self.env.db.run(store.save_clock, data.id, data.elapsed_ms, data.running_since)

    # --- seating (shared tables) ----------------------------------------------

    async def sit(self, token: str, name: str, seat: int, listener: Listener) -> None:
        """The person ``token`` sits at ``seat``; the socket that asked plays from now on."""

        def take_seat() -> None:
            self._check_seating()
            if self.seat_of(token) is not None:
                raise TableError("already_seated", "You already have a seat at this table")
            if self.places()[seat].person:
                raise TableError("seat_taken", "Someone sits there already: pick an empty seat")
            self.set_place(seat, token=token, name=name)
            subscriber = self.subscribers.get(listener)
            if subscriber is not None:
                subscriber.watch = False

        await self.change(None, take_seat, allow_seating=True)

    async def stand(self, token: str) -> None:
        def stand_up() -> None:
            self._check_seating()
            seat = self.seat_of(token)
            if seat is None:
                raise TableError("not_seated", "You have no seat at this table")
            if token == self.data.owner_token:
                raise TableError("not_allowed", "The table's creator keeps their seat")
            places = self.places()
            places[seat] = Place()
            self.data.seats = [place.to_json() for place in places]

        await self.change(None, stand_up, allow_seating=True)

    async def start(self, token: str) -> None:
        def start_match() -> None:
            self._check_seating()
            if token != self.data.owner_token:
                raise TableError("not_creator", "Only the table's creator can start the match")
            names = self.seats_names()
            match = Match(players=names, rules=self.match.rules)
            self.match = match
            self.data.seed = match.seed
            self.data.status = "active"

        await self.change(None, start_match, allow_seating=True)

    def seats_names(self) -> tuple[str, str, str, str]:
        names = [place.name or BOT_NAMES[seat] for seat, place in enumerate(self.places())]
        return names[0], names[1], names[2], names[3]

    def _check_seating(self) -> None:
        if self.data.status != "seating":
            raise TableError("not_now", "The match has already started")

    async def leave(self, token: str) -> None:
        """The person leaves for good: a bot keeps the seat until the end."""

        def go() -> None:
            seat = self.seat_of(token)
            if seat is None:
                raise TableError("not_seated", "You have no seat at this table")
            if self.data.status == "seating":
                raise TableError("not_now", "Before the start, stand up instead")
            self.set_place(seat, left=True, away_since=None, bot=True)
            if self.people() == 0 and self.data.status == "active":
                self._stop_clock()
                self.data.status = "abandoned"
                self.data.finished_at = now()

        await self.change(None, go, finished_too=True)

    # --- what a person may ask ------------------------------------------------

    async def select_pass(self, token: str, cards: list[int], version: int | None) -> None:
        def select() -> None:
            self.match.select_pass(self.acting_seat(token), cards)

        await self.change(version, select, while_paused=True)

    async def confirm_pass(self, token: str, cards: list[int], version: int | None) -> None:
        await self.change(version, lambda: self.match.confirm_pass(self.acting_seat(token), cards))

    async def continue_play(self, token: str, version: int | None) -> None:
        def go_on() -> None:
            self.acting_seat(token)
            if not self.data.awaiting_continue:
                raise TableError("not_now", "There is nothing to continue")
            self.data.awaiting_continue = False

        await self.change(version, go_on)

    async def play(self, token: str, card: int, version: int | None) -> None:
        def play_card() -> None:
            seat = self.acting_seat(token)
            self._check_not_awaiting()
            if self.match.phase is Phase.PLAYING and self.match.turn != seat:
                raise TableError("not_your_turn", human(str(not_your_turn())))
            self.match.play(card, seat)

        await self.change(version, play_card)

    async def choose_moon(self, token: str, style: str, version: int | None) -> None:
        def choose() -> None:
            seat = self.acting_seat(token)
            if self.match.phase is not Phase.MOON_CHOICE or self.match.turn != seat:
                raise TableError("not_now", "There is no moon to score now")
            self.match.choose_moon(seat, "subtract" if style == "subtract" else "add")

        await self.change(version, choose)

    async def undo(self, token: str, version: int | None) -> None:
        def undo_decision() -> None:
            seat = self.acting_seat(token)
            self._check_take_backs()
            self.match.undo(seat)
            self._rewound()

        await self.change(version, undo_decision)

    async def restart_hand(self, token: str, version: int | None) -> None:
        def restart() -> None:
            self.acting_seat(token)
            self._check_take_backs()
            self.match.restart_hand()
            self._rewound()

        await self.change(version, restart)

    async def claim(self, token: str, version: int | None) -> None:
        def finish() -> None:
            seat = self.acting_seat(token)
            self._check_not_awaiting()
            if not can_claim(self.match, seat):
                raise TableError(
                    "not_now",
                    "You can claim only when no points are left to win "
                    "or every remaining trick is certainly yours",
                )
            play_out(self.match)

        await self.change(version, finish)

    async def pause(self, token: str, version: int | None) -> None:
        def pause() -> None:
            self.acting_seat(token)
            self._check_take_backs()
            self.data.paused = True
            self._stop_clock()

        await self.change(version, pause, while_paused=True, when_same=lambda: self.data.paused)

    async def resume(self, token: str, version: int | None) -> None:
        def resume() -> None:
            self.acting_seat(token)
            self.data.paused = False
            self._start_clock()

        await self.change(
            version, resume, while_paused=True, when_same=lambda: not self.data.paused
        )

    async def set_pace(self, token: str, pace: str, version: int | None) -> None:
        def set_pace() -> None:
            self.acting_seat(token)
            if pace not in PACES:
                raise TableError("bad_message", "The pace is relaxed or quick")
            self.data.pace = pace

        await self.change(
            version,
            set_pace,
            while_paused=True,
            finished_too=True,
            when_same=lambda: self.data.pace == pace,
        )

    async def next_hand(self, token: str, version: int | None) -> None:
        def deal_next() -> None:
            self.acting_seat(token)
            self.match.next_hand()

        await self.change(version, deal_next)

    async def hint(self, token: str, version: int | None, accept_unranked: bool) -> list[str]:
        """The Expert's advice for the seat ``token`` holds now, whatever the computers' level.

        Advice this good is real help: in a ranked match the first hint must be
        accepted as making the match unranked (as Undo is), and does so.
        """

        def ask() -> SeatView:
            seat = self.acting_seat(token)
            self._check(version, while_paused=True, finished_too=False)
            if self.data.awaiting_continue:
                raise TableError("not_now", "There is nothing to suggest now: press Continue")
            return self.match.view(seat)

        async with self.lock:
            ask()
            needs_consent = self.data.ranked and not self.shared
        if needs_consent:
            if not accept_unranked:
                raise TableError(
                    "confirm_unranked", "A hint makes this match unranked: confirm to see one"
                )

            def hinted() -> None:
                ask()
                self.data.used_hint = True
                self.data.ranked = False

            await self.change(None, hinted, while_paused=True)
        async with self.lock:
            view = ask()
            key = (self.data.id, view)
        try:
            decision = await self.env.hints.hint(token, key, view)
        except HintsBusy as busy:
            raise TableError("busy", str(busy)) from None
        except NothingToDecide:
            raise TableError("not_now", "There is nothing to suggest now") from None
        return decision.texts()

    async def autoplay(self, seat: int) -> None:
        """Test-only: a Normal bot plays ``seat`` from now to the end of the match."""
        async with self.lock:
            self._check(None, while_paused=False, finished_too=False)
            self.autoplaying = True
            self.seats = self._seats()
            self.turns.schedule()

    # --- the one way to change the table --------------------------------------

    def _check(
        self,
        version: int | None,
        *,
        while_paused: bool,
        finished_too: bool,
        allow_seating: bool = False,
    ) -> None:
        data = self.data
        if version is not None and version != data.version and not self.shared:
            # At a shared table the engine's own checks (whose turn, which cards)
            # guard against double clicks; other people's moves must not make
            # a person's intent stale.
            raise TableError(
                "stale", "The table has changed since that was sent; nothing was changed"
            )
        if data.status == "seating" and not allow_seating:
            raise TableError("not_now", "The match has not started yet")
        if data.status not in ("active", "seating") and not finished_too:
            raise TableError("finished", "This match is over: start a new match")
        if data.paused and not while_paused:
            raise TableError("paused", "The game is paused: press Resume to play on")

    def _check_not_awaiting(self) -> None:
        if self.data.awaiting_continue:
            raise TableError("not_now", "Press Continue first")

    def _check_take_backs(self) -> None:
        if not self.take_backs_allowed():
            raise TableError("not_allowed", "No take-backs at a table with other people")

    def _rewound(self) -> None:
        self.data.used_undo = True
        self.data.ranked = False

    def _catch_up(self, row: MatchData) -> None:
        """Take the row's state when another process changed it since we last looked."""
        if row.version == self.data.version and row.updated_at == self.data.updated_at:
            return
        self.data = row
        self.match = _rebuild(row)
        self.seats = self._seats()

    async def refresh(self) -> None:
        """Another process changed this table: catch up and tell this process's sockets."""
        async with self.lock:
            row = await self.env.db.run(store.load_match, self.data.id)
            if row is None:
                return
            self._catch_up(row)
            self.turns.schedule(follower=True)
            self.turns.schedule_grace()
            self.broadcast()
        await self.sync_presence()  # seats may have changed hands in the other process

    async def change(
        self,
        version: int | None,
        mutate: Mutation,
        *,
        while_paused: bool = False,
        finished_too: bool = False,
        when_same: Callable[[], bool] | None = None,
        allow_seating: bool = False,
        presence: bool = False,
    ) -> None:
        """Lock the row, catch up, check, apply, commit; then tell every seat, let bots act.

        ``presence`` changes (who is connected) keep the version: they must not
        make anyone's intent or a bot's decision stale.
        """
        async with self.lock:
            backup: list[tuple[Match, MatchData]] = []

            def work(row: MatchData) -> tuple[MatchData, Outcome | None] | None:
                self._catch_up(row)
                self._check(
                    version,
                    while_paused=while_paused or presence,
                    finished_too=finished_too or presence,
                    allow_seating=allow_seating or presence,
                )
                if when_same is not None and when_same():
                    return None  # nothing to change (pause when paused): just say how it is
                backup.append((self.match.copy(), replace(self.data)))
                phase_before, status_before = self.match.phase, self.data.status
                try:
                    mutate()
                except IllegalMove as error:
                    raise TableError("illegal", human(str(error))) from None
                self.seats = self._seats()
                finished = self._settle(phase_before, status_before, bump=not presence)
                result = self.result() if finished and not self.shared else None
                return self.data, result

            try:
                await self.env.db.run(store.transact, self.data.id, work, self.data)
            except BaseException:
                if backup:
                    self.match, self.data = backup[0]
                    self.seats = self._seats()
                raise
            self.turns.schedule()  # first: the state tells when the next hand comes
            self.turns.schedule_grace()
            self.broadcast()
            if backup and _hand_ended(backup[0][0].phase, self.match.phase):
                self._review_hand()
        if backup:
            try:
                await self.env.bus.changed(self.data.id)
            except Exception:  # the change is committed: other processes catch up later
                log.exception("could not tell the other processes about table %s", self.data.id)
            if not presence:
                await self.sync_presence()  # seats may have changed hands

    def _review_hand(self) -> None:
        """The hand just ended: let the coach review each person's decisions in it."""
        coach = self.env.coach
        if coach is None:
            return
        hand = len(self.match.results)
        people = [(0, self.data.owner_token)]
        if self.shared:
            places = enumerate(self.places())
            people = [(s, p.token) for s, p in places if p.token is not None and not p.left]
        for seat, token in people:
            task = asyncio.create_task(
                review_in_background(
                    self.env.sessions, coach, token, self.data.id, self.data.record, seat, hand
                )
            )
            self._coach_tasks.add(task)
            task.add_done_callback(self._coach_tasks.discard)

    def _settle(self, phase_before: Phase, status_before: str, *, bump: bool = True) -> bool:
        """What follows from a change: the continue step, the end of the match, the row.

        True when this change finished the match.
        """
        data, match = self.data, self.match
        finished = False
        if phase_before is Phase.PASSING and match.phase is Phase.PLAYING and not self.shared:
            data.awaiting_continue = True  # show the received cards before anyone plays
        elif match.phase is not Phase.PLAYING:
            data.awaiting_continue = False
        if match.phase is Phase.MATCH_OVER and data.status == "active":
            self._stop_clock()
            data.status = "finished"
            data.finished_at = now()
            finished = True
        if data.status == "active" and status_before == "seating":
            data.running_since = None
            self._start_clock()
        data.pass_selections = [match.pass_selection(seat).texts() for seat in SEATS]
        data.record = self.records.write(match)
        if bump:
            data.version += 1
        data.updated_at = now()
        return finished

    def state_message(self, seat: int | None, role: str = "player") -> dict[str, Any]:
        return {
            "type": "state",
            "version": self.data.version,
            "table": table_json(self, seat, role),
        }

    def state_for(self, subscriber: Subscriber) -> dict[str, Any]:
        """What one socket is sent: the view of the seat its player holds now, or the public one."""
        seat, role = self.position(subscriber)
        return self.state_message(seat, role)

    def broadcast(self) -> None:
        """Send every socket its state, each worked out from the seats as they are now."""
        made: dict[tuple[int | None, str], dict[str, Any]] = {}
        for listener, subscriber in list(self.subscribers.items()):
            position = self.position(subscriber)
            message = made.get(position)
            if message is None:
                message = made[position] = self.state_message(*position)
            listener(message)

    def close(self) -> None:
        self.turns.close()


def _new_data(match: Match, token: str, level: str, pace: str, version: int) -> MatchData:
    moment = now()
    return MatchData(
        id=uuid.uuid4().hex,
        owner_token=token,
        level=level,
        status="active",
        record=write_record(match),
        seed=match.seed,
        pass_selections=[[], [], [], []],
        awaiting_continue=False,
        paused=False,
        pace=pace,
        elapsed_ms=0,
        running_since=None,
        used_undo=False,
        ranked=True,
        version=version,
        created_at=moment,
        updated_at=moment,
    )
