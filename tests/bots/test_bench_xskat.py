"""bench.xskat reads XSkat's game log: the declaration and the deal of each game."""

from bench.xskat import dealt_hands, parse_log, summarize

# The first game of `xskat -auto 20` with `random_seed 4711 0 2`, as XSkat logs it.
LOG = """ Computer1   Computer2   Computer3

----------------------------------------
  CLUB J      Diamond Q   Diamond_A
  SPADE J     Diamond J   Heart J
  HEART A     Heart 8     Heart Q
  HEART 10    Heart K     Diamond 7
  HEART 9     Spade 8     Diamond 8
  HEART 7     Spade 9     Diamond 9
  SPADE A     Spade K     Spade 10
  CLUB A      Club 7      Club 9
  Club_8      CLUB 10     Club Q
  Club K      DIAMOND 10  Diamond K
---- random_seed 4711 0 2 --------------
  CLUB J      DIAMOND J   HEART J
  SPADE J     Club 10     Club Q
  Club A      Club 7      Club 9
  Club K      Spade K     Spade 10
  Club 8      Spade 9     Heart Q
  Spade A     Spade 8     Diamond A
  Heart A     Heart K     Diamond K
  Heart 10    Heart 8     Diamond 9
  Heart 9     Diamond 10  Diamond 8
  Heart 7     Diamond Q   Diamond 7
----------------------------------------
Skat is: Spade 7,Spade Q
Skat was: Club K,Club A
Last bid: 20
Computer1 played Grand
Won with: 89 points
"""
PASSED_IN = """
 Computer1   Computer2   Computer3
----------------------------------------
---- random_seed 1 337 3 ---------------
----------------------------------------
Skat is: Club 8,Heart J
"""


def test_a_declared_game_and_its_deal_are_read() -> None:
    (game,) = parse_log(LOG)
    assert game == {
        "declarer": 1,
        "game": "Grand",
        "hand": False,
        "ouvert": False,
        "won": True,
        "bid": 20,
    }
    found = dealt_hands(LOG)
    assert found is not None
    hands, skat, dealer = found
    assert hands[0] == ["JC", "JS", "AC", "KC", "8C", "AS", "AH", "TH", "9H", "7H"]
    assert sorted(len(h) for h in hands) == [10, 10, 10]
    assert skat == {"is": ["7S", "QS"], "was": ["KC", "AC"]}
    assert dealer == 2


def test_statistics_count_declarations_per_seat_and_passed_in_games() -> None:
    stats = summarize(parse_log(LOG + "=" * 40 + PASSED_IN))
    assert stats["games"] == 2
    assert stats["declare_rate"] == 1 / 6
    assert stats["passed_in"] == 0.5
    assert stats["grand"] == 1.0 and stats["win_rate"] == 1.0 and stats["mean_bid"] == 20
