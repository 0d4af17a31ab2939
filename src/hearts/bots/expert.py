"""Expert: search over the hidden cards, from what its seat knows and nothing else.

For a play, the Expert

1. infers what it can from its view (:mod:`hearts.bots.knowledge`): the
   unseen cards, who is void in what, where the cards it passed are;
2. deals the unseen cards many times (800) consistent with all of it,
   weighs each deal by how likely the opponents' actual plays were in it
   (under a noisy version of the playout policy), and draws 150 of them in
   proportion to those weights;
3. plays every legal card in every drawn deal and finishes the hand with
   the fast playout policy (:mod:`hearts.bots.policy`), once with itself
   avoiding points and, while nobody else has taken a penalty card, once
   trying to take them all (the moon); a seat trying for the moon in a
   playout goes back to avoiding points as soon as another seat wins a
   penalty card, as a player would (``give_up``, December 2026);
4. scores each finish for the match, not just the hand: points given to the
   opponent who most threatens its win count for more, and a finish that
   ends the match counts as a win or a loss;
5. picks the card with the lowest weighted cost.

Step 2 is what the Expert of December 2026 gained its points by: the
November Expert played out 100 deals weighted by the likelihood, and from
the second trick on those weights were worth a median of only 8 to 22 equal
deals.
Weighing is cheap and playing out is not, so now many deals are weighed
and only likely ones are played out (``docs/strength.md``).

The search can run in rounds of deals: after each round, the cards whose
cost is clearly worse than the best one's (by more than ``close`` standard
errors of the difference, measured on the same deals) are dropped, and only
the rest are played out in the next round's deals, up to ``rounds`` rounds
(default one; three for the pass since the sixth session).  Equivalent
cards (touching cards of a suit worth the same points) are scored once.
The budget is a number of deals, never a time, unless ``time_limit`` is
set.

An opponent who has taken every penalty card so far is assumed, in part of
the deals, to be shooting (from its first point, in the share of deals
:data:`~hearts.bots.moon.MOON_TABLE` gives), so the search sees the moon
coming and spends a heart to stop it (:mod:`hearts.bots.moon`).

For the pass it shortlists sets of dangerous cards (the rule of thumb's
three and its near variants, every three of the six most dangerous cards,
the sets that empty a short suit, the three lowest for a moon) and plays
whole sampled hands with each (160 deals, then 160 more for the sets still
close to the best, twice), the other seats passing by the same rules of
thumb (:mod:`hearts.bots.passing`).  Plays and passes are scored for the match by
:class:`~hearts.bots.matchcost.MatchCost`, as the coach scores them.

The Expert of November 2026 is kept unchanged as the level
``expert-2026-11`` (:mod:`hearts.bots.expert_2026_11`), the yardstick for
any change here (``docs/strength.md``).
"""

from __future__ import annotations

import functools
import itertools
import random
import time
from dataclasses import dataclass

from hearts.bots import endgame, moon, passing, playmodel, policy
from hearts.bots.base import Bot
from hearts.bots.equivalence import distinct_cards
from hearts.bots.finish import Finisher, Fork, consistent_rows
from hearts.bots.knowledge import Knowledge, sample_hidden, state_template
from hearts.bots.likelihood import Evidence
from hearts.bots.matchcost import MatchCost
from hearts.bots.search import TIE_MARGIN, Search, Weighed, resample
from hearts.cards import Card
from hearts.hand import HandState
from hearts.view import SeatView


