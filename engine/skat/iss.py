"""International Skat Server game records: read, replay through the engine, write.

One record per line, `(;GM[Skat]...MV[...]R[...] ;)` (docs/iss-format.md). ISS writes
cards suit then rank (`CJ`); the engine writes rank then suit (`JC`): the conversion happens
here and nowhere else. Seats in a record are positions: 0 forehand, 1 middlehand, 2 rearhand.
"""

import re
from collections.abc import Iterator
from typing import Final, Literal

import msgspec

from engine.errors import IllegalAction, InvalidInput
from engine.skat.actions import (
    Abandon,
    Action,
    Bid,
    Declare,
    Discard,
    Hold,
    Kontra,
    Pass,
    PickUpSkat,
    Play,
    Re,
    Resign,
)
from engine.skat.cards import CardMask, GameType, format_cards, parse_card
from engine.skat.deal import Deal
from engine.skat.rules import Rules
from engine.skat.scoring import Result
from engine.skat.state import GameStart, State

__all__ = [
    "IssRecord",
    "IssResult",
    "ReplayOutcome",
    "format_record",
    "parse_record",
    "parse_result",
    "read_records",
    "replay_record",
]

_PROPERTY: Final = re.compile(r"([A-Z][A-Z0-9]*)\[((?:\\.|[^\]\\])*)\]")
_GAME_LETTERS: Final[dict[str, GameType]] = {
    "G": "grand",
    "C": "clubs",
    "S": "spades",
    "H": "hearts",
    "D": "diamonds",
    "N": "null",
}
_LETTER_OF: Final = {game: letter for letter, game in _GAME_LETTERS.items()}
_DECLARATION: Final = re.compile(r"^[GCSHDN][OHSZ]*$")
_ABANDON_REASONS: Final = {"TI": "timeout", "LE": "left"}
_ISS_PLAYERS: Final = 3
_ISS_DEALER: Final = 2  # at a 3-table the dealer is rearhand


class IssRecord(msgspec.Struct, frozen=True):
    """A parsed record: properties, the deal and the move list as (actor, move) pairs."""

    properties: dict[str, str]
    deal: Deal
    moves: tuple[tuple[str, str], ...]

    @property
    def game_id(self) -> str:
        return self.properties.get("ID", "")


class IssResult(msgspec.Struct, frozen=True):
    """The fields of an `R[...]` property that a replay can reproduce."""

    passed: bool
    declarer: int = -1
    outcome: str = ""  # "win", "loss" or "penalty"
    list_value: int = 0
    matadors: int = 0
    overbid: bool = False
    declarer_points: int = 0
    declarer_tricks: int = 0
    schneider: bool = False
    schwarz: bool = False
    resigned: bool = False


class ReplayOutcome(msgspec.Struct, frozen=True):
    """A replayed record: the final state, and the engine's result in record terms."""

    record: IssRecord
    state: State
    result: IssResult
    card_play: bool  # a contract was declared, so the result is a scoring oracle
    ignored_moves: int = 0  # moves after an ISkO end (e.g. one defender's resignation)


def iss_card(text: str) -> int:
    """Card index of ISS text (`CJ`: suit then rank)."""
    if len(text) != 2:
        raise InvalidInput(f"not an ISS card: {text!r}")
    return parse_card(text[1] + text[0])


def _iss_text(card_text: str) -> str:
    return card_text[1] + card_text[0]


def _iss_cards(mask: CardMask) -> str:
    return ".".join(_iss_text(c) for c in format_cards(mask))


def _engine_text(iss_text: str) -> str:
    iss_card(iss_text)
    return iss_text[1] + iss_text[0]


def read_records(text: str) -> Iterator[str]:
    """The records of a file: one per line, blank lines skipped."""
    for line in text.splitlines():
        if line.strip():
            yield line.strip()


def parse_record(line: str) -> IssRecord:
    """Parse one record; raises InvalidInput when it is not a Skat record with a full deal."""
    if not line.startswith("(;") or not line.rstrip().endswith(";)"):
        raise InvalidInput("an ISS record starts with '(;' and ends with ';)'")
    properties = {key: value for key, value in _PROPERTY.findall(line)}
    if properties.get("GM") != "Skat":
        raise InvalidInput("not a Skat record (GM[Skat] missing)")
    tokens = properties.get("MV", "").split()
    if len(tokens) % 2:
        raise InvalidInput("the move list MV must consist of (actor, move) pairs")
    pairs = tuple((tokens[i], tokens[i + 1]) for i in range(0, len(tokens), 2))
    if not pairs or pairs[0][0] != "w":
        raise InvalidInput("the move list must start with the deal")
    cards = pairs[0][1].split(".")
    if len(cards) != 32 or "??" in cards:
        raise InvalidInput("the deal must list all 32 cards (world view)")
    masks = [sum(1 << iss_card(c) for c in cards[a : a + 10]) for a in (0, 10, 20)]
    deal = Deal(
        hands=(masks[0], masks[1], masks[2]), skat=sum(1 << iss_card(c) for c in cards[30:])
    )
    return IssRecord(properties=properties, deal=deal, moves=pairs[1:])


