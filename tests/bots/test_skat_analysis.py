"""Deal analysis (issue 26): a known blunder is marked, exact open-card play has no
open-card mistakes, a pass with a sure grand costs, the same seed gives the same analysis,
Kontra and Re count in the declarer's stake."""

import msgspec
import pytest

from bots.skat.analysis import (
    Budget,
    DealAnalysis,
    Part,
    Step,
    analyze_deal,
    assemble,
    run_step,
    steps_of,
    summarize_list,
)
from bots.skat.analysis.card_play import review_card
from bots.skat.analysis.marks import SCORE_BLUNDER, stakes
from bots.skat.expected import Contract
from bots.skat.montecarlo import position_of, shared_solver
from bots.skat.sampling import World
from engine.errors import InvalidInput
from engine.skat.actions import Bid, Declare, Hold, Kontra, Pass, Play, Re
from engine.skat.cards import format_card, parse_cards
from engine.skat.deal import Deal
from engine.skat.rules import Rules
from engine.skat.solver import SolveResult
from engine.skat.state import State, new_game
from tests.jit import needs_jit

BUDGET = Budget(card_worlds=8, skat_worlds=4)
# Deal 23: forehand's grand hand is won open-card; in trick 6 (index 5) the declarer's ace
# of diamonds as second card gives it away (found by the solver, checked again below).
SEED, BLUNDER_TRICK, BLUNDER = 23, 5, "AD"


def _grand_hand(seed: int) -> State:
    """Middlehand and rearhand pass, forehand bids 18 and declares grand hand."""
    state = new_game(Rules(), seed=seed)
    for seat, action in ((1, Pass()), (2, Pass()), (0, Bid(18)), (0, Declare("grand"))):
        state = state.apply(seat, action)
    return state


def _open(state: State) -> SolveResult:
    obs = state.observation(state.to_move, history=False)
    world = World(hands=tuple(state.hands), skat=state.skat)
    return shared_solver().solve(position_of(obs, world), "moves")


def _solver_play(state: State, *, blunder_at: int | None = None) -> State:
    """Every card the exact solver's best for the mover, except `BLUNDER` by the declarer
    in trick `blunder_at`."""
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        result = _open(state)
        pick = max if seat == state.declarer else min
        card = format_card(pick(result.moves, key=lambda m: m.declarer_points or 0).cards[0])
        if blunder_at == len(state.tricks) and seat == state.declarer:
            assert result.declarer_wins  # won before the card ...
            lost = [m for m in result.moves if not m.declarer_wins]
            assert BLUNDER in [format_card(c) for m in lost for c in m.cards]  # ... lost after
            card = BLUNDER
        state = state.apply(seat, Play(card))
    return state


@needs_jit
def test_a_card_that_gives_away_a_won_game_is_marked_as_a_blunder() -> None:
    final = _solver_play(_grand_hand(SEED), blunder_at=BLUNDER_TRICK)
    assert not final.result.won
    analysis = analyze_deal(final, BUDGET, seed=1)
    marked = [c for c in analysis.cards if c.open_mark != "ok"]
    assert len(marked) == 1
    review = marked[0]
    assert (review.trick, review.seat, review.card) == (BLUNDER_TRICK, 0, BLUNDER)
    assert review.open_mark == "blunder"
    assert review.open_best is not None and review.open_best != BLUNDER
    values = {v.card: v for v in review.cards}
    assert values[review.open_best].open_wins and not values[BLUNDER].open_wins
    declarer = next(p for p in analysis.players if p.seat == 0)
    assert declarer.open_blunders == 1
    # From what the declarer knew the ace was a blunder too: the only card marked.
    assert [c.card for c in analysis.cards if c.mark != "ok"] == [BLUNDER]
    assert review.mark == "blunder" and review.best is not None and review.lost > 0
    assert declarer.blunders == 1 and declarer.points_lost >= review.lost


@needs_jit
def test_exact_open_card_play_has_no_open_card_mistakes() -> None:
    final = _solver_play(_grand_hand(SEED))
    analysis = analyze_deal(final, BUDGET, seed=1)
    graded = [c for c in analysis.cards if not c.forced]
    assert len(analysis.cards) == 30 and graded
    assert all(c.open_mark == "ok" and c.open_lost_points == 0 for c in analysis.cards)
    assert all(c.open_best == c.card for c in graded)
    assert all(p.open_blunders == 0 for p in analysis.players)


@needs_jit
def test_the_same_seed_gives_the_same_analysis() -> None:
    final = _solver_play(_grand_hand(SEED), blunder_at=BLUNDER_TRICK)
    first = msgspec.json.encode(analyze_deal(final, BUDGET, seed=7))
    assert msgspec.json.encode(analyze_deal(final, BUDGET, seed=7)) == first
    decoded = msgspec.json.decode(first, type=DealAnalysis)
    assert decoded.seed == 7 and len(decoded.cards) == 30


