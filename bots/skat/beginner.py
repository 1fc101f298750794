"""The `beginner` Skat bot: a person learning the game, not a throttled expert.

Bidding goes by what a learner counts: jacks plus the cards of the longest suit are the
trumps, side aces are tricks; a hand with at least seven such trumps-and-aces (and a jack) is
worth a suit game, three jacks and two aces a grand, and the bid goes up to the game's value
with its matadors. No null, no hand game, no announcements. The skat is always picked up; the
game is counted again on the twelve cards, the discard keeps its most trumps-and-aces and
saves the most points, and that game is declared if it reaches the bid.

Card play is the rule of thumb of the `greedy` bot (draw trumps, cash aces, take a trick
worth taking cheaply, smear on the partner's trick) with a beginner's two weaknesses:
* memory: each finished trick is remembered with a chance of `MEMORY`, so the bot may draw
  trumps nobody holds any more;
* card values: on a share `SLIP` of the card decisions it misjudges the cards and plays the
  one whose points, seen through noise, look cheapest, instead of the rule's card.
A slip is never absurd: it never gives ten points or more to a trick the other side wins when
a cheaper card would do, and never spends a jack or the trump ace or ten on a trick its own
side already wins. Ramsch, null defence and claims are played as `greedy` plays them.

Everything is a rule or a draw from `rng`: no search, a decision takes well under a millisecond.
"""

from typing import Final

import msgspec
import numpy as np

from bots.policy import Decision
from bots.skat.baseline import game_moves
from bots.skat.greedy import bid_to_limit, greedy_policy
from bots.skat.hand_value import game_value_estimate
from engine.bits import iter_bits, popcount
from engine.skat.actions import Action, Declare, Discard, PickUpSkat, Play
from engine.skat.cards import (
    CARD_POINTS,
    JACKS,
    SUIT_CARDS,
    SUIT_GAMES,
    TRUMP_SUIT,
    CardMask,
    GameType,
    beats,
    effective_suit,
    format_card,
    parse_card,
    parse_cards,
    suit_card,
    winning_index,
)
from engine.skat.observation import Observation

__all__ = ["MEMORY", "SLIP", "beginner_policy", "count_hand", "is_silly"]

MEMORY: Final = 0.5  # chance that a finished trick is remembered at a card decision
SLIP: Final = 0.25  # share of card decisions on which the card values are misjudged
VALUE_NOISE: Final = 8.0  # standard deviation of the misjudged card points
SUIT_GAME_COUNT: Final = 7  # trumps plus side aces a suit game needs
GRAND_JACKS: Final = 3
GRAND_ACES: Final = 2
TRUMP_GROUP: Final = 4
HIGH_POINTS: Final = 10  # an ace or a ten


class HandCount(msgspec.Struct, frozen=True):
    """A learner's count of a hand: the game it suggests, its trumps plus side aces, and
    whether that is enough to play."""

    game: GameType
    count: int
    playable: bool


def _aces(cards: CardMask, trump_suit: int | None) -> int:
    return sum(bool(cards >> suit_card(s, "A") & 1) for s in range(4) if s != trump_suit)


def count_hand(cards: CardMask) -> HandCount:
    """Jacks and the longest suit are trumps, side aces are tricks (ties: the suit with more
    points, then the higher suit)."""
    jacks = popcount(cards & JACKS)
    suit = max(
        range(4),
        key=lambda s: (popcount(cards & SUIT_CARDS[s]), _points(cards & SUIT_CARDS[s]), -s),
    )
    if jacks >= GRAND_JACKS and _aces(cards, None) >= GRAND_ACES:
        return HandCount("grand", jacks + _aces(cards, None), True)
    count = jacks + popcount(cards & SUIT_CARDS[suit]) + _aces(cards, suit)
    return HandCount(SUIT_GAMES[suit], count, jacks >= 1 and count >= SUIT_GAME_COUNT)


def _points(cards: CardMask) -> int:
    return sum(CARD_POINTS[c] for c in iter_bits(cards))


def _count_in(cards: CardMask, game: GameType) -> int:
    """Trumps plus side aces of `cards` in the trump game `game`."""
    jacks = popcount(cards & JACKS)
    if game == "grand":
        return jacks + _aces(cards, None)
    suit = TRUMP_SUIT[game]
    return jacks + popcount(cards & SUIT_CARDS[suit]) + _aces(cards, suit)


