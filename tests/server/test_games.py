"""The game adapters' own parts: what a Tichu seat's view adds to the engine's observation."""

import msgspec

from engine.tichu.cards import parse_cards
from engine.tichu.combos import KIND_NAMES, classify, kind_of, rank_of_combo
from engine.tichu.position import position
from server.games import TichuGame
from server.games.tichu import Combination, TichuView

HAND = "Phoenix 7j 7s 8j 8s 9p Tp Jp 4t 4j 4s 4p"


def test_a_tichu_seat_sees_the_combination_of_every_legal_play() -> None:
    state = position(parse_cards(HAND), None)
    view = TichuGame().view(state, 0, history=False)
    assert isinstance(view, TichuView)
    assert len(view.combinations) == len(view.legal)
    named = 0
    for action, combination in zip(view.legal, view.combinations, strict=True):
        if getattr(action, "cards", None) is None:
            assert combination is None
            continue
        played = classify(parse_cards(" ".join(action.cards)))
        assert combination == Combination(
            KIND_NAMES[kind_of(played)], rank_of_combo(played), len(action.cards)
        )
        named += 1
    kinds = {c.kind for c in view.combinations if c is not None}
    assert {"single", "pair", "triple", "fullhouse", "straight", "stairs", "bomb4"} <= kinds
    assert named > 50


def test_a_phoenix_single_is_named_for_what_it_is_played_on() -> None:
    state = position(parse_cards("Phoenix 2j"), parse_cards("9s"))
    view = TichuGame().view(state, 0, history=False)
    names = {
        tuple(a.cards): c
        for a, c in zip(view.legal, view.combinations, strict=True)
        if c is not None
    }
    assert names[("Phoenix",)] == Combination("single", 9.5, 1)


def test_spectators_get_the_plain_observation_and_the_view_encodes_as_json() -> None:
    state = position(parse_cards(HAND), parse_cards("5s"))
    game = TichuGame()
    assert not isinstance(game.view(state, None, history=False), TichuView)
    encoded = msgspec.json.decode(msgspec.json.encode(game.view(state, 0, history=True)))
    plays = [action["type"] == "play" for action in encoded["legal"]]
    assert [c is not None for c in encoded["combinations"]] == plays
    assert any(plays) and not all(plays)  # passing is no play
