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
validation cannot disagree; what each action then changes lives in `transitions`.
"""

from collections.abc import Iterable
from typing import Final

import msgspec

from engine.errors import IllegalAction
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
from engine.tichu.cards import CardMask
from engine.tichu.combos import NO_COMBO, Combo
from engine.tichu.deal import SEATS, Deal, Hands, deal_from_seed
from engine.tichu.legality import (
    NO_SUCH_SEAT,
    call_error,
    exchange_error,
    give_error,
    grand_error,
    illegal,
    legal_actions,
    pass_error,
    raise_for,
)
from engine.tichu.observation import Observation, observe
from engine.tichu.rules import Phase, Rules
from engine.tichu.scoring import NO_CALL, Result, RoundScore
from engine.tichu.transitions import (
    NO_CARDS,
    NO_SEAT,
    Gifts,
    Seat,
    after_call,
    after_exchange,
    after_give,
    after_grand,
    after_pass,
    apply_play,
    parse_gift,
)

__all__ = ["GameStart", "Phase", "Seat", "State", "new_game", "replay"]


_NONE4: Final[Gifts] = (None, None, None, None)


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

    @classmethod
    def new_round(
        cls,
        start: GameStart,
        round_index: int,
        totals: tuple[int, int],
        rounds: tuple[RoundScore, ...],
        past: tuple[tuple[Event, ...], ...],
    ) -> "State":
        """The state at the start of round `round_index`: its first eight cards dealt, before
        the Grand Tichu decisions."""
        deal = start.deal(round_index)
        return cls(
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
            owner=NO_SEAT,
            trick=0,
            trick_start=0,
            passed=0,
            closed=False,
            wish=0,
            won=NO_CARDS,
            finish=(),
            past=past,
            log=(),
            totals=totals,
            rounds=rounds,
            winner=None,
        )

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
            return apply_play(self, seat, action, listed)
        if isinstance(action, Pass):
            if not listed:
                raise_for(pass_error(self, seat))
            return after_pass(self, seat)
        if isinstance(action, CallTichu):
            raise_for(call_error(self, seat))
            return after_call(self, seat)
        if isinstance(action, _GRAND_ACTIONS):
            raise_for(grand_error(self, seat))
            return after_grand(self, seat, action)
        if isinstance(action, Exchange):
            gift = parse_gift(action)
            raise_for(exchange_error(self, seat, gift))
            return after_exchange(self, seat, gift, action)
        if isinstance(action, GiveDragon):
            raise_for(give_error(self, seat, action.to))
            return after_give(self, seat, action.to)
        raise illegal("unknown_action")


def new_game(rules: Rules, *, seed: int | None = None, deal: Deal | None = None) -> State:
    """A new match: round 0 dealt from `deal` if given, else from `seed` (fresh when None)."""
    start = GameStart(
        rules=rules,
        seed=fresh_seed() if seed is None else seed,
        deals=() if deal is None else (deal,),
    )
    return State.new_round(start, 0, (0, 0), (), ())


def replay(start: GameStart, actions: Iterable[tuple[Seat, Action]]) -> State:
    """The state after applying `actions` in order to the match `start` describes."""
    state = State.new_round(start, 0, (0, 0), (), ())
    for seat, action in actions:
        state = state.apply(seat, action)
    return state


_GRAND_ACTIONS: Final = (GrandTichu, DeclineGrandTichu)  # built once, not per `apply`


def _no_such_seat(seat: object) -> IllegalAction:
    return IllegalAction(NO_SUCH_SEAT, f"seats are 0..{SEATS - 1}, not {seat!r}")
