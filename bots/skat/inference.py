"""Inference of hidden cards: weight sampled worlds by how likely the others' actions were.

`bots.skat.sampling` draws worlds uniformly from those consistent with the hard facts
(cards seen, voids shown). What the other players *chose* says more: a player who bid 36
probably holds a hand worth 36, a passer probably does not, the declarer of clubs holds clubs
and jacks, a defender who let his partner's trick go without a ten he could have added
probably had none. Each such action gets a likelihood under a simple model of the player,
computed from the world's cards for that player; a world's weight is the product, with every
factor floored (`FLOOR`, `CONTRACT_FLOOR` for the sharper contract signal) so that no single
mis-modelled action can rule a world out, and tempered (`TEMPER`) against over-confidence.

Signals (one factor each, all in `log_likelihood`):
* auction: `reach(cards, v)`, the chance that a hand's bidding limit is at least `v`, is a
  logistic of the rule-of-thumb strength of its best trump game (`bots.skat.hand_value`)
  times a penalty when that game's value falls short of `v`, with null as an option up to
  its values. A seat that said or held `r` and refused `p` contributes reach(r) - reach(p)
  (its limit lies in between; reach(0) = 1, and a seat that never passed has no upper bound);
* contract (declarer only): the strength of his playing cards in the declared trump game (or
  how safe they are for null), and whether his matadors (skat included) reach the final bid;
* discard: a declarer who took the skat rarely lays away a trump;
* card play (defenders only): the last player of a trick his partner wins, following suit
  while he holds the suit's ace or ten and plays a card worth less, is unlikely (smearing).

`weighted_worlds` draws `OVERSAMPLE` times the worlds wanted, weights them and resamples the
wanted number (systematic resampling), so that the solver spends its time on likely worlds;
duplicates are merged into a count. Sharp weights can leave a handful of worlds carrying
everything; there the log-likelihoods are scaled down until the effective sample size is
half the worlds wanted (`MIN_ESS_SHARE`).
"""

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from bots.skat.features import null_features
from bots.skat.hand_value import TRUMP_GAMES, strength
from bots.skat.sampling import World, sample_worlds
from engine.bits import popcount
from engine.skat.actions import Bid, Declare, Hold, Pass
from engine.skat.cards import (
    BASE_VALUE,
    CARD_POINTS,
    NULL_VALUES,
    CardMask,
    GameType,
    effective_suit,
    parse_card,
    trump_mask,
)
from engine.skat.observation import Observation
from engine.skat.rules import BID_VALUES
from engine.skat.scoring import matadors

__all__ = [
    "CONTRACT_FLOOR",
    "FLOOR",
    "MIN_ESS_SHARE",
    "OVERSAMPLE",
    "TEMPER",
    "Auction",
    "auction_likelihood",
    "auction_of",
    "log_likelihood",
    "reach",
    "weighted_worlds",
    "world_weights",
]

FloatArray = npt.NDArray[np.float64]

FLOOR: Final = 0.01  # no factor below this: a mis-modelled action never excludes a world
CONTRACT_FLOOR: Final = 0.001  # the contract is a sharper signal than a bid or a card
TEMPER: Final = 2.0  # exponent on the product of factors (below 1: flatter weights)
OVERSAMPLE: Final = 4  # worlds drawn per world kept
MIN_ESS_SHARE: Final = 0.5  # card play keeps an effective sample of half the worlds it solves
ESS_STEPS: Final = 12  # bisection steps for the exponent that reaches it
BID_STRENGTH: Final = 8.0  # best trump game strength at which half the hands bid
BID_SPREAD: Final = 0.5  # logistic scale of that strength
SHORT_VALUE: Final = 0.15  # chance a hand bids past its game's matador value (hand, schneider)
NULL_CHANCE: Final = (0.6, 0.25)  # chance a hand bids null with 0 or 1 unsafe suits
DECLARER_STRENGTH: Final = 9.5  # strength of a declarer's playing cards at which half declare
NULL_UNSAFE_COST: Final = 1.5  # log-likelihood cost per unsafe null suit of a null declarer
SMEAR_MISS: Final = 0.3  # chance of not smearing a held ace or ten onto partner's trick
SMEAR_POINTS: Final = 10
DISCARD_TRUMP: Final = 0.2  # chance a declarer lays away a trump, per trump in the skat


