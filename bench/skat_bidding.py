"""Bidding accuracy as the published work measured it, with the bidders side by side.

Run: `python -m bench.skat_bidding [--deals 150] [--bidders lms,knn,montecarlo] [--risk 0.5]`.
The evaluation deals start at `bots.skat.knowledge.EVALUATION_SEEDS`, which the knowledge base
never contains; each deal gives three hands (each seat in turn the would-be declarer), labelled
open-card by the solver (`bots.skat.knowledge.label_deal`). A bidder's prediction is the game it
would bid for, or pass. Per bidder it prints:
* correct: the published measure: the hand wins no game and the bidder passes, or the bidder
  names a game the hand wins (with or without the skat);
* most valuable: the stricter measure: the bidder names exactly the most valuable winnable game
  (`LabelledHand.label`), or passes a hand that wins nothing;
* points MSE: for bidders that predict a win chance, the mean squared error of the predicted list
  points of the game bid for (won: +value, lost: -2 x value, weighted by the chance) against the
  open-card outcome, over the hands where the bidder bids;
* Brier: the mean squared error of every win chance against the open-card win with the skat;
* the time per hand (uncached valuation), and the confusion tables: label by bid, and per game
  type how often the bidder named it and how often it was winnable.

`--worlds` sets the montecarlo bidder's worlds (16 by default). `--ceiling W` also estimates
the best share any bidder that sees only its ten cards could classify correctly: every hand
is solved for all six games, with the skat and as a hand game, in W uniform worlds of the
hidden cards, and the best guess per hand (pass, or the game winnable in most worlds) is right
in max(share of worlds winning nothing, best game's share) of them. The labels are the
open-card outcome of one such world (the real one), so no valuation of the ten cards can beat
this on average; with few worlds the estimate errs high (a maximum over noisy shares).
"""

import argparse
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from bots.skat.bidders import BIDDERS
from bots.skat.bidding import HandValuation, value_hand
from bots.skat.evaluation import shared_world_wins
from bots.skat.knowledge import EVALUATION_SEEDS, GAMES, PASS, LabelledHand, label_deals
from bots.skat.montecarlo import shared_solver

CLASSES = (*GAMES, PASS)
WORLDS = 16
DEFAULT_BIDDERS = ("lms", "knn", "montecarlo")


@dataclass
class Report:
    """One bidder's results over the evaluation hands."""

    bidder: str
    hands: int = 0
    correct: int = 0
    most_valuable: int = 0
    seconds: list[float] = field(default_factory=list)
    point_errors: list[float] = field(default_factory=list)
    brier: list[float] = field(default_factory=list)
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    bids: Counter[tuple[str, bool]] = field(default_factory=Counter)  # (bid, correct)

    def add(self, hand: LabelledHand, valuation: HandValuation, seconds: float) -> None:
        bid = valuation.game
        self.hands += 1
        self.seconds.append(seconds)
        self.confusion[(hand.label, bid)] += 1
        correct = hand.winnable(bid) or (bid == PASS and hand.label == PASS)
        self.bids[(bid, correct)] += 1
        self.correct += correct
        self.most_valuable += bid == hand.label
        for g, game in enumerate(GAMES):
            if game in valuation.chances:
                self.brier.append((valuation.chances[game] - hand.pickup_wins[g]) ** 2)
        if bid != PASS and valuation.chances:
            p, value = valuation.chances[bid], hand.values[CLASSES.index(bid)]
            predicted = p * value - (1 - p) * 2 * value
            actual = value if hand.winnable(bid) else -2 * value
            self.point_errors.append((predicted - actual) ** 2)

    def row(self) -> str:
        mse = f"{statistics.mean(self.point_errors):.0f}" if self.point_errors else "-"
        brier = f"{statistics.mean(self.brier):.3f}" if self.brier else "-"
        return (
            f"| {self.bidder} | {self.correct / self.hands:.1%} "
            f"| {self.most_valuable / self.hands:.1%} | {mse} | {brier} "
            f"| {statistics.mean(self.seconds) * 1000:.1f} |"
        )


def evaluate(bidder: str, hands: list[LabelledHand], risk: float, worlds: int) -> Report:
    """Value every hand with `bidder` (uncached, so the time is the real work)."""
    report = Report(bidder)
    for hand in hands:
        start = time.perf_counter()
        valuation = value_hand.__wrapped__(
            hand.cards, hand.position, bidder=bidder, risk=risk, worlds=worlds
        )
        report.add(hand, valuation, time.perf_counter() - start)
    return report


def ceiling(hands: list[LabelledHand], worlds: int) -> float:
    """The expected share of correct classifications of the best guess from the ten cards
    (see the module doc)."""
    games = list(GAMES)
    shares = []
    for hand in hands:
        won = np.zeros((worlds, len(games)), dtype=np.bool_)
        for as_hand in (False, True):
            won |= shared_world_wins(
                shared_solver(),
                hand.cards,
                games,
                position=hand.position,
                worlds=worlds,
                rng=np.random.default_rng([hand.cards, hand.position, worlds]),
                hand=as_hand,
            )
        shares.append(max((~won.any(axis=1)).mean(), won.mean(axis=0).max()))
    return float(np.mean(shares))


def print_reports(reports: list[Report]) -> None:
    print("| bidder | correct | most valuable | points MSE | Brier | ms per hand |")
    print("|---|---|---|---|---|---|")
    for report in reports:
        print(report.row())
    print("\nPer game type: bids for it / of them correct (for pass: nothing was winnable)")
    print("| bid | " + " | ".join(r.bidder for r in reports) + " |")
    print("|---" * (len(reports) + 1) + "|")
    for game in CLASSES:
        cells = [
            f"{r.bids[(game, True)] + r.bids[(game, False)]} / {r.bids[(game, True)]}"
            for r in reports
        ]
        print(f"| {game} | " + " | ".join(cells) + " |")
    for r in reports:
        print(f"\n{r.bidder}: label (most valuable winnable game) by bid")
        print("| label \\ bid | " + " | ".join(CLASSES) + " |")
        print("|---" * (len(CLASSES) + 1) + "|")
        for label in CLASSES:
            row = [str(r.confusion[(label, bid)]) for bid in CLASSES]
            print(f"| {label} | " + " | ".join(row) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--bidders", default=",".join(DEFAULT_BIDDERS))
    parser.add_argument(
        "--risk", type=float, default=0.5, help="win chance a game needs (levels: 0.6 and up)"
    )
    parser.add_argument("--worlds", type=int, default=WORLDS, help="montecarlo worlds per hand")
    parser.add_argument(
        "--ceiling", type=int, metavar="W", help="also estimate the best possible share"
    )
    args = parser.parse_args()
    bidders = args.bidders.split(",")
    unknown = set(bidders) - set(BIDDERS)
    if unknown:
        parser.error(f"unknown bidders {sorted(unknown)}; known: {', '.join(BIDDERS)}")
    seeds = list(range(EVALUATION_SEEDS, EVALUATION_SEEDS + args.deals))
    hands = label_deals(seeds)
    labels = Counter(h.label for h in hands)
    print(f"{len(hands)} hands from {args.deals} deals; labels: {dict(labels)}; risk {args.risk}\n")
    print_reports([evaluate(bidder, hands, args.risk, args.worlds) for bidder in bidders])
    if args.ceiling:
        best = ceiling(hands, args.ceiling)
        print(f"\nCeiling from the ten cards ({args.ceiling} worlds per hand): {best:.1%}")


if __name__ == "__main__":
    main()
