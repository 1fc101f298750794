"""Play actions of generated card sets.

`legal_actions` offers a Play per legal card set (one per allowed wish when it holds the Mah
Jong). Actions are immutable, so the Play of a card set is built once and shared, and the lead
list of a hand is kept by a pure function's cache (`_leads`): asking the same hand again, as an
observation and a bot do, costs a copy. The answer depends only on the arguments; what was
asked before changes only the time taken (no other state is kept).
"""

from functools import lru_cache
from typing import Final

from engine.tichu.actions import Action, Play
from engine.tichu.cards import MAHJONG, CardMask, format_cards, format_rank
from engine.tichu.combos import NO_COMBO
from engine.tichu.plays import Play as CardPlay
from engine.tichu.plays import plays

__all__ = ["lead_actions", "play_actions"]

_ACTION_CACHE: Final = 1 << 16
_LEAD_CACHE: Final = 256  # the hands on turn at many tables and in sampled worlds at once


@lru_cache(maxsize=_ACTION_CACHE)
def _play_action(cards: CardMask) -> Play:
    """The Play of `cards` without a wish."""
    return Play(cards=format_cards(cards))


@lru_cache(maxsize=_ACTION_CACHE)
def _mahjong_actions(cards: CardMask, wishes: tuple[int, ...]) -> tuple[Play, ...]:
    """The Plays of `cards` (which hold the Mah Jong) with each of `wishes` (0: none)."""
    text = format_cards(cards)
    return tuple(Play(cards=text, wish=format_rank(wish) if wish else None) for wish in wishes)


def play_actions(found: list[CardPlay], wishes: tuple[int, ...], hand: CardMask) -> list[Action]:
    """The Plays of the (cards, combination) that `hand` can play in `found`: one per card
    set, or one per wish for a card set with the Mah Jong (`wishes`: the values such a Play
    may name, 0 for none, as the wish predicate allows them)."""
    if not hand & MAHJONG:
        return [_play_action(cards) for cards, _ in found]
    actions: list[Action] = []
    for cards, _ in found:
        if cards & MAHJONG:
            actions += _mahjong_actions(cards, wishes)
        else:
            actions.append(_play_action(cards))
    return actions


@lru_cache(maxsize=_LEAD_CACHE)
def _leads(hand: CardMask, phoenix_as_one: bool, wishes: tuple[int, ...]) -> tuple[Action, ...]:
    """The lead actions of `hand` (see `play_actions`)."""
    return tuple(play_actions(plays(hand, NO_COMBO, phoenix_as_one=phoenix_as_one), wishes, hand))


def lead_actions(hand: CardMask, phoenix_as_one: bool, wishes: tuple[int, ...]) -> list[Action]:
    """The Plays of every combination `hand` may lead; `wishes` as for `play_actions`."""
    return list(_leads(hand, phoenix_as_one, wishes))
