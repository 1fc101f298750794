"""Hypothesis strategies for small solver positions: any game, any trick in progress."""

from typing import Any

from hypothesis import strategies as st

from engine.bits import iter_bits
from engine.skat.cards import GAME_TYPES, card_points, follow_mask
from engine.skat.solver import SCHWARZ, Position

__all__ = ["positions", "targets"]

_TOTAL_POINTS = 120
_TRICKS = 10


@st.composite
def positions(
    draw: Any, max_cards: int = 3, games: tuple[str, ...] = GAME_TYPES, max_trick: int = 2
) -> Position:
    """A position with 1..max_cards cards in the hand to move and 0..max_trick on the table."""
    game = draw(st.sampled_from(games))
    size = draw(st.integers(1, max_cards))
    deck = draw(st.permutations(range(32)))
    hands = [sum(1 << c for c in deck[i * size : (i + 1) * size]) for i in range(3)]
    leader = draw(st.integers(0, 2))
    trick: list[int] = []
    for i in range(draw(st.integers(0, max_trick))):
        seat = (leader + i) % 3
        follow = hands[seat] & follow_mask(game, trick[0]) if trick else 0
        card = draw(st.sampled_from(sorted(iter_bits(follow or hands[seat]))))
        hands[seat] ^= 1 << card
        trick.append(card)
    in_play = card_points(sum(hands) + sum(1 << c for c in trick))
    declarer_tricks = draw(st.integers(0, _TRICKS - size))
    return Position(
        hands=(hands[0], hands[1], hands[2]),
        game=game,
        declarer=draw(st.integers(0, 2)),
        leader=leader,
        trick=tuple(trick),
        declarer_points=draw(st.integers(0, _TOTAL_POINTS - in_play)),
        declarer_tricks=declarer_tricks,
        defender_tricks=draw(st.integers(0, _TRICKS - size - declarer_tricks)),
    )


def targets(position: Position) -> Any:
    """Targets that fit the position's game: None always, points or schwarz outside null."""
    if position.game == "null":
        return st.just(None)
    return st.one_of(st.none(), st.integers(0, _TOTAL_POINTS), st.just(SCHWARZ))
