"""A Tichu match as a pure state machine (docs/conventions.md section 3).

`new_game` deals the first round; `State.apply(seat, action)` returns the next state or raises
`IllegalAction` with a stable code; `State.legal_actions(seat)` answers for every seat.
`State.apply_listed` is the fast path for an action taken from that list (docs/conventions.md
section 3).

Phases of a round and who may act (`to_move` is the seat whose ordinary turn it is):

* `grand_tichu`: every seat holds its first eight cards and decides (GrandTichu or
  DeclineGrandTichu) independently; `to_move` is None. The fourth decision deals six more.
* `exchange`: every seat fixes its Exchange independently; `to_move` is None. The cards move
  only when all four are fixed, so nobody sees a received card before fixing his own.
* `play`: `to_move` leads or answers the trick. Bombs are interrupts: every seat still holding
  cards may throw a bomb on the combination on the table at any time (the first applied
  counts), also on its own combination and after all others passed. A trick that everybody
  passed stays on the table until its winner (or, when he is out, the next player) leads; that
  lead takes it off. A Dog lead stays on the table the same way, but cannot be bombed.
* `dragon`: a trick won with the Dragon waits for its winner's GiveDragon (`to_move`); bombs
  may still fall on it first.
* `over`: the match is decided.

CallTichu is not turn-bound: any seat still holding all fourteen cards may call, from the
exchange on. Rounds follow each other inside one State; the deal of round k comes from
`GameStart.deals[k]` or else from (`seed`, k), so `replay` needs nothing but the start and the
actions.

The legality of every action lives in `legality`: one predicate per action family, used by
`apply` on the given action and by `legal_actions` on every candidate, so enumeration and
validation cannot disagree.
"""

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

import msgspec

