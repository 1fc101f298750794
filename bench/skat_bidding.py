"""Bidding accuracy as the published work measured it: on deals labelled by the solver, the
share of hands a bidder classifies correctly (not winnable / winnable with the right game).

Run: `python -m bench.skat_bidding [--deals 300] [--bidders greedy,knn,montecarlo]`.
The evaluation deals start at `bots.skat.knowledge.EVALUATION_SEEDS`, which the knowledge base
never contains. A hand's label is the most valuable game it wins open-card, with or without
the skat (`LabelledHand.label`); a bidder's prediction is the game it would bid for, or pass.
Prints the accuracy, the time per hand, and a confusion table (rows: label, columns: bidder).
"""

import argparse
import statistics
import time
from collections import Counter

from bots.skat.bidding import BIDDERS, value_hand
from bots.skat.knowledge import EVALUATION_SEEDS, GAMES, PASS, LabelledHand, label_deals

CLASSES = (*GAMES, PASS)
RISK = 0.6
WORLDS = 16


def evaluate(
    bidder: str, hands: list[LabelledHand]
) -> tuple[float, float, Counter[tuple[str, str]]]:
    """Accuracy, seconds per hand and the (label, prediction) counts of one bidder."""
    confusion: Counter[tuple[str, str]] = Counter()
    times = []
    for hand in hands:
        start = time.perf_counter()
        valuation = value_hand.__wrapped__(  # uncached: time the real work
            hand.cards, hand.position, bidder=bidder, risk=RISK, worlds=WORLDS
        )
        times.append(time.perf_counter() - start)
        confusion[(hand.label, valuation.game)] += 1
    correct = sum(n for (label, guess), n in confusion.items() if label == guess)
    return correct / len(hands), statistics.mean(times), confusion


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--bidders", default=",".join(BIDDERS))
    args = parser.parse_args()
    seeds = list(range(EVALUATION_SEEDS, EVALUATION_SEEDS + args.deals))
    hands = label_deals(seeds)
    labels = Counter(h.label for h in hands)
    print(f"{len(hands)} hands from {args.deals} deals; labels: {dict(labels)}")
    for bidder in args.bidders.split(","):
        accuracy, seconds, confusion = evaluate(bidder, hands)
        print(f"\n## {bidder}: {accuracy:.1%} correct, {seconds * 1000:.1f} ms per hand")
        print("| label \\ bid | " + " | ".join(CLASSES) + " |")
        print("|---" * (len(CLASSES) + 1) + "|")
        for label in CLASSES:
            row = [str(confusion[(label, guess)]) for guess in CLASSES]
            print(f"| {label} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
