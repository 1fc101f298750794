"""The declarer's skat decisions: hand or pickup, the discard, and the game to announce.

All three compare candidate games by their expected list value over solved worlds
(`bots.skat.evaluation.win_odds`). The discard considers all 66 pairs: a fast rule ranks them
per game, and the best pairs of the most promising games are solved. A discard or game whose
value cannot reach the bid is chosen only when no candidate reaches it (ISkO 3.6: an overbid
game is lost whatever the cards).
"""

from typing import Final

import numpy as np

from bots.policy import Decision
from bots.skat.bidding import candidate_games
from bots.skat.evaluation import GameOdds, base_game_value, quick_discard, win_odds
from bots.skat.montecarlo import shared_solver
from engine.skat.actions import Action, Declare, Discard, PickUpSkat
from engine.skat.cards import CardMask, GameType, format_cards, parse_cards
from engine.skat.observation import Observation

__all__ = [
    "candidates_for_bid",
    "choose_declaration",
    "choose_discard",
    "choose_hand_or_skat",
]

HAND_MARGIN: Final = 0.15  # a hand game must beat the risk threshold by this much


def candidates_for_bid(cards: CardMask, bid: int) -> list[GameType]:
    """`candidate_games`, plus grand when only grand's value reaches the bid: the bidders
    value grand by its chance, which the strength heuristic behind `candidate_games` ranks
    low, and an overbid game is lost whatever the cards."""
    games = candidate_games(cards)
    reaches = [base_game_value(cards, g, hand=False) >= bid for g in (*games, "grand")]
    if "grand" not in games and not any(reaches[:-1]) and reaches[-1]:
        games.append("grand")
    return games


def _share(seconds: float | None, games: list[GameType]) -> float | None:
    """Each candidate game's part of a decision's time budget."""
    return None if seconds is None or not games else seconds / len(games)


def _ranked(odds: list[GameOdds], bid: int) -> list[GameOdds]:
    """Best first: games that reach the bid, then by expected list value."""
    return sorted(odds, key=lambda o: (o.value >= bid, o.expected_list_value), reverse=True)


def choose_hand_or_skat(
    obs: Observation,
    rng: np.random.Generator,
    *,
    worlds: int,
    risk: float,
    seconds: float | None = None,
) -> Decision[Action]:
    """Play hand when a hand game is clearly good enough, else pick up the skat."""
    cards = parse_cards(obs.hand)
    games = candidates_for_bid(cards, obs.bid)
    odds = [
        win_odds(
            shared_solver(),
            cards,
            game,
            position=obs.position,
            hand=True,
            worlds=worlds,
            rng=rng,
            seconds=_share(seconds, games),
        )
        for game in games
    ]
    best = _ranked(odds, obs.bid)[0]
    diagnostics = {"hand_odds": {o.game: round(o.win_rate, 3) for o in odds}}
    if best.value >= obs.bid and best.win_rate >= min(1.0, risk + HAND_MARGIN):
        return Decision(Declare(best.game), diagnostics)
    return Decision(PickUpSkat(), diagnostics)


def choose_discard(
    obs: Observation, rng: np.random.Generator, *, worlds: int, seconds: float | None = None
) -> Decision[Action]:
    """The discard of the best (game, pair) candidate."""
    twelve = parse_cards(obs.hand)
    best: tuple[GameOdds, CardMask] | None = None
    evaluated = {}
    games = candidates_for_bid(twelve, obs.bid)
    for game in games:
        pair = quick_discard(twelve, game)
        ten = twelve & ~pair
        odds = win_odds(
            shared_solver(),
            ten,
            game,
            position=obs.position,
            hand=False,
            worlds=worlds,
            rng=rng,
            skat=pair,
            seconds=_share(seconds, games),
        )
        odds = GameOdds(
            odds.game, False, odds.worlds, odds.wins, base_game_value(twelve, odds.game, hand=False)
        )
        evaluated[game] = (round(odds.win_rate, 3), format_cards(pair))
        if best is None or _ranked([odds, best[0]], obs.bid)[0] is odds:
            best = (odds, pair)
    assert best is not None  # candidate_games always names at least two trump games
    first, second = format_cards(best[1])
    return Decision(Discard((first, second)), {"game": best[0].game, "candidates": evaluated})


def choose_declaration(
    obs: Observation, rng: np.random.Generator, *, worlds: int, seconds: float | None = None
) -> Decision[Action]:
    """Announce the best game for the ten cards kept and the known skat."""
    ten = parse_cards(obs.hand)
    skat = parse_cards(obs.discarded)
    legal_games = {a.game for a in obs.legal if isinstance(a, Declare) and not a.ouvert}
    games = [g for g in candidates_for_bid(ten | skat, obs.bid) if g in legal_games]
    odds = [
        GameOdds(o.game, False, o.worlds, o.wins, base_game_value(ten | skat, o.game, hand=False))
        for o in (
            win_odds(
                shared_solver(),
                ten,
                game,
                position=obs.position,
                hand=False,
                worlds=worlds,
                rng=rng,
                skat=skat,
                seconds=_share(seconds, games),
            )
            for game in games
        )
    ]
    if not odds:
        game: GameType = "grand"
        return Decision(Declare(game), {"reason": "no candidate game is declarable"})
    best = _ranked(odds, obs.bid)[0]
    return Decision(
        Declare(best.game),
        {"odds": {o.game: round(o.win_rate, 3) for o in odds}, "value": best.value},
    )
