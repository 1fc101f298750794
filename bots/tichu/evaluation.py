"""The evaluation of an action: a weighted sum of six properties, each in [0, 1].

An action is (a partition of the hand, the combination of it played now, or None for a
pass). The properties, in the order of the 2013 thesis's weights:

1. initiative: leads we can expect minus combinations we must throw away, over the rest of
   the partition, plus the lead this play wins; bounded to [0, 1]. One or two combinations
   left are scored as the chance to go out (lead the winner, then the other); the Dog, a
   throw-away that hands the lead to the partner, earns a bonus.
2. few combinations: a lookup table over the number of combinations left.
3. high partner combination: overtaking a partner's combination costs its chance to win.
4. trick points: the expected point swing of the trick on the table.
5. Tichu support: with the partner's call alive, take tricks from the opponents, leave the
   partner's alone, lead low (or the Dog), and do not go out first.
6. smallest combination first: lower plays score higher.
"""

from typing import Final, NamedTuple

import msgspec

from bots.tichu.combination import Part, points_of
from bots.tichu.initiative import InitiativeModel, top_out
from bots.tichu.situation import Situation
from engine.tichu.cards import DRAGON_VALUE
from engine.tichu.combos import DOG_COMBO, HALVES, NO_COMBO, Combo, height_of
from engine.tichu.scoring import NO_CALL

__all__ = [
    "DOG_BONUS",
    "FEW_COMBINATIONS",
    "INITIATIVE_CEILING",
    "INITIATIVE_FLOOR",
    "THESIS_WEIGHTS",
    "TRICK_POINT_SCALE",
    "Evaluator",
    "PartitionTerms",
    "Properties",
    "Weights",
]

# Value of holding n combinations (index n), the thesis's lookup table in spirit: going out
# (0 left) is best, and each further combination costs less than the one before.
FEW_COMBINATIONS: Final = (
    1.0, 0.9, 0.78, 0.65, 0.53, 0.42, 0.32, 0.24, 0.17, 0.11, 0.07, 0.04, 0.02, 0.01, 0.0,
)  # fmt: skip
INITIATIVE_FLOOR: Final = -5.0  # raw initiative mapped to 0
INITIATIVE_CEILING: Final = 1.0  # raw initiative mapped to 1
DOG_BONUS: Final = 0.6  # the Dog hands the lead to the partner: a throw-away worth less
TRICK_POINT_SCALE: Final = 50.0  # point swing that moves the trick property from 1/2 to 0 or 1
_HALF: Final = 0.5
_MAX_HEIGHT: Final = HALVES * DRAGON_VALUE


class Weights(msgspec.Struct, frozen=True):
    """Weights of the six properties (defaults: calibrated by `tischrunde tichu calibrate`
    from the thesis's published values, `THESIS_WEIGHTS`)."""

    initiative: float = 0.252
    few_combinations: float = 0.38
    partner_combination: float = 0.12
    trick_points: float = 0.026
    tichu_support: float = 0.22
    smallest_first: float = 0.056

    def as_tuple(self) -> tuple[float, float, float, float, float, float]:
        """The weights in property order."""
        return (
            self.initiative,
            self.few_combinations,
            self.partner_combination,
            self.trick_points,
            self.tichu_support,
            self.smallest_first,
        )


THESIS_WEIGHTS: Final = Weights(
    initiative=0.18,
    few_combinations=0.38,
    partner_combination=0.12,
    trick_points=0.045,
    tichu_support=0.22,
    smallest_first=0.04,
)


class Properties(NamedTuple):
    """The six property values of one action, each in [0, 1]."""

    initiative: float
    few_combinations: float
    partner_combination: float
    trick_points: float
    tichu_support: float
    smallest_first: float


class PartitionTerms(NamedTuple):
    """Per-partition sums the options of that partition share.

    Attributes:
        parts: the partition.
        total: sum of the per-part initiative terms.
    """

    parts: tuple[Part, ...]
    total: float


def _clip(x: float) -> float:
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


