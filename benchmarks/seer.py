"""What knowing every card is worth to the Expert's search.

A *seer* is today's Expert, every setting as it is, except that each deal it
would sample of the hidden cards is the true one: for a play, the other
seats' actual holdings; for the pass, the deal as dealt (the other seats'
passes are still guessed by rule of thumb, as the Expert guesses them).
Everything else is the Expert's own search: the same moon suspicion, the
same playouts, the same 150 deals for a play (all of them the one true
deal).  The seer plays them all (``pool=0``): drawn from a pool in
proportion to their weights, the same deal would be kept once, and a
suspected shooter, played as shooting in a share of the deals, would be
played as shooting in all of them or none.
It plays one seat against three ``expert-2026-11`` on the arena's duplicate
deals (the same deal sets, rotations and decision seeds as ``hearts arena``),
so it pairs, deal set by deal set, with a saved control of the same seed.

Better inference (a sharper likelihood, a learned model of the opponents'
plays) moves the Expert's deals towards the true one; the seer is that
taken to the end, every card located exactly, and the rest of the model,
the playouts, left as it is.  On seed 114 it played a point per hand worse
than the Expert (``docs/strength.md``, "The twenty-first session").

This is a benchmark only, and it cheats by construction: it reads the
match's holdings through the arena, which no bot can.  The levels, the game
and the coach never use it.

Example::

    python benchmarks/seer.py --hands 1000 --seed 114 \\
        --control benchmarks/controls/moonlookahead1-seed114.json \\
        --save /tmp/arena/seer-114.json
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hearts import arena
from hearts.arena import make_entrants, parse_settings, run_arena
from hearts.arena_figures import ArenaResult
from hearts.bots import expert, passing
from hearts.bots.knowledge import Knowledge
from hearts.match import Match
from hearts.variants import bot_fields, save_run, variant_changes

SEATS = ["expert", "expert-2026-11", "expert-2026-11", "expert-2026-11"]
SETTINGS = {"expert": {"pool": 0}}
"""Every deal played out, not drawn from a pool (see above)."""


class SeenMatch(Match):
    """A match that remembers the last one asked for a seat's view: the one being played."""

    playing: Match | None = None

    def view(self, seat: int) -> Any:
        SeenMatch.playing = self
        return super().view(seat)


def _playing() -> Match:
    match = SeenMatch.playing
    if match is None:
        raise RuntimeError("no match is being played")
    return match


def true_holdings(knowledge: Knowledge, rng: random.Random, tries: int = 40) -> list[int]:
    """The seats' holdings now, as :func:`hearts.bots.knowledge.sample_hidden` would deal them."""
    state = _playing().play_state
    if state is None:
        raise RuntimeError("a play asked for outside the play")
    if state.hands[knowledge.seat] != knowledge.may_hold[knowledge.seat]:
        raise RuntimeError("the seer's own hand is not the one it is playing")
    return list(state.hands)


def true_deal(seat: int, hand: int, unseen: int, rng: random.Random) -> list[int]:
    """The deal before the pass, as :func:`hearts.bots.passing.deal_others` would deal it."""
    deal = list(_playing().current.deal)
    if deal[seat] != hand:
        raise RuntimeError("the seer's own hand is not the one it is passing")
    return deal


def see(patch: Callable[[object, str, object], None] = setattr) -> None:
    """Give the Expert (and only it: ``expert-2026-11`` has its own sampler) the true deals;
    ``patch`` sets each module attribute (a test passes its own, to undo it after)."""
    patches = (
        (arena, "Match", SeenMatch),
        (expert, "sample_hidden", true_holdings),
        (passing, "deal_others", true_deal),
    )
    for module, name, value in patches:
        patch(module, name, value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--control", help="a saved run of the Expert on the same seed and hands")
    parser.add_argument("--save", help="write the seer's run here, as hearts arena --save would")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one more of the seer's Expert settings, e.g. model_replies=3 (repeatable)",
    )
    args = parser.parse_args()
    extra = parse_settings(f"expert.{item}" for item in args.set).get("expert", {})
    settings = {"expert": {**SETTINGS["expert"], **extra}}
    see()
    entrants = make_entrants(SEATS, settings)
    started = time.process_time()
    result = run_arena(entrants, hands=args.hands, seed=args.seed, workers=1)
    cpu = time.process_time() - started
    print("\n".join(result.table()))
    print(f"{cpu:.0f} s of CPU")
    run = {
        "seats": SEATS,
        "hands": args.hands,
        "seed": args.seed,
        "matches": False,
        "settings": settings,
        "bots": bot_fields(entrants),
        "seer": True,
    }
    if args.save:
        save_run(Path(args.save), result.to_saved(run))
    if args.control:
        control, _ = ArenaResult.from_saved(json.loads(Path(args.control).read_text("utf-8")))
        for change in variant_changes(control, result):
            print(f"the seer as the variant, the Expert as the control: {change.line()}")


if __name__ == "__main__":
    main()
