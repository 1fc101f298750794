"""The `greedy` Skat bot: simple rules a club player would recognise, no search.

Bidding: bid or hold up to the value of its strongest trump game if that game looks playable.
Skat: always picks up; discards the pair that leaves the strongest game and saves the most
points. Card play: the declarer draws trumps, then cashes aces; everybody wins a trick with the
cheapest winning card when it carries points or is the last card, smears points on a partner's
trick when last, and otherwise throws the lowest card. Null and Ramsch: duck. Schieberamsch:
picks up the skat only with a hand that would take points anyway (two jacks or more, or 40
card points or more) and then pushes the two costliest cards it may; otherwise passes it on
unseen, not doubling the stakes. A claim is answered as every bot answers it
(`bots.skat.claims`).
"""

from typing import Any, Final

import numpy as np

from bots.policy import Decision
from bots.skat.baseline import game_moves
from bots.skat.hand_value import best_trump_game, game_value_estimate, rule_of_thumb_limit, strength
from engine.bits import iter_bits, popcount
from engine.skat.actions import Action, Bid, Declare, Discard, Hold, Pass, PickUpSkat, Play
from engine.skat.cards import (
    CARD_POINTS,
    JACKS,
    GameType,
    beats,
    effective_suit,
    format_card,
    parse_card,
    parse_cards,
    power,
    trump_mask,
    winning_index,
)
from engine.skat.observation import Observation
from engine.skat.rules import BID_VALUES

__all__ = ["bid_to_limit", "greedy_policy"]

TRICK_WORTH_WINNING: Final = 3  # card points on the table that make a trick worth taking
TRUMP_GROUP: Final = 4
CLUB_JACK: Final = parse_card("JC")  # cannot be beaten: safe to add points under it
# Schieberamsch: a hand this strong takes points anyway, so picking up to shed two is worth
# the doubling.
PICK_UP_JACKS: Final = 2
PICK_UP_POINTS: Final = 40


def greedy_policy(obs: Observation, rng: np.random.Generator) -> Decision[Action]:
    """Choose by rules of thumb; `rng` only breaks exact ties (deterministic per seed)."""
    moves = game_moves(obs)
    if not moves:
        raise ValueError("the observing seat has no move to make")
    if obs.claim_open:
        from bots.skat.claims import answer_claim  # loads the solver: only when needed

        return answer_claim(obs)
    if obs.phase == "bidding":
        return _bid(obs, moves)
    if obs.phase == "skat":
        return Decision(PickUpSkat(), {"reason": "always play with the skat"})
    if obs.phase == "discard":
        return _discard(obs, moves)
    if obs.phase == "declare":
        return _declare(obs, moves)
    if obs.phase == "push":
        return _push(obs, moves)
    return _play(obs, moves, rng)


def _push(obs: Observation, moves: list[Action]) -> Decision[Action]:
    """Schieberamsch: pick up with a dangerous hand and push its two costliest cards on;
    pass a safe hand on unseen."""
    cards = parse_cards(obs.hand)
    if PickUpSkat() in moves:
        jacks = popcount(cards & JACKS)
        points = sum(CARD_POINTS[c] for c in iter_bits(cards))
        risky = jacks >= PICK_UP_JACKS or points >= PICK_UP_POINTS
        reason = "pick up a dangerous hand" if risky else "pass a safe hand on"
        return Decision(
            PickUpSkat() if risky else Pass(), {"reason": reason, "jacks": jacks, "points": points}
        )
    pushes = [m for m in moves if isinstance(m, Discard)]
    best = max(pushes, key=lambda m: sum(CARD_POINTS[c] for c in iter_bits(parse_cards(m.cards))))
    pushed = sum(CARD_POINTS[parse_card(c)] for c in best.cards)
    return Decision(best, {"reason": "push the costliest cards", "points_pushed": pushed})


def _bid(obs: Observation, moves: list[Action]) -> Decision[Action]:
    game, limit = rule_of_thumb_limit(parse_cards(obs.hand))
    return bid_to_limit(obs, moves, limit, {"game": game, "limit": limit})


def bid_to_limit(
    obs: Observation, moves: list[Action], limit: int, diagnostics: dict[str, Any]
) -> Decision[Action]:
    """Hold, or bid the next value, while the bid stays within `limit`; else pass."""
    if Hold() in moves:
        return Decision(Hold() if obs.bid <= limit else Pass(), diagnostics)
    next_bid = next((v for v in BID_VALUES if v > obs.bid), None)
    if next_bid is not None and next_bid <= limit and Bid(next_bid) in moves:
        return Decision(Bid(next_bid), diagnostics)
    return Decision(Pass(), diagnostics)


