"""Analyse a finished deal, and sum the analyses per player (one deal, or a whole list)."""

from collections.abc import Iterable, Sequence

from bots.skat.analysis.bidding import review_bidding, review_declaration, review_skat
from bots.skat.analysis.card_play import contract_of, review_cards
from bots.skat.analysis.report import Budget, DealAnalysis, Mark, PlayerSummary
from engine.errors import InvalidInput
from engine.skat.state import State

__all__ = ["analyze_deal", "summarize_list"]


def analyze_deal(final: State, budget: Budget | None = None, *, seed: int = 0) -> DealAnalysis:
    """Grade every bid, the skat, the declaration and every card of the finished deal
    `final` (its `log` holds the actions). The same deal, budget and seed give the same
    analysis. Raises InvalidInput for a deal that is not over."""
    if not final.is_over:
        raise InvalidInput("only a finished deal can be analysed")
    budget = budget or Budget()
    contract = contract_of(final)
    bidding = review_bidding(final, budget)
    skat = review_skat(final, budget)
    declaration = review_declaration(final, budget)
    cards = review_cards(final, budget, seed)
    players = []
    for seat in final.seats:
        graded: list[tuple[float, Mark]] = [(b.lost, b.mark) for b in bidding if b.seat == seat]
        for review in (skat, declaration):
            if review is not None and review.seat == seat:
                graded.append((review.lost, review.mark))
        own = [c for c in cards if c.seat == seat]
        graded += [(c.lost, c.mark) for c in own]
        marks = [mark for _, mark in graded]
        players.append(
            PlayerSummary(
                seat=seat,
                points_lost=round(sum(lost for lost, mark in graded if mark != "ok"), 2),
                mistakes=marks.count("mistake"),
                blunders=marks.count("blunder"),
                open_blunders=sum(c.open_mark == "blunder" for c in own),
            )
        )
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
        players=tuple(players),
    )


def summarize_list(
    analyses: Iterable[tuple[Sequence[str], DealAnalysis]],
) -> list[PlayerSummary]:
    """Per player name over a list of deals (each with the names of its table seats): the
    points lost, mistakes and blunders added up, sorted by name."""
    totals: dict[str, PlayerSummary] = {}
    for names, analysis in analyses:
        for player in analysis.players:
            name = names[player.seat]
            seen = totals.get(name)
            totals[name] = PlayerSummary(
                seat=-1,
                name=name,
                points_lost=round(player.points_lost + (seen.points_lost if seen else 0.0), 2),
                mistakes=player.mistakes + (seen.mistakes if seen else 0),
                blunders=player.blunders + (seen.blunders if seen else 0),
                open_blunders=player.open_blunders + (seen.open_blunders if seen else 0),
                deals=1 + (seen.deals if seen else 0),
            )
    return [totals[name] for name in sorted(totals)]
