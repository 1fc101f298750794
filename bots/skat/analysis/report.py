"""The typed results of a deal analysis: what was graded, by how much, and the marks.

Every loss is in Seeger-Fabian points from the player's own side, so the bidding, the skat
and the card play of one player add up (docs/bots.md "Deal analysis"). A card carries two
columns: `chance`, the share of the worlds consistent with what the player knew in which his
side wins after that card (the bots' own Monte Carlo evaluation), and `open_*`, the exact
open-card value (the solver with every card visible).
"""

from typing import Literal

import msgspec

__all__ = [
    "BidReview",
    "Budget",
    "CardReview",
    "CardValue",
    "ContractValue",
    "DealAnalysis",
    "DeclarationReview",
    "Mark",
    "PlayerSummary",
    "SkatReview",
]

Mark = Literal["ok", "mistake", "blunder"]


class Budget(msgspec.Struct, frozen=True):
    """How hard the analysis looks: worlds per card decision (the player's view) and per
    valuation of a hand (bidding, skat). Worlds, not seconds: the result depends on the seed
    only, never on the machine's load."""

    card_worlds: int = 24
    skat_worlds: int = 12


class CardValue(msgspec.Struct, frozen=True):
    """One legal card: the mover's win chance as he could know it (None when not
    evaluated), and open-card whether the declarer reaches his target and with how many
    card points (None in null and under an announced target)."""

    card: str
    chance: float | None
    open_wins: bool
    open_points: int | None


class CardReview(msgspec.Struct, frozen=True):
    """One card played. `trick` counts from 0; `forced`: the only legal card (not graded).
    `best` is a card of the highest win chance in the player's view (the card played when
    it is one of them, else the Monte Carlo bot's choice among them), `open_best` the
    open-card best; `lost` the SF points the card played cost against `best` (win chance
    lost times what the game was worth to the mover, with the Kontra and Re said before
    it), `open_lost_points` the card points it cost open-card. `declarer_chance` is the
    declarer's win chance after the card as the mover saw it (the evaluation chart),
    `open_declarer_points` the declarer's final card points with best play after it."""

    trick: int
    seat: int
    card: str
    forced: bool
    cards: tuple[CardValue, ...] = ()
    best: str | None = None
    lost: float = 0.0
    mark: Mark = "ok"
    open_best: str | None = None
    open_lost_points: int = 0
    open_mark: Mark = "ok"
    declarer_chance: float | None = None
    open_declarer_wins: bool | None = None
    open_declarer_points: int | None = None


class BidReview(msgspec.Struct, frozen=True):
    """A player's last word in the auction: `went_on` (bid or held `bid`, the declarer) or
    passed at `bid`. `expected` is the best plan's expected SF score at `bid` (None: no
    game declarable), against `pass_score` for passing; `lost` what the choice cost."""

    seat: int
    bid: int
    went_on: bool
    expected: float | None
    pass_score: float
    lost: float
    mark: Mark


class ContractValue(msgspec.Struct, frozen=True):
    """A contract the hand allowed (`label` as `bots.skat.expected.Contract.label`, or
    "pickup") with its expected SF score at the final bid."""

    label: str
    expected: float


class SkatReview(msgspec.Struct, frozen=True):
    """The declarer's hand-or-pickup choice: every option's expected score, the one chosen
    and the best."""

    seat: int
    options: tuple[ContractValue, ...]
    chosen: ContractValue
    best: ContractValue
    lost: float
    mark: Mark


class DeclarationReview(msgspec.Struct, frozen=True):
    """After the pickup: the discard and game declared against the best found (each game
    with the fast rule's discard)."""

    seat: int
    discard: tuple[str, str]
    chosen: ContractValue
    best: ContractValue
    best_discard: tuple[str, str]
    options: tuple[ContractValue, ...]
    lost: float
    mark: Mark


class PlayerSummary(msgspec.Struct, frozen=True):
    """One seat's (or, for a list, one player's) SF points lost by its mistakes and
    blunders (as it could know them; losses below the marks are sampling noise as often as
    not), how many, and the cards that gave the game away open-card."""

    seat: int
    points_lost: float
    mistakes: int
    blunders: int
    open_blunders: int
    name: str = ""
    deals: int = 1


class DealAnalysis(msgspec.Struct, frozen=True):
    """The whole analysis of one finished deal. Seats are the deal's table seats;
    `positions` lists forehand, middlehand and rearhand."""

    positions: tuple[int, int, int]
    declarer: int | None
    contract: str | None
    bid: int
    seed: int
    budget: Budget
    bidding: tuple[BidReview, ...]
    skat: SkatReview | None
    declaration: DeclarationReview | None
    cards: tuple[CardReview, ...]
    players: tuple[PlayerSummary, ...]
