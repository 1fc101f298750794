"""Comparing a solver's answer with an exact one (the reference's or brute force's)."""

from engine.skat.solver import Position, SolveResult

__all__ = ["assert_same_answer"]


def assert_same_answer(got: SolveResult, exact: SolveResult, position: Position) -> None:
    """`got` answers `position` as `exact`, whose per-card points are all exact.

    Nodes may differ. A card that is not the best may carry a bound instead of its exact
    points (`MoveValue.exact` False); the bound must then lie between the card's exact total
    and the best total, which shows the card is no better for the player to move.
    """
    assert (got.declarer_points, got.declarer_wins) == (exact.declarer_points, exact.declarer_wins)
    assert [m.cards for m in got.moves] == [m.cards for m in exact.moves]
    declarer_moves = position.to_move == position.declarer
    best = got.declarer_points
    for move, truth in zip(got.moves, exact.moves, strict=True):
        assert move.declarer_wins == truth.declarer_wins
        if move.exact:
            assert move.declarer_points == truth.declarer_points
            continue
        bound, value = move.declarer_points, truth.declarer_points
        assert bound is not None and value is not None and best is not None
        assert value <= bound <= best if declarer_moves else best <= bound <= value
    if got.moves and best is not None:
        assert any(m.exact and m.declarer_points == best for m in got.moves)
