"""ISkO 2.3 (matadors), 2.4-2.5 (game values and levels), 3.6 (overbidding), SkWO 6.3
(Seeger-Fabian): the worked examples of docs/skat-rules.md section 11, row by row."""

from typing import NamedTuple

import pytest

from engine.skat.cards import GameType, parse_cards
from engine.skat.scoring import (
    Result,
    matadors,
    ramsch_scores,
    seeger_fabian,
    standings,
    value_null_game,
    value_trump_game,
)


class Example(NamedTuple):
    name: str
    game: GameType
    matadors: int
    flags: str  # H hand, S schneider announced, Z schwarz announced, O ouvert
    bid: int
    points: int
    tricks: int
    multiplier: int
    won: bool
    list_value: int
    declarer_sf: int
    defender_sf: int


EXAMPLES = [
    Example("E1", "clubs", 2, "", 36, 75, 6, 3, True, 36, 86, 0),
    Example("E2", "spades", -3, "", 44, 70, 6, 4, True, 44, 94, 0),
    Example("E3", "hearts", 1, "H", 40, 92, 8, 4, True, 40, 90, 0),
    Example("E4", "grand", 4, "", 18, 120, 10, 7, True, 168, 218, 0),
    Example("E5", "grand", 2, "HS", 144, 95, 8, 6, True, 144, 194, 0),
    Example("E6", "grand", 2, "HS", 60, 85, 7, 6, False, -288, -338, 40),
    Example("E7", "clubs", 3, "HZ", 40, 120, 10, 9, True, 108, 158, 0),
    Example("E8", "clubs", 2, "HZ", 18, 118, 9, 8, False, -192, -242, 40),
    Example("E9", "grand", 1, "O", 18, 120, 10, 8, True, 192, 242, 0),
    Example("E10", "grand", 4, "O", 264, 120, 10, 11, True, 264, 314, 0),
    Example("E10w", "grand", -4, "O", 264, 120, 10, 11, True, 264, 314, 0),
    Example("E11", "grand", 2, "O", 100, 100, 9, 9, False, -432, -482, 40),
    Example("E12", "clubs", 2, "O", 18, 120, 10, 9, True, 108, 158, 0),
    Example("E13", "hearts", 1, "", 30, 70, 6, 2, False, -60, -110, 40),
    Example("E14", "hearts", 1, "", 30, 92, 8, 3, True, 30, 80, 0),
    Example("E15", "spades", 1, "H", 40, 75, 7, 3, False, -88, -138, 40),
    Example("E16", "diamonds", -1, "", 36, 75, 7, 2, False, -72, -122, 40),
    Example("E17", "spades", -1, "", 23, 89, 8, 2, False, -66, -116, 40),
    Example("E18", "grand", 4, "HS", 48, 89, 8, 8, False, -384, -434, 40),
    Example("E19", "spades", 1, "", 22, 28, 2, 3, False, -66, -116, 40),
    Example("E20", "grand", 1, "", 18, 3, 0, 4, False, -192, -242, 40),
    Example("E21", "hearts", 3, "H", 30, 70, 6, 5, True, 50, 100, 0),
    Example("E22", "grand", 2, "", 18, 120, 9, 4, True, 96, 146, 0),
    Example("E23", "diamonds", 1, "", 18, 60, 5, 2, False, -36, -86, 40),
    Example("E24", "diamonds", 1, "", 18, 90, 8, 3, True, 27, 77, 0),
    Example("E25a", "diamonds", 1, "", 18, 31, 3, 2, False, -36, -86, 40),
    Example("E25b", "diamonds", 1, "", 18, 30, 3, 3, False, -54, -104, 40),
    Example("E26", "hearts", 1, "HS", 30, 25, 3, 5, False, -100, -150, 40),
    Example("E27", "grand", -4, "", 18, 61, 5, 5, True, 120, 170, 0),
    Example("M1", "clubs", 11, "O", 216, 120, 10, 18, True, 216, 266, 0),
]


class TestWorkedExamples:
    """docs/skat-rules.md section 11: every value example recomputed, losses doubled (ISkO 5.2),
    failed announcements counting the announced level and the level itself (old 5.2.5)."""

    @pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
    def test_game_value_list_value_and_seeger_fabian(self, example: Example) -> None:
        value = value_trump_game(
            example.game,
            example.matadors,
            hand="H" in example.flags,
            schneider_announced="S" in example.flags,
            schwarz_announced="Z" in example.flags,
            ouvert="O" in example.flags,
            bid=example.bid,
            declarer_points=example.points,
            declarer_tricks=example.tricks,
        )
        if not value.overbid:
            assert value.multiplier == example.multiplier
        assert value.won is example.won
        assert value.list_value == example.list_value
        declarer_sf, *defenders = seeger_fabian(3, 0, value.won, value.list_value)
        assert declarer_sf == example.declarer_sf
        assert defenders == [example.defender_sf] * 2


