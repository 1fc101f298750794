"""TableCore, no sockets or database: commands in, effects out (docs/conventions.md section 7)."""

import random
from collections import Counter
from typing import Any

import msgspec
import numpy as np
import pytest

from bots.registry import skat_policy
from server.core.commands import (
    Act,
    AddBot,
    BotMoved,
    Command,
    Disconnect,
    Join,
    Resume,
    TimerFired,
    User,
    Watch,
)
from server.core.effects import AskBot, Effect, Publish, Send, StartTimer
from server.core.state import TableConfig
from server.core.table import TableCore
from server.events import Append, Moved, TakenOver
from server.games import GameKind, SkatGame, TichuGame
from server.protocol import Error, Event, Joined, Ok, Snapshot

USERS = [User(i + 1, f"player{i}") for i in range(4)]


def make_core(series_length: int = 1, **options: Any) -> TableCore:
    config = TableConfig(
        id="t1",
        game="skat",
        rules=options.pop("rules", {}),
        private=options.pop("private", False),
        invite=options.pop("invite", None),
        series_length=series_length,
        created_by=USERS[0].id,
        **options,
    )
    return TableCore(config, SkatGame(), random.Random(3), ["random"])


def sent_to(effects: list[Effect], client: int) -> list[Any]:
    return [e.message for e in effects if isinstance(e, Send) and client in e.clients]


def seat_everyone(core: TableCore) -> None:
    for client, user in enumerate(USERS[: core.seat_count]):
        core.handle(Join(client, user, None, None, None))


def act(core: TableCore, seat: int, action: Any, seq: int | None = None) -> list[Effect]:
    raw = msgspec.json.encode(action)
    return core.handle(Act(seat, USERS[seat], 9, core.seq if seq is None else seq, raw))


def random_move(core: TableCore, rng: np.random.Generator) -> tuple[int, Any]:
    state = core.state
    assert state is not None and state.to_move is not None
    seat = state.to_move
    return seat, skat_policy("random")(state.observation(seat), rng).action


class TestSeating:
    def test_the_deal_starts_when_the_last_seat_is_taken(self) -> None:
        core = make_core()
        seat_everyone(core)
        assert core.status == "playing"
        assert core.state is not None and core.deal_number == 0

    def test_joining_replies_joined_then_a_snapshot(self) -> None:
        core = make_core()
        effects = core.handle(Join(5, USERS[0], 1, None, None))
        messages = sent_to(effects, 5)
        assert isinstance(messages[-2], Joined) and messages[-2].seat == 0
        assert isinstance(messages[-1], Snapshot) and messages[-1].seq == core.seq

    def test_a_taken_seat_and_a_full_table_are_refused(self) -> None:
        core = make_core()
        core.handle(Join(0, USERS[0], None, 1, None))
        error = sent_to(core.handle(Join(1, USERS[1], 2, 1, None)), 1)[0]
        assert isinstance(error, Error) and error.code == "seat_taken"
        seat_everyone(core)
        error = sent_to(core.handle(Join(9, USERS[3], 3, None, None)), 9)[0]
        assert isinstance(error, Error) and error.code == "already_started"

    def test_private_tables_need_the_invite(self) -> None:
        core = make_core(private=True, invite="secret")
        error = sent_to(core.handle(Join(0, USERS[0], 1, None, "guess")), 0)[0]
        assert isinstance(error, Error) and error.code == "bad_invite"
        assert isinstance(sent_to(core.handle(Join(0, USERS[0], 1, None, "secret")), 0)[0], Joined)

    def test_unknown_bot_levels_are_refused(self) -> None:
        core = make_core()
        core.handle(Join(0, USERS[0], None, 0, None))
        error = sent_to(core.handle(AddBot(0, USERS[0], 1, 1, "genius")), 0)[0]
        assert isinstance(error, Error) and error.code == "unknown_bot"

    def test_bots_fill_empty_seats_when_the_fill_timer_fires(self) -> None:
        core = make_core(fill_bots_after=5.0)
        assert StartTimer(("fill",), 5.0) in core.wake()
        core.handle(Join(0, USERS[0], None, None, None))
        effects = core.handle(TimerFired(("fill",)))
        assert core.status == "playing"
        assert [p.bot for p in core.seats if p] == [None, "random", "random"]
        assert any(isinstance(e, Append) for e in effects)