@needs_jit
def test_passing_with_a_sure_grand_is_a_blunder_and_lists_sum_per_player() -> None:
    sure = parse_cards(["JC", "JS", "JH", "JD", "AC", "TC", "AS", "TS", "AH", "TH"])
    rest = [c for c in range(32) if not sure >> c & 1]
    deal = Deal(
        hands=(sure, sum(1 << c for c in rest[:10]), sum(1 << c for c in rest[10:20])),
        skat=sum(1 << c for c in rest[20:]),
    )
    state = new_game(Rules(), deal=deal)
    for seat in (1, 2, 0):
        state = state.apply(seat, Pass())
    analysis = analyze_deal(state, BUDGET)
    assert analysis.contract is None and analysis.cards == () and analysis.skat is None
    forehand = next(b for b in analysis.bidding if b.seat == 0)
    assert forehand.bid == 18 and not forehand.went_on
    assert forehand.expected is not None and forehand.lost >= SCORE_BLUNDER
    assert forehand.mark == "blunder"
    totals = summarize_list([(("ann", "bob", "cy"), analysis), (("bob", "ann", "cy"), analysis)])
    assert [t.name for t in totals] == ["ann", "bob", "cy"]
    ann = totals[0]
    first, second = analysis.players[0], analysis.players[1]
    assert ann.deals == 2 and ann.blunders == first.blunders + second.blunders >= 1
    assert ann.points_lost == pytest.approx(first.points_lost + second.points_lost)


def test_an_unfinished_deal_is_refused() -> None:
    with pytest.raises(InvalidInput):
        analyze_deal(new_game(Rules(), seed=1))


@needs_jit
def test_steps_run_in_any_order_assemble_to_the_same_analysis() -> None:
    final = _solver_play(_grand_hand(SEED), blunder_at=BLUNDER_TRICK)
    steps = steps_of(final)
    assert steps[0] == Step("bidding") and len(steps) == 31
    parts = [run_step(final, step, BUDGET, 5) for step in reversed(steps)]
    parts.reverse()
    assembled = assemble(
        final, msgspec.json.decode(msgspec.json.encode(parts), type=list[Part]), BUDGET, 5
    )
    assert assembled == analyze_deal(final, BUDGET, seed=5)


def test_kontra_re_and_bock_double_the_declarers_stake_not_a_defenders() -> None:
    grand = Contract("grand")  # with 2, game 3: 72
    assert stakes(grand, 2, 18) == (316.0, 40.0)  # 72 + 50 won against -144 - 50 lost
    assert stakes(grand, 2, 18, kontra=1) == (532.0, 40.0)  # 144 + 50 against -288 - 50
    assert stakes(grand, 2, 18, 4, kontra=2) == (964.0, 30.0)  # 288 + 50 against -576 - 50
    assert stakes(grand, 2, 18, bock=True) == (532.0, 40.0)  # a Bock deal doubles as Kontra
    assert stakes(grand, 2, 18, kontra=1, bock=True) == (964.0, 40.0)


@needs_jit
def test_a_card_after_kontra_and_re_costs_the_declarer_four_times_the_game() -> None:
    """Deal 23's grand hand (with 2, hand 4: 96) with middlehand in the bidding, played out
    as before; once without doublings, once with Kontra after the declarer's lead and his
    Re. The same view of every card; the declarer's losses after the Re are at a stake of
    384 + 50 against -768 - 50, not 96 + 50 against -192 - 50, a defender's stay at 40."""
    state = new_game(Rules(kontra=True), seed=SEED)
    for seat, action in (
        (1, Bid(18)),
        (0, Hold()),
        (1, Pass()),
        (2, Pass()),
        (0, Declare("grand")),
    ):
        state = state.apply(seat, action)
    plain = _solver_play(state, blunder_at=BLUNDER_TRICK)
    lead = next(action for _, action in plain.log if isinstance(action, Play))
    doubled = _solver_play(
        state.apply(0, lead).apply(1, Kontra()).apply(0, Re()), blunder_at=BLUNDER_TRICK
    )
    assert doubled.result.kontra == 2 and doubled.result.list_value == 4 * plain.result.list_value
    factor = (384 + 50 + 768 + 50) / (96 + 50 + 192 + 50)
    blunders = 0
    for number in range(30):
        before = review_card(plain, number, BUDGET, 1)
        after = review_card(doubled, number, BUDGET, 1)
        assert (after.seat, after.card, after.cards, after.mark) == (
            before.seat, before.card, before.cards, before.mark
        )  # fmt: skip
        times = factor if after.seat == 0 and number > 0 else 1.0  # the lead came before
        assert after.lost == pytest.approx(before.lost * times, abs=0.02)
        blunders += after.card == BLUNDER and after.seat == 0 and after.mark == "blunder"
    assert blunders == 1
