"""Tichu as the server plays it, via `engine.tichu`: one match to the target score per series,
JSON records, and views that name each legal play's combination."""

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

import msgspec

from bots.registry import bots_of
from engine.tichu.actions import Action, Exchange, Play
from engine.tichu.cards import parse_cards
from engine.tichu.combos import KIND_NAMES, NO_COMBO, Combo, classify, kind_of, rank_of_combo
from engine.tichu.observation import Observation
from engine.tichu.rules import Rules
from engine.tichu.scoring import Result as MatchResult
from engine.tichu.state import GameStart, State, new_game, replay
from server.games.kind import EngineGame
from server.games.tichu_tournament import TichuTournament
from server.plain import Plain
from server.protocol import PeopleForm, RuleChoice, RuleOption
from server.standings import ListStanding

__all__ = ["Combination", "TichuGame", "TichuView"]

SEATS: Final = 4
_COMBINATIONS_CACHE: Final = 1 << 14
_RULES: Final = (
    RuleOption(
        "target_points",
        "lobby.play_to",
        "select",
        1000,
        [RuleChoice(n, "lobby.points") for n in (500, 1000, 1500)],
    ),
    RuleOption(
        "max_rounds",
        "lobby.at_most",
        "select",
        None,
        [
            RuleChoice(None, "lobby.any_rounds"),
            *(RuleChoice(n, "lobby.n_rounds") for n in (1, 4, 8, 12)),
        ],
    ),
    RuleOption(
        "tie",
        "lobby.tie",
        "select",
        "play_on",
        [RuleChoice("play_on", "lobby.tie_play_on"), RuleChoice("draw", "lobby.tie_draw")],
    ),
    RuleOption("wish_required", "lobby.wish_required", "check", False),
    RuleOption("phoenix_as_one", "lobby.phoenix_as_one", "check", False),
    RuleOption("dog_bombable", "lobby.dog_bombable", "check", False),
)


class Combination(msgspec.Struct, frozen=True):
    """A Tichu combination as a client names it: `kind` (single, pair, triple, fullhouse,
    straight, stairs, bomb4, bombsf, dog), `rank` (the deciding value: a straight's or stairs'
    top, a full house's triple; a Phoenix single half above what it is played on, 1.5 led;
    null for the Dog) and `length` (cards)."""

    kind: str
    rank: float | int | None
    length: int


class TichuView(Observation, frozen=True, kw_only=True):
    """A seat's Tichu view: the engine's observation, and for each of its `legal`
    the combination it plays (null for actions that are not plays)."""

    combinations: tuple[Combination | None, ...] = ()


_OBSERVATION_FIELDS: Final = Observation.__struct_fields__


@lru_cache(maxsize=_COMBINATIONS_CACHE)
def _combination(cards: tuple[str, ...], table: Combo, phoenix_as_one: bool) -> Combination:
    combo = classify(parse_cards(cards), table, phoenix_as_one=phoenix_as_one)
    return Combination(KIND_NAMES[kind_of(combo)], rank_of_combo(combo), len(cards))


class TichuGame(EngineGame[Rules]):
    """Tichu via `engine.tichu`."""

    name = "tichu"
    seats = SEATS
    observation_type = Observation
    rules_label = "lobby.tichu_rules"
    rule_options = _RULES
    series_choices = ()  # a table plays one match
    series_default = 1
    people = PeopleForm(
        table_sizes=[4],
        partners=True,
        series_label="tournaments.rounds",
        deals_label="tournaments.match_rounds",
        total_label="tournaments.points",
        declarer_games=False,
    )

    def __init__(self) -> None:
        super().__init__(Rules, Action, GameStart, replay)
        self.tournament = TichuTournament()
        self.bots = bots_of(self.name)

    def seat_count(self, rules: Rules) -> int:
        return self.seats

    def series_length(self, rules: Rules, default: int) -> int:
        return 1  # the match is the unit: its rounds are inside one engine state

    def people_table(self, deals: int, size: int) -> tuple[Plain, int]:
        return {"max_rounds": deals}, 1  # one match of at most `deals` rounds

    def acting_seats(self, state: State) -> tuple[int, ...]:
        if state.is_over:
            return ()
        if state.to_move is not None:
            return (state.to_move,)
        if state.phase == "grand_tichu":
            return tuple(s for s in range(self.seats) if not state.decided >> s & 1)
        return tuple(s for s in range(self.seats) if state.gifts[s] is None)

    def deal(
        self, rules: Rules, seed: int, number: int, results: Sequence[Plain] = ()
    ) -> tuple[bytes, State]:
        return self._dealt(new_game(rules, seed=seed))

    def is_hidden(self, state_before: State, seat: int, action: Action, viewer: int | None) -> bool:
        # The exchange is passed face down; receivers see their cards in their view.
        return isinstance(action, Exchange) and viewer != seat

    def view(self, state: State, viewer: int | None, *, history: bool) -> Observation:
        """The observation; a seat's with the combination of each legal play."""
        observation = state.observation(viewer, history=history)
        if viewer is None:
            return observation
        table = NO_COMBO if state.closed else state.table  # what a Phoenix single is played on
        wild = state.rules.phoenix_as_one
        combinations = tuple(
            _combination(a.cards, table, wild) if isinstance(a, Play) else None
            for a in observation.legal
        )
        fields = {name: getattr(observation, name) for name in _OBSERVATION_FIELDS}
        return TichuView(**fields, combinations=combinations)

    def standings(self, seats: int, results: Sequence[Plain]) -> list[ListStanding]:
        totals = [0, 0]
        for result in results:
            match = msgspec.convert(result, MatchResult)
            for team in (0, 1):
                totals[team] += match.totals[team]
        entries = [
            ListStanding(seat=seat, points=totals[seat % 2], team=seat % 2) for seat in range(seats)
        ]
        return sorted(entries, key=lambda e: (-e.points, e.seat))

    def record(self, state: State, names: Sequence[str]) -> str | None:
        """A JSON record of a finished match: rules, every round's deal, every action, the
        result. The seed stays secret; the deals say everything it would."""
        if not state.is_over:
            return None
        rounds = len(state.result.rounds)
        record = {
            "game": self.name,
            "players": list(names),
            "rules": msgspec.to_builtins(state.start.rules),
            "deals": [state.start.deal(k).to_text() for k in range(rounds)],
            "moves": [[seat, msgspec.to_builtins(action)] for seat, action in state.moves],
            "result": msgspec.to_builtins(state.result),
        }
        return self._encoder.encode(record).decode()