def beginner_policy(obs: Observation, rng: np.random.Generator) -> Decision[Action]:
    """Decide as a learner would; deterministic for the state of `rng`."""
    moves = game_moves(obs)
    if not moves:
        raise ValueError("the observing seat has no move to make")
    if obs.ramsch or obs.claim_open:
        return greedy_policy(obs, rng)
    if obs.phase == "bidding":
        return _bid(obs, moves)
    if obs.phase == "skat":
        return Decision(PickUpSkat(), {"reason": "always look at the skat"})
    if obs.phase == "discard":
        return _discard(obs, moves)
    if obs.phase == "declare":
        return _declare(obs, moves)
    if obs.contract is not None and obs.contract.game == "null":
        return greedy_policy(obs, rng)
    return _play(obs, moves, rng)


def _bid(obs: Observation, moves: list[Action]) -> Decision[Action]:
    cards = parse_cards(obs.hand)
    counted = count_hand(cards)
    limit = game_value_estimate(cards, counted.game) if counted.playable else 0
    diagnostics = {"game": counted.game, "count": counted.count, "limit": limit}
    return bid_to_limit(obs, moves, limit, diagnostics)


def _discard(obs: Observation, moves: list[Action]) -> Decision[Action]:
    cards = parse_cards(obs.hand)
    game = count_hand(cards).game
    best: tuple[int, int, Action] | None = None
    for move in moves:
        if not isinstance(move, Discard):
            continue
        laid = parse_cards(move.cards)
        key = (_count_in(cards & ~laid, game), _points(laid), move)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None  # the discard phase always offers 66 discards
    return Decision(best[2], {"game": game, "count": best[0], "points_saved": best[1]})


def _declare(obs: Observation, moves: list[Action]) -> Decision[Action]:
    """The game counted on the twelve cards (the one the discard kept trumps for) if it
    reaches the bid, else the one with the most trumps and aces among those that do."""
    playing = parse_cards(obs.hand)
    twelve = playing | parse_cards(obs.discarded)
    counted = count_hand(twelve).game
    if game_value_estimate(twelve, counted) >= obs.bid and Declare(counted) in moves:
        return Decision(Declare(counted), {"count": _count_in(playing, counted), "counted": True})
    options: list[tuple[bool, int, int, GameType]] = []
    for move in moves:
        if isinstance(move, Declare) and move.game != "null" and not move.schneider:
            reaches = game_value_estimate(twelve, move.game) >= obs.bid
            value = game_value_estimate(twelve, move.game)
            options.append((reaches, _count_in(playing, move.game), value, move.game))
    reaches, count, _, game = max(options)
    return Decision(Declare(game), {"count": count, "reaches_bid": reaches})


def _play(obs: Observation, moves: list[Action], rng: np.random.Generator) -> Decision[Action]:
    """The greedy rules on the tricks the beginner remembers, now and then a slip."""
    remembered = tuple(t for t in obs.tricks if rng.random() < MEMORY)
    rule = greedy_policy(msgspec.structs.replace(obs, tricks=remembered), rng)
    plays = [parse_card(m.card) for m in moves if isinstance(m, Play)]
    if len(plays) < 2 or rng.random() >= SLIP or obs.contract is None:
        return rule
    game = obs.contract.game
    sensible = [c for c in plays if not is_silly(obs, game, c, plays)]
    if not sensible:
        return rule
    perceived = [CARD_POINTS[c] + rng.normal(0.0, VALUE_NOISE) for c in sensible]
    card = sensible[int(np.argmin(perceived))]
    return Decision(Play(format_card(card)), {"reason": "misjudged the cards"})


def is_silly(obs: Observation, game: GameType, card: int, plays: list[int]) -> bool:
    """Whether playing `card` (one of the legal `plays`) would be an absurd waste: ten points
    or more thrown onto a trick the other side wins although a cheaper losing card is at
    hand, or a jack or the trump ace or ten spent on a trick the own side already wins
    although another card is at hand. Leads are never absurd."""
    if not obs.trick:
        return False
    table = [parse_card(c) for c in obs.trick]
    best = table[winning_index(game, table)]
    leader = obs.trick_leader
    assert leader is not None
    order = obs.order
    winner = order[(order.index(leader) + winning_index(game, table)) % 3]
    own_side = winner == obs.seat or (
        obs.declarer is not None and obs.seat != obs.declarer and winner != obs.declarer
    )
    big_trump = effective_suit(game, card) == TRUMP_GROUP and (
        bool(1 << card & JACKS) or CARD_POINTS[card] >= HIGH_POINTS
    )
    if own_side:
        overtakes = beats(game, card, best) or bool(1 << card & JACKS)
        return big_trump and overtakes and any(c != card for c in plays)
    if beats(game, card, best):
        return False
    cheaper = [c for c in plays if not beats(game, c, best) and CARD_POINTS[c] < CARD_POINTS[card]]
    return CARD_POINTS[card] >= HIGH_POINTS and bool(cheaper)
