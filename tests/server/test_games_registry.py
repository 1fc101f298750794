"""The game registry (`server.games`): one `GameKind` per game carries its rules, bots, create
form and tournament side, and every lookup goes through it."""

import msgspec
import pytest

from bots.registry import bots_of
from server.games import ScheduleFlags, all_games, game_kind

KINDS = sorted(all_games())


def test_each_game_is_registered_once_under_its_name() -> None:
    games = all_games()
    assert set(games) == {"skat", "tichu"}
    assert all(name == kind.name for name, kind in games.items())
    with pytest.raises(ValueError, match="no game 'doppelkopf'; known: skat, tichu"):
        game_kind("doppelkopf")


@pytest.mark.parametrize("name", KINDS)
def test_a_player_picks_from_some_of_the_games_bots(name: str) -> None:
    kind = game_kind(name)
    assert kind.bots is bots_of(name)
    assert set(kind.bots.player_levels) <= set(kind.bots.names)
    assert callable(kind.bots.policy(kind.bots.player_levels[0]))


@pytest.mark.parametrize("name", KINDS)
def test_the_create_forms_defaults_and_every_choice_are_valid_rules(name: str) -> None:
    kind = game_kind(name)
    defaults = {o.name: o.default for o in kind.rule_options if o.default is not None}
    options = kind.rules_options(kind.parse_rules(defaults))
    assert set(defaults) <= set(options)
    for option in kind.rule_options:
        assert (option.control == "check") == (not option.choices)
        for choice in option.choices:
            if choice.value is not None:
                kind.parse_rules({**defaults, option.name: choice.value})
    assert not kind.series_choices or kind.series_default in kind.series_choices


@pytest.mark.parametrize("name", KINDS)
def test_a_rule_outside_the_form_is_refused(name: str) -> None:
    with pytest.raises(msgspec.ValidationError):
        game_kind(name).parse_rules({"no_such_rule": 1})


def test_each_game_reads_the_tournament_flags_it_needs() -> None:
    def length(size: int) -> int:
        return 12 * size

    skat = game_kind("skat").tournament
    plan = skat.schedule(ScheduleFlags(games=6, rounds=None, matches=None, table_size=4), length)
    assert (plan.deals, plan.rules, plan.list_length) == (6, {"players": 4}, 48)
    with pytest.raises(ValueError, match="Skat needs --games"):
        skat.schedule(ScheduleFlags(None, 3, None, 3), length)
    tichu = game_kind("tichu").tournament
    rounds = tichu.schedule(ScheduleFlags(None, 5, None, 3), length)
    assert (rounds.deals, rounds.rules, rounds.list_length) == (5, {"max_rounds": 1}, 10)
    assert tichu.schedule(ScheduleFlags(None, None, 2, 3), length).rules == {}
    with pytest.raises(ValueError, match="Tichu needs --rounds or --matches"):
        tichu.schedule(ScheduleFlags(6, None, None, 3), length)


def test_games_and_tournaments_import_each_other_one_way_only() -> None:
    from pathlib import Path

    games = Path(__file__).resolve().parents[2] / "server" / "games"
    for path in games.glob("*.py"):
        assert "server.tournament" not in path.read_text(), path.name
