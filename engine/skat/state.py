"""The Skat state machine: bidding, skat, declaration and card play of one deal (ISkO).

`State` is the truth about one deal and never leaves the server; every seat sees it through
`State.observation`. `legal_actions` and `apply` share the one predicate `_reject`, so what is
offered and what is accepted cannot disagree.
"""

from collections.abc import Iterable, Iterator
from functools import cached_property
from typing import TYPE_CHECKING, Final, Literal

import msgspec

from engine.bits import iter_bits, popcount
from engine.errors import IllegalAction, InvalidInput
from engine.skat.actions import (
    Abandon,
    AcceptClaim,
    Action,
    Bid,
    Claim,
    Declare,
    Discard,
    Hold,
    Kontra,
    Pass,
    PickUpSkat,
    Play,
    Re,
    RefuseClaim,
    Resign,
)
from engine.skat.cards import (
    CARD_POINTS,
    GAME_TYPES,
    NULL_VALUES,
    CardMask,
    GameType,
    card_points,
    follow_mask,
    format_card,
    parse_card,
    winning_index,
)
from engine.skat.deal import Deal, deal_from_seed
from engine.skat.rules import BID_VALUES, Phase, Rules
from engine.skat.scoring import (
    SCHNEIDER_LOSS_POINTS,
    SCHNEIDER_POINTS,
    WIN_POINTS,
    Result,
    matadors,
    ramsch_scores,
    seeger_fabian,
    value_null_game,
    value_trump_game,
)

if TYPE_CHECKING:
    from engine.skat.observation import Observation

__all__ = ["GameStart", "Phase", "State", "Trick", "new_game", "replay"]

TRICKS_PER_DEAL: Final = 10
CARDS_PER_TRICK: Final = 3
FULL_HAND: Final = 10
# ISkO 4.4.1: the declarer may give up without consent while he holds at least nine cards.
CONCEDE_MIN_CARDS: Final = 9
# Bidding stages: middlehand bids to forehand, rearhand to the survivor, forehand alone.
STAGE_MIDDLEHAND, STAGE_REARHAND, STAGE_FOREHAND_ALONE = 1, 2, 3
NO_SEAT: Final = -1


class GameStart(msgspec.Struct, frozen=True):
    """The first event of a deal: with it, `replay` needs no random numbers."""

    rules: Rules
    deal: Deal
    dealer: int


class Trick(msgspec.Struct, frozen=True):
    """A completed trick: who led, the cards in playing order, who won it."""

    leader: int
    cards: tuple[int, ...]
    winner: int


