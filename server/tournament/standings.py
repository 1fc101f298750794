"""Standings of a tournament from its games' outcomes: the same functions serve the live
display, the final table and `tischrunde tournament report`. What an outcome holds and how it
ranks the players is the game's (`GameKind.tournament`: `server/games/skat_tournament.py`,
`tichu.py`); the tally keeps every game's outcome and asks the game.
"""

from collections.abc import Sequence

from server.games import Outcome, game_kind
from server.plain import Plain
from server.standings import TournamentRow

__all__ = ["Tally"]


class Tally:
    """The outcomes so far of one tournament, by game; add games in any order."""

    def __init__(self, game: str) -> None:
        self.play = game_kind(game).tournament
        self.outcomes: list[tuple[tuple[str, ...], Outcome]] = []

    @property
    def games(self) -> int:
        return len(self.outcomes)

    def add(self, players: Sequence[str], outcome: Outcome) -> None:
        """One finished game; `players` by seat (Tichu: the pair is seats 0 and 1 of the
        unswapped seating, i.e. sorted as the schedule lists it)."""
        self.outcomes.append((tuple(players), outcome))

    def standings(self) -> list[TournamentRow]:
        """One row per player, best first (by mean, then name), with the game's own columns."""
        rows = self.play.standings(self.outcomes)
        return sorted(rows, key=lambda r: (-r.mean, r.player))

    def details(self) -> Plain:
        """The game's own tables (Skat: declarer games by type and pairs per deal; Tichu: each
        pair's duplicate comparison)."""
        return self.play.details(self.outcomes)