class TestPlay:
    def test_effects_commit_before_anyone_is_told(self) -> None:
        core = make_core()
        seat_everyone(core)
        seat, action = random_move(core, np.random.default_rng(1))
        effects = act(core, seat, action)
        assert isinstance(effects[0], Append)
        assert all(isinstance(e, Send | Publish | AskBot | StartTimer) for e in effects[1:])

    def test_a_stale_seq_wrong_turn_and_illegal_move_change_nothing(self) -> None:
        core = make_core()
        seat_everyone(core)
        seq = core.seq
        seat, action = random_move(core, np.random.default_rng(1))
        codes = []
        for effects in (
            act(core, seat, action, seq=seq - 1),
            act(core, (seat + 1) % 3, action),
            act(core, seat, {"type": "play", "card": "JC"}),
            act(core, seat, {"type": "nonsense"}),
        ):
            [error] = [m for e in effects if isinstance(e, Send) for m in [e.message]]
            assert isinstance(error, Error)
            codes.append(error.code)
        assert codes == ["stale_seq", "not_your_turn", "wrong_phase", "bad_action"]
        assert core.seq == seq

    def test_a_list_of_deals_ends_with_standings(self) -> None:
        core = make_core(series_length=3)
        seat_everyone(core)
        rng = np.random.default_rng(5)
        while core.status == "playing":
            act(core, *random_move(core, rng))
        assert core.status == "finished" and len(core.results) == 3
        assert core.standings is not None and {s.seat for s in core.standings} == {0, 1, 2}

    def test_each_seat_sees_its_own_cards_and_spectators_none(self) -> None:
        core = make_core()
        core.handle(Watch(7, USERS[3], None, None))
        effects = []
        for client, user in enumerate(USERS[:3]):
            effects = core.handle(Join(client, user, None, None, None))
        deal_views = {
            client: m.view
            for client in (0, 1, 2, 7)
            for m in sent_to(effects, client)
            if isinstance(m, Event | Snapshot) and m.view is not None
        }
        assert core.state is not None
        for seat in range(3):
            assert deal_views[seat].hand == core.state.observation(seat).hand
        assert deal_views[7].hand == () and deal_views[7].legal == ()

    def test_restoring_from_the_events_reproduces_the_table(self) -> None:
        core = make_core(series_length=2)
        log = []
        for effects in [core.handle(Join(c, u, None, None, None)) for c, u in enumerate(USERS[:3])]:
            log += [e for e in effects if isinstance(e, Append)]
        rng = np.random.default_rng(2)
        while core.status == "playing":  # the whole list, both deals
            log += [e for e in act(core, *random_move(core, rng)) if isinstance(e, Append)]
        events = [(a.first_seq + i, ev) for a in log for i, ev in enumerate(a.events)]
        restored = make_core(series_length=2)
        restored.restore(events)
        assert restored.seq == core.seq and restored.seats == core.seats
        assert restored.state is not None and core.state is not None
        assert restored.state.observation(None) == core.state.observation(None)


class TestBotsAndAbsence:
    def test_bot_seats_are_asked_and_their_answer_applies_only_at_its_seq(self) -> None:
        core = make_core()
        core.handle(Join(0, USERS[0], None, 2, None))
        core.handle(AddBot(0, USERS[0], None, 0, "random"))
        effects = core.handle(AddBot(0, USERS[0], None, 1, "random"))
        [ask] = [e for e in effects if isinstance(e, AskBot)]
        action = skat_policy("random")(ask.observation, np.random.default_rng(0)).action
        assert core.handle(BotMoved(ask.seat, ask.seq - 1, action)) == []
        effects = core.handle(BotMoved(ask.seat, ask.seq, action))
        assert isinstance(effects[0], Append) and isinstance(effects[0].events[0], Moved)

    def test_a_seat_away_past_the_grace_period_is_played_by_a_bot_until_its_owner_returns(
        self,
    ) -> None:
        core = make_core(grace_seconds=2.0)
        seat_everyone(core)
        assert core.state is not None
        to_move = core.state.to_move
        assert to_move is not None
        effects = core.handle(Disconnect(to_move))
        assert StartTimer(("grace", to_move), 2.0) in effects
        effects = core.handle(TimerFired(("grace", to_move)))
        assert isinstance(effects[0], Append) and effects[0].events == (TakenOver(to_move, True),)
        assert any(isinstance(e, AskBot) and e.seat == to_move for e in effects)
        effects = core.handle(Resume(20, USERS[to_move], 1, 0))
        assert isinstance(effects[0], Append) and effects[0].events == (TakenOver(to_move, False),)
        assert not any(isinstance(e, AskBot) for e in effects)

    def test_a_timed_out_move_is_played_by_the_timeout_bot(self) -> None:
        core = make_core(move_seconds=3.0)
        effects: list[Effect] = []
        for client, user in enumerate(USERS[:3]):
            effects = core.handle(Join(client, user, None, None, None))
        [timer] = [e for e in effects if isinstance(e, StartTimer) and e.key[0] == "move"]
        [ask] = [e for e in core.handle(TimerFired(timer.key)) if isinstance(e, AskBot)]
        assert core.state is not None and ask.seat == core.state.to_move