@dataclass(frozen=True)
class Auction:
    """What each seat showed in the bidding: the highest value it said or held (0: none)
    and the value it refused by passing (0: did not pass)."""

    reached: tuple[int, ...]
    refused: tuple[int, ...]


def auction_of(obs: Observation) -> Auction:
    """Each seat's reached and refused value from the bidding history.

    A pass refuses the value on the table if the seat had not said or held it (he was asked
    to hold it), else the next bid value (he was to say more).
    """
    reached = [0] * obs.players
    refused = [0] * obs.players
    current = 0
    for seen in obs.history:
        action, seat = seen.action, seen.seat
        if isinstance(action, Bid):
            current = action.value
            reached[seat] = current
        elif isinstance(action, Hold):
            reached[seat] = current
        elif isinstance(action, Pass):
            refused[seat] = current if current > reached[seat] else _next_bid(current)
    return Auction(tuple(reached), tuple(refused))


def _next_bid(value: int) -> int:
    return next((v for v in BID_VALUES if v > value), BID_VALUES[-1])


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + float(np.exp(-x)))


@lru_cache(maxsize=1 << 16)
def reach(cards: CardMask, value: int) -> float:
    """The modelled chance that a seat with `cards` (ten) says or holds `value`."""
    best = 0.0
    for game in TRUMP_GAMES:
        playable = _logistic((strength(cards, game) - BID_STRENGTH) / BID_SPREAD)
        if BASE_VALUE[game] * (abs(matadors(game, cards)) + 1) < value:
            playable *= SHORT_VALUE
        best = max(best, playable)
    if value <= NULL_VALUES[(False, True)]:
        unsafe = int(null_features(cards)[2])
        if unsafe < len(NULL_CHANCE):
            best = max(best, NULL_CHANCE[unsafe])
    return best


def auction_likelihood(cards: CardMask, reached: int, refused: int) -> float:
    """The chance of a bidding that reached `reached` (0: said nothing) and passed at
    `refused` (0: never passed): the modelled limit of `cards` lies between the two."""
    upper = reach(cards, refused) if refused else 0.0
    lower = reach(cards, reached) if reached else 1.0
    return max(lower - upper, 0.0)


@lru_cache(maxsize=1 << 16)
def _declarer_factor(playing: CardMask, twelve: CardMask, game: GameType, need: int) -> float:
    """Likelihood of declaring `game` with the playing cards `playing` (`twelve`: with the
    skat, for the matadors) when the bid demands `need` multiplied by the game's base value."""
    if game == "null":
        unsafe = float(null_features(playing)[2])
        return float(np.exp(-NULL_UNSAFE_COST * unsafe))
    factor = _logistic((strength(playing, game) - DECLARER_STRENGTH) / BID_SPREAD)
    if abs(matadors(game, twelve)) + 1 < need:
        factor *= SHORT_VALUE
    return factor


Trick = tuple[tuple[tuple[int, int], ...], int]  # (seat, card) in playing order, winner


def _tricks(obs: Observation) -> list[Trick]:
    """The tricks so far as (seat, card) pairs with the winner (-1: the trick on the table)."""
    order = obs.order
    tricks = [(t.leader, t.cards, t.winner) for t in obs.tricks]
    if obs.trick and obs.trick_leader is not None:
        tricks.append((obs.trick_leader, obs.trick, -1))
    result: list[Trick] = []
    for leader, cards, winner in tricks:
        start = order.index(leader)
        plays = tuple((order[(start + i) % 3], parse_card(text)) for i, text in enumerate(cards))
        result.append((plays, winner))
    return result


