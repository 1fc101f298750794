"""One WebSocket connection: decode, route, reply; an outbox for everything the server pushes.

Frames are parsed once, at the edge, into `protocol` types; anything else is answered with an
`error` and changes nothing. Tables push through `push`, which never blocks: a frame goes to
the socket at once while it takes everything, else to the outbox, which a task drains with
websockets' flow control; a client that stops reading fills it and is disconnected instead of
slowing its table down. An idle connection costs no task.
"""

import asyncio
import logging
import math

import msgspec
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.protocol import State

from server.analysis import Analyses, Done, Progress
from server.core import commands
from server.core.actor import UNAVAILABLE
from server.edge.access import may_see_table, user_may_see_table
from server.edge.guard import SESSION_REPLACED, Guard
from server.edge.limits import TokenBucket
from server.edge.tournaments import TournamentWatch
from server.games import game_info
from server.identity import hash_password, verify_password
from server.lobby import Lobby, LobbyError
from server.metrics import Metrics
from server.names import BadName, check, guest_prefix, is_reserved, normalize
from server.protocol import (
    OLDEST_VERSION,
    PROTOCOL_VERSION,
    Act,
    AddBot,
    Analysis,
    AnalysisProgress,
    Analyze,
    Chat,
    CreateTable,
    Error,
    Games,
    Hello,
    Join,
    Leaderboard,
    LeaderboardEntry,
    LeaderboardReply,
    Leave,
    ListGames,
    ListTables,
    Login,
    Ping,
    Pong,
    Profile,
    ProfileReply,
    Register,
    Rename,
    Reply,
    Request,
    Resume,
    TableCreated,
    Tables,
    Tournament,
    UserInfo,
    Watch,
    WatchLobby,
    WatchTournament,
    Welcome,
    action_json,
    decode_request,
    encode,
    request_id,
)
from server.protocol.social import SOCIAL_REQUESTS, SocialRequest
from server.protocol.tournaments import TOURNAMENT_REQUESTS
from server.settings import Settings
from server.social.hub import Social
from server.store.db import NameTaken, Store
from server.store.outages import is_unavailable
from server.store.users import StoredUser
from server.tournament.people import PeopleTournaments

__all__ = ["Connection"]

log = logging.getLogger(__name__)
SESSION_MOVED = "this session was taken up by another connection; this one closes"
TOO_MANY_GUESTS = "too many new guests: log in, or try again later"
ALREADY_WELCOMED = "this connection said hello already: open a new one to be another user"