class TestResume:
    def test_a_short_gap_gets_exactly_the_missed_events(self) -> None:
        core = make_core()
        seat_everyone(core)
        seen = core.seq
        rng = np.random.default_rng(4)
        for _ in range(5):
            act(core, *random_move(core, rng))
        messages = sent_to(core.handle(Resume(0, USERS[0], 1, seen)), 0)
        assert [m.seq for m in messages if isinstance(m, Event)] == list(
            range(seen + 1, core.seq + 1)
        )
        assert isinstance(messages[-1], Ok)

    def test_a_long_gap_gets_a_snapshot(self) -> None:
        core = make_core(resume_window=4)
        seat_everyone(core)
        rng = np.random.default_rng(4)
        for _ in range(6):
            act(core, *random_move(core, rng))
        messages = sent_to(core.handle(Resume(0, USERS[0], 1, 0)), 0)
        assert isinstance(messages[0], Snapshot) and messages[0].seq == core.seq


class CountingState:
    """An engine state that counts the `apply` calls on it and on every state it leads to."""

    def __init__(self, inner: Any, counts: Counter[str]) -> None:
        self._inner = inner
        self._counts = counts

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def apply(self, seat: int, action: Any) -> "CountingState":
        self._counts["apply"] += 1
        return CountingState(self._inner.apply(seat, action), self._counts)


class CountingGame:
    """A game adapter whose states count `apply`, and which counts decoded actions and deals
    restored from their bytes."""

    def __init__(self, inner: GameKind) -> None:
        self._inner = inner
        self.counts: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def deal(
        self, rules: Any, seed: int, number: int, results: Any = ()
    ) -> tuple[bytes, CountingState]:
        start, state = self._inner.deal(rules, seed, number, results)
        return start, CountingState(state, self.counts)

    def restore(self, start: bytes) -> CountingState:
        self.counts["restore"] += 1
        return CountingState(self._inner.restore(start), self.counts)

    def decode_action(self, raw: bytes) -> Any:
        self.counts["decode"] += 1
        return self._inner.decode_action(raw)


class TestEachMoveOnce:
    """A move is decoded once (from the client's bytes) and applied once; a new deal is
    never restored from its own bytes. Only stored events are decoded and applied again."""

    @pytest.mark.parametrize("kind", [SkatGame, TichuGame])
    def test_every_move_is_applied_once(self, kind: type[GameKind]) -> None:
        game = CountingGame(kind())
        config = TableConfig("t1", game.name, {}, False, None, 3, USERS[0].id)
        core = TableCore(config, game, random.Random(3), ["random"])  # type: ignore[arg-type]
        log: list[Append] = []

        def handle(command: Command) -> None:
            log.extend(e for e in core.handle(command) if isinstance(e, Append))

        handle(Watch(50, User(9, "watcher"), None, None))
        for client, user in enumerate(USERS[: core.seat_count]):
            handle(Join(client, user, None, None, None))
        rng = random.Random(1)
        acts = bot_moves = 0
        while core.status == "playing" and acts + bot_moves < 120:
            assert core.state is not None
            seat = game.acting_seats(core.state)[0]
            action = rng.choice(core.state.legal_actions(seat))
            if (acts + bot_moves) % 3 == 2:  # some moves come back as a bot's answers
                handle(BotMoved(seat, core.game_seq, action))
                bot_moves += 1
            else:
                raw = msgspec.json.encode(action)
                handle(Act(seat, USERS[seat], 1, core.seq, raw))
                acts += 1
        assert core.moves == acts + bot_moves > 0
        assert game.counts == Counter({"apply": core.moves, "decode": acts})
        game.counts.clear()
        restored = TableCore(config, game, random.Random(3), ["random"])  # type: ignore[arg-type]
        restored.restore((a.first_seq + i, e) for a in log for i, e in enumerate(a.events))
        assert restored.seq == core.seq
        deals = core.deal_number + 1
        assert game.counts == Counter({"apply": core.moves, "decode": core.moves, "restore": deals})
