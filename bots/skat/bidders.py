"""The names of the Skat bidding strategies, in a module light enough for the registry.

`bots.skat.bidding` implements the first four (a win chance against a risk threshold) and
`bots.skat.score_bidding` the `score` bidder (expected Seeger-Fabian score). The registry,
the levels and the benchmark only need the names, and importing the bidding modules would
load the solver (docs/conventions.md section 1).
"""

from typing import Final, Literal, get_args

__all__ = ["BIDDERS", "Bidder"]

Bidder = Literal["greedy", "lms", "knn", "montecarlo", "score"]
BIDDERS: Final[tuple[Bidder, ...]] = get_args(Bidder)