class TestNullValues:
    """ISkO 2.4.2: null 23, null hand 35, null ouvert 46, null ouvert hand 59; losses double."""

    @pytest.mark.parametrize(
        ("hand", "ouvert", "won", "list_value", "declarer_sf"),
        [
            (False, False, True, 23, 73),  # N1
            (False, False, False, -46, -96),  # N2
            (True, False, True, 35, 85),  # N3
            (False, True, False, -92, -142),  # N4
            (True, True, True, 59, 109),  # N5
        ],
    )
    def test_null_examples(
        self, hand: bool, ouvert: bool, won: bool, list_value: int, declarer_sf: int
    ) -> None:
        value = value_null_game(hand=hand, ouvert=ouvert, won=won)
        assert value.list_value == list_value
        assert seeger_fabian(3, 1, won, list_value)[1] == declarer_sf


class TestOverbidding:
    """ISkO 3.6 (old 5.4): a value below the bid loses at the smallest multiple of the base
    value that reaches the bid, doubled, even with 61 points; schneider can rescue it."""

    def test_overbid_loss_is_the_next_multiple_of_the_base_value(self) -> None:
        value = value_trump_game(
            "diamonds", -1, hand=False, schneider_announced=False, schwarz_announced=False,
            ouvert=False, bid=36, declarer_points=75, declarer_tricks=7,
        )  # fmt: skip
        assert value.overbid and not value.won and value.game_value == 36

    def test_a_loss_whose_value_reaches_the_bid_is_not_overbid(self) -> None:
        value = value_trump_game(
            "spades", 1, hand=False, schneider_announced=False, schwarz_announced=False,
            ouvert=False, bid=33, declarer_points=30, declarer_tricks=2,
        )  # fmt: skip
        assert not value.overbid and value.game_value == 33


class TestMatadors:
    """ISkO 2.3: matadors count the declarer's ten cards plus the original skat."""

    @pytest.mark.parametrize(
        ("game", "cards", "expected"),
        [
            ("clubs", "JC JS JD", 2),
            ("clubs", "JD AC TC", -3),
            ("clubs", "TC", -5),
            ("grand", "AC", -4),
            ("grand", "JC JS JH JD", 4),
            ("hearts", "JC JS JH JD AH TH KH QH 9H 8H 7H", 11),
            ("hearts", "7C", -11),
            ("null", "JC JS", 0),
        ],
    )
    def test_with_and_without(self, game: GameType, cards: str, expected: int) -> None:
        assert matadors(game, parse_cards(cards)) == expected


class TestSeegerFabian:
    """SkWO 6.3.1: +50 per won game, -50 per lost game, 40 (3-table) or 30 (4-table) to every
    other seat when the declarer loses; standings by performance, then wins, then losses."""

    def test_four_table_pays_every_other_seat_including_the_dealer(self) -> None:
        assert seeger_fabian(4, 2, False, -96) == (30, 30, -146, 30)

    def test_mini_list_standings(self) -> None:
        """A clubs +36; C null -46; A diamonds -36; passed; C grand hand +96; passed."""

        def game(declarer: int | None, won: bool | None, list_value: int) -> Result:
            sf = (
                seeger_fabian(3, declarer, bool(won), list_value)
                if declarer is not None
                else (0, 0, 0)
            )
            return Result(
                declarer=declarer, game=None, hand=False, schneider_announced=False,
                schwarz_announced=False, ouvert=False, bid=18, won=won, game_value=abs(list_value),
                list_value=list_value, matadors=0, overbid=False, declarer_points=0,
                declarer_tricks=0, schneider=False, schwarz=False, seeger_fabian=sf,
                passed_in=declarer is None,
            )  # fmt: skip

        a, b, c = 0, 1, 2
        results = [
            game(a, True, 36),
            game(c, False, -46),
            game(a, False, -36),
            game(None, None, 0),
            game(c, True, 96),
            game(None, None, 0),
        ]
        table = standings(3, results)
        # Each lost game pays 40 to both other seats (SkWO 6.3.1), as docs/skat-rules.md section 9
        # works this list through.
        assert [(s.seat, s.game_points, s.fabian, s.performance) for s in table] == [
            (c, 50, 40, 90),
            (b, 0, 80, 80),
            (a, 0, 40, 40),
        ]


class TestRamsch:
    """House rule (docs/skat-rules.md section 3.3): most points lose, a Jungfrau doubles, a
    Durchmarsch wins 120."""

    def test_most_points_lose(self) -> None:
        assert ramsch_scores((40, 50, 30), (3, 4, 3)) == (0, -50, 0)

    def test_a_player_without_a_trick_doubles_the_loss(self) -> None:
        assert ramsch_scores((70, 50, 0), (6, 4, 0)) == (-140, 0, 0)

    def test_durchmarsch_wins_120(self) -> None:
        assert ramsch_scores((120, 0, 0), (10, 0, 0)) == (120, 0, 0)

    def test_ties_lose_together(self) -> None:
        assert ramsch_scores((45, 45, 30), (3, 4, 3)) == (-45, -45, 0)
