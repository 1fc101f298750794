"""Answering the declarer's claim: accept only what the solver proves.

A claim asks for every remaining trick (in null: that the declarer takes none). With his cards
open, a defender knows every card but his partner's and the skat's; the claim is proved when,
for every split of those cards the observation allows (voids shown included), the open-card
solver says the declarer takes every remaining trick (in null: none) against best defence.
Then accepting costs nothing; otherwise the bot refuses and plays on. At most C(12, 2) = 66
splits exist (a claim at the first card), each a small schwarz search.
"""

from collections.abc import Iterator
from itertools import combinations

import msgspec

from bots.policy import Decision
from bots.skat.montecarlo import position_of, shared_solver
from bots.skat.sampling import SKAT_SIZE, World, facts_of
from engine.bits import iter_bits
from engine.skat.actions import AcceptClaim, Action, RefuseClaim
from engine.skat.cards import effective_suit
from engine.skat.observation import Observation
from engine.skat.solver import SCHWARZ

__all__ = ["answer_claim", "claim_proved", "claim_worlds"]


def answer_claim(obs: Observation) -> Decision[Action]:
    """Accept a proved claim, refuse any other (the bots' answer while `obs.claim_open`)."""
    if AcceptClaim() not in obs.legal:
        raise ValueError("the observing seat has no claim to answer")
    worlds = claim_worlds(obs)
    proved = claim_proved(obs, worlds)
    action: Action = AcceptClaim() if proved else RefuseClaim()
    return Decision(action, {"claim_proved": proved, "worlds": len(worlds)})


def claim_worlds(obs: Observation) -> list[World]:
    """Every placement of the cards the viewer has not seen that the observation allows."""
    return list(_worlds(obs))


def claim_proved(obs: Observation, worlds: list[World]) -> bool:
    """Whether the declarer takes every remaining trick (null: none) in every world."""
    solver = shared_solver()
    for world in worlds:
        position = position_of(obs, world)
        if position.game == "null":
            won = solver.solve(position, "win").declarer_wins
        else:
            # Every remaining trick: schwarz counted from now on, the tricks so far his.
            rest = msgspec.structs.replace(
                position,
                declarer_tricks=position.declarer_tricks + position.defender_tricks,
                defender_tricks=0,
            )
            won = solver.solve(rest, "win", SCHWARZ).declarer_wins
        if not won:
            return False
    return bool(worlds)


def _worlds(obs: Observation) -> Iterator[World]:
    facts = facts_of(obs)
    game = facts.game
    if game is None or len(facts.free_seats) != 1 or not facts.skat_free:
        return  # only a defender facing an open declarer hand has exactly one hidden hand
    partner = facts.free_seats[0]
    unknown = list(iter_bits(facts.unknown))
    for skat_cards in combinations(unknown, SKAT_SIZE):
        skat = sum(1 << c for c in skat_cards)
        cards = facts.unknown & ~skat
        if any(facts.voids[partner] >> effective_suit(game, c) & 1 for c in iter_bits(cards)):
            continue
        hands = list(facts.known)
        hands[partner] |= cards
        yield World(hands=tuple(hands), skat=skat)
