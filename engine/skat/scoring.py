"""Game values, matadors, overbidding and Seeger-Fabian list points (ISkO 2.3-2.5, 3.6; SkWO 6.3).

The functions here are pure arithmetic on a settled game so that the worked examples of
docs/skat-rules.md section 11 can be checked directly, without playing the cards.
"""

from collections.abc import Sequence

import msgspec

from engine.skat.cards import BASE_VALUE, NULL_VALUES, TRUMP_ORDER, CardMask, GameType

__all__ = [
    "BOCK_GAME_VALUE",
    "LOST_DEFENDER_BONUS",
    "WON_BONUS",
    "GameValue",
    "Result",
    "Standing",
    "bock_deals_after",
    "bock_deals_due",
    "doubled",
    "earns_bock",
    "matadors",
    "ramsch_scores",
    "seeger_fabian",
    "standings",
    "value_null_game",
    "value_trump_game",
]

WON_BONUS = 50
# Points for each non-declarer when the declarer loses, by table size (SkWO 6.3.1).
LOST_DEFENDER_BONUS = {3: 40, 4: 30}
SCHNEIDER_POINTS = 90
WIN_POINTS = 61
SCHNEIDER_LOSS_POINTS = 30
ALL_TRICKS = 10
DURCHMARSCH_VALUE = 120
# Bockrunden (house rule): a game worth this much or more earns a round of Bock deals.
BOCK_GAME_VALUE = 120
DRAW_POINTS = 60


def matadors(game: GameType, cards: CardMask) -> int:
    """Matadors of the declarer's twelve cards (dealt ten plus the original skat).

    Positive "with n" when he holds the club jack, negative "without n" otherwise; n is the
    length of the unbroken run from the top of the trump order (ISkO 2.3). Zero in null.
    """
    if game == "null":
        return 0
    order = TRUMP_ORDER[game]
    holds_top = bool(cards >> order[0] & 1)
    run = 0
    for card in order:
        if bool(cards >> card & 1) != holds_top:
            break
        run += 1
    return run if holds_top else -run


class GameValue(msgspec.Struct, frozen=True):
    """Outcome of a declared game: won, the multiplier, the game value and the list value.

    `list_value` is what the list records for the declarer: +value if won, -2 x value if lost
    (ISkO 5.2 / 2022 2.5: every lost game counts double), before Kontra/Re.
    """

    won: bool
    multiplier: int
    game_value: int
    list_value: int
    overbid: bool
    schneider: bool
    schwarz: bool