def _discard(obs: Observation, moves: list[Action]) -> Decision[Action]:
    cards = parse_cards(obs.hand)
    best: tuple[float, int, Action] | None = None
    for move in moves:
        if not isinstance(move, Discard):
            continue
        laid = parse_cards(move.cards)
        left = cards & ~laid
        _, score = best_trump_game(left)
        saved = sum(CARD_POINTS[c] for c in iter_bits(laid))
        key = (score, saved, move)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None  # the discard phase always offers 66 discards
    return Decision(best[2], {"strength": round(best[0], 2), "points_saved": best[1]})


def _declare(obs: Observation, moves: list[Action]) -> Decision[Action]:
    cards = parse_cards(obs.hand) | parse_cards(obs.discarded)
    playing = parse_cards(obs.hand)
    options: list[tuple[bool, float, GameType]] = []
    for move in moves:
        if isinstance(move, Declare) and move.game != "null" and not move.schneider:
            reaches = game_value_estimate(cards, move.game) >= obs.bid
            options.append((reaches, strength(playing, move.game), move.game))
    reaches, score, game = max(options)
    return Decision(Declare(game), {"strength": round(score, 2), "reaches_bid": reaches})


def _play(obs: Observation, moves: list[Action], rng: np.random.Generator) -> Decision[Action]:
    plays = [parse_card(m.card) for m in moves if isinstance(m, Play)]
    if not plays:
        return Decision(moves[int(rng.integers(len(moves)))], {"reason": "no card to play"})
    game: GameType = "grand" if obs.ramsch or obs.contract is None else obs.contract.game
    ducking = obs.ramsch or game == "null"
    if not obs.trick:
        card, reason = _lead(obs, plays, game, ducking)
    else:
        card, reason = _follow(obs, plays, game, ducking)
    return Decision(Play(format_card(card)), {"reason": reason})


def _lowest(plays: list[int], game: GameType) -> int:
    return min(plays, key=lambda c: (CARD_POINTS[c], power(game, c), c))


def _lead(obs: Observation, plays: list[int], game: GameType, ducking: bool) -> tuple[int, str]:
    if ducking:
        return min(plays, key=lambda c: (power(game, c), c)), "lead low"
    trumps = [c for c in plays if effective_suit(game, c) == TRUMP_GROUP]
    if obs.seat == obs.declarer and trumps and _trumps_out(obs, game):
        return max(trumps, key=lambda c: power(game, c)), "draw trumps"
    aces = [c for c in plays if effective_suit(game, c) != TRUMP_GROUP and _is_ace(c)]
    if aces:
        return aces[0], "cash an ace"
    side = [c for c in plays if effective_suit(game, c) != TRUMP_GROUP] or plays
    return _lowest(side, game), "lead low"


def _is_ace(card: int) -> bool:
    return format_card(card)[0] == "A"


def _trumps_out(obs: Observation, game: GameType) -> bool:
    """Whether trumps other than the declarer's own may still be in the defenders' hands."""
    seen = parse_cards(obs.hand)
    for trick in obs.tricks:
        seen |= parse_cards(trick.cards)
    return popcount(trump_mask(game) & ~seen) > 0


def _follow(obs: Observation, plays: list[int], game: GameType, ducking: bool) -> tuple[int, str]:
    table = [parse_card(c) for c in obs.trick]
    best = table[winning_index(game, table)]
    winners = [c for c in plays if beats(game, c, best)]
    losers = [c for c in plays if c not in winners]
    if ducking:
        if losers:
            return max(losers, key=lambda c: (power(game, c), c)), "duck under"
        return min(plays, key=lambda c: (power(game, c), c)), "forced to win"
    last = len(table) == 2
    leader = obs.trick_leader
    order = obs.order
    assert leader is not None
    winner_seat = order[(order.index(leader) + winning_index(game, table)) % 3]
    partner_wins = _same_side(obs, winner_seat)
    on_table = sum(CARD_POINTS[c] for c in table)
    if partner_wins and (last or best == CLUB_JACK):
        smear = max(losers or plays, key=lambda c: (CARD_POINTS[c], -power(game, c)))
        return smear, "smear points on the partner's trick"
    if winners and not partner_wins and (last or on_table >= TRICK_WORTH_WINNING):
        cheapest = min(winners, key=lambda c: (CARD_POINTS[c], power(game, c)))
        return cheapest, "take the trick cheaply"
    return _lowest(losers or plays, game), "throw the lowest card"


def _same_side(obs: Observation, seat: int) -> bool:
    """Whether `seat` plays on the viewer's side (both defenders, or the viewer himself)."""
    if seat == obs.seat:
        return True
    if obs.declarer is None:
        return False
    return obs.seat != obs.declarer and seat != obs.declarer
