"""Play actions of generated card sets, and the leads of a hand derived from an earlier hand's.

`legal_actions` offers a Play per legal card set (one per allowed wish when it holds the Mah
Jong). Actions are immutable, so the Play of a card set is built once and shared.

A lead is the costly question: every combination of the hand. But a seat's hand only shrinks
during the play, and the generator lists the leads of a hand so that filtering the leads of a
larger hand by the cards still held gives exactly the smaller hand's list, in the same order
(tests/engine/tichu/test_plays.py holds it to that). So the last few lead lists are kept, and
a hand that is a subset of one of them gets that list filtered instead of a new generation.
Which list is found changes nothing but the time taken.
"""

from functools import lru_cache
from itertools import compress
from typing import Final

import msgspec

from engine.tichu.actions import Action, Play
from engine.tichu.cards import MAHJONG, CardMask, format_cards, format_rank
from engine.tichu.combos import NO_COMBO
from engine.tichu.plays import Play as CardPlay
from engine.tichu.plays import plays

__all__ = ["lead_actions", "lead_list_misses", "play_actions"]

_ACTION_CACHE: Final = 1 << 16
_RECENT_LEADS: Final = 8  # a table's four seats, and some slack for a few tables at once


@lru_cache(maxsize=_ACTION_CACHE)
def _play_action(cards: CardMask) -> Play:
    """The Play of `cards` without a wish."""
    return Play(cards=format_cards(cards))


@lru_cache(maxsize=_ACTION_CACHE)
def _mahjong_actions(cards: CardMask, wishes: tuple[int, ...]) -> tuple[Play, ...]:
    """The Plays of `cards` (which hold the Mah Jong) with each of `wishes` (0: none)."""
    text = format_cards(cards)
    return tuple(Play(cards=text, wish=format_rank(wish) if wish else None) for wish in wishes)


def _expand(
    found: list[CardPlay], wishes: tuple[int, ...], hand: CardMask
) -> tuple[list[CardMask], list[Action]]:
    """The Plays of the (cards, combination) that `hand` can play in `found`, each with its
    card set: one per card set, or one per wish for a card set with the Mah Jong (`wishes`:
    the values such a Play may name, 0 for none, as the wish predicate allows them)."""
    sets = [cards for cards, _ in found]
    if not hand & MAHJONG:
        return sets, list(map(_play_action, sets))
    held: list[CardMask] = []
    actions: list[Action] = []
    for cards in sets:
        if cards & MAHJONG:
            with_wishes = _mahjong_actions(cards, wishes)
            held += [cards] * len(with_wishes)
            actions += with_wishes
        else:
            held.append(cards)
            actions.append(_play_action(cards))
    return held, actions


def play_actions(found: list[CardPlay], wishes: tuple[int, ...], hand: CardMask) -> list[Action]:
    """The Plays of the (cards, combination) that `hand` can play in `found`; `wishes` as for
    `_expand`."""
    if not hand & MAHJONG:
        return [_play_action(cards) for cards, _ in found]
    return _expand(found, wishes, hand)[1]


class _Leads(msgspec.Struct, frozen=True, gc=False):
    """The lead actions of `hand`, each with its card set, under one pair of rule options."""

    hand: CardMask
    phoenix_as_one: bool
    wishes: tuple[int, ...]
    cards: tuple[CardMask, ...]
    actions: tuple[Action, ...]


_recent: list[_Leads] = []
_misses = [0]  # lead lists generated rather than derived from a kept one


def lead_list_misses() -> int:
    """How many lead lists have been generated afresh so far (the benchmark's breakdown)."""
    return _misses[0]


def lead_actions(hand: CardMask, phoenix_as_one: bool, wishes: tuple[int, ...]) -> list[Action]:
    """The Plays of every combination `hand` may lead (see the module docstring); `wishes` as
    for `_expand`."""
    for leads in _recent:
        if (
            not hand & ~leads.hand
            and leads.phoenix_as_one == phoenix_as_one
            and leads.wishes == wishes
        ):
            if leads.hand == hand:
                return list(leads.actions)
            gone = leads.hand & ~hand
            kept = [not cards & gone for cards in leads.cards]
            held = tuple(compress(leads.cards, kept))
            actions = tuple(compress(leads.actions, kept))
            break
    else:
        _misses[0] += 1
        sets, expanded = _expand(plays(hand, NO_COMBO, phoenix_as_one=phoenix_as_one), wishes, hand)
        held, actions = tuple(sets), tuple(expanded)
    _recent.insert(0, _Leads(hand, phoenix_as_one, wishes, held, actions))
    del _recent[_RECENT_LEADS:]
    return list(actions)
