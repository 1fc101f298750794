"""Bots answer a claim by the solver: accept what is proved for every world the defender
cannot tell apart, refuse the rest; every bot level routes claims there."""

import numpy as np
import pytest

from bots.registry import skat_policy
from bots.skat.baseline import game_moves
from bots.skat.claims import answer_claim, claim_proved, claim_worlds
from bots.skat.sampling import count_worlds
from engine.skat.actions import AcceptClaim, Claim, Declare, Play, RefuseClaim
from engine.skat.cards import parse_card
from engine.skat.state import State
from tests.engine.skat.helpers import deal_state, declared, run
from tests.engine.skat.test_play import HIGH_FH, HIGH_HH, HIGH_MH, HIGH_SKAT

# Forehand holds every jack and the top clubs, spades and hearts: grand takes all ten tricks.
SURE_FH = "JC JS JH JD AC TC KC AS TS AH"
SURE_MH = "QC 9C KS QS 9S TH KH QH 9H AD"
SURE_HH = "8C 7C 8S 7S 8H 7H TD KD QD 9D"
SURE_SKAT = "8D 7D"


def sure_grand() -> State:
    return declared(0, Declare("grand"), state=deal_state(SURE_FH, SURE_MH, SURE_HH, SURE_SKAT))


def open_grand() -> State:
    """Forehand's grand without a jack: the defenders' jacks take tricks."""
    return declared(0, Declare("grand"), state=deal_state(HIGH_FH, HIGH_MH, HIGH_HH, HIGH_SKAT))


def test_a_claim_at_the_first_card_leaves_66_worlds_to_check() -> None:
    obs = sure_grand().apply(0, Claim()).observation(1)
    worlds = claim_worlds(obs)
    assert len(worlds) == 66 == count_worlds(obs)
    assert all(world.hands[0] == worlds[0].hands[0] for world in worlds)  # the open hand


def test_a_shown_void_removes_the_worlds_that_contradict_it() -> None:
    # Rearhand shows he has no club; the two clubs middlehand cannot see must be the skat.
    fh, mh = "JC JS JH JD AC TC KC AS TS AH", "QC 9C KS QS TH KH QH 9H 8H 7H"
    hh, skat = "9S 8S 7S AD TD KD QD 9D 8D 7D", "8C 7C"
    state = declared(0, Declare("grand"), state=deal_state(fh, mh, hh, skat))
    state = run(state, (0, Play("AC")), (1, Play("QC")), (2, Play("7D")), (0, Claim()))
    obs = state.observation(1)
    worlds = claim_worlds(obs)
    assert len(worlds) == 1 == count_worlds(obs)
    assert worlds[0].skat == (1 << parse_card("8C")) | (1 << parse_card("7C"))


def test_a_proved_claim_is_accepted_by_both_defenders() -> None:
    state = sure_grand().apply(0, Claim())
    first = answer_claim(state.observation(1))
    assert first.action == AcceptClaim() and first.diagnostics["claim_proved"]
    state = state.apply(1, first.action)
    second = answer_claim(state.observation(2))
    assert second.action == AcceptClaim()
    assert state.apply(2, second.action).result.schwarz


def test_a_claim_the_defence_can_beat_is_refused() -> None:
    obs = open_grand().apply(0, Claim()).observation(1)
    decision = answer_claim(obs)
    assert decision.action == RefuseClaim() and not decision.diagnostics["claim_proved"]
    assert not claim_proved(obs, claim_worlds(obs))


def test_a_safe_null_is_accepted_and_a_null_with_a_high_card_is_refused() -> None:
    safe = declared(0, Declare("null"), state=deal_state(HIGH_HH.replace("JC JS", "9C 9S"),
                                                          HIGH_MH.replace("9C 9S", "JC JS"),
                                                          HIGH_FH, HIGH_SKAT))  # fmt: skip
    assert answer_claim(safe.apply(0, Claim()).observation(1)).action == AcceptClaim()
    risky = declared(0, Declare("null"), state=deal_state(HIGH_FH, HIGH_MH, HIGH_HH, HIGH_SKAT))
    assert answer_claim(risky.apply(0, Claim()).observation(1)).action == RefuseClaim()


def test_only_a_defender_facing_an_open_claim_answers() -> None:
    with pytest.raises(ValueError):
        answer_claim(sure_grand().observation(1))


@pytest.mark.parametrize("name", ["greedy", "beginner", "strong", "baseline"])
def test_every_level_answers_by_the_solver(name: str) -> None:
    policy = skat_policy(name)
    rng = np.random.default_rng(1)
    assert policy(sure_grand().apply(0, Claim()).observation(1), rng).action == AcceptClaim()
    assert policy(open_grand().apply(0, Claim()).observation(1), rng).action == RefuseClaim()


def test_the_random_bot_never_claims() -> None:
    obs = sure_grand().observation(0)
    assert Claim() in obs.legal and Claim() not in game_moves(obs)
