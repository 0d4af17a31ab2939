"""The ``hearts`` command: records, deals, bot suggestions, the coach, tournaments, benchmark."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from hearts import __version__
from hearts.arena import DEFAULT_WORKERS, make_entrants, parse_settings, run_arena
from hearts.arena_figures import ArenaError, ArenaResult
from hearts.bench import report, run_bench
from hearts.cards import SUIT_MASK, SUIT_SYMBOLS, SUITS, CardSet, card_symbol
from hearts.coach import DEFAULT_BUDGET, HandReview
from hearts.match import HandLog, HandResult, Match, Phase
from hearts.record import RecordError, dumps_record, loads_record
from hearts.rules import SEAT_NAMES, SEATS, PassDirection
from hearts.suggest import DEFAULT_LEVEL, DEFAULT_SEED, suggest_in_match
from hearts.variants import (
    CONTROL_CHECK,
    bot_fields,
    check_control,
    check_writable,
    load_control,
    save_run,
    source_digest,
    variant_changes,
)
from hearts.view import split_tricks

if TYPE_CHECKING:
    from hearts.bots.base import Bot
    from hearts.server.settings import Settings

MAX_RECORD_BYTES: Final = 16 * 1024 * 1024
"""A 1000-hand record is under 2 MB; anything much bigger is not a record."""

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
"""An invalid record, an unreadable or unwritable file."""


class UserError(Exception):
    """A problem to tell the user in one line, without a traceback."""


# --- commands ----------------------------------------------------------------


def record_check(args: argparse.Namespace) -> int:
    failed = False
    for path in args.files:
        try:
            load_match(path)
        except UserError as error:
            print(f"{path}: {error}")
            failed = True
        else:
            print(f"{path}: ok")
    return EXIT_FAILED if failed else EXIT_OK


def record_show(args: argparse.Namespace) -> int:
    try:
        match = load_match(args.file)
    except UserError as error:
        raise UserError(f"{args.file}: {error}") from None
    print("\n".join(describe_match(match)))
    return EXIT_OK


def deal(args: argparse.Namespace) -> int:
    text = dumps_record(Match(seed=args.seed))
    if args.output is None:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        with open(args.output, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        raise UserError(f"{args.output}: cannot write ({error.strerror or error})") from None
    return EXIT_OK


def bench(args: argparse.Namespace) -> int:
    if args.seconds <= 0:
        raise UserError("--seconds must be more than 0")
    if args.hands is not None and args.hands < 1:
        raise UserError("--hands must be at least 1")
    result = run_bench(seconds=args.seconds, hands=args.hands, seed=args.seed)
    print("\n".join(report(result)))
    return EXIT_OK if result.bad_hands == 0 else EXIT_FAILED


def suggest(args: argparse.Namespace) -> int:
    seat = seat_number(args.seat)
    try:
        match = load_match(args.file)
    except UserError as error:
        raise UserError(f"{args.file}: {error}") from None
    try:
        # NothingToDecide, NoSuchSeat and UnknownLevel are ValueErrors with a reason.
        print(" ".join(suggest_in_match(match, seat, args.level, args.seed)))
    except ValueError as error:
        raise UserError(str(error)) from None
    return EXIT_OK


def analyse(args: argparse.Namespace) -> int:
    from hearts.coach import DEFAULT_SEED, hands_to_review, review_hands

    seat = seat_number(args.seat)
    try:
        match = load_match(args.file)
    except UserError as error:
        raise UserError(f"{args.file}: {error}") from None
    try:
        numbers = hands_to_review(match, args.hand)
    except ValueError as error:
        raise UserError(str(error)) from None
    if not numbers:
        raise UserError("no hand is over yet: the coach looks at finished hands only")
    seed = DEFAULT_SEED if args.seed is None else args.seed
    for review in review_hands(match, seat, numbers, seed, DEFAULT_BUDGET):
        if args.json:
            for decision in review.decisions:
                print(json.dumps(decision.to_json()), flush=True)
        else:
            print("\n".join(describe_review(match, review)), flush=True)
    return EXIT_OK


def serve(args: argparse.Namespace) -> int:
    """Start the web game (the server's packages are imported only here)."""
    try:
        from hearts.server.security import DataFolderError, check_data_folder
        from hearts.server.serving import serve as serve_game
    except ImportError as error:
        raise UserError(
            f"the server is not installed ({error.name} is missing): pip install 'hearts[server]'"
        ) from None
    settings = server_settings(args)
    try:
        check_data_folder(settings)
        print(f"Hearts at http://{settings.host}:{settings.port}/ (database {settings.db_url})")
        serve_game(settings)
    except DataFolderError as error:
        raise UserError(str(error)) from None
    return EXIT_OK


def migrate(args: argparse.Namespace) -> int:
    """Bring the database's tables up to date, then stop (run once before starting servers)."""
    try:
        from hearts.server.db.session import make_engine, upgrade
    except ImportError as error:
        raise UserError(
            f"the server is not installed ({error.name} is missing): pip install 'hearts[server]'"
        ) from None
    settings = server_settings(args)
    engine = make_engine(settings.db_url)
    try:
        upgrade(engine)
    finally:
        engine.dispose()
    print(f"The database is up to date ({settings.db_url})")
    return EXIT_OK


def server_settings(args: argparse.Namespace) -> Settings:
    from hearts.server.settings import Settings

    data_dir = Path(args.data_dir) if args.data_dir is not None else None
    changes: dict[str, Any] = {"data_dir": data_dir}
    if hasattr(args, "port"):
        changes.update(host=args.host, port=args.port)
    return Settings.from_env().with_changes(**changes)


def seat_number(text: str) -> int:
    """A seat from its number (0-3) or its name (south, west, north, east)."""
    names = [name.lower() for name in SEAT_NAMES]
    cleaned = text.strip().lower()
    if cleaned in names:
        return names.index(cleaned)
    if cleaned in ("0", "1", "2", "3"):
        return int(cleaned)
    choices = ", ".join(f"{number} {name}" for number, name in enumerate(SEAT_NAMES))
    raise UserError(f"no seat {text!r} (the seats are {choices})")


def arena(args: argparse.Namespace) -> int:
    levels = [level.strip() for level in args.seats.split(",")]
    try:
        settings = parse_settings(args.settings)
        runs = [settings]
        if args.variant:
            changed = {level: dict(values) for level, values in settings.items()}
            for level, values in parse_settings(args.variant).items():
                changed.setdefault(level, {}).update(values)
            runs.append(changed)
        elif args.control or args.save_variant:
            raise ArenaError("--control and --save-variant go with --variant")
        if args.control and args.save:
            raise ArenaError("--control reads a saved control; --save writes one: not both")
        # Every run's bots are made (and their settings checked) before any plays.
        entrants = [make_entrants(levels, run) for run in runs]
        asked = {
            "seats": levels,
            "hands": args.hands,
            "seed": args.seed,
            "matches": args.matches,
            "settings": json.loads(json.dumps(settings)),
            "bots": bot_fields(entrants[0]),
            # The code as it is now, when play starts: it may be edited while a long run plays.
            "source": source_digest(),
        }
        saved = None
        if args.control:
            saved, code_changed = load_control(Path(args.control), asked)
            if code_changed:
                print(
                    f"note: the code has changed since {args.control} was saved; its first "
                    f"{CONTROL_CHECK} deal sets are played again to check it still plays the same",
                    file=sys.stderr,
                )
        for target in (args.save, args.save_variant):
            if target:
                check_writable(Path(target))  # before hours of play, not after

        def play(bots: list[Bot], deal_set_limit: int | None = None) -> ArenaResult:
            return run_arena(
                bots,
                hands=args.hands,
                seed=args.seed,
                matches=args.matches,
                workers=args.workers,
                progress=show_progress if sys.stderr.isatty() else None,
                deal_set_limit=deal_set_limit,
            )

        if saved is None:
            results = [play(bots) for bots in entrants]
        else:
            check_control(saved, play(entrants[0], CONTROL_CHECK))
            results = [saved, play(entrants[1])]
        changes = variant_changes(results[0], results[1]) if args.variant else ()
        if args.save:
            save_run(Path(args.save), results[0].to_saved(asked))
        if args.save_variant:
            # Saved as the run of the changed settings, so that it can be the control
            # of the next variant (given as --set).
            changed_run = asked | {
                "settings": json.loads(json.dumps(runs[1])),
                "bots": bot_fields(entrants[1]),
            }
            save_run(
                Path(args.save_variant),
                results[1].to_saved(changed_run),
            )
    except ArenaError as error:
        raise UserError(str(error)) from None
    except KeyboardInterrupt:
        raise UserError("interrupted") from None
    finally:
        if sys.stderr.isatty():
            print("\r\033[K", end="", file=sys.stderr, flush=True)
    if not args.variant:
        print("\n".join(results[0].table()))
        if args.json:
            print(results[0].json_line())
        return EXIT_OK
    for title, result in zip(("control", "variant"), results, strict=True):
        print(f"{title}:")
        print("\n".join(result.table()))
    for change in changes:
        print(change.line())
    if args.json:
        both = {
            "control": results[0].to_json(),
            "variant": results[1].to_json(),
            "changes": [change.to_json() for change in changes],
        }
        print(json.dumps(both))
    return EXIT_OK


def show_progress(done: int, asked: int) -> None:
    print(f"\r{done}/{asked} hands", end="", file=sys.stderr, flush=True)


# --- reading a record --------------------------------------------------------


def load_match(path: str) -> Match:
    """Read and replay the record in ``path``; a :class:`UserError` says why not."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise UserError(f"cannot read the file ({error.strerror or error})") from None
    if len(data) > MAX_RECORD_BYTES:
        raise UserError(f"file too large (a record is at most {MAX_RECORD_BYTES // 2**20} MB)")
    try:
        return loads_record(data, seed=0)
    except RecordError as error:
        raise UserError(str(error)) from None


# --- showing a match ---------------------------------------------------------


def describe_match(match: Match) -> list[str]:
    """The whole match as text: deals, passes, tricks, points and totals."""
    lines = [
        "Players: " + ", ".join(f"{SEAT_NAMES[s]} {match.players[s]}" for s in SEATS),
        f"Rules: {describe_rules(match)}",
    ]
    results = {result.number: result for result in match.results}
    totals = [0, 0, 0, 0]
    for log in match.hand_logs:
        lines.append("")
        result = results.get(log.number)
        lines += describe_hand(match, log, result)
        if result is not None:
            totals = [totals[s] + result.points[s] for s in SEATS]
            lines.append("  Totals: " + by_seat(totals))
    lines.append("")
    lines.append(describe_end(match))
    return lines


def describe_rules(match: Match) -> str:
    changes = match.rules.to_dict()
    if not changes:
        return "standard"
    return ", ".join(
        name.replace("_", " ") if value is True else f"{name.replace('_', ' ')} {value}"
        for name, value in changes.items()
    )


def describe_hand(match: Match, log: HandLog, result: HandResult | None) -> list[str]:
    direction = match.rules.pass_direction(log.number)
    heading = "no pass" if direction is PassDirection.HOLD else f"pass {direction.name.lower()}"
    lines = [f"Hand {log.number} ({heading})", "  Dealt:"]
    lines += [f"    {SEAT_NAMES[s]:<5}  {by_suit(log.deal[s])}" for s in SEATS]

    if direction is not PassDirection.HOLD:
        lines.append("  Passed:")
        for seat in SEATS:
            to = SEAT_NAMES[direction.receiver(seat)]
            passed = log.passes[seat]
            cards = "(not yet)" if passed is None else cards_text(passed)
            lines.append(f"    {SEAT_NAMES[seat]:<5} to {to:<5}  {cards}")

    if log.plays:
        lines.append("  Tricks (leader first):")
        for trick in split_tricks(log.plays, log.first_leader(direction), match.rules):
            cards = "  ".join(f"{SEAT_NAMES[s]:<5} {card_symbol(c):<3}" for s, c in trick.cards)
            if trick.winner is None:
                outcome = "(in progress)"
            else:
                outcome = f"won by {SEAT_NAMES[trick.winner]}, {plural(trick.points, 'point')}"
            lines.append(f"    {trick.number:>2}. {cards:<42}  {outcome}")

    if result is not None:
        lines.append("  Points: " + by_seat(result.points))
        if result.shooter is not None:
            style = result.moon_choice or match.rules.moon
            effect = "the others score" if style == "add" else "the shooter scores minus"
            moon = match.rules.moon_points
            lines.append(f"  {SEAT_NAMES[result.shooter]} shot the moon: {effect} {moon}")
    return lines


def describe_end(match: Match) -> str:
    if match.winner is not None:
        seat = match.winner
        return (
            f"Winner: {match.players[seat]} ({SEAT_NAMES[seat]}) "
            f"with {plural(match.totals[seat], 'point')}"
        )
    waiting = ", ".join(SEAT_NAMES[s] for s in match.waiting_for())
    now = {
        Phase.PASSING: f"waiting for the pass of {waiting}",
        Phase.PLAYING: f"{waiting} to play",
        Phase.MOON_CHOICE: f"{waiting} to choose how the moon scores",
        Phase.HAND_OVER: "the next hand is not dealt yet",
    }.get(match.phase, "")
    return f"In progress: hand {match.hand_number}, {now}"


def describe_review(match: Match, review: HandReview) -> list[str]:
    """One hand's decisions as a table: choice, best option, loss, verdict, the options' costs."""
    seat = review.seat
    average = review.average_loss
    summary = (
        "every play was forced"
        if average is None
        else f"accuracy {review.accuracy:.0f}, average loss {average:.2f} points per decision"
    )
    lines = [
        f"Hand {review.hand}, {SEAT_NAMES[seat]} ({match.players[seat]}): "
        f"{plural(review.points, 'point')}; {summary}",
        f"  {'decision':<9} {'made':<9} {'best':<9} {'loss':>12}  {'verdict':<11} "
        "expected cost of each option (points)",
    ]
    for decision in review.decisions:
        what: str = decision.kind
        if decision.trick is not None:
            what = f"trick {decision.trick}"
        made = " ".join(decision.made)
        if decision.forced:
            lines.append(f"  {what:<9} {made:<9} {'':<9} {'':>12}  {'forced':<11}")
            continue
        loss = (
            f"{decision.loss:.2f} ±{decision.noise:.2f}"
            if decision.noise
            else f"{decision.loss:.2f}"
        )
        options = "  ".join(
            f"{' '.join(option.choice)} {option.cost:+.1f}" for option in decision.options[:5]
        )
        if len(decision.options) > 5:
            options += f"  (+{len(decision.options) - 5} more)"
        best = " ".join(decision.best)
        lines.append(
            f"  {what:<9} {made:<9} {best:<9} {loss:>12}  {decision.verdict:<11} {options}"
        )
    return lines


def by_suit(mask: int) -> str:
    """``♣ 2 5 K  ♦ 3 10  ♠ -  ♥ A``: a holding sorted by suit."""
    parts = []
    for suit in SUITS:
        ranks = [card_symbol(c)[:-1] for c in CardSet(mask & SUIT_MASK[suit])]
        parts.append(f"{SUIT_SYMBOLS[suit]} {' '.join(ranks) or '-'}")
    return "  ".join(parts)


def cards_text(mask: int) -> str:
    return " ".join(card_symbol(c) for c in CardSet(mask))


def by_seat(values: Sequence[int]) -> str:
    return ", ".join(f"{SEAT_NAMES[s]} {values[s]}" for s in SEATS)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count in (1, -1) else f"{count} {word}s"


# --- the parser --------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hearts",
        description="Hearts: rules engine, game records, computer players.",
    )
    parser.add_argument("--version", action="version", version=f"hearts {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    record = commands.add_parser(
        "record", help="check or show game records (hearts-record/1)", description="Game records."
    )
    record_commands = record.add_subparsers(dest="record_command", metavar="ACTION", required=True)
    check = record_commands.add_parser(
        "check",
        help="replay records through the rules and report each one: ok or why not",
        description="Check game records. Exit status 0 only if every file is valid.",
    )
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(run=record_check)
    show = record_commands.add_parser(
        "show",
        help="print a match: deals, passes, tricks, points and the winner",
        description="Print a game record readably (finished or in progress).",
    )
    show.add_argument("file", metavar="FILE")
    show.set_defaults(run=record_show)

    deal_parser = commands.add_parser(
        "deal",
        help="write the record of a new match with its first hand dealt",
        description="Deal the first hand of a new match. The same seed gives the same deal.",
    )
    deal_parser.add_argument("--seed", type=int, required=True, help="the match's deal seed")
    deal_parser.add_argument("--output", "-o", metavar="FILE", help="write here, not to stdout")
    deal_parser.set_defaults(run=deal)

    bench_parser = commands.add_parser(
        "bench",
        help="measure random full hands per second on one core",
        description="Deal, pass, play and score random hands as fast as one core can.",
    )
    bench_parser.add_argument(
        "--seconds", type=float, default=5.0, help="how long to run (default 5)"
    )
    bench_parser.add_argument(
        "--hands", type=int, help="play exactly this many hands instead of timing"
    )
    bench_parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    bench_parser.set_defaults(run=bench)

    suggest_parser = commands.add_parser(
        "suggest",
        help="ask a bot for a seat's pass or play at the end of a record",
        description=(
            "Print what a bot would do for one seat at the end of a game record: three "
            "cards to pass, one card to play, or add/subtract for a moon under the house "
            "rule moon: choice. The bot sees only what that seat may see."
        ),
    )
    suggest_parser.add_argument("file", metavar="FILE", help="a hearts-record/1 file")
    suggest_parser.add_argument("--seat", required=True, help="0-3 or south, west, north, east")
    suggest_parser.add_argument(
        "--level", default=DEFAULT_LEVEL, help=f"the bot's level (default {DEFAULT_LEVEL})"
    )
    suggest_parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help=f"the bot's random seed (default {DEFAULT_SEED}: the same answer every time)",
    )
    suggest_parser.set_defaults(run=suggest)

    analyse_parser = commands.add_parser(
        "analyse",
        help="the coach: what each of a seat's decisions cost in the finished hands of a record",
        description=(
            "Review one seat's pass, plays and moon choice in the finished hands of a game "
            "record: every option's expected cost in points, judged only from what that seat "
            "knew at that moment, the best option, the loss and a verdict (fine, inaccuracy, "
            "mistake, blunder). See docs/coach.md."
        ),
    )
    analyse_parser.add_argument("file", metavar="FILE", help="a hearts-record/1 file")
    analyse_parser.add_argument(
        "--seat", default="0", help="0-3 or south, west, north, east (default 0, South)"
    )
    analyse_parser.add_argument(
        "--hand", type=int, default=None, help="one hand, from 1 (default: every finished hand)"
    )
    analyse_parser.add_argument(
        "--json", action="store_true", help="one JSON object per decision, one per line"
    )
    analyse_parser.add_argument(
        "--seed", type=int, default=None, help="the sampling seed (default 0: the same answer)"
    )
    analyse_parser.set_defaults(run=analyse)

    arena_parser = commands.add_parser(
        "arena",
        help="duplicate-deal tournament between four bots",
        description=(
            "Play bots against each other on the same cards, each deal in four seat "
            "rotations, and print per level: points per hand with a 95% confidence "
            "interval, match win rate, moons shot and stopped, decision times. "
            "See docs/strength.md."
        ),
    )
    arena_parser.add_argument(
        "--seats",
        required=True,
        help="four levels, comma-separated, e.g. expert,normal,normal,normal",
    )
    arena_parser.add_argument(
        "--hands", type=int, default=400, help="hands to play in all (default 400)"
    )
    arena_parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    arena_parser.add_argument(
        "--matches",
        action="store_true",
        help="play whole matches until at least --hands hands, and count match wins",
    )
    arena_parser.add_argument(
        "--json", action="store_true", help="also print the figures as one JSON line, last"
    )
    arena_parser.add_argument(
        "--workers",
        type=int,
        default=DEFAULT_WORKERS,
        help=f"processes to play in (default {DEFAULT_WORKERS}); the result does not depend on it",
    )
    arena_parser.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="LEVEL.NAME=VALUE",
        help="change a level's setting, e.g. expert.samples=20 (repeatable)",
    )
    arena_parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="LEVEL.NAME=VALUE",
        help=(
            "also play the same deals with this setting changed (repeatable), and print "
            "how it moved the first level's difference from the others, paired deal set "
            "by deal set"
        ),
    )
    arena_parser.add_argument(
        "--save",
        metavar="FILE",
        help=(
            "write the run as given (the control, with --variant) to FILE, for a later --control"
        ),
    )
    arena_parser.add_argument(
        "--save-variant",
        metavar="FILE",
        help=(
            "with --variant: write the variant's run to FILE, for a later --control with the "
            "variant's settings given as --set"
        ),
    )
    arena_parser.add_argument(
        "--control",
        metavar="FILE",
        help=(
            "with --variant: read the control from FILE (saved by --save: the same seats, "
            "hands and seed, and bots set the same) instead of playing it; its first "
            f"{CONTROL_CHECK} deal sets are played again, and it is refused if they score "
            "differently now"
        ),
    )
    arena_parser.set_defaults(run=arena)

    serve_parser = commands.add_parser(
        "serve",
        help="play in the browser: start the web server",
        description=(
            "Start the web game. Settings come from the environment (DATABASE_URL, "
            "HEARTS_DATA_DIR, HEARTS_BOT_WORKERS, ...); these options override them."
        ),
    )
    serve_parser.add_argument("--host", help="the address to listen on (default 127.0.0.1)")
    serve_parser.add_argument("--port", type=int, help="the port (default 8000)")
    serve_parser.add_argument(
        "--data-dir", help="where the SQLite database is kept (default ./data)"
    )
    serve_parser.set_defaults(run=serve)

    migrate_parser = commands.add_parser(
        "migrate",
        help="bring the database's tables up to date",
        description=(
            "Run the database migrations once and stop (DATABASE_URL or --data-dir say "
            "which database). hearts serve runs them too; with several servers, run this "
            "once before starting or upgrading them."
        ),
    )
    migrate_parser.add_argument(
        "--data-dir", help="where the SQLite database is kept (default ./data)"
    )
    migrate_parser.set_defaults(run=migrate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return EXIT_OK
    try:
        return run(args)
    except UserError as error:
        print(f"hearts: {error}", file=sys.stderr)
        return EXIT_FAILED
    except BrokenPipeError:
        # The reader (``| head``) went away: no traceback, and none at exit either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
