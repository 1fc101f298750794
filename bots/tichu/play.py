"""Play decisions of the classic bot: one-ply search over (partition, combination played now).

Every partition of the hand (within the slack) is paired with each of its combinations that
is legal now, and with a pass where passing is allowed; the evaluation function scores each
pair and the best one is played. Before the search, hard rules remove absurd moves (a bomb on
the partner, overtaking a partner's combination that is sure to win) and take a play that
empties the hand. Bombs are thrown only when `bomb_wanted` says the moment is right.
"""

from collections.abc import Callable
from typing import Final, NamedTuple

from bots.tichu.combination import Counts, Part, counts_of
from bots.tichu.evaluation import Evaluator, Properties
from bots.tichu.initiative import top_out
from bots.tichu.partition import HandPartitions, min_parts, partitions
from bots.tichu.situation import LegalPlay, Situation
from engine.tichu.combos import NO_COMBO, Combo, classify, height, height_of, is_bomb
from engine.tichu.scoring import NO_CALL

__all__ = [
    "BOMB_TRICK_POINTS",
    "NEAR_OUT",
    "Choice",
    "bomb_wanted",
    "choose_play",
    "finishing_play",
    "guarded_plays",
    "partner_is_sure",
    "rank_plays",
]

BOMB_TRICK_POINTS: Final = 15  # a trick worth this much is worth a bomb
NEAR_OUT: Final = 3  # an opponent with this many cards or fewer may go out any moment
_GOES_OUT_SOON: Final = 2  # combinations left after a bomb that make it the way out


class Choice(NamedTuple):
    """A chosen play (None: pass or no interrupt), its value and its properties."""

    play: LegalPlay | None
    value: float
    properties: Properties | None


def partner_is_sure(sit: Situation) -> bool:
    """The partner's combination on the table cannot be beaten by any card still out
    (bombs aside): no card out is higher than its deciding value."""
    if sit.table == NO_COMBO or sit.owner != sit.partner or sit.closed:
        return False
    return height(top_out(sit.unseen, sit.table)) <= height_of(sit.table)


def guarded_plays(sit: Situation) -> tuple[LegalPlay, ...]:
    """The legal plays minus the absurd: no bomb on the partner's combination, no overtaking
    a partner's combination that is sure to win the trick."""
    plays = sit.legal
    if sit.table != NO_COMBO and sit.owner == sit.partner:
        if partner_is_sure(sit):
            return ()
        plays = tuple(p for p in plays if not is_bomb(classify(p.cards, sit.table)))
    return plays


def _partner_tichu_alive(sit: Situation) -> bool:
    return sit.calls[sit.partner] != NO_CALL and not sit.finish


def finishing_play(sit: Situation) -> LegalPlay | None:
    """A legal play that empties the hand, unless going out first would break the partner's
    Tichu while no opponent is about to go out."""
    for play in sit.legal:
        if play.cards == sit.hand:
            if _partner_tichu_alive(sit) and min(_opponent_sizes(sit)) > NEAR_OUT:
                return None
            return play
    return None


def _opponent_sizes(sit: Situation) -> list[int]:
    return [sit.sizes[s] for s in range(len(sit.sizes)) if sit.is_opponent(s) and sit.sizes[s]]


def bomb_wanted(sit: Situation, bomb: LegalPlay) -> bool:
    """Whether throwing `bomb` now is worth it (the classic rule): only on an opponent's
    combination, and only when the trick is rich, an opponent is about to go out or has a
    live call, or the bomb is our way out."""
    if sit.table == NO_COMBO or not sit.is_opponent(sit.owner):
        return False
    opponents = _opponent_sizes(sit)
    if sit.trick_points >= BOMB_TRICK_POINTS or (opponents and min(opponents) <= NEAR_OUT):
        return True
    if any(sit.calls[s] != NO_CALL and sit.is_opponent(s) for s in range(len(sit.calls))):
        return not sit.finish
    return min_parts(counts_of(sit.hand & ~bomb.cards)) <= _GOES_OUT_SOON


def choose_play(
    sit: Situation,
    evaluator: Evaluator,
    hand_partitions: HandPartitions,
    may_bomb: Callable[[Situation, LegalPlay], bool] = bomb_wanted,
) -> Choice:
    """The best play (or pass) for the seat on turn, or the best interrupt for a seat that
    may only bomb (then None means no interrupt)."""
    return rank_plays(sit, evaluator, hand_partitions, may_bomb)[0]


