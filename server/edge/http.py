"""Plain HTTP on the WebSocket port (websockets' `process_request` hook).

Health and readiness probes, Prometheus metrics, the leaderboard and the bot tournaments as
JSON, game record downloads and replays, and the static web client. A request that asks for a
WebSocket upgrade passes through.
"""

import asyncio
import http
import mimetypes
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import msgspec
from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.edge.access import bearer_token, may_see_table, user_may_see_table
from server.edge.tournaments import TournamentWatch
from server.games import all_games, game_kind
from server.games.replay import replay_steps
from server.protocol import LeaderboardEntry, encode_public
from server.protocol.fields import (
    DealNumber,
    GameName,
    Invite,
    PlayerName,
    TableId,
    Token,
    TournamentId,
)
from server.store.db import Store

__all__ = ["WEB_ROOT", "HttpRoutes"]

WEB_ROOT = Path(__file__).parents[1] / "web"
RECORD_PREFIX = "/api/records/"
TOURNAMENTS = "/api/tournaments"
PLAYERS = "/api/players/"
RECORD_PARTS = 2
REPLAY = "replay"
ANALYSIS = "analysis"


def _response(status: http.HTTPStatus, body: bytes, content_type: str) -> Response:
    headers = Headers(
        [
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
        ]
    )
    return Response(status.value, status.phrase, headers, body)


def _text(status: http.HTTPStatus, text: str) -> Response:
    return _response(status, text.encode(), "text/plain; charset=utf-8")


def _valid(value: str | None, kind: Any) -> Any:
    """`value` as the protocol type `kind` (the WebSocket's checks on an HTTP parameter:
    length, characters, range), or None when it is none."""
    if not value:
        return None
    try:
        return msgspec.convert(value, kind, strict=False)
    except msgspec.ValidationError:
        return None


