"""A stand-in server for one Tichu table, speaking protocol v1 inside the browser's WebSocket.

The real server hosts Tichu (`server/games/tichu.py`; `test_tichu_live.py` plays a match on
it). This stand-in stays for the tests that need what no real table offers a client: a fixed
deal (seat 0 holds a bomb, the Mah Jong, the Dog and the Dragon), bots that play the same way
every time, and bots that wait (`auto = False` holds them until `step()`), so a test can act
out of turn (a bomb) while a bot's play lies on the table. The Tichu browser tests route the
page's WebSocket (Playwright `route_web_socket`) to this object.

It answers as docs/protocol.md describes (hello/welcome, list_games, create_table, join,
add_bot, act, chat, resume, ...) and keeps one match of the real engine: every view is the
real adapter's (`TichuGame.view`, with each legal play's combination), every action is
checked by `State.apply`, other seats' exchanges reach a seat as `"action": null`. The three
bots decline Grand Tichu, pass their three lowest cards, pass whenever they may and otherwise
play the first legal play (the lowest single on a lead).
"""

import json
from typing import Any

import msgspec

from engine.errors import IllegalAction
from engine.tichu.actions import Action, CallTichu, DeclineGrandTichu, Exchange, Pass, Play
from engine.tichu.cards import format_cards, parse_cards
from engine.tichu.deal import Deal
from engine.tichu.rules import Rules
from engine.tichu.state import State, new_game
from server.games import TichuGame, all_games, game_info

HUMAN = 0
TABLE = "TichuT1"
INVITE = "inv1te"

# Seat 0 holds a bomb (four 9s), the Mah Jong, the Dog, the Dragon and a few high cards.
DEAL_TEXT = {
    "first": [
        "MahJong Dog Dragon 9j 9s 9p 9t Aj",
        "2j 3j 4j 5j 6j 7j 8j Tj",
        "2p 3s 4s 5t 6s 6p 7s 7p",
        "2t 3t 4p 5p 6t 7t 8t Tt",
    ],
    "second": [
        "2s 3p 4t Kj Qs Jp",
        "5s Ts Js Qj Ks As",
        "8s 8p Jj Qp Kp Ap",
        "Phoenix Tp Jt Qt Kt At",
    ],
}


def the_deal() -> Deal:
    first = [parse_cards(hand) for hand in DEAL_TEXT["first"]]
    second = [parse_cards(hand) for hand in DEAL_TEXT["second"]]
    return Deal(
        first=(first[0], first[1], first[2], first[3]),
        second=(second[0], second[1], second[2], second[3]),
    )


_action_decoder = msgspec.json.Decoder(Action)
_GAME = TichuGame()


