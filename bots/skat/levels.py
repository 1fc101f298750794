"""The Monte Carlo Skat bot and its levels.

`SkatBot` is a frozen parameter struct and therefore a picklable policy: the bidding strategy
and the world budget are parameters, never globals. Card play is Monte Carlo over solved
worlds (`bots.skat.montecarlo`); the skat decisions (hand or pickup, discard, declaration) are
Monte Carlo over the opponents' hands (`bots.skat.discard`); bidding follows the chosen
bidder. A Ramsch is played by the greedy rules (the solver scores declarer games only).
"""

from typing import Final

import msgspec
import numpy as np

from bots.policy import Decision
from bots.skat.bidders import Bidder
from bots.skat.bidding import bid_decision
from bots.skat.claims import answer_claim
from bots.skat.discard import choose_declaration, choose_discard, choose_hand_or_skat
from bots.skat.greedy import greedy_policy
from bots.skat.montecarlo import choose_card
from engine.skat.actions import Action
from engine.skat.observation import Observation

__all__ = ["LEVELS", "SkatBot"]


class SkatBot(msgspec.Struct, frozen=True):
    """A Monte Carlo Skat player.

    Attributes:
        worlds: worlds solved per card decision (100 is the strong setting).
        seconds: optional time budget per card decision; at least a few worlds are solved.
        skat_worlds: worlds per candidate game in the skat decisions.
        skat_seconds: optional time budget per bidding valuation and per skat decision
            (hand or pickup, discard, declaration); at least a few worlds are solved.
        bidder: how to value the hand in the bidding.
        risk: the win probability a game needs before the bot bids for it (higher = cautious).
        inference: card play weights the worlds by the other players' bids, contract and
            play (`bots.skat.inference`) instead of treating all consistent worlds alike.
    """

    worlds: int = 100
    seconds: float | None = None
    skat_worlds: int = 24
    skat_seconds: float | None = None
    bidder: Bidder = "montecarlo"
    risk: float = 0.6
    inference: bool = False

    def __call__(self, obs: Observation, rng: np.random.Generator) -> Decision[Action]:
        if obs.ramsch:
            return greedy_policy(obs, rng)
        if obs.claim_open:
            return answer_claim(obs)
        worlds, seconds = self.skat_worlds, self.skat_seconds
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
        return choose_card(
            obs, rng, worlds=self.worlds, seconds=self.seconds, inference=self.inference
        )


LEVELS: Final[dict[str, SkatBot]] = {
    "easy": SkatBot(worlds=10, skat_worlds=8, risk=0.75),
    "medium": SkatBot(worlds=30, seconds=0.5, skat_worlds=12, skat_seconds=0.5, risk=0.65),
    "strong": SkatBot(worlds=100, seconds=0.8, skat_worlds=16, skat_seconds=0.6, risk=0.6),
}
