"""The `beginner` Skat bot: a learner's count in the bidding, slips and a short memory in the
card play, and never an absurd card."""

import numpy as np

from bots.registry import skat_policy
from bots.skat.beginner import beginner_policy, count_hand
from bots.skat.greedy import greedy_policy
from engine.skat.actions import Bid, Declare, Hold, Pass, Play
from engine.skat.cards import parse_cards
from engine.skat.state import State
from tests.engine.skat.helpers import deal_state, declared, run

# Forehand plays hearts with all four jacks; rearhand holds the ace of trumps and no club,
# middlehand no trump at all.
FH = "JC JS JH JD TH KH QH 9H 8C 7C"
MH = "AC TC KC QC 9C AS TS KS QS 9S"
HH = "AH 8H 7H AD TD KD QD 9D 8D 7S"
SKAT = "8S 7D"
SEEDS = range(200)


def hearts() -> State:
    return declared(0, Declare("hearts"), state=deal_state(FH, MH, HH, SKAT))


def cards_played(state: State, seat: int) -> set[str]:
    obs = state.observation(seat)
    played = set()
    for seed in SEEDS:
        action = beginner_policy(obs, np.random.default_rng(seed)).action
        assert isinstance(action, Play)
        played.add(action.card)
    return played


def test_the_registry_names_the_rule_player_beginner() -> None:
    assert skat_policy("beginner") is beginner_policy


def test_a_learner_counts_jacks_the_longest_suit_and_side_aces() -> None:
    clubs = count_hand(parse_cards("JC JH AC TC 9C 8C AS 7H 8D 9D"))
    assert (clubs.game, clubs.count, clubs.playable) == ("clubs", 7, True)
    grand = count_hand(parse_cards("JC JS JH AC AS 7C 8S 9H 7D 8D"))
    assert (grand.game, grand.playable) == ("grand", True)
    no_jack = count_hand(parse_cards("AC TC KC QC 9C 8C AS 7H 8D 9D"))
    assert no_jack.game == "clubs" and not no_jack.playable
    short = count_hand(parse_cards("JD AC TC 9C 8S 7S KH QH 8D 9D"))
    assert not short.playable


def test_the_bid_goes_up_to_the_counted_games_value_and_no_further() -> None:
    # Clubs with the club jack and not the spade jack: "with 1, game 2", 12 x 2 = 24.
    fh = "JC JH AC TC 9C 8C AS 7H 8D 9D"
    mh, hh = "KC QC 7C TS KS QS 9S 8S 7S AD", "JS JD AH TH KH QH 9H 8H TD KD"
    state = deal_state(fh, mh, hh, "QD 7D")
    obs = run(state, (1, Bid(24))).observation(0)
    assert beginner_policy(obs, np.random.default_rng(1)).action == Hold()
    obs = run(state, (1, Bid(27))).observation(0)
    assert beginner_policy(obs, np.random.default_rng(1)).action == Pass()


def test_it_declares_the_counted_game() -> None:
    state = hearts()
    assert state.contract is not None and state.contract.game == "hearts"
    state = run(deal_state(FH, MH, HH, SKAT), (1, Bid(18)), (0, Hold()), (1, Pass()), (2, Pass()))
    for _ in range(3):  # pick up, discard, declare
        state = state.apply(
            0, beginner_policy(state.observation(0), np.random.default_rng(0)).action
        )
    assert state.contract is not None and state.contract.game == "hearts"


def test_it_never_spends_the_ace_of_trumps_on_its_partners_trick() -> None:
    state = run(hearts(), (0, Play("7C")), (1, Play("AC")))
    played = cards_played(state, 2)
    assert "AH" not in played
    assert len(played) > 1  # the slips do happen


def test_it_never_throws_an_ace_or_ten_on_the_declarers_trick() -> None:
    state = run(hearts(), (0, Play("JC")))
    played = cards_played(state, 1)
    assert not played & {"AC", "TC", "AS", "TS"}
    assert len(played) > 1


def test_it_forgets_that_the_trumps_are_gone() -> None:
    """The defenders' three trumps fell in the first three tricks: the rule leads a side
    card, the beginner who forgot a trick sometimes draws trumps nobody holds."""
    state = run(
        hearts(),
        *((0, Play("JC")), (1, Play("9S")), (2, Play("7H"))),
        *((0, Play("JS")), (1, Play("QS")), (2, Play("8H"))),
        *((0, Play("JH")), (1, Play("KS")), (2, Play("AH"))),
    )
    obs = state.observation(0)
    assert greedy_policy(obs, np.random.default_rng(0)).action == Play("7C")
    decisions = [beginner_policy(obs, np.random.default_rng(seed)) for seed in SEEDS]
    reasons = {d.diagnostics["reason"] for d in decisions}
    assert {"draw trumps", "lead low"} <= reasons
    assert Play("JD") in {d.action for d in decisions if d.diagnostics["reason"] == "draw trumps"}


def test_three_jacks_and_two_aces_are_declared_a_grand() -> None:
    fh = "JC JS JH AC AS 7C 8S 9H 7D 8D"
    mh, hh = "JD TC KC QC 9C 8C TS KS QS 9S", "7S AH TH KH QH 8H 7H AD TD KD"
    state = deal_state(fh, mh, hh, "QD 9D")
    state = run(state, (1, Bid(18)), (0, Hold()), (1, Pass()), (2, Pass()))
    for _ in range(3):  # pick up, discard, declare
        state = state.apply(
            0, beginner_policy(state.observation(0), np.random.default_rng(0)).action
        )
    assert state.contract is not None and state.contract.game == "grand"