def new_game(
    rules: Rules | None = None,
    *,
    seed: int | None = None,
    deal: Deal | None = None,
    dealer: int | None = None,
) -> "State":
    """A new deal at a table of `rules.players` seats.

    Exactly one of `seed` and `deal` is given. The dealer defaults to the last seat, so that
    at a 3-table seat 0 is forehand, 1 middlehand, 2 rearhand as in ISS records.
    """
    rules = rules or Rules()
    if (seed is None) == (deal is None):
        raise InvalidInput("give exactly one of seed and deal")
    if deal is None:
        deal = deal_from_seed(seed if seed is not None else 0)
    dealer = rules.players - 1 if dealer is None else dealer
    if not 0 <= dealer < rules.players:
        raise InvalidInput(f"dealer must be a seat 0..{rules.players - 1}")
    return State.start_of(GameStart(rules=rules, deal=deal, dealer=dealer))


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

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is; None when the deal is over. Kontra, Re, resignations
        and abandoning are also open to other seats (see `legal_actions`)."""
        if self.phase == "bidding":
            return self.answerer if self.awaiting_answer else self.bidder
        if self.phase in ("skat", "discard", "declare"):
            return self.declarer
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
        return _settle(self)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now (not only the seat to move: Kontra, Re,
        resignations and abandoning are open to others)."""
        return [a for a in self._candidates(seat) if self._reject(seat, a) is None]

    def apply(self, seat: int, action: Action) -> "State":
        """The state after `seat` takes `action`; raises IllegalAction with a reason."""
        error = self._reject(seat, action)
        if error is not None:
            raise error
        return self._transition(seat, action)

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
        return self._transition(seat, Abandon(reason))

    def record(self, seat: int, action: Action) -> "State":
        """Apply a logged event: a move through `apply`, an `Abandon` through `abandon`."""
        if isinstance(action, Abandon):
            return self.abandon(seat, action.reason)
        return self.apply(seat, action)

    def observation(self, seat: int | None, *, history: bool = True) -> "Observation":
        """What `seat` may see (None: a spectator, public information only); without the
        action history if `history` is False."""
        from engine.skat.observation import observe  # observation.py imports this module

        return observe(self, seat, history=history)

    def playable(self, seat: int) -> CardMask:
        """Cards `seat` may play now: the led effective suit if he has it, else any card."""
        if self.phase != "play" or self.claim_open or seat != self.to_move:
            return 0
        hand = self.hands[seat]
        if not self.trick:
            return hand
        game = self.game
        assert game is not None  # play phase always has a game
        follow = hand & follow_mask(game, self.trick[0])
        return follow or hand

    # --- legality: the one predicate -------------------------------------------------

    def _candidates(self, seat: int) -> Iterator[Action]:
        """A superset of the legal actions of `seat`; `_reject` filters it."""
        if self.phase == "over" or seat not in self.active_seats:
            return
        if seat != self.to_move:  # out of turn only these, and only in the card play
            if self.phase == "play":
                yield from _ANY_TURN_IN_PLAY
            return
        if self.phase == "bidding":
            yield Pass()
            yield Hold()
            if not self.awaiting_answer:  # who answers a bid may only hold or pass
                for value in BID_VALUES:
                    if value > self.bid:
                        yield Bid(value)
        elif self.phase == "skat":
            yield PickUpSkat()
            yield from _declarations(hand=True)
        elif self.phase == "discard":
            cards = sorted(iter_bits(self.hands[seat]), reverse=True)
            for i, first in enumerate(cards):
                for second in cards[i + 1 :]:
                    yield Discard((format_card(first), format_card(second)))
        elif self.phase == "declare":
            yield from _declarations(hand=False)
        elif self.phase == "play":
            for card in sorted(iter_bits(self.playable(seat)), reverse=True):
                yield Play(format_card(card))
            yield from _ANY_TURN_IN_PLAY

    def _reject(self, seat: int, action: Action) -> IllegalAction | None:
        """Why `seat` may not take `action` now, or None if it may."""
        if self.phase == "over":
            return IllegalAction("game_over", "the deal is over")
        if seat not in self.active_seats:
            return IllegalAction("not_a_player", f"seat {seat} does not play this deal")
        if isinstance(action, Abandon):
            return IllegalAction(
                "not_a_move", "leaving the table is not a move: the server records it"
            )
        if self.phase == "bidding":
            return self._reject_bidding(seat, action)
        if isinstance(action, Claim | AcceptClaim | RefuseClaim):
            return self._reject_claim(seat, action)
        if self.claim_open:
            return IllegalAction("claim_open", "the defenders answer the declarer's claim first")
        if isinstance(action, Kontra | Re | Resign):
            return self._reject_special(seat, action)
        if seat != self.to_move:
            return IllegalAction("not_your_turn", f"it is seat {self.to_move}'s turn")
        if self.phase == "skat":
            if isinstance(action, PickUpSkat):
                return None
            if isinstance(action, Declare):
                return _reject_declaration(action, hand=True, bid=self.bid)
            return _wrong_phase(action, "pick up the skat or declare a hand game")
        if self.phase == "discard":
            if isinstance(action, Discard):
                return self._reject_discard(action)
            return _wrong_phase(action, "discard two cards")
        if self.phase == "declare":
            if isinstance(action, Declare):
                return _reject_declaration(action, hand=False, bid=self.bid)
            return _wrong_phase(action, "declare the game")
        if isinstance(action, Play):
            return self._reject_play(seat, action)
        return _wrong_phase(action, "play a card")

    def _reject_bidding(self, seat: int, action: Action) -> IllegalAction | None:
        if seat != self.to_move:
            return IllegalAction("not_your_turn", f"it is seat {self.to_move}'s turn to bid")
        if isinstance(action, Pass):
            return None
        if isinstance(action, Hold):
            if not self.awaiting_answer:
                return IllegalAction("nothing_to_hold", "there is no bid to hold: bid or pass")
            return None
        if isinstance(action, Bid):
            if self.awaiting_answer:
                return IllegalAction("must_answer", "answer the bid: hold or pass")
            if action.value not in BID_VALUES:
                return IllegalAction("not_a_bid_value", f"{action.value} is not a bid value")
            if action.value <= self.bid:
                return IllegalAction("bid_too_low", f"a bid must exceed {self.bid}")
            return None
        return _wrong_phase(action, "bid, hold or pass")

    def _reject_discard(self, action: Discard) -> IllegalAction | None:
        try:
            cards = [parse_card(c) for c in action.cards]
        except InvalidInput as error:
            return IllegalAction("not_a_card", str(error))
        if cards[0] == cards[1]:
            return IllegalAction("bad_discard", "discard two different cards")
        if any(not self.hands[self.declarer] >> c & 1 for c in cards):
            return IllegalAction("not_in_hand", "you can only discard cards you hold")
        if cards[0] < cards[1]:
            return IllegalAction(
                "discard_order",
                f"name the higher card first, as legal_actions lists it: "
                f"{action.cards[1]} {action.cards[0]}",
            )
        return None

    def _reject_play(self, seat: int, action: Play) -> IllegalAction | None:
        try:
            card = parse_card(action.card)
        except InvalidInput as error:
            return IllegalAction("not_a_card", str(error))
        if not self.hands[seat] >> card & 1:
            return IllegalAction("not_in_hand", f"you do not hold {action.card}")
        if not self.playable(seat) >> card & 1:
            return IllegalAction("must_follow_suit", f"{action.card} does not follow suit")
        return None

    def _reject_claim(
        self, seat: int, action: Claim | AcceptClaim | RefuseClaim
    ) -> IllegalAction | None:
        """ISkO 4.4.4: the declarer claims during the card play of a declared game; each
        defender answers once; after a refusal he may claim again once a trick is complete."""
        if self.phase != "play" or self.ramsch:
            return IllegalAction("wrong_phase", "only during the card play of a declared game")
        if isinstance(action, Claim):
            if seat != self.declarer:
                return IllegalAction("not_declarer", "only the declarer claims the rest")
            if self.claim_open:
                return IllegalAction("claim_open", "your claim waits for the defenders' answers")
            if self.claim_refused_at == len(self.tricks):
                return IllegalAction(
                    "claim_refused", "your claim was refused: claim again after the next trick"
                )
            return None
        if not self.claim_open:
            return IllegalAction("no_claim", "there is no claim to answer")
        if seat == self.declarer:
            return IllegalAction("not_a_defender", "the defenders answer the claim")
        if self.claim_accepted >> seat & 1:
            return IllegalAction("already_answered", "you have accepted the claim already")
        return None

    def _reject_special(self, seat: int, action: Kontra | Re | Resign) -> IllegalAction | None:
        if self.phase != "play" or self.ramsch:
            return IllegalAction("wrong_phase", "only during the card play of a declared game")
        is_declarer = seat == self.declarer
        if isinstance(action, Resign):
            if self.resigned >> seat & 1:
                return IllegalAction("already_resigned", "you have already resigned")
            if (
                is_declarer
                and not self.rules.iss_compat
                and popcount(self.hands[seat]) < CONCEDE_MIN_CARDS
            ):
                return IllegalAction(
                    "too_late_to_concede",
                    "the declarer may give up alone only while he holds nine or ten cards",
                )
            return None
        if not self.rules.kontra:
            return IllegalAction("kontra_not_played", "Kontra and Re are off at this table")
        if isinstance(action, Kontra):
            if is_declarer or not self.bidders >> seat & 1:
                return IllegalAction(
                    "kontra_not_allowed", "only a defender who took part in the bidding says Kontra"
                )
            if self.kontra:
                return IllegalAction("kontra_not_allowed", "Kontra has been said already")
            if popcount(self.hands[seat]) < FULL_HAND:
                return IllegalAction("kontra_too_late", "Kontra only before your first card")
            return None
        if not is_declarer or self.kontra != 1:
            return IllegalAction("re_not_allowed", "only the declarer answers a Kontra with Re")
        if popcount(self.hands[seat]) != self.kontra_hand:
            return IllegalAction("re_too_late", "Re only before your next card after the Kontra")
        return None

    # --- transitions -----------------------------------------------------------------

    def _transition(self, seat: int, action: Action) -> "State":
        log = (*self.log, (seat, action))
        if isinstance(action, Abandon):
            return msgspec.structs.replace(
                self, phase="over", abandoned_by=seat, ended_by="abandoned", log=log
            )
        if self.phase == "bidding":
            return self._bidding_step(seat, action, log)
        if isinstance(action, PickUpSkat):
            hands = _with(self.hands, seat, self.hands[seat] | self.skat)
            return msgspec.structs.replace(
                self, phase="discard", hands=hands, skat=0, picked_up=True, log=log
            )
        if isinstance(action, Discard):
            mask = sum(1 << parse_card(c) for c in action.cards)
            hands = _with(self.hands, seat, self.hands[seat] & ~mask)
            return msgspec.structs.replace(self, phase="declare", hands=hands, skat=mask, log=log)
        if isinstance(action, Declare):
            return msgspec.structs.replace(
                self, phase="play", contract=action, leader=self.position_seat(0), log=log
            )
        if isinstance(action, Kontra):
            return msgspec.structs.replace(
                self, kontra=1, kontra_hand=popcount(self.hands[self.declarer]), log=log
            )
        if isinstance(action, Re):
            return msgspec.structs.replace(self, kontra=2, log=log)
        if isinstance(action, Resign):
            return self._resign(seat, log)
        if isinstance(action, Claim):
            return msgspec.structs.replace(
                self, shown=True, claim_open=True, claim_accepted=0, log=log
            )
        if isinstance(action, AcceptClaim):
            accepted = self.claim_accepted | (1 << seat)
            if all(accepted >> s & 1 for s in self.defenders):
                return msgspec.structs.replace(
                    self, claim_accepted=accepted, phase="over", ended_by="claimed", log=log
                )
            return msgspec.structs.replace(self, claim_accepted=accepted, log=log)
        if isinstance(action, RefuseClaim):
            return msgspec.structs.replace(
                self,
                claim_open=False,
                claim_accepted=0,
                claim_refused_at=len(self.tricks),
                log=log,
            )
        if isinstance(action, Play):
            return self._play(seat, parse_card(action.card), log)
        raise IllegalAction("unknown_action", f"unknown action {action!r}")

    def _bidding_step(
        self, seat: int, action: Action, log: tuple[tuple[int, Action], ...]
    ) -> "State":
        replace = msgspec.structs.replace
        bidders = self.bidders | (1 << seat) if isinstance(action, Bid | Hold) else self.bidders
        if isinstance(action, Bid):
            if self.stage == STAGE_FOREHAND_ALONE:
                return self._end_bidding(seat, action.value, bidders, log)
            return replace(self, bid=action.value, awaiting_answer=True, bidders=bidders, log=log)
        if isinstance(action, Hold):
            return replace(self, awaiting_answer=False, bidders=bidders, log=log)
        # A pass.
        if self.stage == STAGE_FOREHAND_ALONE:
            return self._all_passed(log)
        survivor = self.answerer if seat == self.bidder else self.bidder
        if self.stage == STAGE_MIDDLEHAND:
            return replace(
                self,
                stage=STAGE_REARHAND,
                bidder=self.position_seat(2),
                answerer=survivor,
                awaiting_answer=False,
                log=log,
            )
        if seat == self.bidder and self.bid == 0:
            return replace(
                self,
                stage=STAGE_FOREHAND_ALONE,
                bidder=self.position_seat(0),
                answerer=NO_SEAT,
                awaiting_answer=False,
                log=log,
            )
        return self._end_bidding(survivor, self.bid, bidders, log)

    def _end_bidding(
        self, declarer: int, bid: int, bidders: int, log: tuple[tuple[int, Action], ...]
    ) -> "State":
        return msgspec.structs.replace(
            self,
            phase="skat",
            declarer=declarer,
            bid=bid,
            bidders=bidders,
            bidder=NO_SEAT,
            answerer=NO_SEAT,
            awaiting_answer=False,
            log=log,
        )

    def _all_passed(self, log: tuple[tuple[int, Action], ...]) -> "State":
        if self.rules.all_pass == "ramsch":
            return msgspec.structs.replace(
                self,
                phase="play",
                ramsch=True,
                leader=self.position_seat(0),
                bidder=NO_SEAT,
                answerer=NO_SEAT,
                log=log,
            )
        return msgspec.structs.replace(self, phase="over", ended_by="passed_in", log=log)

    def _play(self, seat: int, card: int, log: tuple[tuple[int, Action], ...]) -> "State":
        hands = _with(self.hands, seat, self.hands[seat] & ~(1 << card))
        trick = (*self.trick, card)
        if len(trick) < CARDS_PER_TRICK:
            return msgspec.structs.replace(self, hands=hands, trick=trick, log=log)
        game = self.game
        assert game is not None
        winner = self.leader
        for _ in range(winning_index(game, trick)):
            winner = self.next_seat(winner)
        mask = sum(1 << c for c in trick)
        taken = _with(self.taken, winner, self.taken[winner] | mask)
        tricks = (*self.tricks, Trick(self.leader, trick, winner))
        state = msgspec.structs.replace(
            self, hands=hands, trick=(), tricks=tricks, taken=taken, leader=winner, log=log
        )
        ended_by = state._early_end(winner)
        if ended_by:
            return msgspec.structs.replace(state, phase="over", ended_by=ended_by)
        return state

    def _early_end(self, winner: int) -> str:
        """Why the deal ends after this trick, or "" to play on (docs/iss-format.md section 4)."""
        if len(self.tricks) == TRICKS_PER_DEAL:
            return "played_out"
        if self.ramsch or self.contract is None:
            return ""
        if self.contract.game == "null":
            return "null_trick" if winner == self.declarer else ""
        if winner != self.declarer and (self.contract.schwarz or self.contract.ouvert):
            return "schwarz_broken"
        if self.contract.schneider:
            against = sum(card_points(self.taken[s]) for s in self.defenders)
            if against > SCHNEIDER_LOSS_POINTS:
                return "schneider_broken"
        return ""

    def _resign(self, seat: int, log: tuple[tuple[int, Action], ...]) -> "State":
        resigned = self.resigned | (1 << seat)
        state = msgspec.structs.replace(self, resigned=resigned, log=log)
        both_defenders = all(resigned >> s & 1 for s in self.defenders)
        if seat == self.declarer or not self.rules.iss_compat or both_defenders:
            return msgspec.structs.replace(state, phase="over", ended_by="resigned")
        return state


