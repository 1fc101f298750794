"""The Skat state machine: bidding, skat, declaration and card play of one deal (ISkO).

`State` is the truth about one deal and never leaves the server; every seat sees it through
`State.observation`. `legal_actions` and `apply` share the one predicate of
`engine.skat.legality`, so what is offered and what is accepted cannot disagree;
`engine.skat.transitions` holds what each action changes, `engine.skat.settlement` scores
the end.
"""

from collections.abc import Iterable
from functools import cached_property
from typing import Literal

import msgspec

from engine.errors import IllegalAction, InvalidInput
from engine.skat.actions import Abandon, Action, Declare
from engine.skat.cards import CardMask, GameType, follow_mask
from engine.skat.deal import Deal, deal_from_seed
from engine.skat.legality import legal, reject
from engine.skat.observation import Observation, observe
from engine.skat.rules import NO_SEAT, Phase, Rules
from engine.skat.scoring import Result
from engine.skat.settlement import settle
from engine.skat.transitions import STAGE_MIDDLEHAND, Trick, transition

__all__ = ["GameStart", "Phase", "State", "new_game", "replay"]


class GameStart(msgspec.Struct, frozen=True):
    """The first event of a deal: with it, `replay` needs no random numbers. `bock`: this
    deal is a Bock deal of its list (house rule; the list, not the deal, decides it);
    `bock_due`: the Bock deals the list owes as it begins, this one among them (the result
    counts on from it)."""

    rules: Rules
    deal: Deal
    dealer: int
    bock: bool = False
    bock_due: int = 0


def new_game(
    rules: Rules | None = None,
    *,
    seed: int | None = None,
    deal: Deal | None = None,
    dealer: int | None = None,
    bock: bool = False,
    bock_due: int = 0,
) -> "State":
    """A new deal at a table of `rules.players` seats.

    Exactly one of `seed` and `deal` is given. The dealer defaults to the last seat, so that
    at a 3-table seat 0 is forehand, 1 middlehand, 2 rearhand as in ISS records. `bock`: the
    deal counts double (`engine.skat.scoring.bock_deals_due` says when, at a Bock table);
    `bock_due`: how many Bock deals the list owes, this one included.
    """
    rules = rules or Rules()
    if (seed is None) == (deal is None):
        raise InvalidInput("give exactly one of seed and deal")
    if deal is None:
        deal = deal_from_seed(seed if seed is not None else 0)
    dealer = rules.players - 1 if dealer is None else dealer
    if not 0 <= dealer < rules.players:
        raise InvalidInput(f"dealer must be a seat 0..{rules.players - 1}")
    if bock and not rules.bock:
        raise InvalidInput("a Bock deal needs the rule bock")
    if bock_due < 0 or (bock_due and not bock):
        raise InvalidInput("bock_due counts this deal: it needs bock")
    start = GameStart(rules=rules, deal=deal, dealer=dealer, bock=bock, bock_due=bock_due)
    return State.start_of(start)


def replay(start: GameStart, actions: Iterable[tuple[int, Action]]) -> "State":
    """The state after applying `actions` to the deal `start`; raises IllegalAction."""
    state = State.start_of(start)
    for seat, action in actions:
        state = state.record(seat, action)
    return state


