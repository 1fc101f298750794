"""Layout of the search stack: one row of the int64 `work` array per ply (node).

The search keeps no per-node state anywhere else: the node's window, trick state, move list
and the move being searched all live in its row, so the driver loop can go down and up the
stack without recursion (recursive jitted functions are slower and cannot be cached).
"""

from typing import Final

from engine.skat.solver.position import CARDS, TRICKS_PER_DEAL

__all__ = [
    "F_ALPHA",
    "F_AVAIL",
    "F_BEST",
    "F_BEST_MOVE",
    "F_BETA",
    "F_CHILD_KEYS",
    "F_GAIN",
    "F_I",
    "F_KEY",
    "F_LEAD",
    "F_MOVE",
    "F_MV",
    "F_N",
    "F_PLAYER",
    "F_POS",
    "F_SC",
    "F_SLOT",
    "F_TABLE",
    "F_TPTS",
    "F_WIN",
    "F_WINP",
    "MAX_MOVES",
    "MAX_PLY",
    "W_SIZE",
]

MAX_PLY: Final = CARDS  # 30 cards: one row per card played plus the final node
MAX_MOVES: Final = TRICKS_PER_DEAL  # a hand holds at most ten cards

F_ALPHA: Final = 0  # the node's window on its future value
F_BETA: Final = 1
F_AVAIL: Final = 2  # value still in play (cards in hands and on the table, trick bonuses)
F_BEST: Final = 3  # best child value so far
F_BEST_MOVE: Final = 4
F_N: Final = 5  # number of moves
F_I: Final = 6  # index of the move being searched
F_PLAYER: Final = 7  # seat to move
F_POS: Final = 8  # cards already in the trick (0, 1, 2)
F_LEAD: Final = 9  # led card of the trick, NO_CARD at a trick boundary
F_WIN: Final = 10  # card winning the trick so far
F_WINP: Final = 11  # seat of that card
F_TPTS: Final = 12  # value of the cards in the trick so far
F_TABLE: Final = 13  # mask of the cards in the trick
F_GAIN: Final = 14  # value the move being searched banks for the declarer's count
F_MOVE: Final = 15  # the move being searched
F_SLOT: Final = 16  # transposition table slot of this node, -1 if none
F_KEY: Final = 17  # its key (at a trick boundary below the root: set by the parent)
F_MV: Final = 18  # moves in search order
F_SC: Final = F_MV + MAX_MOVES  # their ordering scores
F_CHILD_KEYS: Final = F_SC + MAX_MOVES  # before a trick's last card: its children's keys by card
W_SIZE: Final = F_CHILD_KEYS + CARDS
