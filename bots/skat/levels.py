"""The Monte Carlo Skat bot and its levels.

`SkatBot` is a frozen parameter struct and therefore a picklable policy: the bidding strategy
and the world budget are parameters, never globals. Card play is Monte Carlo over solved
worlds (`bots.skat.montecarlo`). With the `score` bidder the auction and the skat decisions
(hand or pickup, discard, declaration) go by expected Seeger-Fabian score
(`bots.skat.score_bidding`); with the older bidders by win chance against `risk`
(`bots.skat.bidding`, `bots.skat.discard`). A Ramsch is played by the greedy rules (the
solver scores declarer games only).

The Monte Carlo levels players choose from form a ladder measured against each other
(`python -m bench.skat_ladder`) and against an outside program (docs/benchmarks.md): `club`
bids by the greedy rule of thumb and plays over 10 worlds, `strong` weighs contracts by
expected score with a caution of 20 points (the `margin` an expected score must clear over
passing) and plays over 30 worlds, `expert` bids without margin and plays over 100 worlds
(200 as declarer).
The `beginner` below them plays by rules (`bots.skat.beginner`). `baseline` is the `strong`
level as it was before the score bidder (win chance against risk 0.6), frozen for
comparisons; the default at tables is the strongest level within the decision-time budgets
(docs/bots.md).
"""

from typing import Final, Literal

import msgspec
import numpy as np

from bots.policy import Decision
from bots.skat import score_bidding
from bots.skat.bidders import Bidder
from bots.skat.bidding import bid_decision
from bots.skat.claims import answer_claim
from bots.skat.discard import choose_declaration, choose_discard, choose_hand_or_skat
from bots.skat.greedy import greedy_policy
from bots.skat.montecarlo import choose_card
from engine.skat.actions import Action
from engine.skat.observation import Observation

__all__ = ["LEVELS", "InferenceRoles", "SkatBot"]

InferenceRoles = Literal["none", "declarer", "defenders", "both"]


class SkatBot(msgspec.Struct, frozen=True):
    """A Monte Carlo Skat player.

    Attributes:
        worlds: worlds solved per card decision (100 is the strong setting).
        declarer_worlds: worlds per card decision of the declarer, if not `worlds` (the
            declarer gains from more worlds, the defenders did not: docs/benchmarks.md).
        seconds: optional time budget per card decision; at least a few worlds are solved.
        skat_worlds: worlds per candidate game in the skat decisions.
        skat_seconds: optional time budget per bidding valuation and per skat decision
            (hand or pickup, discard, declaration); at least a few worlds are solved.
        bidder: how to value the hand in the bidding.
        risk: the win probability a game needs before the bot bids for it (higher = cautious;
            bidders other than `score`).
        margin: the Seeger-Fabian points by which a contract's expected score must beat
            passing before the `score` bidder bids or holds (higher = cautious).
        inference: in which role card play weights the worlds by the other players' bids,
            contract and play (`bots.skat.inference`) instead of treating all consistent
            worlds alike: "none", "declarer", "defenders" or "both".
    """

    worlds: int = 100
    declarer_worlds: int | None = None
    seconds: float | None = None
    skat_worlds: int = 24
    skat_seconds: float | None = None
    bidder: Bidder = "score"
    risk: float = 0.6
    margin: float = 0.0
    inference: InferenceRoles = "none"

    def __call__(self, obs: Observation, rng: np.random.Generator) -> Decision[Action]:
        if obs.ramsch:
            return greedy_policy(obs, rng)
        if obs.claim_open:
            return answer_claim(obs)
        worlds, seconds = self.skat_worlds, self.skat_seconds
        if self.bidder == "score" and obs.phase != "play":
            return _by_score(obs, worlds, seconds, self.margin)
        if obs.phase == "bidding":
            return bid_decision(
                obs, rng, bidder=self.bidder, risk=self.risk, worlds=worlds, seconds=seconds
            )
        if obs.phase == "skat":
            return choose_hand_or_skat(obs, rng, worlds=worlds, risk=self.risk, seconds=seconds)
        if obs.phase == "discard":
            return choose_discard(obs, rng, worlds=worlds, seconds=seconds)
        if obs.phase == "declare":
            return choose_declaration(obs, rng, worlds=worlds, seconds=seconds)
        declarer = obs.seat == obs.declarer
        inference = self.inference in ("both", "declarer" if declarer else "defenders")
        worlds = self.worlds
        if declarer and self.declarer_worlds is not None:
            worlds = self.declarer_worlds
        return choose_card(obs, rng, worlds=worlds, seconds=self.seconds, inference=inference)


def _by_score(
    obs: Observation, worlds: int, seconds: float | None, margin: float
) -> Decision[Action]:
    """The auction and skat decisions of the `score` bidder."""
    if obs.phase == "bidding":
        return score_bidding.score_bid(obs, worlds=worlds, seconds=seconds, margin=margin)
    if obs.phase == "skat":
        return score_bidding.choose_hand_or_skat(obs, worlds=worlds, seconds=seconds)
    if obs.phase == "discard":
        return score_bidding.choose_discard(obs, worlds=worlds, seconds=seconds)
    return score_bidding.choose_declaration(obs, worlds=worlds, seconds=seconds)


LEVELS: Final[dict[str, SkatBot]] = {
    "club": SkatBot(worlds=10, seconds=0.3, skat_worlds=8, skat_seconds=0.3, bidder="greedy"),
    "strong": SkatBot(worlds=30, seconds=0.5, skat_worlds=12, skat_seconds=0.5, margin=20.0),
    "expert": SkatBot(
        worlds=100, declarer_worlds=200, seconds=0.8, skat_worlds=32, skat_seconds=0.6, margin=0.0
    ),
    "baseline": SkatBot(
        worlds=100, seconds=0.8, skat_worlds=16, skat_seconds=0.6, bidder="montecarlo", risk=0.6
    ),
}
