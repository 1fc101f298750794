"""Sum deal analyses per player over a whole list."""

from collections.abc import Iterable, Sequence

from bots.skat.analysis.report import DealAnalysis, PlayerSummary

__all__ = ["summarize_list"]


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