class Connection:
    """Serves one client until its socket closes. Thousands may be open and idle at once, so
    it keeps no attribute dictionary and, when idle, no task and only empty lists."""

    __slots__ = (
        "abuse",
        "address",
        "analyses",
        "bucket",
        "closing",
        "guard",
        "id",
        "is_bot",
        "lobby",
        "metrics",
        "outbox",
        "people_tournaments",
        "registry",
        "settings",
        "social",
        "store",
        "tables",
        "token",
        "tournaments",
        "user",
        "version",
        "was_replaced",
        "writer",
        "ws",
    )

    def __init__(
        self,
        client_id: int,
        ws: ServerConnection,
        lobby: Lobby,
        store: Store,
        settings: Settings,
        metrics: Metrics,
        tournaments: TournamentWatch,
        guard: Guard,
        address: str,
        social: Social | None = None,
        analyses: Analyses | None = None,
        people_tournaments: PeopleTournaments | None = None,
        registry: dict[int, "Connection"] | None = None,
    ) -> None:
        self.id = client_id
        self.people_tournaments = people_tournaments
        self.registry = registry  # the open connections, while this one serves
        self.analyses = analyses
        self.guard = guard
        self.address = address  # the client's (behind a trusted proxy: the proxy's client)
        self.tournaments = tournaments
        self.ws = ws
        self.lobby = lobby
        self.store = store
        self.settings = settings
        self.metrics = metrics
        self.user: StoredUser | None = None
        self.is_bot = False  # the client is a program (hello with `bot`)
        self.token = ""
        self.version = PROTOCOL_VERSION  # the protocol version the client said in `hello`
        self.tables: list[str] = []  # the tables it joined or watches
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
        self.abuse = 0
        self.outbox: list[bytes] = []  # a few at a time: a list is smaller than a deque
        self.writer: asyncio.Task[None] | None = None
        self.closing = False
        self.was_replaced = False  # another connection took the session (close 4409)
        self.social = social  # presence, friends, lobby chat (None: not offered)

    def push(self, data: bytes) -> None:
        """Send an encoded message (UTF-8 JSON, the same bytes for every recipient): at once
        while the socket took all before it, else through the outbox (`_write` waits in
        `send`); a client whose outbox is full is disconnected."""
        if self.closing:
            return
        ws = self.ws
        if self.writer is None:
            if ws.protocol.state is not State.OPEN or ws.transport.is_closing():
                return  # the connection closes: `serve` ends
            if not ws.transport.get_write_buffer_size():
                ws.protocol.send_text(data)
                ws.send_data()
                return
        if len(self.outbox) >= self.settings.outbox_size:
            log.warning("client %d does not read; closing", self.id)
            self._close_later(CloseCode.TRY_AGAIN_LATER, "too slow")
            return
        self.outbox.append(data)
        if self.writer is None:
            self.writer = asyncio.get_running_loop().create_task(self._write())

    def reply(self, message: Reply) -> None:
        self.push(encode(message))

    async def serve(self) -> None:
        """Read frames until the client goes; always tells the tables it is gone."""
        if self.registry is not None:
            self.registry[self.id] = self
        self.metrics.connections += 1
        self.metrics.connections_total += 1
        try:
            async for frame in self.ws:
                await self._receive(frame)
        except ConnectionClosed:
            pass
        finally:
            self.metrics.connections -= 1
            if self.registry is not None:
                del self.registry[self.id]
            self.closing = True
            if self.writer is not None:
                self.writer.cancel()
            self.guard.release(self.token, self)
            self.tournaments.forget(self.id)
            self.lobby.unwatch(self.id)
            if self.social is not None:
                self.social.disconnected(self.id)
            for table_id in self.tables:
                try:
                    table = self.lobby.get(table_id)
                except LobbyError:
                    continue
                table.submit(commands.Disconnect(self.id, self.was_replaced))

    async def _write(self) -> None:
        """Send the outbox in order until it is empty, then end (`push` starts a new one)."""
        try:
            while self.outbox:
                await self.ws.send(self.outbox[0], text=True)
                del self.outbox[0]
        except ConnectionClosed:
            self.outbox.clear()
        finally:
            self.writer = None

    def _close_later(self, code: int, reason: str) -> None:
        self.closing = True
        asyncio.get_running_loop().create_task(self.ws.close(code, reason))

    def replaced(self) -> None:
        """Another connection took this one's session: say so, then close once it is sent."""
        self.reply(Error(code="session_replaced", message=SESSION_MOVED))
        self.was_replaced = True
        self.closing = True  # nothing more is queued after the notice
        asyncio.get_running_loop().create_task(self._close_after_outbox())

    async def _close_after_outbox(self) -> None:
        if self.writer is not None:
            await asyncio.wait([self.writer])
        await self.ws.close(SESSION_REPLACED, "session replaced")

    async def _receive(self, frame: str | bytes) -> None:
        if not self.bucket.take():
            self.abuse += 1
            if self.abuse > self.settings.abuse_limit:
                self.metrics.frames_rejected_total += 1
                self._close_later(CloseCode.POLICY_VIOLATION, "rate limit")
            else:
                self._reject(request_id(frame), "rate_limited", "slow down")
            return
        if isinstance(frame, bytes):
            return self._reject(None, "bad_frame", "send JSON in text frames")
        try:
            request = decode_request(frame)
        except msgspec.ValidationError as error:
            return self._reject(request_id(frame), "bad_request", str(error))
        except msgspec.DecodeError as error:
            return self._reject(None, "bad_json", str(error))
        try:
            await self._route(request)
        except LobbyError as error:
            self._reject(request.id, error.code, error.message, error.url)
        except Exception as error:
            if is_unavailable(error):
                log.warning(
                    "request %s refused: the database is unavailable", type(request).__name__
                )
                return self._reject(request.id, "store_unavailable", UNAVAILABLE)
            log.exception("request %s failed", type(request).__name__)
            self._reject(request.id, "internal", "the server could not handle this request")

    def _reject(
        self, request_id: int | str | None, code: str, message: str, url: str | None = None
    ) -> None:
        self.metrics.frames_rejected_total += 1
        self.reply(Error(id=request_id, code=code, message=message, url=url))

    async def _route(self, request: Request) -> None:
        if isinstance(request, Hello):
            return await self._hello(request)
        if isinstance(request, Ping):
            return self.reply(Pong(id=request.id))
        if self.user is None:
            return self._reject(request.id, "hello_required", "say hello first")
        if isinstance(request, Act):  # nearly every frame of a game: no other test first
            return await self._to_table(request)
        if isinstance(request, Register | Login):
            return await self._account(request)
        if isinstance(request, SOCIAL_REQUESTS):
            return await self._social(request)
        if isinstance(request, TOURNAMENT_REQUESTS):
            if self.people_tournaments is None:
                raise LobbyError("unavailable", "this server runs no tournaments for people")
            return self.reply(await self.people_tournaments.handle(self.user, request))
        if isinstance(request, Rename):
            return await self._rename(request)
        if isinstance(request, ListGames):
            games = [game_info(kind) for kind in self.lobby.games.values()]
            return self.reply(Games(id=request.id, games=games))
        if isinstance(request, ListTables):
            return self.reply(Tables(id=request.id, tables=await self.lobby.listing()))
        if isinstance(request, WatchLobby):
            tables = await self.lobby.watch(self.id, self.push)
            return self.reply(Tables(id=request.id, tables=tables))
        if isinstance(request, CreateTable):
            info, invite = await self.lobby.create(self._user(), request)
            return self.reply(TableCreated(id=request.id, table=info, invite=invite))
        if isinstance(request, Leaderboard):
            if request.game not in self.lobby.games:
                return self._reject(request.id, "unknown_game", f"no game {request.game!r}")
            board = await self.store.leaderboard(request.game, people=request.people)
            entries = [msgspec.convert(e, LeaderboardEntry) for e in board]
            return self.reply(LeaderboardReply(id=request.id, game=request.game, entries=entries))
        if isinstance(request, Profile):
            return await self._profile(request)
        if isinstance(request, Analyze):
            return await self._analyze(request)
        if isinstance(request, Watch):
            await self.lobby.follow(request.table)
        if isinstance(request, WatchTournament):
            info = await self.tournaments.watch(request.tournament, self.id, self.reply)
            if info is None:
                return self._reject(
                    request.id,
                    "no_such_tournament",
                    f"there is no tournament {request.tournament!r}",
                )
            return self.reply(Tournament(id=request.id, tournament=info))
        return await self._to_table(request)

    async def _to_table(self, request: Join | Leave | Watch | AddBot | Act | Chat | Resume) -> None:
        table = await self.lobby.locate(request.table)
        user = self._user()
        command: commands.Command
        if isinstance(request, Act):
            action = action_json(request)
            ack_in_event = self.version >= 2
            command = commands.Act(self.id, user, request.id, request.seq, action, ack_in_event)
        elif isinstance(request, Join):
            command = commands.Join(self.id, user, request.id, request.seat, request.invite)
        elif isinstance(request, Watch):
            command = commands.Watch(self.id, user, request.id, request.invite)
        elif isinstance(request, Resume):
            command = commands.Resume(self.id, user, request.id, request.seq)
        elif isinstance(request, Leave):
            command = commands.Leave(self.id, user, request.id)
        elif isinstance(request, AddBot):
            command = commands.AddBot(self.id, user, request.id, request.seat, request.level)
        else:
            command = commands.Say(self.id, user, request.id, request.text)
        if request.table not in self.tables:
            self.tables.append(request.table)
        table.submit(command, self)

    async def _hello(self, request: Hello) -> None:
        if self.user is not None:  # one user per connection; `login` and `register` switch
            return self._reject(request.id, "already_welcomed", ALREADY_WELCOMED)
        if not OLDEST_VERSION <= request.version <= PROTOCOL_VERSION:
            versions = f"{OLDEST_VERSION} to {PROTOCOL_VERSION}"
            return self._reject(
                request.id, "unsupported_version", f"this server speaks versions {versions}"
            )
        known = None if request.token is None else await self.store.user_for_token(request.token)
        if request.token is not None and known is None:  # a forged token learns nothing more
            return self._reject(request.id, "bad_token", "unknown session token")
        if known is not None and request.token is not None:
            user, token = known, request.token
            if user.kind == "guest":
                await self.store.saw_guests([user.id])
        elif not self.guard.may_create_guest(self.address):
            return self._reject(request.id, "too_many_guests", TOO_MANY_GUESTS)
        else:
            user = await self.store.new_guest(guest_prefix(request.language))
            token = await self.store.new_session(user.id)
        self.is_bot = request.bot
        self.version = request.version
        self._welcome(request.id, user, token)

    async def _account(self, request: Register | Login) -> None:
        if isinstance(request, Register):
            name = self._chosen_name(request.id, request.name)
            if name is None:
                return None
            hashed = await asyncio.to_thread(hash_password, request.password)
            # A guest who registers becomes the account: his games and ratings come along.
            guest = self.user.id if self.user is not None and self.user.kind == "guest" else None
            try:
                user = await self.store.new_account(name, hashed, guest=guest)
            except NameTaken:
                return self._reject(request.id, "name_taken", f"{name!r} is taken")
        else:
            name = normalize(request.name)
            wait = self.guard.login_wait(name, self.address)
            if wait > 0:
                message = f"too many failed logins: try again in {math.ceil(wait)} s"
                return self._reject(request.id, "too_many_attempts", message)
            found = await self.store.account(name)
            ok = found is not None and await asyncio.to_thread(
                verify_password, request.password, found[1]
            )
            if found is None or not ok:
                self.guard.login_failed(name, self.address)
                return self._reject(request.id, "bad_credentials", "wrong name or password")
            self.guard.login_succeeded(name)
            user = found[0]
        token = await self.store.new_session(user.id)
        self._welcome(request.id, user, token)

    async def _rename(self, request: Rename) -> None:
        if self.user is None or self.user.kind != "guest":
            return self._reject(request.id, "not_a_guest", "accounts keep the name they registered")
        name = self._chosen_name(request.id, request.name)
        if name is None:
            return None
        try:
            user = await self.store.rename_guest(self.user.id, name)
        except NameTaken:
            return self._reject(request.id, "name_taken", f"{name!r} is taken")
        self._welcome(request.id, user, self.token)

    def _chosen_name(self, request_id: int | str | None, name: str) -> str | None:
        """The normal form of a name to register or rename to, or None after refusing it
        (`bad_name` with the reason, server/names.py; `name_taken` for a reserved one)."""
        try:
            normal = check(name)
        except BadName as error:
            self.metrics.frames_rejected_total += 1
            message = f"this name is not allowed ({error.reason})"
            self.reply(Error(id=request_id, code="bad_name", message=message, reason=error.reason))
            return None
        # A guest may keep the name the server gave him (register as 'guest-...', 'Gast-...').
        own = self.user is not None and self.user.kind == "guest" and normal == self.user.name
        if is_reserved(normal) and not own:
            self._reject(request_id, "name_taken", "that name is reserved")
            return None
        return normal

    def _welcome(self, request_id: int | str | None, user: StoredUser, token: str) -> None:
        if token != self.token:
            self.guard.release(self.token, self)
            self.guard.hold(token, self)
        self.user = user
        self.token = token
        if self.social is not None:
            self.social.connected(self.id, user, self.push)
        info = UserInfo(id=user.id, name=user.name, guest=user.kind == "guest")
        self.reply(Welcome(id=request_id, version=self.version, user=info, token=token))

    async def _social(self, request: SocialRequest) -> None:
        if self.social is None or self.user is None:
            raise LobbyError("unavailable", "this server offers no presence or friends")
        self.reply(await self.social.handle(self.id, self.user, self.push, request))

    async def _profile(self, request: Profile) -> None:
        """A player's profile; a private table's lists only if we sat there too."""
        viewer = self._user().id

        async def may_see(table_id: str) -> bool:
            return await user_may_see_table(self.store, table_id, viewer)

        profile = await self.store.profile(request.name, may_see)
        if profile is None:
            return self._reject(request.id, "no_such_player", f"no player {request.name!r}")
        return self.reply(msgspec.convert({"id": request.id, **profile}, ProfileReply))

    async def _analyze(self, request: Analyze) -> None:
        """Start or join a deal's analysis; progress and the result come as pushes with the
        request's id. Whoever may not see the deal hears that there is no such record."""
        table, deal = request.table, request.deal
        visible = await may_see_table(self.store, table, token=self.token, invite=request.invite)
        if self.analyses is None or not visible:
            return self._reject(request.id, "no_such_record", "no finished deal of that number")

        def tell(update: Progress | Done) -> None:
            if isinstance(update, Progress):
                self.reply(AnalysisProgress(id=request.id, table=table, deal=deal, **vars(update)))
            elif update.analysis is None:
                self._reject(request.id, "analysis_failed", update.error)
            else:
                self._analysis(request, update.analysis)

        stored = await self.analyses.request(table, deal, self._user().id, tell)
        if stored is not None:
            self._analysis(request, stored)

    def _analysis(self, request: Analyze, text: str) -> None:
        analysis = msgspec.json.decode(text)
        table, deal = request.table, request.deal
        self.reply(Analysis(id=request.id, table=table, deal=deal, analysis=analysis))

    def _user(self) -> commands.User:
        if self.user is None:
            raise LobbyError("hello_required", "say hello first")
        return commands.User(self.user.id, self.user.name, self.is_bot)
