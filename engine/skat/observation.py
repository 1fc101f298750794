"""What one seat (or a spectator) may see of a Skat deal: an information state.

Every field is computed from what the seat knows, never from another seat's hidden cards:
own cards, the public history (other seats' discards hidden), the skat only to the declarer
who picked it up, the declarer's hand to everyone in an ouvert game and once he has shown it
with a claim, and everything at the end
(the skat counts for the declarer and is shown when the deal is scored).
"""

from functools import lru_cache
from typing import TYPE_CHECKING, Final

import msgspec

from engine.bits import popcount
from engine.skat.actions import Action, Declare, Discard
from engine.skat.cards import card_points, format_card, format_cards
from engine.skat.rules import Phase
from engine.skat.scoring import Result

if TYPE_CHECKING:
    from engine.skat.state import State
    from engine.skat.transitions import Trick

__all__ = ["Observation", "SeenAction", "TrickView", "observe", "public"]


class SeenAction(msgspec.Struct, frozen=True):
    """One action of the history as the viewer saw it; `action` is None when hidden (another
    seat's discard)."""

    seat: int
    action: Action | None


class TrickView(msgspec.Struct, frozen=True):
    """A completed trick: leader, cards in playing order, winner."""

    leader: int
    cards: tuple[str, ...]
    winner: int


class Observation(msgspec.Struct, frozen=True):
    """A seat's view of the deal. `seat` None (or the sitting-out dealer) sees public
    information only. `legal` lists the viewer's own legal actions. `claimed`: the declarer
    has shown his cards with a claim (they stay open); `claim_open`: that claim waits for
    the defenders, `claim_accepted` lists those who accepted it. `bock`: the deal counts
    double (house rule Bockrunden); `pushes`: skats pushed on in a Schieberamsch."""

    seat: int | None
    players: int
    dealer: int
    forehand: int
    middlehand: int
    rearhand: int
    phase: Phase
    to_move: int | None
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    skat: tuple[str, ...]
    discarded: tuple[str, ...]
    open_hands: tuple[tuple[str, ...] | None, ...]
    bid: int
    declarer: int | None
    contract: Declare | None
    hand_game: bool
    ramsch: bool
    kontra: int
    trick_leader: int | None
    trick: tuple[str, ...]
    tricks: tuple[TrickView, ...]
    trick_points: tuple[int, ...]
    resigned: tuple[int, ...]
    claimed: bool
    claim_open: bool
    claim_accepted: tuple[int, ...]
    history: tuple[SeenAction, ...]
    legal: tuple[Action, ...]
    result: Result | None
    bock: bool = False
    pushes: int = 0

    @property
    def order(self) -> tuple[int, int, int]:
        """The seats that play this deal: forehand, middlehand, rearhand."""
        return (self.forehand, self.middlehand, self.rearhand)

    @property
    def position(self) -> int:
        """The viewer's position: 0 forehand, 1 middlehand, 2 rearhand (ValueError for a
        viewer who does not play the deal)."""
        return self.order.index(self.seat)


def observe(state: "State", seat: int | None, *, history: bool = True) -> Observation:
    """The observation of `seat` (None for a spectator); `history=False` leaves the action
    history empty (a server sending per-event updates sends the events themselves).

    What everyone sees is built once per state (`public`, kept for the state observed last:
    a server asks for every seat's view of a state in a row); a seat's observation adds to it
    only what that seat sees besides: its hand, the skat it picked up, its legal actions."""
    viewer = seat if seat is not None and seat in state.active_seats else None
    over = state.is_over
    changes: dict[str, object] = {}
    if seat is not None:
        changes["seat"] = seat
    if history and state.log:
        changes["history"] = tuple(
            SeenAction(s, None if isinstance(a, Discard) and s != viewer and not over else a)
            for s, a in state.log
        )
    base = _public_of(state)
    if viewer is not None:
        hand = tuple(format_cards(state.hands[viewer]))
        changes["hand"] = hand
        open_hands = list(base.open_hands)
        open_hands[viewer] = hand
        changes["open_hands"] = tuple(open_hands)
        if viewer == state.declarer and state.picked_up:
            if not over:
                changes["skat"] = tuple(format_cards(state.start.deal.skat))
            if state.phase != "discard":
                changes["discarded"] = tuple(format_cards(state.skat))
        changes["legal"] = tuple(state.legal_actions(viewer))
    return msgspec.structs.replace(base, **changes) if changes else base


_last_public: "tuple[State | None, Observation | None]" = (None, None)


def _public_of(state: "State") -> Observation:
    """`public(state)`, kept for the last state asked about (only that one: a table's window
    of recent states would otherwise keep one each)."""
    global _last_public
    kept_state, kept = _last_public
    if kept_state is state and kept is not None:
        return kept
    observation = public(state)
    _last_public = (state, observation)
    return observation


@lru_cache(maxsize=4096)
def _trick_view(trick: "Trick") -> TrickView:
    """A completed trick as shown, made once: every later state of its deal shows it again
    (a table's views after each move list all tricks so far)."""
    return TrickView(trick.leader, tuple(map(format_card, trick.cards)), trick.winner)


def public(state: "State") -> Observation:
    """What everyone may see of `state`: a spectator's observation without the history."""
    players = state.players
    over = state.is_over
    declarer = state.declarer if state.declarer >= 0 else None
    forehand, middlehand, rearhand = state.seats
    open_hands: tuple[tuple[str, ...] | None, ...] = (None,) * players
    if over or state.shown or (state.contract is not None and state.contract.ouvert):
        open_hands = tuple(
            tuple(format_cards(state.hands[s]))
            if s in state.seats and (over or s == declarer)
            else None
            for s in range(players)
        )
    return Observation(
        seat=None,
        players=players,
        dealer=state.dealer,
        forehand=forehand,
        middlehand=middlehand,
        rearhand=rearhand,
        phase=state.phase,
        to_move=state.to_move,
        hand=(),
        hand_sizes=tuple(map(popcount, state.hands)),
        skat=tuple(format_cards(state.skat)) if over else (),
        discarded=(),
        open_hands=open_hands,
        bid=state.bid,
        declarer=declarer,
        contract=state.contract,
        hand_game=state.hand_game,
        ramsch=state.ramsch,
        kontra=state.kontra,
        trick_leader=state.leader if state.phase == "play" else None,
        trick=tuple(map(format_card, state.trick)),
        tricks=tuple(map(_trick_view, state.tricks)),
        trick_points=tuple(map(card_points, state.taken)),
        resigned=_SEATS_IN[state.resigned],
        claimed=state.shown,
        claim_open=state.claim_open,
        claim_accepted=_SEATS_IN[state.claim_accepted],
        history=(),
        legal=(),
        result=state.result if over else None,
        bock=state.start.bock,
        pushes=state.pushes,
    )


# The seats in a bit set of seats (resignations, accepted claims), for every set of four seats.
_SEATS_IN: Final = tuple(tuple(s for s in range(4) if mask >> s & 1) for mask in range(16))