def rank_plays(
    sit: Situation,
    evaluator: Evaluator,
    hand_partitions: HandPartitions,
    may_bomb: Callable[[Situation, LegalPlay], bool] = bomb_wanted,
) -> list[Choice]:
    """Every distinct option (a play, equivalent plays once; a pass or no interrupt) with its
    best value over the partitions, best first. A play that empties the hand is the only
    option when the rules of `finishing_play` want it."""
    finishing = finishing_play(sit)
    if finishing is not None:
        return [Choice(finishing, 1.0, None)]
    plays = [
        p
        for p in guarded_plays(sit)
        if not is_bomb(classify(p.cards, sit.table)) or may_bomb(sit, p)
    ]
    can_pass = sit.can_pass or not sit.on_turn
    if not plays and (can_pass or not sit.legal):
        return [Choice(None, 0.0, None)]
    if not plays:  # the wish forces a play the guards removed: take the legal ones back
        plays = list(sit.legal)
    by_counts: dict[Counts, list[LegalPlay]] = {}
    for play in plays:
        by_counts.setdefault(counts_of(play.cards), []).append(play)
    played_combo: dict[Counts, tuple[Combo, float]] = {}
    for counts, group in by_counts.items():
        combo = classify(group[0].cards, sit.table)
        played_combo[counts] = (combo, evaluator.win_now(combo))
    best = _search(evaluator, hand_partitions.partitions, played_combo, can_pass)
    if not any(key is not None for key in best):  # no partition holds a legal combination
        best.update(_search_each(sit, evaluator, by_counts, played_combo))
    ranked = sorted(best.values(), key=lambda option: -option[0])
    return [
        Choice(
            None if part is None else _cards_for(part, by_counts[part[1]], hand_partitions),
            value,
            props,
        )
        for value, part, props in ranked
    ]


Option = tuple[float, Part | None, Properties]


def _keep(best: dict[Counts | None, Option], key: Counts | None, option: Option) -> None:
    known = best.get(key)
    if known is None or option[0] > known[0]:
        best[key] = option


def _search(
    evaluator: Evaluator,
    candidates: tuple[tuple[Part, ...], ...],
    played_combo: dict[Counts, tuple[Combo, float]],
    can_pass: bool,
) -> dict[Counts | None, Option]:
    """The best option per distinct play (by counts; None: pass) over the partitions."""
    best: dict[Counts | None, Option] = {}
    for parts in candidates:
        terms = evaluator.partition_terms(parts)
        if can_pass:
            props = evaluator.properties(terms, None, NO_COMBO, 0.0)
            _keep(best, None, (evaluator.score(props), None, props))
        for part in parts:
            counts = part[1]
            if counts not in played_combo:
                continue
            combo, win = played_combo[counts]
            props = evaluator.properties(terms, part, combo, win)
            _keep(best, counts, (evaluator.score(props), part, props))
    return best


def _search_each(
    sit: Situation,
    evaluator: Evaluator,
    by_counts: dict[Counts, list[LegalPlay]],
    played_combo: dict[Counts, tuple[Combo, float]],
) -> dict[Counts | None, Option]:
    """Each legal play judged with the shortest partitions of the rest of the hand."""
    best: dict[Counts | None, Option] = {}
    for counts, group in by_counts.items():
        cards = group[0].cards
        part = (classify(cards), counts)
        combo, win = played_combo[counts]
        for tail in partitions(sit.hand & ~cards, slack=0).partitions:
            terms = evaluator.partition_terms((part, *tail))
            props = evaluator.properties(terms, part, combo, win)
            _keep(best, counts, (evaluator.score(props), part, props))
    return best


def _cards_for(part: Part, group: list[LegalPlay], hand_partitions: HandPartitions) -> LegalPlay:
    """The legal play with the part's counts: a straight flush's own cards, else a play that
    keeps the hand's straight flushes whole, else the first."""
    flush = hand_partitions.flushes.get(part[1])
    if flush is not None and is_bomb(part[0]):
        for play in group:
            if play.cards == flush:
                return play
    reserved = 0
    for cards in hand_partitions.flushes.values():
        reserved |= cards
    for play in group:
        if not play.cards & reserved:
            return play
    return group[0]
