"""A deal's analysis in steps of a fraction of a second to a few seconds each, so that a
bot pool can run them one at a time between play decisions and report progress.

`steps_of` lists them, `run_step` computes one (in a worker: it solves), `assemble` puts
the parts together; `analyze_deal` runs them all in order. A step and its part are plain
data (msgspec structs), so both cross a process pipe.
"""

from collections.abc import Sequence
from typing import Literal

import msgspec

from bots.skat.analysis.bidding import review_bidding, review_declaration, review_skat
from bots.skat.analysis.card_play import contract_of, review_card
from bots.skat.analysis.report import (
    BidReview,
    Budget,
    CardReview,
    DealAnalysis,
    DeclarationReview,
    Mark,
    PlayerSummary,
    SkatReview,
)
from engine.errors import InvalidInput
from engine.skat.actions import Play
from engine.skat.state import State

__all__ = ["Part", "Step", "analyze_deal", "assemble", "run_step", "steps_of"]


class Step(msgspec.Struct, frozen=True):
    """One piece of work: the auction and skat decisions, or card number `card` (from 0)."""

    kind: Literal["bidding", "card"]
    card: int = 0


class Part(msgspec.Struct, frozen=True):
    """What one step found."""

    bidding: tuple[BidReview, ...] = ()
    skat: SkatReview | None = None
    declaration: DeclarationReview | None = None
    card: CardReview | None = None


def steps_of(final: State) -> list[Step]:
    """The steps of the analysis of the finished deal `final`. Raises InvalidInput for a
    deal that is not over."""
    if not final.is_over:
        raise InvalidInput("only a finished deal can be analysed")
    cards = sum(isinstance(a, Play) for _, a in final.log) if contract_of(final) else 0
    return [Step("bidding"), *(Step("card", n) for n in range(cards))]


def run_step(final: State, step: Step, budget: Budget, seed: int) -> Part:
    """Compute one step (solves: a bot-pool worker's or a command's work)."""
    if step.kind == "card":
        return Part(card=review_card(final, step.card, budget, seed))
    return Part(
        bidding=review_bidding(final, budget),
        skat=review_skat(final, budget),
        declaration=review_declaration(final, budget),
    )


def analyze_deal(final: State, budget: Budget | None = None, *, seed: int = 0) -> DealAnalysis:
    """Grade every bid, the skat, the declaration and every card of the finished deal
    `final` (its `log` holds the actions). The same deal, budget and seed give the same
    analysis. Raises InvalidInput for a deal that is not over."""
    budget = budget or Budget()
    parts = [run_step(final, step, budget, seed) for step in steps_of(final)]
    return assemble(final, parts, budget, seed)


def assemble(final: State, parts: Sequence[Part], budget: Budget, seed: int) -> DealAnalysis:
    """The analysis from the parts of all its steps, with the summary per seat."""
    bidding = tuple(b for p in parts for b in p.bidding)
    skat = next((p.skat for p in parts if p.skat is not None), None)
    declaration = next((p.declaration for p in parts if p.declaration is not None), None)
    cards = tuple(p.card for p in parts if p.card is not None)
    contract = contract_of(final)
    return DealAnalysis(
        positions=final.seats,
        declarer=final.declarer if contract is not None else None,
        contract=contract.label() if contract is not None else None,
        bid=final.bid,
        seed=seed,
        budget=budget,
        bidding=bidding,
        skat=skat,
        declaration=declaration,
        cards=cards,
        players=tuple(_summary(seat, bidding, skat, declaration, cards) for seat in final.seats),
    )


def _summary(
    seat: int,
    bidding: tuple[BidReview, ...],
    skat: SkatReview | None,
    declaration: DeclarationReview | None,
    cards: tuple[CardReview, ...],
) -> PlayerSummary:
    graded: list[tuple[float, Mark]] = [(b.lost, b.mark) for b in bidding if b.seat == seat]
    for review in (skat, declaration):
        if review is not None and review.seat == seat:
            graded.append((review.lost, review.mark))
    own = [c for c in cards if c.seat == seat]
    graded += [(c.lost, c.mark) for c in own]
    marks = [mark for _, mark in graded]
    return PlayerSummary(
        seat=seat,
        points_lost=round(float(sum(lost for lost, mark in graded if mark != "ok")), 2),
        mistakes=marks.count("mistake"),
        blunders=marks.count("blunder"),
        open_blunders=sum(c.open_mark == "blunder" for c in own),
    )
