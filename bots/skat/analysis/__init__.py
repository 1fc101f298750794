"""Deal analysis: every bid, the skat, the declaration and every card of a finished Skat
deal graded by the bots' own evaluation and by the exact solver (docs/bots.md "Deal
analysis"). Imports the solver: run it in a bot-pool worker or a command, never in the
game server's process."""

from bots.skat.analysis.deal import analyze_deal, summarize_list
from bots.skat.analysis.report import (
    BidReview,
    Budget,
    CardReview,
    CardValue,
    ContractValue,
    DealAnalysis,
    DeclarationReview,
    Mark,
    PlayerSummary,
    SkatReview,
)

__all__ = [
    "BidReview",
    "Budget",
    "CardReview",
    "CardValue",
    "ContractValue",
    "DealAnalysis",
    "DeclarationReview",
    "Mark",
    "PlayerSummary",
    "SkatReview",
    "analyze_deal",
    "summarize_list",
]