class HttpRoutes:
    """The HTTP side of the server. `ready` and `metrics` are callables so that this module
    needs neither the app nor the lobby."""

    def __init__(
        self,
        store: Store,
        tournaments: TournamentWatch,
        is_ready: Callable[[], bool],
        render_metrics: Callable[[], str],
        web_root: Path = WEB_ROOT,
    ) -> None:
        self.store = store
        self.tournaments = tournaments
        self.is_ready = is_ready
        self.render_metrics = render_metrics
        # Only files that exist at start are served: no path from a request reaches the disk.
        self.files = {
            "/" + p.relative_to(web_root).as_posix(): p for p in web_root.rglob("*") if p.is_file()
        }

    def handler(self) -> Callable[[ServerConnection, Request], Awaitable[Response | None]]:
        async def process_request(_: ServerConnection, request: Request) -> Response | None:
            if request.headers.get("Upgrade", "").lower() == "websocket":
                return None
            return await self.respond(request.path, request.headers)

        return process_request

    async def respond(self, target: str, headers: Headers | None = None) -> Response:
        url = urlsplit(target)
        path = url.path
        query = parse_qs(url.query)
        if path == "/healthz":
            return _text(http.HTTPStatus.OK, "ok\n")
        if path == "/readyz":
            if self.is_ready():
                return _text(http.HTTPStatus.OK, "ready\n")
            return _text(http.HTTPStatus.SERVICE_UNAVAILABLE, "starting or stopping\n")
        if path == "/metrics":
            return _response(
                http.HTTPStatus.OK, self.render_metrics().encode(), "text/plain; version=0.0.4"
            )
        if path == "/api/leaderboard":
            game = _valid(query.get("game", ["skat"])[0], GameName)
            if game is None or game not in all_games():
                return _text(http.HTTPStatus.BAD_REQUEST, "no such game\n")
            people = query.get("people", [""])[0] in ("1", "true")
            entries = await self.store.leaderboard(game, people=people)
            board = [LeaderboardEntry(**entry) for entry in entries]
            body = encode_public({"game": game, "entries": board})
            return _response(http.HTTPStatus.OK, body, "application/json")
        if path == TOURNAMENTS:
            body = encode_public({"tournaments": await self.tournaments.listing()})
            return _response(http.HTTPStatus.OK, body, "application/json")
        if path.startswith(TOURNAMENTS + "/"):
            tournament = _valid(path[len(TOURNAMENTS) + 1 :], TournamentId)
            info = None if tournament is None else await self.tournaments.info(tournament)
            if info is None:
                return _text(http.HTTPStatus.NOT_FOUND, "no such tournament\n")
            return _response(http.HTTPStatus.OK, encode_public(info), "application/json")
        authorization = None if headers is None else headers.get("Authorization")
        token = _valid(bearer_token(authorization), Token)
        if path.startswith(PLAYERS):
            return await self._profile(unquote(path[len(PLAYERS) :]), token)
        if path.startswith(RECORD_PREFIX):
            invite = _valid(query.get("invite", [""])[0], Invite)
            return await self._record(path[len(RECORD_PREFIX) :], token, invite)
        file = self.files.get("/index.html" if path == "/" else path)
        if file is None:
            return _text(http.HTTPStatus.NOT_FOUND, "not found\n")
        content_type = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        return _response(http.HTTPStatus.OK, file.read_bytes(), content_type)

    async def _record(self, rest: str, token: str | None, invite: str | None) -> Response:
        """`/api/records/{table}/{deal}`: the deal's record as text, with `/replay` its
        steps as JSON, with `/analysis` its analysis once computed (the `analyze` request
        starts it); a private table's only for its players and with its invite
        (`may_see_table`)."""
        parts = rest.split("/")
        extra = parts[-1] if len(parts) == RECORD_PARTS + 1 else None
        if len(parts) != RECORD_PARTS and extra not in (REPLAY, ANALYSIS):
            return _text(http.HTTPStatus.NOT_FOUND, "use /api/records/{table}/{deal}\n")
        table_id, deal = _valid(parts[0], TableId), _valid(parts[1], DealNumber)
        if table_id is None or deal is None:
            return _text(http.HTTPStatus.NOT_FOUND, "no such record\n")
        visible = await may_see_table(self.store, table_id, token=token, invite=invite)
        if extra == REPLAY:
            return await self._replay(table_id, deal, visible)
        if extra == ANALYSIS:
            analysis = await self.store.analysis(table_id, deal) if visible else None
            if analysis is None:
                return _text(http.HTTPStatus.NOT_FOUND, "no analysis of such a record\n")
            return _response(http.HTTPStatus.OK, analysis.encode(), "application/json")
        record = await self.store.record(table_id, deal) if visible else None
        if record is None:
            return _text(http.HTTPStatus.NOT_FOUND, "no such record\n")
        return _text(http.HTTPStatus.OK, record + "\n")

    async def _replay(self, table_id: str, deal: int, visible: bool) -> Response:
        """A finished deal step by step (`server/games/replay.py`) with its players."""
        log = await self.store.game_log(table_id, deal) if visible else None
        if log is None:
            return _text(http.HTTPStatus.NOT_FOUND, "no such record\n")
        players = [
            None if p is None else {"name": p.name, "bot": p.bot is not None or p.client_bot}
            for p in log.players
        ]
        body = encode_public(
            {
                "game": log.game,
                "table": table_id,
                "deal": deal,
                "players": players,
                # A Tichu match takes ~0.1 s to replay: off the event loop (docs/benchmarks.md).
                "steps": await asyncio.to_thread(
                    replay_steps, game_kind(log.game), log.start, log.moves
                ),
            }
        )
        return _response(http.HTTPStatus.OK, body, "application/json")

    async def _profile(self, name: str, token: str | None) -> Response:
        """`/api/players/{name}`: as the `profile` request answers; a private table's lists
        only to a user who sat at it (his session token)."""
        player = _valid(name, PlayerName)
        user = None if token is None else await self.store.user_for_token(token)
        viewer = None if user is None else user.id

        async def may_see(table_id: str) -> bool:
            return await user_may_see_table(self.store, table_id, viewer)

        profile = None if player is None else await self.store.profile(player, may_see)
        if profile is None:
            return _text(http.HTTPStatus.NOT_FOUND, "no such player\n")
        return _response(http.HTTPStatus.OK, encode_public(profile), "application/json")
