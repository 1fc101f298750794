"""The names of the Skat bidding strategies, in a module light enough for the registry.

`bots.skat.bidding` implements them; the registry, the levels and the benchmark only need
the names, and importing the bidding module would load the solver (docs/conventions.md section 1).
"""

from typing import Final, Literal, get_args

__all__ = ["BIDDERS", "Bidder"]

Bidder = Literal["greedy", "lms", "knn", "montecarlo"]
BIDDERS: Final[tuple[Bidder, ...]] = get_args(Bidder)
