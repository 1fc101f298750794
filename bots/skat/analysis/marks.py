"""Thresholds that turn a loss into a mark, and what a game is worth to each side.

Cards are marked by the win chance they gave away (as lichess marks moves by winning
chances), the bidding and the skat by expected Seeger-Fabian points: a card is a decision
about who wins, a bid or a discard about how much a game is worth.
"""

from typing import Final

from bots.skat.analysis.report import Mark
from bots.skat.expected import LOST, Contract, declarer_score
from engine.skat.scoring import LOST_DEFENDER_BONUS

__all__ = [
    "CARD_BLUNDER_CHANCE",
    "CARD_MISTAKE_CHANCE",
    "OPEN_MISTAKE_POINTS",
    "SCORE_BLUNDER",
    "SCORE_MISTAKE",
    "card_mark",
    "open_mark",
    "score_mark",
    "stakes",
]

CARD_MISTAKE_CHANCE: Final = 0.15  # win chance of the mover's side given away
CARD_BLUNDER_CHANCE: Final = 0.40
OPEN_MISTAKE_POINTS: Final = 10  # card points given away open-card without changing the winner
SCORE_MISTAKE: Final = 10.0  # expected SF points, bidding and skat
SCORE_BLUNDER: Final = 30.0
PLAYERS: Final = 3


def card_mark(chance_lost: float) -> Mark:
    if chance_lost >= CARD_BLUNDER_CHANCE:
        return "blunder"
    return "mistake" if chance_lost >= CARD_MISTAKE_CHANCE else "ok"


def open_mark(lost_game: bool, points_lost: int) -> Mark:
    """Open-card a card is a blunder when it turns a won game (for the mover's side) into a
    lost one, a mistake when it gives away `OPEN_MISTAKE_POINTS` card points or more."""
    if lost_game:
        return "blunder"
    return "mistake" if points_lost >= OPEN_MISTAKE_POINTS else "ok"


def score_mark(lost: float) -> Mark:
    if lost >= SCORE_BLUNDER:
        return "blunder"
    return "mistake" if lost >= SCORE_MISTAKE else "ok"


def stakes(
    contract: Contract,
    matador_count: int,
    bid: int,
    players: int = PLAYERS,
    kontra: int = 0,
    *,
    bock: bool = False,
) -> tuple[float, float]:
    """SF points between winning and losing the game after `kontra` doublings (Kontra 1, Re
    2) and in a Bock deal if `bock`, for the declarer and for a defender (a defender scores
    only when the declarer loses: 40 at a table of three, 30 of four, whatever the
    doublings)."""
    won = declarer_score(contract, matador_count, bid, contract.needed, kontra, bock=bock)
    lost = declarer_score(contract, matador_count, bid, LOST, kontra, bock=bock)
    declarer = float((won or 0) - (lost or 0))
    return declarer, float(LOST_DEFENDER_BONUS[players])
