"""The initiative model: its contexts, smoothing, and the self-play statistics behind it."""

import numpy as np

from bots.tichu.baseline import greedy_policy
from bots.tichu.combination import CLASSES
from bots.tichu.initiative import (
    BOMB_WIN,
    HEIGHT_SLOTS,
    TOP_SLOTS,
    TRICK_BUCKETS,
    height_slot,
    load_model,
    smooth,
    top_out,
    trick_bucket,
)
from bots.tichu.statistics import gather
from engine.tichu.cards import parse_cards
from engine.tichu.combos import BOMB4, DOG_COMBO, PHOENIX_LED_HEIGHT, SINGLE, combo

BUCKETS = len(TRICK_BUCKETS)


def _empty() -> tuple[np.ndarray, np.ndarray]:
    return (
        np.zeros((CLASSES, HEIGHT_SLOTS, TOP_SLOTS, BUCKETS, 2), dtype=np.int64),
        np.zeros((CLASSES, HEIGHT_SLOTS, BUCKETS, 2), dtype=np.int64),
    )


def test_contexts() -> None:
    assert height_slot(combo(SINGLE, 1, PHOENIX_LED_HEIGHT)) == HEIGHT_SLOTS - 1
    assert height_slot(combo(SINGLE, 1, 28)) == 14
    ace = combo(SINGLE, 1, 28)
    assert top_out(parse_cards("Kj Phoenix"), ace) == 15  # the Phoenix beats an Ace
    assert top_out(parse_cards("Kj Phoenix"), combo(2, 2, 20)) == 13  # not a pair's business
    assert [trick_bucket(t) for t in (0, 1, 2, 3, 9, 10, 40)] == [0, 1, 1, 2, 3, 4, 4]


def test_without_data_every_probability_is_one_half() -> None:
    win, play = smooth(*_empty())
    assert np.allclose(win, 0.5) and np.allclose(play, 0.5)


def test_a_cell_without_data_borrows_its_coarser_context() -> None:
    win_counts, play_counts = _empty()
    win_counts[0, 14, 15, 0] = (400, 300)  # Aces against the Dragon, first trick
    win, _ = smooth(win_counts, play_counts)
    assert abs(win[0, 14, 15, 0] - 0.75) < 0.01
    assert win[0, 14, 15, 3] == win[0, 14, 15].mean() or abs(win[0, 14, 15, 3] - 0.75) < 0.01
    assert 0.5 < win[0, 14, 2, 0] < 0.75  # same height, no data for this top: shrunk to 1/2


def test_bombs_and_the_dog_have_fixed_values() -> None:
    model = load_model()
    bomb = combo(BOMB4, 4, 10)
    assert model.win_probability(bomb, 14, 0) == BOMB_WIN
    assert model.play_probability(bomb, 0) == 1.0
    assert model.win_probability(DOG_COMBO, 14, 0) == 0.0


def test_the_packaged_model_knows_an_ace_beats_more_than_a_three() -> None:
    model = load_model()
    ace, three = combo(SINGLE, 1, 28), combo(SINGLE, 1, 6)
    assert model.win_probability(ace, 14, 3) > 0.8 > 0.2 > model.win_probability(three, 14, 3)


def test_self_play_counts_are_consistent_and_reproducible() -> None:
    counts = gather(greedy_policy, range(4), seed=5)
    trials, wins = counts.win[..., 0], counts.win[..., 1]
    assert (wins <= trials).all() and wins.sum() > 0
    play_trials = counts.play[..., 0]
    for bucket in range(BUCKETS):  # every cell of a bucket sees the same opportunities
        assert (play_trials[:, :, bucket] == play_trials[0, 0, bucket]).all()
    again = gather(greedy_policy, range(4), seed=5)
    assert (again.win == counts.win).all() and (again.play == counts.play).all()
