"""Deal analysis: every bid, the skat, the declaration and every card of a finished Skat
deal graded by the bots' own evaluation and by the exact solver (docs/bots.md "Deal
analysis"). Imports the solver: run it in a bot-pool worker or a command, never in the
game server's process."""

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
from bots.skat.analysis.steps import Part, Step, analyze_deal, assemble, run_step, steps_of
from bots.skat.analysis.summary import summarize_list

__all__ = [
    "BidReview",
    "Budget",
    "CardReview",
    "CardValue",
    "ContractValue",
    "DealAnalysis",
    "DeclarationReview",
    "Mark",
    "Part",
    "PlayerSummary",
    "SkatReview",
    "Step",
    "analyze_deal",
    "assemble",
    "run_step",
    "steps_of",
    "summarize_list",
]
