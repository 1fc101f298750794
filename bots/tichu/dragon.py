"""Giving away a trick won with the Dragon: to the opponent holding the most cards.

That opponent is the likeliest to finish last, and the last player's tricks go to whoever
went out first, so the points may still come back to our team. Ties go to the next player.
"""

from engine.tichu.deal import LEFT, RIGHT, seat_at

__all__ = ["dragon_receiver"]


def dragon_receiver(seat: int, sizes: tuple[int, ...]) -> int:
    """The opponent of `seat` to give the Dragon trick to."""
    right, left = seat_at(seat, RIGHT), seat_at(seat, LEFT)
    return left if sizes[left] > sizes[right] else right