class FakeTichuServer:
    """One guest, one Tichu table, three bots: the protocol as the real server speaks it."""

    def __init__(self, rules: dict[str, Any] | None = None) -> None:
        self.rules = rules or {}
        self.routes: list[Any] = []
        self.seq = 0
        self.seats: list[dict[str, Any]] = [{"seat": s} for s in range(4)]
        self.status = "waiting"
        self.state: State | None = None
        self.moves: list[tuple[int, Any]] = []  # (seat, action) as everyone saw them
        self.auto = True
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []

    # --- the socket ---------------------------------------------------------------------

    def attach(self, page: Any) -> None:
        page.route_web_socket("**/ws", self._connect)

    def _connect(self, route: Any) -> None:
        self.routes.append(route)
        route.on_message(lambda text: self._receive(route, text))

    def _send(self, route: Any, message: dict[str, Any]) -> None:
        self.sent.append(message)
        route.send(json.dumps(message))

    def _broadcast(self, message: dict[str, Any]) -> None:
        for route in self.routes:
            self._send(route, message)

    def _receive(self, route: Any, text: str | bytes) -> None:
        request = json.loads(text)
        self.received.append(request)
        kind, rid = request["type"], request.get("id")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            self._send(route, _error(rid, "bad_request", f"no {kind} here"))
            return
        handler(route, rid, request)

    # --- session and lobby --------------------------------------------------------------

    def _on_hello(self, route: Any, rid: Any, request: dict[str, Any]) -> None:
        user = {"id": 1, "name": "tina", "guest": True}
        self._send(
            route, {"type": "welcome", "id": rid, "version": 1, "user": user, "token": "t0k"}
        )

    def _on_list_games(self, route: Any, rid: Any, request: dict[str, Any]) -> None:
        games = [
            msgspec.to_builtins(msgspec.structs.replace(game_info(kind), bots=["random"]))
            for kind in all_games().values()
        ]
        self._send(route, {"type": "games", "id": rid, "games": games})

    def _on_list_tables(self, route: Any, rid: Any, request: dict[str, Any]) -> None:
        tables = [self.info()] if self.status != "finished" else []
        self._send(route, {"type": "tables", "id": rid, "tables": tables})

    def _on_leaderboard(self, route: Any, rid: Any, request: dict[str, Any]) -> None:
        reply = {"type": "leaderboard", "id": rid, "game": request.get("game"), "entries": []}
        self._send(route, reply)

    def _on_ping(self, route: Any, rid: Any, request: dict[str, Any]) -> None:
        self._send(route, {"type": "pong", "id": rid})

    def _on_create_table(self, route: Any, rid: Any, request: dict[str, Any]) -> None:
        assert request["game"] == "tichu"
        self.rules = dict(request.get("rules", {}))
        msgspec.convert(self.rules, Rules)  # the real server refuses bad rules the same way
        self._send(
            route, {"type": "table_created", "id": rid, "table": self.info(), "invite": None}
        )

    def _on_join(self, route: Any, rid: Any, request: dict[str, Any]) -> None:
        if self.seats[HUMAN].get("name") is None:
            self._emit({"kind": "seated", "seat": HUMAN, "name": "tina", "bot": None})
        self._send(route, {"type": "joined", "id": rid, "table": TABLE, "seat": HUMAN})
        self._send(route, self.snapshot())

    def _on_watch(self, route: Any, rid: Any, request: dict[str, Any]) -> None:
        self._send(route, {"type": "ok", "id": rid})
        self._send(route, self.snapshot())

    def _on_resume(self, route: Any, rid: Any, request: dict[str, Any]) -> None:
        self._send(route, self.snapshot())
        self._send(route, {"type": "ok", "id": rid})

    def _on_add_bot(self, route: Any, rid: Any, request: dict[str, Any]) -> None:
        seat = request["seat"]
        if self.seats[seat].get("name"):
            self._send(route, _error(rid, "seat_taken", f"seat {seat} is taken"))
            return
        self._emit({"kind": "seated", "seat": seat, "name": "bot:random", "bot": "random"})
        self._send(route, {"type": "ok", "id": rid})
        if all(s.get("name") for s in self.seats):
            self._start()

    def _on_chat(self, route: Any, rid: Any, request: dict[str, Any]) -> None:
        self._emit({"kind": "chat", "seat": HUMAN, "name": "tina", "text": request["text"]})
        self._send(route, {"type": "ok", "id": rid})

    def _on_leave(self, route: Any, rid: Any, request: dict[str, Any]) -> None:
        self._send(route, {"type": "ok", "id": rid})

    # --- play -----------------------------------------------------------------------------

    def _on_act(self, route: Any, rid: Any, request: dict[str, Any]) -> None:
        if self.state is None:
            self._send(route, _error(rid, "not_playing", "no deal is running"))
            return
        if request["seq"] > self.seq:
            self._send(route, _error(rid, "bad_seq", "from the future"))
            return
        try:
            action = _action_decoder.decode(json.dumps(request["action"]))
            self.state.apply(HUMAN, action)
        except (msgspec.ValidationError, msgspec.DecodeError) as error:
            self._send(route, _error(rid, "bad_action", str(error)))
            return
        except IllegalAction as error:
            self._send(route, _error(rid, error.code, error.message))
            return
        self._move(HUMAN, action)
        self._send(route, {"type": "ok", "id": rid})
        if self.auto:
            self.run_bots()

    def _start(self) -> None:
        rules = msgspec.convert(self.rules, Rules)
        self.state = new_game(rules, deal=the_deal())
        self.status = "playing"
        self._emit({"kind": "deal", "number": 0}, with_view=True)
        if self.auto:
            self.run_bots()

    def _move(self, seat: int, action: Any) -> None:
        assert self.state is not None
        self.state = self.state.apply(seat, action)
        self.moves.append((seat, action))
        self._emit({"kind": "move", "seat": seat, "action": action}, with_view=True)
        if self.state.is_over:
            self.status = "finished"

    def bot_move(self) -> tuple[int, Action] | None:
        """The next bot decision, if some bot has one to make."""
        state = self.state
        if state is None or state.is_over:
            return None
        for seat in (1, 2, 3):
            if state.phase == "grand_tichu" and not state.decided >> seat & 1:
                return seat, DeclineGrandTichu()
            if state.phase == "exchange" and state.gifts[seat] is None:
                low = format_cards(state.hands[seat])
                return seat, Exchange(left=low[0], partner=low[1], right=low[2])
        seat = state.to_move
        if seat is None or seat == HUMAN:
            return None
        legal = state.legal_actions(seat, exchanges=False)
        chosen = next((a for a in legal if isinstance(a, Pass)), None)
        if chosen is None:
            plays = [a for a in legal if isinstance(a, Play) and a.wish is None]
            singles = [a for a in plays if len(a.cards) == 1] or plays
            chosen = (
                singles[0] if singles else next(a for a in legal if not isinstance(a, CallTichu))
            )
        return seat, chosen

    def step(self) -> bool:
        """Let one bot act; False if no bot has anything to do."""
        move = self.bot_move()
        if move is None:
            return False
        self._move(*move)
        return True

    def run_bots(self) -> None:
        while self.step():
            pass

    # --- messages ---------------------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        return {
            "id": TABLE,
            "game": "tichu",
            "rules": msgspec.to_builtins(msgspec.convert(self.rules, Rules)),
            "seats": [
                {"seat": s["seat"], "name": s.get("name"), "bot": s.get("bot"), "away": False}
                for s in self.seats
            ],
            "status": self.status,
            "private": False,
            "series_length": 1,
            "deal": 0,
            "spectators": 0,
        }

    def view(self, viewer: int, *, history: bool) -> Any:
        if self.state is None:
            return None
        return msgspec.to_builtins(_GAME.view(self.state, viewer, history=history))

    def snapshot(self) -> dict[str, Any]:
        view = self.view(HUMAN, history=True)
        return {
            "type": "snapshot",
            "table": self.info(),
            "seq": self.seq,
            "seat": HUMAN,
            "view": view,
            "standings": None,
            "results": None,
        }

    def _emit(self, event: dict[str, Any], *, with_view: bool = False) -> None:
        """A table event as the human's seat sees it (others' exchanges hidden)."""
        self.seq += 1
        if event["kind"] == "seated":
            self.seats[event["seat"]] = {
                "seat": event["seat"],
                "name": event["name"],
                "bot": event["bot"],
            }
        if event["kind"] == "move":
            action = event["action"]
            hidden = isinstance(action, Exchange) and event["seat"] != HUMAN
            event = {**event, "action": None if hidden else msgspec.to_builtins(action)}
        message = {
            "type": "event",
            "table": TABLE,
            "seq": self.seq,
            "event": event,
            "view": self.view(HUMAN, history=False) if with_view else None,
        }
        self._broadcast(message)


def _error(rid: Any, code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "id": rid, "code": code, "message": message}