class Evaluator:
    """Scores actions for one decision; per-combination probabilities are computed once.

    The future is judged from now: a combination kept in hand uses today's highest card out
    and the next trick's number.
    """

    def __init__(self, sit: Situation, model: InitiativeModel, weights: Weights) -> None:
        self.sit = sit
        self.model = model
        self.weights = weights.as_tuple()
        self._terms: dict[Combo, tuple[float, float, float]] = {}
        self.partner_live = (
            sit.calls[sit.partner] != NO_CALL and not sit.finish and sit.sizes[sit.partner] > 0
        )
        self.following = sit.table != NO_COMBO
        self.partner_owns = self.following and sit.owner == sit.partner
        owner_win = 0.0
        if self.following:
            owner_win = model.win_probability(sit.table, top_out(sit.unseen, sit.table), sit.trick)
        # chance that the trick on the table goes to our team if we do not play
        self.team_keeps = owner_win if self.partner_owns else 1.0 - owner_win
        self.trick_points = sit.trick_points

    def part_terms(self, combo: Combo) -> tuple[float, float, float]:
        """(win probability, play probability, initiative term) of a combination kept."""
        terms = self._terms.get(combo)
        if terms is None:
            sit = self.sit
            win = self.model.win_probability(combo, top_out(sit.unseen, combo), sit.trick + 1)
            play = self.model.play_probability(combo, sit.trick + 1)
            term = play * win - (1.0 - win)
            if combo == DOG_COMBO:
                term += DOG_BONUS
            terms = (win, play, term)
            self._terms[combo] = terms
        return terms

    def partition_terms(self, parts: tuple[Part, ...]) -> PartitionTerms:
        """The shared sums of a partition."""
        total = 0.0
        for combo, _ in parts:
            total += self.part_terms(combo)[2]
        return PartitionTerms(parts, total)

    def win_now(self, played: Combo) -> float:
        """P(the combination played now takes the current trick)."""
        sit = self.sit
        return self.model.win_probability(played, top_out(sit.unseen, played), sit.trick)

    def properties(
        self, terms: PartitionTerms, part: Part | None, played: Combo, win: float
    ) -> Properties:
        """The properties of playing `part` (as the combination `played`, which takes the
        trick with probability `win`) out of the partition, or of passing (`part` None)."""
        rest = len(terms.parts) - (part is not None)
        raw = terms.total
        lead = 0.0
        if part is not None:
            raw -= self.part_terms(part[0])[2]
            lead = win
        raw += lead
        initiative = self._initiative(terms, part, rest, raw, lead)
        few = FEW_COMBINATIONS[min(rest, len(FEW_COMBINATIONS) - 1)]
        sit = self.sit
        if part is None:
            partner = 1.0
            team = self.team_keeps if self.following else _HALF
            swing = (2.0 * team - 1.0) * self.trick_points
            support = 1.0 if self.partner_live and self.partner_owns else 0.0
            smallest = 0.0
        else:
            overtakes = self.partner_owns and not sit.closed
            partner = 1.0 - self.team_keeps if overtakes else 1.0
            swing = (2.0 * win - 1.0) * (self.trick_points + points_of(part[1]))
            support = 0.0
            if self.partner_live and rest and not overtakes:
                if self.following:
                    support = win
                elif played == DOG_COMBO:
                    support = 1.0
                else:
                    support = 1.0 - height_of(played) / _MAX_HEIGHT
            smallest = 1.0 - height_of(played) / _MAX_HEIGHT
        points = _clip(_HALF + swing / (2.0 * TRICK_POINT_SCALE))
        return Properties(initiative, few, partner, points, support, smallest)

    def _initiative(
        self, terms: PartitionTerms, part: Part | None, rest: int, raw: float, lead: float
    ) -> float:
        if rest == 0:
            return 1.0
        if rest == 1:  # we go out once we lead or someone leads lower of its class
            kept = _without(terms.parts, part)
            return lead + (1.0 - lead) * self.part_terms(kept[0][0])[1]
        scaled = _clip((raw - INITIATIVE_FLOOR) / (INITIATIVE_CEILING - INITIATIVE_FLOOR))
        if rest == 2:  # lead the likely winner, then the other goes out
            kept = _without(terms.parts, part)
            best = max(self.part_terms(kept[0][0])[0], self.part_terms(kept[1][0])[0])
            sure = lead * best
            return sure + (1.0 - sure) * scaled
        return scaled

    def score(self, props: Properties) -> float:
        """The weighted sum."""
        w = self.weights
        return (
            w[0] * props[0]
            + w[1] * props[1]
            + w[2] * props[2]
            + w[3] * props[3]
            + w[4] * props[4]
            + w[5] * props[5]
        )


def _without(parts: tuple[Part, ...], part: Part | None) -> tuple[Part, ...]:
    if part is None:
        return parts
    index = parts.index(part)
    return parts[:index] + parts[index + 1 :]