def parse_result(text: str) -> IssResult:
    """Parse an `R[...]` value (`passed`, or `d:2 loss v:-54 ...`)."""
    if text.strip() == "passed":
        return IssResult(passed=True)
    fields: dict[str, str] = {}
    flags: set[str] = set()
    for token in text.split():
        key, sep, value = token.partition(":")
        if sep:
            fields[key] = value
        else:
            flags.add(token)
    outcome = next((f for f in ("win", "loss", "penalty") if f in flags), "")
    return IssResult(
        passed=False,
        declarer=int(fields.get("d", "-1")),
        outcome=outcome,
        list_value=int(fields.get("v", "0")),
        matadors=int(fields.get("m", "0")),
        overbid="overbid" in flags,
        declarer_points=int(fields.get("p", "0")),
        declarer_tricks=int(fields.get("t", "0")),
        schneider=fields.get("s") == "1",
        schwarz=fields.get("z") == "1",
        resigned=fields.get("r") == "1",
    )


def _declaration(token: str, *, hand: bool) -> tuple[Declare, list[str]]:
    """A declaration token (`D.ST.H8`, `GO`, `CHZ`, `NOH`) -> Declare and the discards."""
    head, *cards = token.split(".")
    if not _DECLARATION.match(head):
        raise InvalidInput(f"not a declaration: {token!r}")
    game = _GAME_LETTERS[head[0]]
    modifiers = set(head[1:])
    ouvert = "O" in modifiers
    if game == "null":
        declare = Declare(game, ouvert=ouvert)
    else:
        schwarz = "Z" in modifiers or ouvert
        declare = Declare(
            game, schneider="S" in modifiers or schwarz, schwarz=schwarz, ouvert=ouvert
        )
    discards = [] if hand else [_engine_text(c) for c in cards[:2]]
    return declare, discards


def _discard(cards: list[str]) -> Discard:
    """The engine's spelling of a discard: the higher card first (ISS lists them in any order)."""
    if len(cards) != 2:
        raise InvalidInput(f"a discard names two cards, got {len(cards)}")
    first, second = sorted(cards, key=parse_card, reverse=True)
    return Discard((first, second))


def _bidding_action(move: str) -> Action:
    if move == "y":
        return Hold()
    if move == "p":
        return Pass()
    if move.isdigit():
        return Bid(int(move))
    raise InvalidInput(f"not a bidding move: {move!r}")


def replay_record(line: str, *, iss_compat: bool = True) -> ReplayOutcome:
    """Replay one record through the engine, validating every move.

    With `iss_compat` the server's conventions apply and every move must fit. Without it the
    ISkO applies: the game may end earlier than on the server (one defender's resignation
    ends it), and the record's later moves are counted in `ignored_moves`, not replayed.
    Raises InvalidInput for a malformed record and IllegalAction for an illegal move.
    """
    record = parse_record(line)
    rules = Rules(players=_ISS_PLAYERS, iss_compat=iss_compat)
    state = State.start_of(GameStart(rules=rules, deal=record.deal, dealer=_ISS_DEALER))
    pending: Declare | None = None
    ignored = 0
    for actor, move in record.moves:
        if state.is_over and not iss_compat:
            ignored += 1
            continue
        actions, pending = _translate(state, pending, actor, move)
        for seat, action in actions:
            if state.is_over:
                raise IllegalAction("game_over", f"move after the end of the game: {move}")
            state = state.record(seat, action)
    if not state.is_over:
        raise IllegalAction("game_not_over", "the record stops before the game ends")
    return ReplayOutcome(
        record=record,
        state=state,
        result=to_iss_result(state.result),
        card_play=state.contract is not None,
        ignored_moves=ignored,
    )


def _translate(
    state: State, pending: Declare | None, actor: str, move: str
) -> tuple[list[tuple[int, Action]], Declare | None]:
    """Engine actions for one (actor, move) pair of a record, given the state before it.

    `pending` carries a declaration of the split form (`2 D` then `2 D9.DQ`) to the move with
    the discards. The declarer showing his cards (`SC`), the server showing the skat and an
    unrecorded card (`??`) change nothing.
    """
    if actor == "w":
        kind, _, seat_text = move.partition(".")
        if kind in _ABANDON_REASONS and seat_text.isdigit():
            reason: Literal["left", "timeout"] = "timeout" if kind == "TI" else "left"
            return [(int(seat_text), Abandon(reason))], pending
        return [], pending
    if actor not in ("0", "1", "2"):
        raise InvalidInput(f"unknown actor {actor!r}")
    seat = int(actor)
    if move in ("??", "SC") or move.startswith("SC."):
        return [], pending
    if move == "RE":
        return [(seat, Resign())], pending
    if state.phase == "bidding":
        return [(seat, _bidding_action(move))], pending
    if move == "s":
        return [(seat, PickUpSkat())], pending
    if state.phase == "skat":
        return [(seat, _declaration(move, hand=True)[0])], pending
    if state.phase == "discard" and pending is None:
        declare, discards = _declaration(move, hand=False)
        if len(discards) < 2:
            return [], declare
        return [(seat, _discard(discards)), (seat, declare)], None
    if state.phase == "discard" and pending is not None:
        return [(seat, _discard([_engine_text(c) for c in move.split(".")])), (seat, pending)], None
    return [(seat, Play(_engine_text(move)))], pending