def _with(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _wrong_phase(action: Action, expected: str) -> IllegalAction:
    name = type(action).__name__.lower()
    return IllegalAction("wrong_phase", f"{name} is not possible now: {expected}")


_ANY_TURN_IN_PLAY: Final[tuple[Action, ...]] = (
    Kontra(),
    Re(),
    Resign(),
    Claim(),
    AcceptClaim(),
    RefuseClaim(),
)
"""Card-play actions open to a seat whether or not it is his turn; `_reject` decides."""


def _declarations(*, hand: bool) -> Iterator[Declare]:
    """Every declaration form once, in normalised form (ouvert implies both announcements)."""
    for game in GAME_TYPES:
        if game == "null":
            yield Declare("null")
            yield Declare("null", ouvert=True)
        elif not hand:
            yield Declare(game)
        else:
            yield Declare(game)
            yield Declare(game, schneider=True)
            yield Declare(game, schneider=True, schwarz=True)
            yield Declare(game, schneider=True, schwarz=True, ouvert=True)


def _reject_declaration(action: Declare, *, hand: bool, bid: int) -> IllegalAction | None:
    """ISkO 3.4 / docs/skat-rules.md section 4: which announcements combine."""
    if action.game not in GAME_TYPES:
        return IllegalAction("unknown_game", f"unknown game type {action.game!r}")
    if action.game == "null":
        if action.schneider or action.schwarz:
            return IllegalAction("bad_announcement", "null has no schneider or schwarz")
        value = NULL_VALUES[(action.ouvert, hand)]
        if value < bid:
            return IllegalAction(
                "null_below_bid", f"this null is worth {value}, less than the bid {bid}"
            )
        return None
    if (action.schneider or action.schwarz or action.ouvert) and not hand:
        return IllegalAction(
            "bad_announcement", "schneider, schwarz and ouvert are announced only in hand games"
        )
    if action.schwarz and not action.schneider:
        return IllegalAction("bad_announcement", "schwarz announced implies schneider announced")
    if action.ouvert and not action.schwarz:
        return IllegalAction("bad_announcement", "ouvert implies schneider and schwarz announced")
    return None


# --- settling the result -------------------------------------------------------------


def _settle(state: State) -> Result:
    n = state.players
    zeros = (0,) * n
    if state.ended_by == "passed_in":
        return _empty_result(state, passed_in=True, seeger_fabian=zeros)
    if state.ramsch:
        return _settle_ramsch(state)
    if state.contract is None:
        return _settle_abort(state)
    return _settle_declared(state)


def _empty_result(state: State, **fields: object) -> Result:
    base: dict[str, object] = {
        "declarer": None,
        "game": None,
        "hand": False,
        "schneider_announced": False,
        "schwarz_announced": False,
        "ouvert": False,
        "bid": state.bid,
        "won": None,
        "game_value": 0,
        "list_value": 0,
        "matadors": 0,
        "overbid": False,
        "declarer_points": 0,
        "declarer_tricks": 0,
        "schneider": False,
        "schwarz": False,
        "seeger_fabian": (0,) * state.players,
        "ended_by": state.ended_by,
    }
    base.update(fields)
    return Result(**base)  # type: ignore[arg-type]


def _settle_ramsch(state: State) -> Result:
    """Ramsch: the skat goes to the winner of the last trick (house rule)."""
    seats = state.active_seats
    taken = list(state.taken)
    if state.tricks:
        last = state.tricks[-1].winner
        taken[last] |= state.skat
    points = tuple(card_points(taken[s]) for s in seats)
    tricks = tuple(sum(1 for t in state.tricks if t.winner == s) for s in seats)
    scores = ramsch_scores(points, tricks) if state.ended_by == "played_out" else (0, 0, 0)
    per_seat = [0] * state.players
    for seat, score in zip(seats, scores, strict=True):
        per_seat[seat] = score
    return _empty_result(state, ramsch=True, seeger_fabian=tuple(per_seat))


def _settle_abort(state: State) -> Result:
    """Abandoned before a contract: a penalty game. A declarer who leaves before announcing
    loses the value of his bid, doubled; otherwise nothing is scored."""
    culprit = state.abandoned_by
    if state.declarer == NO_SEAT or culprit != state.declarer:
        declarer = None if state.declarer == NO_SEAT else state.declarer
        return _empty_result(state, declarer=declarer, aborted=True, penalized=(culprit,))
    list_value = -2 * state.bid
    return _empty_result(
        state,
        declarer=culprit,
        won=False,
        game_value=state.bid,
        list_value=list_value,
        aborted=True,
        penalized=(culprit,),
        seeger_fabian=seeger_fabian(state.players, culprit, False, list_value),
    )


def _settle_declared(state: State) -> Result:
    contract = state.contract
    assert contract is not None
    declarer = state.declarer
    defenders = state.defenders
    hand = not state.picked_up
    remaining = sum(state.hands) | sum(1 << c for c in state.trick)
    open_tricks = TRICKS_PER_DEAL - len(state.tricks)
    own_points = card_points(state.taken[declarer] | state.skat)
    own_tricks = sum(1 for t in state.tricks if t.winner == declarer)
    against = sum(card_points(state.taken[s]) for s in defenders)

    declarer_quit = state.ended_by in ("resigned", "abandoned") and (
        state.abandoned_by == declarer or state.resigned >> declarer & 1
    )
    # An accepted claim gives the declarer the rest, as a defenders' resignation does.
    defenders_quit = state.ended_by == "claimed" or (
        state.ended_by in ("resigned", "abandoned") and not declarer_quit
    )
    needed = WIN_POINTS
    if contract.schneider or contract.ouvert:
        needed = SCHNEIDER_POINTS
    lost_before = state.ended_by != "played_out" and (
        against > sum(CARD_POINTS) - needed
        or (
            (contract.schwarz or contract.ouvert)
            and any(t.winner != declarer for t in state.tricks)
        )
    )
    won_before = (
        not state.rules.iss_compat
        and not (contract.schwarz or contract.ouvert)
        and contract.game != "null"
        and own_points >= needed
    )
    # After a broken announcement the announced levels already count; the declarer's own
    # schneider/schwarz are not judged on an unfinished deal (as ISS record 13577 scores it).
    levels_against = state.ended_by not in ("schwarz_broken", "schneider_broken")
    if defenders_quit and contract.game != "null":
        own_points += card_points(remaining)
        own_tricks += open_tricks
    elif declarer_quit:
        levels_against = bool(state.tricks) and not (
            state.ended_by == "resigned" and not state.rules.iss_compat
        )
    lost_anyway = (declarer_quit and not won_before) or (defenders_quit and lost_before)

    if contract.game == "null":
        won = not declarer_quit and own_tricks == 0
        value = value_null_game(hand=hand, ouvert=contract.ouvert, won=won)
        matador_count = 0
    else:
        matador_count = matadors(
            contract.game,
            state.start.deal.hands[_position_of(state, declarer)] | state.start.deal.skat,
        )
        value = value_trump_game(
            contract.game,
            matador_count,
            hand=hand,
            schneider_announced=contract.schneider,
            schwarz_announced=contract.schwarz,
            ouvert=contract.ouvert,
            bid=state.bid,
            declarer_points=own_points,
            declarer_tricks=own_tricks,
            lost_anyway=lost_anyway,
            levels_against_declarer=levels_against,
        )
    list_value = value.list_value * (2**state.kontra)
    return Result(
        declarer=declarer,
        game=contract.game,
        hand=hand,
        schneider_announced=contract.schneider,
        schwarz_announced=contract.schwarz,
        ouvert=contract.ouvert,
        bid=state.bid,
        won=value.won,
        game_value=value.game_value,
        list_value=list_value,
        matadors=matador_count,
        overbid=value.overbid,
        declarer_points=own_points,
        declarer_tricks=own_tricks,
        schneider=value.schneider,
        schwarz=value.schwarz,
        seeger_fabian=seeger_fabian(state.players, declarer, value.won, list_value),
        resigned=state.ended_by == "resigned",
        penalized=(state.abandoned_by,) if state.abandoned_by != NO_SEAT else (),
        kontra=state.kontra,
        ended_by=state.ended_by,
    )


def _position_of(state: State, seat: int) -> int:
    return state.active_seats.index(seat)
