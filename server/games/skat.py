"""Skat as the server plays it, via `engine.skat`: Seeger-Fabian lists (with their Bock
rounds), ISS records."""

from collections.abc import Sequence

import msgspec

from bots.registry import bots_of
from engine.errors import IllegalAction
from engine.skat.actions import Action, Declare, Discard
from engine.skat.cards import CardMask, parse_cards
from engine.skat.iss import format_record
from engine.skat.observation import Observation
from engine.skat.rules import Rules
from engine.skat.scoring import (
    SCHNEIDER_POINTS,
    WIN_POINTS,
    Result,
    bock_deals_due,
    matadors,
    value_null_game,
    value_trump_game,
)
from engine.skat.scoring import standings as list_standings
from engine.skat.state import GameStart, State, new_game, replay
from server.games.kind import EngineGame
from server.games.skat_tournament import SkatTournament
from server.plain import Plain
from server.protocol import PeopleForm, RuleChoice, RuleOption
from server.standings import ListStanding

__all__ = ["SkatGame", "SkatStanding", "SkatView", "Worth"]

_ALL_TRICKS = 10


class Worth(msgspec.Struct, frozen=True):
    """What a declaration is worth if it is just made (announcements met, nothing more):
    the engine's game `value`, the `matadors` of the declarer's cards he knows (with n
    positive, without n negative; null for a null game: the skat of a hand game is not
    counted, he cannot see it) and the `levels` above them in order (`game`, `hand`,
    `schneider`, `schneider_announced`, `schwarz`, `schwarz_announced`, `ouvert`)."""

    value: int
    matadors: int | None
    levels: tuple[str, ...]


class SkatView(Observation, frozen=True, kw_only=True):
    """A seat's Skat view: the engine's observation, and for each of its `legal` the
    declaration's `Worth` (null for actions that are not declarations)."""

    worth: tuple[Worth | None, ...] = ()


_OBSERVATION_FIELDS = Observation.__struct_fields__
_DECLARING = ("skat", "declare")  # the phases whose legal actions include declarations


def _worth(declare: Declare, hand: bool, cards: CardMask) -> Worth:
    """The value of `declare` as the engine scores it when just made, with `cards`."""
    if declare.game == "null":
        null = value_null_game(hand=hand, ouvert=declare.ouvert, won=True)
        return Worth(null.game_value, None, ())
    held = matadors(declare.game, cards)
    ouvert = declare.ouvert
    schneider = declare.schneider or ouvert
    schwarz = declare.schwarz or ouvert
    value = value_trump_game(
        declare.game,
        held,
        hand=hand or ouvert,
        schneider_announced=schneider,
        schwarz_announced=schwarz,
        ouvert=ouvert,
        bid=0,
        declarer_points=SCHNEIDER_POINTS if schneider else WIN_POINTS,
        declarer_tricks=_ALL_TRICKS if schwarz else 1,
    )
    steps = (
        ("hand", hand or ouvert),
        ("schneider", value.schneider or schneider),
        ("schneider_announced", schneider),
        ("schwarz", value.schwarz or schwarz),
        ("schwarz_announced", schwarz),
        ("ouvert", ouvert),
    )
    levels = ("game", *(name for name, on in steps if on))
    return Worth(value.game_value, held, levels)


class SkatStanding(ListStanding, frozen=True, kw_only=True):
    """A seat's Seeger-Fabian totals over a list (SkWO 6.3.1); the list is ranked by
    performance, so `points` is the performance."""

    game_points: int
    won: int
    lost: int
    fabian: int
    performance: int


_RULES = (
    RuleOption(
        "players",
        "lobby.players",
        "radio",
        3,
        [RuleChoice(3, "lobby.n"), RuleChoice(4, "lobby.four_players")],
    ),
    RuleOption(
        "all_pass",
        "lobby.all_pass",
        "radio",
        "throw_in",
        [
            RuleChoice("throw_in", "lobby.throw_in"),
            RuleChoice("ramsch", "rules.ramsch"),
            RuleChoice("schieberamsch", "rules.schieberamsch"),
        ],
    ),
    RuleOption("kontra", "lobby.kontra", "check", False),
    RuleOption("bock", "lobby.bock", "check", False),
    RuleOption("iss_compat", "lobby.iss", "check", False),
)


class SkatGame(EngineGame[Rules]):
    """Skat via `engine.skat`."""

    name = "skat"
    observation_type = Observation
    rules_label = "lobby.skat_rules"
    rule_options = _RULES
    series_choices = (1, 2, 3, 6, 9, 12, 18, 36, 48)
    series_default = 12
    people = PeopleForm(
        table_sizes=[3, 4],
        partners=False,
        series_label="tournaments.series",
        deals_label="tournaments.deals",
        total_label="tournaments.seeger_fabian",
        declarer_games=True,
    )

    def __init__(self) -> None:
        super().__init__(Rules, Action, GameStart, replay, SkatStanding)
        self.tournament = SkatTournament()
        self.bots = bots_of(self.name)

    def seat_count(self, rules: Rules) -> int:
        return rules.players

    def series_length(self, rules: Rules, default: int) -> int:
        return default

    def people_table(self, deals: int, size: int) -> tuple[Plain, int]:
        return {"players": size}, deals  # a list of `deals` deals

    def acting_seats(self, state: State) -> tuple[int, ...]:
        return () if state.to_move is None else (state.to_move,)

    def deal(
        self, rules: Rules, seed: int, number: int, results: Sequence[Plain] = ()
    ) -> tuple[bytes, State]:
        # The first deal of a list is dealt by the last seat, so seat 0 is forehand.
        dealer = (rules.players - 1 + number) % rules.players
        due = bock_deals_due(rules.players, self._results(results)) if rules.bock else 0
        return self._dealt(new_game(rules, seed=seed, dealer=dealer, bock=due > 0, bock_due=due))

    def view(self, state: State, viewer: int | None, *, history: bool) -> Observation:
        """The observation; a seat's with the worth of each declaration it may make (a hand
        game while the skat is still down)."""
        observation = state.observation(viewer, history=history)
        if (
            viewer is None
            or observation.phase not in _DECLARING
            or not any(isinstance(a, Declare) for a in observation.legal)
        ):
            return observation
        hand = observation.phase == "skat"
        cards = parse_cards((*observation.hand, *observation.discarded))
        worth = tuple(
            _worth(a, hand, cards) if isinstance(a, Declare) else None for a in observation.legal
        )
        fields = {name: getattr(observation, name) for name in _OBSERVATION_FIELDS}
        return SkatView(**fields, worth=worth)

    def is_hidden(self, state_before: State, seat: int, action: Action, viewer: int | None) -> bool:
        # A discard is the only action whose content others may not see (cards laid away).
        return isinstance(action, Discard) and viewer != seat

    def standings(self, seats: int, results: Sequence[Plain]) -> list[ListStanding]:
        return [
            SkatStanding(
                seat=s.seat,
                points=s.performance,
                game_points=s.game_points,
                won=s.won,
                lost=s.lost,
                fabian=s.fabian,
                performance=s.performance,
            )
            for s in list_standings(seats, self._results(results))
        ]

    @staticmethod
    def _results(results: Sequence[Plain]) -> list[Result]:
        return [msgspec.convert(r, Result) for r in results]

    def record(self, state: State, names: Sequence[str]) -> str | None:
        players = tuple(names[s] for s in state.active_seats)
        try:
            return format_record(state, players=players)  # type: ignore[arg-type]
        except IllegalAction:
            return None
