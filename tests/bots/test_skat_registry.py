"""Skat bots by name: `LEVEL:BIDDER` picks a level's bidding strategy (issue 11);
`LEVEL-counted` is the level without time budgets."""

import msgspec
import pytest

from bots.registry import SKAT_MONTE_CARLO_LEVELS, policy, policy_names
from bots.skat.bidders import BIDDERS
from bots.skat.levels import LEVELS, SkatBot


@pytest.mark.parametrize("level", SKAT_MONTE_CARLO_LEVELS)
@pytest.mark.parametrize("bidder", BIDDERS)
def test_a_level_takes_any_bidder_and_keeps_its_other_settings(level: str, bidder: str) -> None:
    bot = policy("skat", f"{level}:{bidder}")
    assert isinstance(bot, SkatBot) and bot.bidder == bidder
    assert bot.worlds == LEVELS[level].worlds and bot.risk == LEVELS[level].risk
    assert bot.margin == LEVELS[level].margin
    assert f"{level}:{bidder}" in policy_names("skat")


def test_plain_level_names_keep_their_default_bidder() -> None:
    assert policy("skat", "strong") == LEVELS["strong"]
    assert "strong" in policy_names("skat")


@pytest.mark.parametrize("level", SKAT_MONTE_CARLO_LEVELS)
def test_a_counted_level_solves_every_world_it_asks_for(level: str) -> None:
    bot = policy("skat", f"{level}-counted")
    assert isinstance(bot, SkatBot) and bot.seconds is None and bot.skat_seconds is None
    assert bot == msgspec.structs.replace(LEVELS[level], seconds=None, skat_seconds=None)
    assert f"{level}-counted" not in policy_names("skat")  # tables need the time budgets
    with pytest.raises(ValueError, match="unknown Skat bot 'beginner-counted'"):
        policy("skat", "beginner-counted")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("greedy:lms", "unknown Skat level 'greedy'.*known: club, strong, expert"),
        ("beginner:score", "unknown Skat level 'beginner'.*known: club, strong, expert"),
        ("grandmaster:lms", "unknown Skat level 'grandmaster'"),
        ("strong:oracle", "unknown Skat bidder 'oracle'.*known: greedy, lms, knn, montecarlo"),
        ("strong:", "unknown Skat bidder ''"),
        ("strong:lms:knn", "unknown Skat bidder 'lms:knn'"),
    ],
)
def test_unknown_parts_of_a_level_bidder_name_are_clear_errors(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        policy("skat", name)
    assert name not in policy_names("skat")