def log_likelihood(obs: Observation, worlds: list[World]) -> FloatArray:
    """Per world, the log-likelihood of the other seats' actions (see the module doc)."""
    auction = auction_of(obs)
    tricks = _tricks(obs)
    played = [0] * obs.players
    for plays, _ in tricks:
        for seat, card in plays:
            played[seat] |= 1 << card
    declarer, contract = obs.declarer, obs.contract
    active = obs.order
    hidden = [s for s in active if s != obs.seat and obs.open_hands[s] is None]
    floor = np.log(FLOOR)
    result = np.zeros(len(worlds))
    for w, world in enumerate(worlds):
        total = 0.0
        for seat in hidden:
            cards = world.hands[seat] | played[seat]
            if seat == declarer and contract is not None:
                factor = _contract_likelihood(obs, contract, cards, world)
                total += np.log(max(CONTRACT_FLOOR, factor))
            else:
                said = auction_likelihood(cards, auction.reached[seat], auction.refused[seat])
                total += max(floor, np.log(said + 1e-12))
        if contract is not None and contract.game != "null":
            total += _smear_log_likelihood(obs, world, tricks, contract.game)
            if declarer != obs.seat and not obs.hand_game:
                laid_trumps = popcount(world.skat & trump_mask(contract.game))
                total += laid_trumps * float(np.log(DISCARD_TRUMP))
        result[w] = TEMPER * total
    return result


def _contract_likelihood(
    obs: Observation, contract: Declare, playing: CardMask, world: World
) -> float:
    twelve = playing if obs.hand_game else playing | world.skat
    need = 0
    if contract.game != "null":
        base = BASE_VALUE[contract.game]
        level = obs.hand_game + contract.schneider + contract.schwarz + contract.ouvert
        need = -(-obs.bid // base) - level
    return _declarer_factor(playing, twelve, contract.game, need)


def _smear_log_likelihood(
    obs: Observation, world: World, tricks: list[Trick], game: GameType
) -> float:
    """Log-likelihood of the defenders' last cards in tricks their partner won: following
    suit with less than the suit's ace or ten he held is unlikely."""
    total = 0.0
    later = [0] * obs.players  # cards each seat played from the trick in question on
    for plays, winner in reversed(tricks):
        for seat, card in plays:
            later[seat] |= 1 << card
        if len(plays) < 3:
            continue
        seat, card = plays[2]
        led = effective_suit(game, plays[0][1])
        if seat in (obs.seat, obs.declarer) or winner in (obs.declarer, seat):
            continue
        if effective_suit(game, card) != led or CARD_POINTS[card] >= SMEAR_POINTS:
            continue
        held = world.hands[seat] | later[seat]
        if any(
            held >> c & 1 and effective_suit(game, c) == led and CARD_POINTS[c] >= SMEAR_POINTS
            for c in range(32)
        ):
            total += float(np.log(SMEAR_MISS))
    return total


def world_weights(obs: Observation, worlds: list[World], *, min_ess: float = 0.0) -> FloatArray:
    """Normalised weights of `worlds` (finite, summing to 1). With `min_ess` the
    log-likelihoods are scaled down (by bisection on the exponent) until the effective
    sample size 1 / sum(w**2) reaches `min_ess`: a few dominant worlds would leave the
    solver little to average."""
    if not worlds:
        return np.zeros(0)
    logs = log_likelihood(obs, worlds)
    weights = _normalised(logs)
    if _ess(weights) >= min_ess:
        return weights
    low, high = 0.0, 1.0
    for _ in range(ESS_STEPS):
        middle = (low + high) / 2
        if _ess(_normalised(middle * logs)) >= min_ess:
            low = middle
        else:
            high = middle
    return _normalised(low * logs)


def _normalised(logs: FloatArray) -> FloatArray:
    weights: FloatArray = np.exp(logs - logs.max())
    normalised: FloatArray = weights / weights.sum()
    return normalised


def _ess(weights: FloatArray) -> float:
    return float(1.0 / (weights**2).sum())


def weighted_worlds(
    obs: Observation, n: int, rng: np.random.Generator
) -> tuple[list[World], list[int]]:
    """About `n` worlds resampled by weight from `OVERSAMPLE * n` uniform ones, with how many
    times each was drawn (duplicates merged, in the order first drawn); the weights keep an
    effective sample size of at least `MIN_ESS_SHARE * n`."""
    pool = sample_worlds(obs, OVERSAMPLE * n, rng)
    weights = world_weights(obs, pool, min_ess=MIN_ESS_SHARE * n)
    positions = (rng.random() + np.arange(n)) / n
    picks = np.minimum(np.searchsorted(np.cumsum(weights), positions), len(pool) - 1)
    counts: dict[int, int] = {}
    for index in rng.permutation(picks):
        counts[int(index)] = counts.get(int(index), 0) + 1
    return [pool[i] for i in counts], list(counts.values())