def to_iss_result(result: Result) -> IssResult:
    """The engine's result in the terms of an ISS `R[...]` field."""
    if result.passed_in:
        return IssResult(passed=True)
    outcome = "penalty" if result.won is None else "win" if result.won else "loss"
    return IssResult(
        passed=False,
        declarer=-1 if result.declarer is None else result.declarer,
        outcome=outcome,
        list_value=result.list_value,
        matadors=result.matadors,
        overbid=result.overbid,
        declarer_points=result.declarer_points,
        declarer_tricks=result.declarer_tricks,
        schneider=result.schneider,
        schwarz=result.schwarz,
        resigned=result.resigned,
    )


def format_record(
    state: State, *, game_id: str = "", players: tuple[str, str, str] = ("", "", "")
) -> str:
    """An ISS record of a finished deal of ours (positions as ISS seats).

    Kontra and Re have no ISS notation and are left out of the move list; the result's
    value includes them.
    """
    if not state.is_over:
        raise IllegalAction("game_not_over", "only a finished deal can be exported")
    position = {seat: i for i, seat in enumerate(state.active_seats)}
    deal = state.start.deal
    moves = [
        "w",
        ".".join(
            [
                _iss_cards(deal.hands[0]),
                _iss_cards(deal.hands[1]),
                _iss_cards(deal.hands[2]),
                _iss_cards(deal.skat),
            ]
        ),
    ]
    log = list(state.log)
    reason = next((a.reason for _, a in log if isinstance(a, Abandon)), "")
    for index, (seat, action) in enumerate(log):
        who = str(position[seat])
        if isinstance(action, Bid):
            moves += [who, str(action.value)]
        elif isinstance(action, Hold):
            moves += [who, "y"]
        elif isinstance(action, Pass):
            moves += [who, "p"]
        elif isinstance(action, PickUpSkat):
            moves += [who, "s", "w", _iss_cards(deal.skat)]
        elif isinstance(action, Declare):
            token = _declaration_token(action, hand=not state.picked_up)
            previous = log[index - 1][1] if index else None
            if isinstance(previous, Discard):
                token += "." + ".".join(_iss_text(c) for c in previous.cards)
            moves += [who, token]
        elif isinstance(action, Play):
            moves += [who, _iss_text(action.card)]
        elif isinstance(action, Resign):
            moves += [who, "RE"]
        elif isinstance(action, Abandon):
            moves += ["w", ("TI." if action.reason == "timeout" else "LE.") + who]
        elif isinstance(action, Discard | Kontra | Re):
            continue
    props = {
        "GM": "Skat",
        "PC": "Tischrunde",
        "CO": "",
        "SE": "",
        "ID": game_id,
        "DT": "",
        "P0": players[0],
        "P1": players[1],
        "P2": players[2],
        "MV": " ".join(moves),
        "R": _format_result(to_iss_result(state.result), position, state.result, reason),
    }
    return "(;" + "".join(f"{k}[{v}]" for k, v in props.items()) + " ;)"


def _declaration_token(declare: Declare, *, hand: bool) -> str:
    token = _LETTER_OF[declare.game]
    if declare.game == "null":
        return token + ("O" if declare.ouvert else "") + ("H" if hand else "")
    if declare.ouvert:
        return token + "O"
    return (
        token
        + ("H" if hand else "")
        + ("Z" if declare.schwarz else "S" if declare.schneider else "")
    )


def _format_result(
    result: IssResult, position: dict[int, int], full: Result, abandon_reason: str
) -> str:
    if result.passed:
        return "passed"
    declarer = position.get(result.declarer, -1)
    penalties = [1 if seat in full.penalized and full.aborted else 0 for seat in position]
    left = timed_out = -1
    if full.ended_by == "abandoned":
        culprit = position[full.penalized[0]]
        left, timed_out = (-1, culprit) if abandon_reason == "timeout" else (culprit, -1)
    return (
        f"d:{declarer} {result.outcome} v:{result.list_value} m:{result.matadors} "
        f"{'overbid' if result.overbid else 'bidok'} p:{result.declarer_points} "
        f"t:{result.declarer_tricks} s:{int(result.schneider)} z:{int(result.schwarz)} "
        f"p0:{penalties[0]} p1:{penalties[1]} p2:{penalties[2]} l:{left} to:{timed_out} "
        f"r:{int(result.resigned)}"
    )
