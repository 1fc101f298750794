"""The ladder bench's statistics: each step pairs the stronger level's points with the
mirror's in the same deal and seat, over complete deals only, and holds when its interval
lies above 0."""

from typing import Any

import numpy as np
import pytest

from bench.skat_ladder import LADDER, Step, budgets_note, ladder_steps, played_steps, step_result
from bench.skat_strength import games_to_play
from bots.registry import counted_name, skat_policy


def game(deal: int, names: list[str], sf: list[int]) -> dict[str, Any]:
    return {
        "deal": deal,
        "names": names,
        "sf": sf,
        "declarer": None,
        "game": None,
        "hand": False,
        "ouvert": False,
        "won": None,
        "bid": 0,
        "passed_in": True,
        "times": {},
    }


def deal_games(deal: int, weaker: str, stronger: str, gains: list[int]) -> list[dict[str, Any]]:
    """The mirror (all zero) and the stronger level in each seat, `gains[seat]` points up."""
    records = [game(deal, [weaker] * 3, [0, 0, 0])]
    for seat, gain in enumerate(gains):
        names, sf = [weaker] * 3, [0, 0, 0]
        names[seat], sf[seat] = stronger, gain
        records.append(game(deal, names, sf))
    return records


def test_the_ladder_climbs_one_level_at_a_time() -> None:
    assert LADDER == ("beginner", "club", "strong", "expert")
    assert ladder_steps() == [("beginner", "club"), ("club", "strong"), ("strong", "expert")]


def test_a_step_is_the_mean_over_deals_of_the_seat_mean_with_its_interval() -> None:
    gains = {1: [30, 0, 0], 2: [6, 6, 6], 3: [-3, 0, 12]}  # deal means 10, 6, 3
    records = [r for d, g in gains.items() for r in deal_games(d, "club", "strong", g)]
    step = step_result(records, "club", "strong")
    means = [10.0, 6.0, 3.0]
    assert step.deals == 3
    assert step.sf_per_game == pytest.approx(np.mean(means))
    assert step.ci95 == pytest.approx(1.96 * np.std(means, ddof=1) / np.sqrt(3))
    assert step.holds


def test_the_mirror_in_the_same_seat_is_subtracted() -> None:
    records = deal_games(1, "club", "strong", [10, 10, 10]) + deal_games(
        2, "club", "strong", [20, 20, 20]
    )
    for r in records:
        if r["names"] == ["club"] * 3:
            r["sf"] = [10, 0, 5] if r["deal"] == 1 else [0, 0, 0]
    step = step_result(records, "club", "strong")
    assert step.sf_per_game == pytest.approx(((0 + 10 + 5) / 3 + 20) / 2)


def test_other_steps_and_incomplete_deals_are_left_out() -> None:
    records = deal_games(1, "club", "strong", [9, 9, 9]) + deal_games(2, "club", "strong", [3] * 3)
    records += deal_games(1, "beginner", "club", [-50, -50, -50])  # another step
    records += deal_games(3, "club", "strong", [100, 100, 100])[:-1]  # a seat missing
    records += [game(4, ["club", "strong", "expert"], [100, 0, 0])]  # not a step's game
    step = step_result(records, "club", "strong")
    assert (step.deals, step.sf_per_game) == (2, pytest.approx(6.0))
    other = step_result(records, "beginner", "club")
    assert (other.deals, other.sf_per_game) == (1, pytest.approx(-50.0))
    assert not other.holds  # one deal gives no interval


def test_a_step_whose_interval_reaches_zero_does_not_hold() -> None:
    records = deal_games(1, "strong", "expert", [12, 12, 12])
    records += deal_games(2, "strong", "expert", [-9, -9, -9])
    step = step_result(records, "strong", "expert")
    assert step.sf_per_game > 0 and not step.holds
    assert step_result([], "strong", "expert") == Step("strong", "expert", 0, 0.0, 0.0)


def test_a_step_plays_the_mirror_and_the_stronger_level_in_each_seat() -> None:
    games = games_to_play(["club"], range(7, 9), base="beginner")
    assert games[:4] == [
        (7, ["beginner", "beginner", "beginner"]),
        (7, ["club", "beginner", "beginner"]),
        (7, ["beginner", "club", "beginner"]),
        (7, ["beginner", "beginner", "club"]),
    ]
    assert len(games) == 8


def test_counted_steps_play_the_monte_carlo_levels_without_time_budgets() -> None:
    steps = ladder_steps()
    assert played_steps(steps, counted=False) == steps
    assert played_steps(steps, counted=True) == [
        ("beginner", "club-counted"),
        ("club-counted", "strong-counted"),
        ("strong-counted", "expert-counted"),
    ]
    for weaker, stronger in played_steps(steps, counted=True):
        assert skat_policy(weaker) is not None and skat_policy(stronger) is not None


def test_a_level_without_budgets_is_its_own_counted_variant() -> None:
    assert counted_name("beginner") == "beginner"
    assert counted_name("strong") == "strong-counted"


def test_the_output_says_whether_the_budgets_were_on() -> None:
    assert "time budgets off" in budgets_note(counted=True)
    assert "wall-time budgets" in budgets_note(counted=False)
