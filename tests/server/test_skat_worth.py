"""A Skat seat that may declare sees each declaration's worth as the engine scores it
(`SkatGame.view`), so the client computes no game value itself."""

from engine.skat.actions import Bid, Declare, Hold, Pass
from engine.skat.cards import BASE_VALUE, parse_cards
from engine.skat.rules import Rules
from engine.skat.state import State, new_game
from server.games import game_kind
from server.games.skat import SkatView, Worth, _worth

KIND = game_kind("skat")


def _to_skat_phase(seed: int) -> State:
    """Forehand holds 18, the others pass: the declarer decides on the skat."""
    state = new_game(Rules(), seed=seed, dealer=2)
    while state.observation(state.to_move).phase == "bidding":
        seat = state.to_move
        legal = state.legal_actions(seat)
        wanted = [a for a in legal if isinstance(a, Bid | Hold)] if seat == 0 else []
        state = state.apply(
            seat, wanted[0] if wanted else next(a for a in legal if isinstance(a, Pass))
        )
    return state


def test_a_seat_that_may_declare_sees_each_declarations_worth() -> None:
    state = _to_skat_phase(seed=11)
    seat = state.to_move
    view = KIND.view(state, seat, history=False)
    assert isinstance(view, SkatView) and len(view.worth) == len(view.legal)
    for action, worth in zip(view.legal, view.worth, strict=True):
        assert (worth is None) == (not isinstance(action, Declare))
        if isinstance(action, Declare) and action.game != "null" and not action.schneider:
            assert worth is not None and worth.levels == ("game", "hand")
            assert worth.value == (abs(worth.matadors or 0) + 2) * BASE_VALUE[action.game]
    spectator = KIND.view(state, None, history=False)
    assert not isinstance(spectator, SkatView)


def test_worth_counts_announcements_as_the_engine_does() -> None:
    texts = ("JC", "JS", "AC", "TC", "KC", "QC", "9C", "AS", "TS", "AH")  # with 2 in clubs
    cards = parse_cards(texts)
    assert _worth(Declare("clubs"), False, cards) == Worth(36, 2, ("game",))
    announced = _worth(Declare("clubs", schneider=True), True, cards)
    assert announced == Worth(72, 2, ("game", "hand", "schneider", "schneider_announced"))
    assert _worth(Declare("null", ouvert=True), True, cards) == Worth(59, None, ())
    assert _worth(Declare("grand"), False, parse_cards(("JH", *texts[2:]))).matadors == -2