from engine.errors import IllegalAction, InvalidInput
from engine.rng import fresh_seed
from engine.tichu.actions import (
    Action,
    CallTichu,
    DeclineGrandTichu,
    Event,
    Exchange,
    GiveDragon,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.cards import (
    MAHJONG,
    PHOENIX,
    RANK_MASK,
    CardMask,
    parse_card,
    parse_cards,
    parse_rank,
)
from engine.tichu.combos import DOG_COMBO, DRAGON_HEIGHT, NO_COMBO, SINGLE, Combo, classify, combo
from engine.tichu.deal import PARTNER, RIGHT, SEATS, Deal, Hands, deal_from_seed, seat_at
from engine.tichu.legality import (
    BAD_CARDS,
    CALL,
    NO_SUCH_SEAT,
    PASS,
    THIRD_OUT,
    Gift,
    call_error,
    exchange_error,
    give_error,
    grand_error,
    illegal,
    legal_actions,
    pass_error,
    play_context,
    play_error,
    raise_for,
    wish_error,
)
from engine.tichu.observation import Observation, observe
from engine.tichu.rules import Phase, Rules
from engine.tichu.scoring import GRAND, NO_CALL, TICHU, Result, RoundScore, score_round, team_of

__all__ = ["GameStart", "Phase", "Seat", "State", "new_game", "replay"]

Seat = int
Gifts = tuple[Gift | None, Gift | None, Gift | None, Gift | None]

_ALL_SEATS: Final = (1 << SEATS) - 1
_NO_SEAT: Final = -1
_NONE4: Final[Gifts] = (None, None, None, None)
_ZERO4: Final[Hands] = (0, 0, 0, 0)
_PAIR_OUT: Final = 2
_DRAGON_SINGLE: Final = combo(SINGLE, 1, DRAGON_HEIGHT)
_PARSE_CACHE: Final = 1 << 16
_PASS_EVENTS: Final = tuple(Event(seat=seat, action=PASS) for seat in range(SEATS))


class GameStart(msgspec.Struct, frozen=True):
    """Everything a match needs besides the actions: the first event of its log.

    `seed` derives the deal of every round not given in `deals`; it is secret (the State is
    the server's truth) and never appears in an observation.
    """

    rules: Rules
    seed: int
    deals: tuple[Deal, ...] = ()

    def deal(self, round_index: int) -> Deal:
        """The deal of round `round_index` (0-based)."""
        if round_index < len(self.deals):
            return self.deals[round_index]
        return deal_from_seed(self.seed, round_index)


class State(msgspec.Struct, frozen=True, gc=False):
    """The whole truth of a match between two actions; it never leaves the server.

    Immutable and free of reference cycles, so the garbage collector need not track it.

    Attributes:
        start: rules, seed and fixed deals of the match.
        round_index: 0-based number of the current round.
        phase: see the module docstring.
        hands: cards held per seat.
        stock: the six cards per seat not yet dealt (during `grand_tichu`).
        decided: bit set of seats that made their Grand Tichu decision.
        calls: NO_CALL, TICHU or GRAND per seat.
        gifts: the exchange each seat fixed (kept for the round, so observations can show the
            cards received).
        turn: seat whose ordinary turn it is in `play`; the Dragon's winner in `dragon`.
        table: combination on top of the current trick (NO_COMBO: empty table).
        table_cards: its cards.
        owner: seat that played it (for a Dog: the seat receiving the lead).
        trick: every card of the current trick.
        trick_start: index in `log` of the trick's first play.
        passed: bit set of seats that passed since the last play.
        closed: every other player passed; the trick waits for the next lead to collect it.
        wish: wished value 2..14 not yet fulfilled, 0 for none.
        won: cards of the tricks each seat has taken.
        finish: seats in the order they went out.
        past: every action of the finished rounds, one tuple per round.
        log: every action of the current round, private exchanges included (observations
            filter them out).
        totals: match points per team before this round.
        rounds: scores of the finished rounds.
        winner: the winning team once the match is over (None: running or a draw).
    """

    start: GameStart
    round_index: int
    phase: Phase
    hands: Hands
    stock: Hands
    decided: int
    calls: tuple[int, int, int, int]
    gifts: Gifts
    turn: Seat
    table: Combo
    table_cards: CardMask
    owner: Seat
    trick: CardMask
    trick_start: int
    passed: int
    closed: bool
    wish: int
    won: Hands
    finish: tuple[Seat, ...]
    past: tuple[tuple[Event, ...], ...]
    log: tuple[Event, ...]
    totals: tuple[int, int]
    rounds: tuple[RoundScore, ...]
    winner: int | None

    @property
    def rules(self) -> Rules:
        """The rule options of this match."""
        return self.start.rules

    @property
    def to_move(self) -> Seat | None:
        """Seat whose ordinary turn it is; None while seats act simultaneously or when over.

        Interrupts (bombs, Tichu calls) may come from other seats: ask `legal_actions`.
        """
        if self.phase == "play" or self.phase == "dragon":
            return self.turn
        return None

    @property
    def moves(self) -> list[tuple[Seat, Action]]:
        """Every action of the match so far, in order: `replay(start, moves)` gives this state."""
        return [(e.seat, e.action) for log in (*self.past, self.log) for e in log]

    @property
    def is_over(self) -> bool:
        """Whether the match is decided."""
        return self.phase == "over"

    @property
    def result(self) -> Result:
        """Round scores and match totals so far (`winner` set once the match is over)."""
        return Result(
            rounds=self.rounds, totals=self.totals, is_over=self.is_over, winner=self.winner
        )

    def observation(self, seat: Seat | None, *, history: bool = True) -> Observation:
        """What `seat` may know (None: a spectator, public information only); without the
        round's history if `history` is False."""
        return observe(self, seat, history=history)

    def legal_actions(self, seat: Seat, *, exchanges: bool = True) -> list[Action]:
        """Every action `seat` may take now, in or out of turn; each one `apply` accepts.

        `exchanges=False` leaves out the Exchange actions (up to 14*13*12 of them, all "any
        three different cards of your hand"), which observations summarise as a flag.
        """
        if not (isinstance(seat, int) and 0 <= seat < SEATS):
            raise _no_such_seat(seat)
        return legal_actions(self, seat, exchanges)

    def apply(self, seat: Seat, action: Action) -> "State":
        """The state after `seat` takes `action`; raises IllegalAction (code, reason) otherwise.

        Always checks: use it for every action from outside (a client, a stored log).
        """
        return self._apply(seat, action, listed=False)

    def apply_listed(self, seat: Seat, action: Action) -> "State":
        """`apply` for an action the caller took from `self.legal_actions(seat)` (or from this
        state's observation `legal`), which are known legal: a Play or Pass is read but not
        checked again, the usual loop of a bot or a playout (choose from the list, apply).

        The caller vouches for the action; one not from that list gives an undefined state.
        Any other action family is checked as by `apply` (its checks are cheap).
        """
        return self._apply(seat, action, listed=True)

    def _apply(self, seat: Seat, action: Action, *, listed: bool) -> "State":
        if not (isinstance(seat, int) and 0 <= seat < SEATS):
            raise _no_such_seat(seat)
        if self.phase == "over":
            raise illegal("game_over")
        if isinstance(action, Play):
            return _apply_play(self, seat, action, listed)
        if isinstance(action, Pass):
            if not listed:
                raise_for(pass_error(self, seat))
            return _after_pass(self, seat)
        if isinstance(action, CallTichu):
            raise_for(call_error(self, seat))
            return _after_call(self, seat)
        if isinstance(action, _GRAND_ACTIONS):
            raise_for(grand_error(self, seat))
            return _after_grand(self, seat, action)
        if isinstance(action, Exchange):
            gift = _parse_gift(action)
            raise_for(exchange_error(self, seat, gift))
            return _after_exchange(self, seat, gift, action)
        if isinstance(action, GiveDragon):
            raise_for(give_error(self, seat, action.to))
            return _after_give(self, seat, action.to)
        raise illegal("unknown_action")


def new_game(rules: Rules, *, seed: int | None = None, deal: Deal | None = None) -> State:
    """A new match: round 0 dealt from `deal` if given, else from `seed` (fresh when None)."""
    start = GameStart(
        rules=rules,
        seed=fresh_seed() if seed is None else seed,
        deals=() if deal is None else (deal,),
    )
    return _new_round(start, 0, (0, 0), (), ())


def replay(start: GameStart, actions: Iterable[tuple[Seat, Action]]) -> State:
    """The state after applying `actions` in order to the match `start` describes."""
    state = _new_round(start, 0, (0, 0), (), ())
    for seat, action in actions:
        state = state.apply(seat, action)
    return state


_GRAND_ACTIONS: Final = (GrandTichu, DeclineGrandTichu)  # built once, not per `apply`


# --- transitions -----------------------------------------------------------------------------


def _no_such_seat(seat: object) -> IllegalAction:
    return IllegalAction(NO_SUCH_SEAT, f"seats are 0..{SEATS - 1}, not {seat!r}")


@lru_cache(maxsize=_PARSE_CACHE)
def _read_play(cards: tuple[str, ...], phoenix_as_one: bool) -> tuple[CardMask, Combo]:
    """The mask of a Play's cards and the combination they form when led (cached: the same
    card sets come back all the time)."""
    mask = parse_cards(cards)
    return mask, classify(mask, NO_COMBO, phoenix_as_one=phoenix_as_one)


def _holding(hands: Hands) -> int:
    """Bit set of the seats that still hold cards."""
    return (hands[0] != 0) | (hands[1] != 0) << 1 | (hands[2] != 0) << 2 | (hands[3] != 0) << 3


def _next_in(holding: int, seat: Seat) -> Seat:
    """The next seat after `seat` in turn order among the bit set `holding` (`seat` itself if
    none)."""
    for step in range(1, SEATS + 1):
        other = seat_at(seat, step)
        if holding >> other & 1:
            return other
    return seat


# _NEXT_ACTIVE[holding][seat]: `_next_in(holding, seat)` for every bit set of seats.
_NEXT_ACTIVE: Final = tuple(
    tuple(_next_in(holding, seat) for seat in range(SEATS)) for holding in range(1 << SEATS)
)


def _next_active(hands: Hands, seat: Seat) -> Seat:
    """The next seat after `seat` in turn order that still holds cards (`seat` itself if none)."""
    return _NEXT_ACTIVE[_holding(hands)][seat]


def _parse_gift(action: Exchange) -> Gift:
    try:
        return (
            1 << parse_card(action.right),
            1 << parse_card(action.partner),
            1 << parse_card(action.left),
        )
    except InvalidInput as error:
        raise IllegalAction(BAD_CARDS, str(error)) from error


def _apply_play(state: State, seat: Seat, action: Play, listed: bool) -> State:
    """`action` read and checked (`listed`: taken from `legal_actions`, so only read) and
    applied."""
    rules = state.start.rules
    try:
        cards, played = _read_play(action.cards, rules.phoenix_as_one)
        wish = parse_rank(action.wish) if action.wish is not None else 0
    except (InvalidInput, TypeError) as error:
        raise IllegalAction(BAD_CARDS, str(error)) from error
    if listed and cards != PHOENIX:
        return _after_play(state, seat, cards, played, wish, action)
    ctx = play_context(state, seat)
    if cards == PHOENIX:  # the only card set whose combination depends on the table
        played = classify(cards, ctx.table)
    if not listed:
        raise_for(wish_error(cards, wish, rules.wish_required) or play_error(ctx, cards, played))
    return _after_play(state, seat, cards, played, wish, action)


def _after_play(
    state: State, seat: Seat, cards: CardMask, played: Combo, wish: int, action: Play
) -> State:
    won = state.won
    trick, trick_start = state.trick, state.trick_start
    if state.phase == "play" and seat == state.turn and (state.table == NO_COMBO or state.closed):
        if state.table != NO_COMBO:
            won = _with(won, state.owner, won[state.owner] | trick)
        trick, trick_start = 0, len(state.log)
    hand = state.hands[seat] ^ cards
    hands = _with(state.hands, seat, hand)
    trick |= cards
    pending = state.wish
    if pending and cards & RANK_MASK[pending]:
        pending = 0
    if wish:
        pending = wish
    log = (*state.log, Event(seat, action))
    finish = state.finish
    if not hand:  # only a player going out can end the round
        finish = (*finish, seat)
        if len(finish) == THIRD_OUT or (
            len(finish) == _PAIR_OUT and team_of(finish[0]) == team_of(finish[1])
        ):
            if played == _DRAGON_SINGLE and len(finish) == THIRD_OUT:
                return msgspec.structs.replace(
                    state,
                    phase="dragon",
                    hands=hands,
                    won=won,
                    turn=seat,
                    owner=seat,
                    table=played,
                    table_cards=cards,
                    trick=trick,
                    trick_start=trick_start,
                    passed=0,
                    closed=True,
                    wish=pending,
                    finish=finish,
                    log=log,
                )
            return _end_round(state, hands, _with(won, seat, won[seat] | trick), finish, log)
    holding = _holding(hands)
    if played == DOG_COMBO:
        partner = seat_at(seat, PARTNER)
        receiver = partner if hands[partner] else _NEXT_ACTIVE[holding][partner]
        owner, turn, closed = receiver, receiver, True
    else:
        owner, turn, closed = seat, _NEXT_ACTIVE[holding][seat], False
    return msgspec.structs.replace(
        state,
        phase="play",
        hands=hands,
        won=won,
        turn=turn,
        owner=owner,
        table=played,
        table_cards=cards,
        trick=trick,
        trick_start=trick_start,
        passed=0,
        closed=closed,
        wish=pending,
        finish=finish,
        log=log,
    )


def _with(masks: Hands, seat: Seat, mask: CardMask) -> Hands:
    """`masks` with the entry of `seat` replaced by `mask`."""
    if seat == 0:
        return mask, masks[1], masks[2], masks[3]
    if seat == 1:
        return masks[0], mask, masks[2], masks[3]
    if seat == 2:
        return masks[0], masks[1], mask, masks[3]
    return masks[0], masks[1], masks[2], mask


def _as_hands(masks: list[CardMask]) -> Hands:
    return masks[0], masks[1], masks[2], masks[3]


def _after_pass(state: State, seat: Seat) -> State:
    passed = state.passed | (1 << seat)
    holding = _holding(state.hands)
    owner = state.owner
    others = holding & ~(1 << owner)
    log = (*state.log, _PASS_EVENTS[seat])
    if passed & others != others:
        return msgspec.structs.replace(
            state, passed=passed, turn=_NEXT_ACTIVE[holding][seat], log=log
        )
    if state.table == _DRAGON_SINGLE:
        return msgspec.structs.replace(
            state, phase="dragon", passed=passed, turn=owner, closed=True, log=log
        )
    leader = owner if holding >> owner & 1 else _NEXT_ACTIVE[holding][owner]
    return msgspec.structs.replace(state, passed=passed, turn=leader, closed=True, log=log)


def _after_give(state: State, seat: Seat, to: Seat) -> State:
    won = list(state.won)
    won[to] |= state.trick
    log = (*state.log, Event(seat=seat, action=GiveDragon(to=to)))
    if len(state.finish) >= THIRD_OUT:
        return _end_round(state, state.hands, _as_hands(won), state.finish, log)
    hands = state.hands
    return msgspec.structs.replace(
        state,
        phase="play",
        won=_as_hands(won),
        turn=seat if hands[seat] else _next_active(hands, seat),
        owner=_NO_SEAT,
        table=NO_COMBO,
        table_cards=0,
        trick=0,
        trick_start=len(log),
        passed=0,
        closed=False,
        log=log,
    )


def _after_call(state: State, seat: Seat) -> State:
    calls = list(state.calls)
    calls[seat] = TICHU
    return msgspec.structs.replace(
        state,
        calls=(calls[0], calls[1], calls[2], calls[3]),
        log=(*state.log, Event(seat=seat, action=CALL)),
    )


def _after_grand(state: State, seat: Seat, action: GrandTichu | DeclineGrandTichu) -> State:
    calls = list(state.calls)
    if isinstance(action, GrandTichu):
        calls[seat] = GRAND
    decided = state.decided | (1 << seat)
    log = (*state.log, Event(seat=seat, action=action))
    new_calls = (calls[0], calls[1], calls[2], calls[3])
    if decided != _ALL_SEATS:
        return msgspec.structs.replace(state, calls=new_calls, decided=decided, log=log)
    hands = tuple(h | s for h, s in zip(state.hands, state.stock, strict=True))
    return msgspec.structs.replace(
        state,
        phase="exchange",
        calls=new_calls,
        decided=decided,
        hands=_as_hands(list(hands)),
        stock=_ZERO4,
        log=log,
    )


def _after_exchange(state: State, seat: Seat, gift: Gift, action: Exchange) -> State:
    gifts = list(state.gifts)
    gifts[seat] = gift
    fixed: Gifts = (gifts[0], gifts[1], gifts[2], gifts[3])
    log = (*state.log, Event(seat=seat, action=action))
    complete = [g for g in fixed if g is not None]
    if len(complete) < SEATS:
        return msgspec.structs.replace(state, gifts=fixed, log=log)
    hands = list(state.hands)
    for giver, given in enumerate(complete):
        for offset, card in enumerate(given, start=RIGHT):
            hands[giver] &= ~card
            hands[seat_at(giver, offset)] |= card
    leader = next(s for s in range(SEATS) if hands[s] & MAHJONG)
    return msgspec.structs.replace(
        state,
        phase="play",
        gifts=fixed,
        hands=_as_hands(hands),
        turn=leader,
        trick_start=len(log),
        log=log,
    )


def _end_round(
    state: State, hands: Hands, won: Hands, finish: tuple[Seat, ...], log: tuple[Event, ...]
) -> State:
    score = score_round(hands, won, finish, state.calls)
    totals = (state.totals[0] + score.points[0], state.totals[1] + score.points[1])
    rounds = (*state.rounds, score)
    rules = state.start.rules
    decided = max(totals) >= rules.target_points and (totals[0] != totals[1] or rules.tie == "draw")
    if decided or (rules.max_rounds is not None and len(rounds) >= rules.max_rounds):
        winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
        return msgspec.structs.replace(
            state,
            phase="over",
            hands=hands,
            won=won,
            finish=finish,
            log=log,
            owner=_NO_SEAT,
            table=NO_COMBO,
            table_cards=0,
            trick=0,
            closed=False,
            totals=totals,
            rounds=rounds,
            winner=winner,
        )
    past = (*state.past, log)
    return _new_round(state.start, state.round_index + 1, totals, rounds, past)


def _new_round(
    start: GameStart,
    round_index: int,
    totals: tuple[int, int],
    rounds: tuple[RoundScore, ...],
    past: tuple[tuple[Event, ...], ...],
) -> State:
    deal = start.deal(round_index)
    return State(
        start=start,
        round_index=round_index,
        phase="grand_tichu",
        hands=deal.first,
        stock=deal.second,
        decided=0,
        calls=(NO_CALL, NO_CALL, NO_CALL, NO_CALL),
        gifts=_NONE4,
        turn=0,
        table=NO_COMBO,
        table_cards=0,
        owner=_NO_SEAT,
        trick=0,
        trick_start=0,
        passed=0,
        closed=False,
        wish=0,
        won=_ZERO4,
        finish=(),
        past=past,
        log=(),
        totals=totals,
        rounds=rounds,
        winner=None,
    )