class State(msgspec.Struct, frozen=True, dict=True):
    """One deal of Skat. Seats are table seats (0-based, clockwise); at a 4-table the dealer
    sits out. Immutable: `apply` returns a new state."""

    start: GameStart
    seats: tuple[int, int, int]  # forehand, middlehand, rearhand
    phase: Phase
    hands: tuple[CardMask, ...]
    skat: CardMask
    bid: int = 0
    stage: int = STAGE_MIDDLEHAND
    bidder: int = NO_SEAT
    answerer: int = NO_SEAT
    awaiting_answer: bool = False
    bidders: int = 0  # seats (as bits) that said a value or held: they may say Kontra
    declarer: int = NO_SEAT
    picked_up: bool = False
    contract: Declare | None = None
    ramsch: bool = False
    leader: int = NO_SEAT
    trick: tuple[int, ...] = ()
    tricks: tuple[Trick, ...] = ()
    taken: tuple[CardMask, ...] = ()
    kontra: int = 0
    kontra_hand: int = 0  # declarer's hand size when Kontra was said
    resigned: int = 0  # seats (as bits)
    shown: bool = False  # the declarer's cards lie open after a claim
    claim_open: bool = False  # a claim waits for the defenders' answers
    claim_accepted: int = 0  # defenders (as bits) who accepted the open claim
    claim_refused_at: int = -1  # completed tricks when the last claim was refused
    abandoned_by: int = NO_SEAT
    pusher: int = NO_SEAT  # Schieberamsch: whose turn it is to pick up or pass the skat on
    pushes: int = 0  # Schieberamsch: skats pushed on after a pick-up (each doubles)
    ended_by: str = ""
    log: tuple[tuple[int, Action], ...] = ()

    @classmethod
    def start_of(cls, start: GameStart) -> "State":
        """The state right after the deal: middlehand bids to forehand."""
        n = start.rules.players
        fh, mh, hh = ((start.dealer + 1 + position) % n for position in range(3))
        hands = [0] * n
        for seat, cards in zip((fh, mh, hh), start.deal.hands, strict=True):
            hands[seat] = cards
        return cls(
            start=start,
            seats=(fh, mh, hh),
            phase="bidding",
            hands=tuple(hands),
            skat=start.deal.skat,
            bidder=mh,
            answerer=fh,
            taken=(0,) * n,
        )

    # --- seats -------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.start.rules

    @property
    def players(self) -> int:
        return self.start.rules.players

    @property
    def dealer(self) -> int:
        return self.start.dealer

    def position_seat(self, position: int) -> int:
        """Seat of forehand (0), middlehand (1) or rearhand (2)."""
        return self.seats[position]

    @property
    def active_seats(self) -> tuple[int, int, int]:
        """Forehand, middlehand, rearhand: the three seats that play this deal."""
        return self.seats

    def next_seat(self, seat: int) -> int:
        """The next playing seat clockwise (the dealer of a 4-table is skipped)."""
        fh, mh, hh = self.seats
        return mh if seat == fh else hh if seat == mh else fh

    @property
    def defenders(self) -> tuple[int, ...]:
        return tuple(s for s in self.active_seats if s != self.declarer)

    # --- public properties -------------------------------------------------------------

    @cached_property
    def to_move(self) -> int | None:
        """The seat whose turn it is; None when the deal is over. Kontra, Re, resignations
        and abandoning are also open to other seats (see `legal_actions`). Kept once known:
        the legality checks ask for it many times per state."""
        if self.phase == "bidding":
            return self.answerer if self.awaiting_answer else self.bidder
        if self.phase in ("skat", "discard", "declare"):
            return self.declarer
        if self.phase == "push":
            return self.pusher
        if self.phase == "play" and self.claim_open:
            return next(s for s in self._answer_order() if not self.claim_accepted >> s & 1)
        if self.phase == "play":
            seat = self.leader
            for _ in self.trick:
                seat = self.next_seat(seat)
            return seat
        return None

    def _answer_order(self) -> tuple[int, int]:
        """The defenders in playing order from the declarer: who answers a claim first."""
        first = self.next_seat(self.declarer)
        return first, self.next_seat(first)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def game(self) -> GameType | None:
        """The game type being played ("grand" order in a Ramsch), or None before it is known."""
        if self.ramsch:
            return "grand"
        return self.contract.game if self.contract else None

    @property
    def hand_game(self) -> bool:
        return self.contract is not None and not self.picked_up

    @cached_property
    def result(self) -> Result:
        """The settled result; raises IllegalAction("game_not_over") before the end."""
        if not self.is_over:
            raise IllegalAction("game_not_over", "the deal has no result before it ends")
        return settle(self)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now (not only the seat to move: Kontra, Re,
        resignations and abandoning are open to others)."""
        return legal(self, seat)

    def apply(self, seat: int, action: Action) -> "State":
        """The state after `seat` takes `action`; raises IllegalAction with a reason."""
        error = reject(self, seat, action)
        if error is not None:
            raise error
        return transition(self, seat, action)

    def apply_listed(self, seat: int, action: Action) -> "State":
        """`apply` for an action the caller took from `self.legal_actions(seat)` (or from
        this state's observation), which is known legal: applied without the check, the
        usual loop of a bot or a playout (choose from the list, apply).

        The caller vouches for the action; one not from that list gives an undefined state.
        Both engines offer this fast path under this name (docs/conventions.md section 3).
        """
        if isinstance(action, Abandon):  # never listed: refused as by `apply`
            return self.apply(seat, action)
        return transition(self, seat, action)

    def abandon(self, seat: int, reason: Literal["left", "timeout"] = "left") -> "State":
        """The state after `seat` left the table or ran out of time (ISS `LE`/`TI`).

        A world event the server records, not a move a player chooses, so `legal_actions`
        never offers it and `apply` refuses it. Before a contract exists the deal is
        aborted; afterwards the seat's party has given up (see `result`).
        """
        if self.phase == "over":
            raise IllegalAction("game_over", "the deal is over")
        if seat not in self.active_seats:
            raise IllegalAction("not_a_player", f"seat {seat} does not play this deal")
        return transition(self, seat, Abandon(reason))

    def record(self, seat: int, action: Action) -> "State":
        """Apply a logged event: a move through `apply`, an `Abandon` through `abandon`."""
        if isinstance(action, Abandon):
            return self.abandon(seat, action.reason)
        return self.apply(seat, action)

    def observation(self, seat: int | None, *, history: bool = True) -> Observation:
        """What `seat` may see (None: a spectator, public information only); without the
        action history if `history` is False."""
        return observe(self, seat, history=history)

    def playable(self, seat: int) -> CardMask:
        """Cards `seat` may play now: the led effective suit if he has it, else any card."""
        return self._playable if seat == self.to_move else 0

    @cached_property
    def _playable(self) -> CardMask:
        """`playable` of the seat to move, kept once known (each listed card asks again)."""
        seat = self.to_move
        if self.phase != "play" or self.claim_open or seat is None:
            return 0
        hand = self.hands[seat]
        if not self.trick:
            return hand
        game = self.game
        assert game is not None  # play phase always has a game
        follow = hand & follow_mask(game, self.trick[0])
        return follow or hand