@dataclass(frozen=True)
class ExpertBot(Bot):
    """Search-based player; its budget is a number of sampled deals (or a time limit).

    For a play it deals ``pool`` deals of the hidden cards, weighs each by how
    likely the opponents' plays so far were in it, and draws ``samples`` of
    them in proportion to those weights: the cards are played out in those
    (each distinct deal once, weighted by how often it was drawn).  Weighing
    is much cheaper than playing out, so this keeps the evidence of the
    likely deals without spending playouts on deals the plays have all but
    ruled out.  For the pass it plays out ``pass_samples`` deals per candidate.

    The search can run in rounds: after each, only the candidates still close
    to the best get more deals, up to ``rounds`` rounds (``pass_rounds`` for
    the pass); the defaults are one round for a play and three for the pass,
    as measured in ``docs/strength.md``, which also gives what every setting
    below gained.
    """

    samples: int = 150
    """Deals played out per round of a play decision (the first round scores every card)."""
    pool: int = 800
    """Deals weighed by the likelihood before ``samples`` of them are drawn in proportion to
    their weights; 0 (or no more than ``samples``): play out every deal dealt, weighted."""
    rounds: int = 1
    """The most rounds of a play decision: at most ``samples * rounds`` deals."""
    pass_samples: int = 160
    """Deals sampled per round of a pass decision."""
    pass_rounds: int = 3
    """The most rounds of a pass decision: at most ``pass_samples * pass_rounds`` deals."""
    close: float = 2.0
    """A candidate stays in the search while its cost is within this many standard errors of the
    best one's (the difference is measured on the same deals)."""
    time_limit: float | None = None
    """If set, stop sampling once this many seconds have passed (results then depend on speed)."""
    moon_suspicion: float = 0.5
    """With ``moon_table`` off: the share of deals in which an opponent holding every penalty
    card so far is shooting..."""
    suspicion_points: int = 8
    """...once it holds this many points."""
    give_up: bool = True
    """In the playouts, a seat shooting the moon goes back to avoiding points once another
    seat has won a penalty card (:func:`hearts.bots.policy.playout`); False: it goes on
    taking every trick it can, as before December 2026."""
    seize: int = 0
    """In the playouts, a seat avoiding points that has won every penalty card so far, this
    many points' worth (10 or more), starts shooting (0: never; see ``give_up``)."""
    moon_table: bool = True
    """Instead of ``moon_suspicion`` and ``suspicion_points``: suspect an opponent holding every
    penalty card won so far from the first point, in the share of deals
    :data:`~hearts.bots.moon.MOON_TABLE` gives for its points and the tricks played (how often
    ``expert-2026-11`` players went on to shoot)."""
    moon_by_weight: bool = False
    """A suspected shooter is played as shooting in the deals of the first round that come
    first by their share of the drawn weight, so that it shoots in the share of the weight
    the table gives (:func:`~hearts.bots.moon.moon_places`); False: in the deals that come
    first by their place among ``samples``, which gives it more, as deals drawn more than
    once are played once (``benchmarks/moon_share.py``: 56% of the weight where the table
    means 40%)."""
    moon_evidence: int = 0
    """1: a suspected shooter is played as shooting in the deals whose plays so far fit a
    moon best (:meth:`~hearts.bots.likelihood.Evidence.shoot_odds`), in every round, taking
    the deals in that order until they hold its share of the round's weight
    (:func:`~hearts.bots.moon.moon_places`); -1: in those that fit one worst, first; 0: by
    place, as ``moon_by_weight`` says.  Either way the suspect shoots in the share the table
    gives, so ``moon_scale=1.4`` keeps today's."""
    moon_fit: float = 0.0
    """Above 0: a suspected shooter is played as shooting in the deals of a round where its
    moon comes off (it takes every penalty card shooting from here, the other seats avoiding
    points: :func:`~hearts.bots.moon.moon_hands`) and avoiding points in the others, and the
    deals are weighed again so that those where it comes off hold the table's share of the
    weight (:func:`~hearts.bots.moon.fit_moon`), at most ``moon_fit`` times the share they
    were drawn with.  The table gives how often such a suspect went on to shoot; by place
    (0, the default), the suspect shoots in that share of the deals, but its moon comes off
    in under half of them (``docs/strength.md``, the thirty-fourth session).  Where it comes
    off in none of the round's deals, or in all of them, the deals are placed as by 0.
    Measured over four seeds in the thirty-fifth session, it did not pay: it stays off."""
    moon_scale: float = 1.0
    """With ``moon_table``: the table's shares are multiplied by this (capped at 1); below 1,
    a suspect is played as shooting in fewer deals than it went on to shoot."""
    playout_noise: float = 0.0
    """In the playouts, how often each other seat plays a legal card at random instead of
    the policy's (the same random draws for every candidate in a deal); 0: never."""
    play_noise: float = 0.5
    """How often, in the likelihood model, an opponent plays other than the policy would..."""
    noise_per_card: float = 0.0
    """...plus this much per legal card it had (capped at 0.95): the more choice, the less
    the policy predicts a strong player."""
    lead_noise: float | None = None
    """``play_noise`` for a lead (None: the same as for any play)."""
    discard_noise: float | None = None
    """``play_noise`` for a discard, when the player cannot follow (None: the same)."""
    play_model: bool = False
    """In the likelihood, instead of the noisy policy (``play_noise`` and its kin): each
    opponent plays each legal card with the chance the learned model
    (:mod:`hearts.bots.playmodel`) gives it, mixed with a uniform chance of ``model_floor``."""
    model_floor: float = 0.3
    """With ``play_model``: the share of a uniform chance over the legal cards, so that a play
    the model finds unlikely never rules a deal out."""
    pass_noise: float | None = None
    """On a pass across, how often, in the likelihood model, the player across passed other
    than one of the Expert's own candidate sets for its hand (None: the pass is not weighed).
    Left and right, the cards the passer had received are unknown, so it is not weighed."""
    min_effective: float = 0.0
    """Keep sampling deals (all the cards still in the search) while the deals' weights are
    worth fewer than this many equal deals (Kish's effective sample size)..."""
    max_samples: int = 0
    """...up to this many deals in all (0: no extra deals)."""
    shoot_check: bool = False
    """In each deal, an opponent who could still take every penalty card and would take
    them all in a playout of its own shooting (the other seats avoiding points) shoots in
    that deal's playouts: a player who holds a moon hand goes for it."""
    pass_shoot_check: bool = False
    """``shoot_check`` for the pass, for the seat we pass to: after each candidate exchange,
    in each deal, it shoots if it would take every penalty card shooting from the start."""
    endgame: int = 0
    """With at most this many cards left in our hand, each card is scored in each deal by
    playing the rest of the hand exactly, every seat for itself and every holding known
    (:mod:`hearts.bots.endgame`), instead of by the playouts; 0: never.  Three tricks cost a
    few milliseconds a deal at most; four, up to a tenth of a second."""
    pass_tell: bool = False
    """Suspect the seat that passed us three low cards (none above
    :data:`~hearts.bots.moon.TELL_RANK`) of going for the moon, in the share of deals
    :data:`~hearts.bots.moon.TELL_TABLE` gives, from the first trick and for as long as it could
    still take every penalty card: a hand going for the moon passes its low cards."""
    pass_wide: bool = True
    """Pass candidates: besides :func:`~hearts.bots.policy.pass_candidates`' sets, every set of
    three of the six most dangerous cards and the sets that empty a short suit
    (:func:`~hearts.bots.policy.wide_pass_candidates`); the default since December 2026
    (nine fresh seeds, ``docs/strength.md``).  False: only the usual sets."""
    pass_moon: bool = False
    """Pass candidates: also the sets of :func:`~hearts.bots.policy.moon_pass_candidates`, made
    for a hand going for the moon (its lowest cards, its lowest hearts, a short suit of low
    cards emptied); False: not those.  More moons, no gain established (three seeds,
    ``docs/strength.md``)."""
    spread_passes: bool = False
    """In the pass search's deals, each other seat passes one of
    :func:`~hearts.bots.policy.pass_candidates`' sets drawn with
    :data:`~hearts.bots.policy.PASS_SHARES` (how ``expert-2026-11`` passes: its three most
    dangerous cards only one time in seven); False: always those three cards."""
    lookahead: int = 0
    """In each deal's playouts of a play decision, our own next ``lookahead`` choices are made by
    trying every distinct legal card, each finished by the policy, and keeping the cheapest
    (our later choices see the deal, as the card being scored does); 0: the policy plays our
    cards too.  One costs several times the playouts; the pass is not affected."""
    moon_lookahead: int = 1
    """``lookahead`` in the deals only where an opponent is played as shooting the moon (the
    suspect of :func:`~hearts.bots.moon.suspicion`, in its share of the deals, or one that
    ``shoot_prior`` or ``shoot_check`` finds): our next choices there find the card that
    stops the moon; elsewhere the policy plays them (unless ``lookahead`` is set too).
    0: never (the default until December 2026)."""
    shoot_lookahead: int = 0
    """``lookahead`` for our own shooting: where we may still shoot the moon, our next choices
    in each deal's playouts of our shooting are the cheapest of our distinct cards there,
    and the policy plays them when we avoid points (unless ``lookahead`` is set); 0: the
    policy shoots for us."""
    consistent: int = 0
    """In each deal's playouts of a play decision, avoiding points, our next card is chosen once
    for every group of deals that look the same to us at that point (the cards played, who
    won what, the trick on the table) and hold at least this many of the deals drawn: the card
    of least weighted cost over the group, each card finished by the policy; in a smaller
    group the policy plays it.  Unlike ``lookahead``, the choice cannot depend on cards we
    would not see.  0: off (the policy plays our cards, but where a lookahead is set).  At 3
    it moved the Expert by −0.114 over ten seeds and −0.052 over the four on today's default,
    nothing established (``docs/strength.md``, the eighteenth and thirtieth sessions)."""
    replies: bool = False
    """In each deal's playouts of a play decision, each opponent's next choice is made by trying
    every distinct legal card of its own, each finished by the policy, and keeping the one that
    leaves it best off in that deal (its points less the others' average; a moon counts); False:
    the policy plays the opponents' cards.  It costs about one more playout per card each
    opponent could play; the pass is not affected."""
    model_replies: int = 0
    """In each deal's playouts of a play decision, up to this many of the opponents' next cards
    with a choice (those before our own next card) are drawn from the learned play model's
    chances (:mod:`hearts.bots.playmodel`) instead of played by the policy, the random draws
    the same for every card scored in the deal: a deal's finish then meets the spread of
    plays a strong player makes, not one rule's card; 0: the policy plays them."""
    tie_margin: float = TIE_MARGIN
    """For a play, how many points a card must cost less than the policy's card (or than the
    best of the cards listed before it) to be chosen instead: the rule of thumb's card is the
    safer of near-equals, the playouts being only a model of how the hand goes on."""
    moon_alert: int = 0
    """In the playouts of a deal where an opponent is played as shooting the moon, 1: our own
    later cards (the policy's) try to stop it from the shooter's first point, as we would
    knowing it, where the policy waits for 10 points; 2: every seat avoiding points does;
    0: none does."""
    sharp: bool = False
    """In the playouts (of plays and passes), our own seat plays by
    :func:`~hearts.bots.policy.choose_sharp`, a policy that takes about a point per hand
    fewer than :func:`~hearts.bots.policy.choose`, which still plays the opponents (it models
    how they play better); the policy's card a play's search prefers is the sharper one's too.
    False: every seat plays by :func:`~hearts.bots.policy.choose`."""
    shoot_bias: float = 0.0
    """Points added to what shooting the moon costs us in a play's search (the best mode of
    a card is then shooting only if it beats avoiding points by more than this): the
    playouts flatter our moons (``benchmarks/moon_calibration.py``); 0: no handicap."""
    late_shoot_bias: float = 0.0
    """Points added to ``shoot_bias`` once a trick has been played: the search's moons tried
    after the first trick came off 3 times in 43, where those tried in it came off 9 times
    in 26 (``docs/strength.md``, the twenty-sixth session); 0: no extra handicap.  At 10 it
    cost the Expert a tenth of its moons and gained nothing (four seeds, the twenty-ninth
    session)."""
    pass_shoot_bias: float = 0.0
    """``shoot_bias`` for the pass search's moon."""
    shoot_prior: float = 0.0
    """Prior chance that an opponent who can still take every penalty card is going for the
    moon; in each deal, an opponent whose plays so far are better explained by shooting
    (under this prior) shoots in the playouts.  0: off."""

    @property
    def level(self) -> str:
        return "expert"

    # --- playing -------------------------------------------------------------

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        return self.weigh_plays(view, rng).chosen

    def weigh_plays(self, view: SeatView, rng: random.Random) -> Weighed[Card]:
        """The play search's candidates (one of each group of equivalent cards), their costs
        and the card chosen; a card with no choice to make has cost 0."""
        started = time.perf_counter()
        seat = view.seat
        knowledge = Knowledge.from_view(view)
        first = sample_hidden(knowledge, rng)
        if first is None:
            card = policy.choose(_fallback_state(view), view.legal.mask, policy.AVOID)
            return Weighed((card,), (0.0,), card)
        template = state_template(view, first)
        # The policy's own card goes first and keeps its place unless another
        # card is clearly better: many cards tie in the playouts (the policy
        # would shed the queen later anyway), and the rule of thumb is the
        # safer of equals.
        preferred = self.finisher.choose(
            template, view.legal.mask, policy.AVOID, policy.moon_threat(template), seat
        )
        cards = distinct_cards(view, preferred)
        if len(cards) == 1:
            return Weighed((cards[0],), (0.0,), cards[0])
        scorer = MatchCost.for_view(view)
        shooter_suspect, suspicion = self.suspicion(view)
        my_modes = [policy.AVOID]
        if moon.may_shoot(view):
            my_modes.append(policy.SHOOT)
        search = Search(len(cards), len(my_modes), self.tie_margin, (0.0, self._shoot_bias(view)))
        solving = view.hand.mask.bit_count() <= self.endgame
        replies = 0b1111 ^ (1 << seat) if self.replies else 0  # a mask of the opponents
        evidence = self.evidence(view, first)
        memo: playmodel.Memo = {}  # the play model's scores, by position
        pending: list[int] | None = first
        done = 0
        for round_number in itertools.count():
            if round_number >= self.rounds and not (
                done < self.max_samples and search.effective() < self.min_effective
            ):
                break
            batch = self.samples
            worlds: list[list[int]] = []
            weights: list[float] = []
            shooters: list[int] = []
            drawn = max(batch, self.pool)
            failures = 0
            for _ in range(drawn):
                if self._out_of_time(started) and (worlds or done):
                    break
                world = pending if pending is not None else sample_hidden(knowledge, rng)
                pending = None
                if world is None:
                    # The sampler gives up after a few tries when the constraints are
                    # tight; a few failures in many draws are not a contradiction.
                    failures += 1
                    if failures > drawn // 50:
                        break
                    continue
                worlds.append(world)
                weight, shooting = evidence.weigh(world)
                weights.append(weight)
                shooters.append(shooting)
            if not worlds:
                break
            exhausted = len(worlds) + failures < drawn
            if self.pool > batch:
                worlds, weights, shooters = resample(worlds, weights, shooters, batch, rng)
            active = search.active()
            rows: list[list[list[float | Fork]]] = []
            odds = None
            if self.moon_evidence and shooter_suspect is not None and suspicion > 0:
                odds = [
                    self.moon_evidence * evidence.shoot_odds(world, shooter_suspect)
                    for world in worlds
                ]
            places = moon.moon_places(weights, self.samples, done, self.moon_by_weight, odds)
            fits: list[bool] | None = None
            if self.moon_fit > 0 and shooter_suspect is not None and suspicion > 0 and not solving:
                among = 1 << shooter_suspect
                comes_off = [
                    moon.moon_hands(template, world, seat, scorer.rules, among) != 0
                    for world in worlds
                ]
                fitted = moon.fit_moon(weights, comes_off, suspicion, self.moon_fit)
                if fitted is not None:
                    weights, fits = fitted, comes_off
            for offset, (world, shooting) in enumerate(zip(worlds, shooters, strict=True)):
                share = places[offset]
                row: list[list[float | Fork]] = []
                rows.append(row)
                if solving:
                    for c in active:
                        state = template.copy()
                        state.hands = world[:]
                        state.play(cards[c])
                        row.append([endgame.solve(state, seat, scorer.cost)] * len(my_modes))
                    continue
                modes = [policy.AVOID] * 4
                if shooter_suspect is not None and (
                    fits[offset] if fits is not None else share < suspicion
                ):
                    modes[shooter_suspect] = policy.SHOOT
                if self.shoot_check:
                    shooting |= moon.moon_hands(template, world, seat, scorer.rules)
                for other in range(4):
                    if shooting >> other & 1:
                        modes[other] = policy.SHOOT
                chaos = rng.getrandbits(32) if self.playout_noise > 0 else 0
                draws = [rng.random() for _ in range(self.model_replies)]
                depth = self.lookahead
                if self.moon_lookahead > depth and any(
                    modes[other] == policy.SHOOT for other in range(4) if other != seat
                ):
                    depth = self.moon_lookahead
                depths = [
                    max(depth, self.shoot_lookahead) if mode == policy.SHOOT else depth
                    for mode in my_modes
                ]
                for c in active:
                    costs: list[float | Fork] = []
                    for my_mode, mode_depth in zip(my_modes, depths, strict=True):
                        state = template.copy()
                        state.hands = world[:]
                        state.play(cards[c])
                        modes[seat] = my_mode
                        playing = (
                            self.finisher.draw_replies(state, modes, seat, draws, memo)
                            if draws
                            else modes
                        )
                        if self.consistent and my_mode == policy.AVOID and not mode_depth | replies:
                            costs.append(
                                self.finisher.fork(state, playing, seat, chaos, scorer.cost)
                            )
                            continue
                        costs.append(
                            self.finisher.finish(
                                state, playing, seat, chaos, scorer.cost, mode_depth, replies
                            )[0]
                        )
                    row.append(costs)
            resolved = consistent_rows(rows, weights, self.consistent)
            for weight, costs_row in zip(weights, resolved, strict=True):
                search.add(active, weight, costs_row)
            done += len(worlds)
            if exhausted or search.settled(self.close):
                break
        return search.weighed(cards)

    @functools.cached_property
    def finisher(self) -> Finisher:
        """How the seats play on in this Expert's playouts."""
        return Finisher(
            give_up=self.give_up,
            seize=self.seize,
            noise=self.playout_noise,
            alert=self.moon_alert,
            sharp=self.sharp,
            model=playmodel.shipped() if self.model_replies else None,
            drawn=self.model_replies,
        )

    def _shoot_bias(self, view: SeatView) -> float:
        """The handicap on our own moon in a play's search, by how far the hand has gone."""
        if any(trick.winner is not None for trick in view.tricks):
            return self.shoot_bias + self.late_shoot_bias
        return self.shoot_bias

    def suspicion(self, view: SeatView) -> tuple[int | None, float]:
        """The opponent suspected of shooting (or None), and in what share of the deals."""
        return moon.suspicion(
            view,
            table=self.moon_table,
            scale=self.moon_scale,
            points=self.suspicion_points,
            share=self.moon_suspicion,
            tell=self.pass_tell,
        )

    def deal_weights(self, view: SeatView, deals: list[list[int]]) -> list[float]:
        """How likely the opponents' plays so far were in each of ``deals`` (holdings now,
        as :func:`~hearts.bots.knowledge.sample_hidden` deals them), under the likelihood
        model of the search; ``benchmarks/expert_inference.py`` scores them."""
        if not deals:
            return []
        evidence = self.evidence(view, deals[0])
        return [evidence.weigh(deal)[0] for deal in deals]

    def evidence(self, view: SeatView, world: list[int]) -> Evidence:
        """The opponents' plays (and, with ``pass_noise``, the pass from across) in ``view``,
        ready to weigh deals by this Expert's likelihood settings; ``world`` is any deal
        of the hidden cards consistent with the view (:meth:`Evidence.weigh`)."""
        return Evidence.of(
            view,
            world,
            self._noise_tables(),
            self.pass_noise,
            shoot_prior=self.shoot_prior,
            model=playmodel.shipped() if self.play_model else None,
            model_floor=self.model_floor,
        )

    def _noise_tables(self) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
        """For a lead, a follow and a discard: the likelihood's noise by number of legal cards."""

        def table(base: float | None) -> tuple[float, ...]:
            noise = self.play_noise if base is None else base
            # The growth per card stops at 0.95 (unless the noise itself is set higher).
            cap = max(noise, 0.95)
            return tuple(min(cap, noise + self.noise_per_card * n) for n in range(14))

        return table(self.lead_noise), table(None), table(self.discard_noise)

    def _out_of_time(self, started: float) -> bool:
        return self.time_limit is not None and time.perf_counter() - started > self.time_limit

    # --- passing -------------------------------------------------------------

    def choose_pass(self, view: SeatView, rng: random.Random) -> list[Card]:
        return list(self.weigh_passes(view, rng).chosen)

    def weigh_passes(self, view: SeatView, rng: random.Random) -> Weighed[tuple[Card, ...]]:
        """The pass search's candidate sets, their costs and the set chosen
        (:mod:`hearts.bots.passing`)."""
        return passing.weigh_passes(self, view, rng)


def _fallback_state(view: SeatView) -> HandState:
    """A state with the view's trick on the table (other hands filled arbitrarily)."""
    knowledge = Knowledge.from_view(view)
    hidden = [0, 0, 0, 0]
    hidden[view.seat] = view.hand.mask
    pool = knowledge.unseen
    for s in range(4):
        if s != view.seat:
            for _ in range(view.cards_left[s]):
                low = pool & -pool
                hidden[s] |= low
                pool ^= low
    return state_template(view, hidden)
