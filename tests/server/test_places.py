"""Where a user is, as others see it (server/social/places.py): a private table is never
named, playing beats watching beats the lobby, and a user on several processes has one place."""

from server.protocol.social import Person
from server.social.places import Seat, best, place_of


def test_a_user_without_tables_is_in_the_lobby() -> None:
    assert place_of({}) == ("lobby", None)


def test_a_public_table_is_named_with_what_he_does_there() -> None:
    assert place_of({"T1": Seat(seated=True, private=False)}) == ("playing", "T1")
    assert place_of({"T1": Seat(seated=False, private=False)}) == ("watching", "T1")


def test_a_private_table_is_never_named_even_beside_a_public_one() -> None:
    private = {"P1": Seat(seated=True, private=True)}
    assert place_of(private) == ("private", None)
    watching_too = private | {"T1": Seat(seated=False, private=False)}
    assert place_of(watching_too) == ("private", None)


def test_playing_beats_watching() -> None:
    tables = {"A": Seat(seated=False, private=False), "B": Seat(seated=True, private=False)}
    assert place_of(tables) == ("playing", "B")


def test_the_best_place_of_a_user_on_several_processes_wins() -> None:
    lobby = Person(1, "anna", False, "lobby")
    playing = Person(1, "anna", False, "playing", "T1")
    assert best([lobby, playing]) == playing
    assert best([playing, lobby]) == playing
    assert best([]) is None


def test_of_equal_places_the_latest_taken_wins() -> None:
    playing = Seat(seated=True, private=False)
    assert place_of({"B": playing, "A": playing}) == ("playing", "A")
    assert place_of({"A": playing, "B": playing}) == ("playing", "B")