def value_trump_game(
    game: GameType,
    matador_count: int,
    *,
    hand: bool,
    schneider_announced: bool,
    schwarz_announced: bool,
    ouvert: bool,
    bid: int,
    declarer_points: int,
    declarer_tricks: int,
    lost_anyway: bool = False,
    levels_against_declarer: bool = True,
) -> GameValue:
    """Value of a suit or grand game (docs/skat-rules.md section 5, steps 1-6).

    Args:
        declarer_points: his card points including the skat, after any transfer of tricks.
        declarer_tricks: tricks he took (the skat is not a trick).
        lost_anyway: the declarer gave up or left; the game is lost whatever the points.
        levels_against_declarer: whether schneider/schwarz of the declarer's own party may be
            counted on a loss (not after an early concession, ISkO 4.4.1).

    Failed announcements count the announced level and the level itself (ISkO old 5.2.5, the reading
    docs/skat-rules.md section 10.7 takes); the declarer's own schneider is never counted twice.
    """
    base = BASE_VALUE[game]
    if ouvert:
        hand = schneider_announced = schwarz_announced = True
    if schwarz_announced:
        schneider_announced = True
    needed = SCHNEIDER_POINTS if schneider_announced else WIN_POINTS
    won = (
        not lost_anyway
        and declarer_points >= needed
        and (not schwarz_announced or declarer_tricks == ALL_TRICKS)
    )
    if won:
        schneider = declarer_points >= SCHNEIDER_POINTS
        schwarz = declarer_tricks == ALL_TRICKS
    else:
        schneider = levels_against_declarer and declarer_points <= SCHNEIDER_LOSS_POINTS
        schwarz = levels_against_declarer and declarer_tricks == 0
    multiplier = (
        abs(matador_count)
        + 1
        + hand
        + (schneider or schneider_announced)
        + schneider_announced
        + (schwarz or schwarz_announced)
        + schwarz_announced
        + ouvert
    )
    value = base * multiplier
    overbid = value < bid
    if overbid:
        won = False
        value = -(-bid // base) * base
    return GameValue(
        won=won,
        multiplier=multiplier,
        game_value=value,
        list_value=value if won else -2 * value,
        overbid=overbid,
        schneider=schneider,
        schwarz=schwarz,
    )


def value_null_game(*, hand: bool, ouvert: bool, won: bool) -> GameValue:
    """Value of a null game: 23, 35 hand, 46 ouvert, 59 ouvert hand (ISkO 2.4.2)."""
    value = NULL_VALUES[(ouvert, hand)]
    return GameValue(
        won=won,
        multiplier=1,
        game_value=value,
        list_value=value if won else -2 * value,
        overbid=False,
        schneider=False,
        schwarz=False,
    )


def seeger_fabian(players: int, declarer: int, won: bool, list_value: int) -> tuple[int, ...]:
    """Seeger-Fabian points of one game per seat: declarer list value +50 if won, -50 if lost;
    each other seat (the sitting-out dealer too) +40 at a 3-table, +30 at a 4-table if lost."""
    others = 0 if won else LOST_DEFENDER_BONUS[players]
    own = list_value + (WON_BONUS if won else -WON_BONUS)
    return tuple(own if seat == declarer else others for seat in range(players))


def ramsch_scores(
    points: tuple[int, ...], tricks: tuple[int, ...], pushes: int = 0
) -> tuple[int, ...]:
    """List points of a Ramsch (house rule, docs/skat-rules.md section 3.3) per active player.

    A player taking every trick (Durchmarsch) wins 120. Otherwise the players with the most
    card points lose that many, doubled if some player took no trick (Jungfrau). In a
    Schieberamsch each of the `pushes` doubles the scores.
    """
    factor: int = 2**pushes
    if ALL_TRICKS in tricks:
        return tuple(DURCHMARSCH_VALUE * factor if t == ALL_TRICKS else 0 for t in tricks)
    most = max(points)
    if 0 in tricks:
        factor *= 2
    return tuple(-most * factor if p == most else 0 for p in points)


class Result(msgspec.Struct, frozen=True):
    """The settled result of one deal, from the declarer's view, plus per-seat list points.

    `declarer` is None for a passed-in deal, a Ramsch or a deal aborted before the bidding
    ended. `list_value` is signed as in the ISS record's `v:` (losses x2) and includes
    Kontra/Re and Bock (`bock`: the deal counted double); `matadors` is signed as in `m:`.
    `seeger_fabian` has one entry per table seat. `pushes`: the skat pushes of a
    Schieberamsch (each doubled it). `bock_due`: the Bock deals the list still owes after
    this deal (house rule Bockrunden; 0 without it).
    """

    declarer: int | None
    game: GameType | None
    hand: bool
    schneider_announced: bool
    schwarz_announced: bool
    ouvert: bool
    bid: int
    won: bool | None
    game_value: int
    list_value: int
    matadors: int
    overbid: bool
    declarer_points: int
    declarer_tricks: int
    schneider: bool
    schwarz: bool
    seeger_fabian: tuple[int, ...]
    passed_in: bool = False
    ramsch: bool = False
    aborted: bool = False
    resigned: bool = False
    penalized: tuple[int, ...] = ()
    kontra: int = 0
    ended_by: str = "played_out"
    bock: bool = False
    pushes: int = 0
    bock_due: int = 0


class Standing(msgspec.Struct, frozen=True):
    """A seat's totals over a list (SkWO 6.3.1)."""

    seat: int
    game_points: int
    won: int
    lost: int
    fabian: int
    performance: int


def standings(players: int, results: list[Result]) -> list[Standing]:
    """Totals per seat over a list, ordered by performance, then more games won, then fewer
    games lost (SkWO 6.3.1); the final tie-break by lot is left to the caller."""
    totals = []
    for seat in range(players):
        own = [r for r in results if r.declarer == seat and r.won is not None]
        game_points = sum(r.list_value for r in own) + sum(
            r.seeger_fabian[seat] for r in results if r.ramsch
        )
        won = sum(1 for r in own if r.won)
        lost = len(own) - won
        fabian = sum(
            r.seeger_fabian[seat]
            for r in results
            if r.declarer is not None and r.declarer != seat and r.won is False
        )
        performance = game_points + WON_BONUS * (won - lost) + fabian
        totals.append(Standing(seat, game_points, won, lost, fabian, performance))
    return sorted(totals, key=lambda s: (-s.performance, -s.won, s.lost, s.seat))


def doubled(list_value: int, *, kontra: int, bock: bool) -> int:
    """A list value with its doublings: Kontra, Re (`kontra` 1 or 2) and a Bock deal each
    double it (house rules, docs/skat-rules.md sections 3.4, 3.5)."""
    factor: int = 2**kontra * (2 if bock else 1)
    return list_value * factor


def earns_bock(result: Result) -> bool:
    """Whether a deal earns a round of Bock deals (house rule, docs/skat-rules.md section 3.5):
    every player passed (passed in, or the Ramsch played instead), a game lost after Kontra,
    a game worth 120 or more before Kontra and Bock, or a game played out at 60 to 60."""
    if result.passed_in or result.ramsch:
        return True
    if result.declarer is None or result.won is None or result.aborted:
        return False
    return (
        (result.kontra > 0 and not result.won)
        or result.game_value >= BOCK_GAME_VALUE
        or (
            result.game != "null"
            and result.ended_by == "played_out"
            and result.declarer_points == DRAW_POINTS
        )
    )


def bock_deals_due(players: int, results: Sequence[Result]) -> int:
    """Bock deals still owed after the deals `results` of a list, in order."""
    due = 0
    for result in results:
        due = bock_deals_after(players, due, result)
    return due


def bock_deals_after(players: int, due: int, result: Result) -> int:
    """Bock deals owed after a deal that began with `due` owed: the deal is one of them if
    any were, and if it earns Bock it adds a round of one deal per player, queued after the
    rounds still running (they never overlap)."""
    left = due - 1 if due else 0
    return left + players if earns_bock(result) else left
