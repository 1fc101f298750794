"""The database schema as SQLAlchemy Core tables (migrations in `migrations/` create them).

`game_events` is the truth (docs/conventions.md section 8); `games`, `results`, `ratings` and
`rating_history` are projections written in the same transaction as the event that ends a
deal or a list. A table of a bot tournament carries its `tournament_id` (a people's
tournament's live tables are listed in `tournament_tables`); a live table, the
server process that owns it (`owner`; see `server/store/leases.py`).
"""

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect

__all__ = [
    "UTCDateTime",
    "analyses",
    "blocks",
    "friends",
    "game_events",
    "games",
    "lobby_chat",
    "metadata",
    "mutes",
    "nodes",
    "rating_history",
    "ratings",
    "reports",
    "results",
    "roles",
    "sessions",
    "tables",
    "tournament_entries",
    "tournament_tables",
    "tournaments",
    "users",
]


class UTCDateTime(TypeDecorator[datetime]):
    """A point in time, read back in UTC whatever the database: SQLite keeps no zone and
    gives its values back naive, PostgreSQL's `timestamptz` gives them with one."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return value if value is None or value.tzinfo is not None else value.replace(tzinfo=UTC)


metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False, unique=True),
    Column("kind", String(8), nullable=False),  # guest, account, bot
    # What the name looks like (server/names.py `skeleton`): unique, so no player takes a
    # look-alike of another's name. Null for bots, whose names the server gives.
    Column("name_key", String(100), unique=True),
    Column("password_hash", String(200)),
    Column("created_at", UTCDateTime(), nullable=False),
    # When a guest was last seen and when the user first took a seat: a guest who never
    # did and is not seen for a while is deleted (`Store.delete_idle_guests`).
    Column("seen_at", UTCDateTime(), index=True),
    Column("played_at", UTCDateTime()),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("created_at", UTCDateTime(), nullable=False),
)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("params", Text, nullable=False),  # JSON: what the schedule is derived from
    Column("status", String(12), nullable=False),  # running, finished
    Column("ratings_before", Text, nullable=False),  # JSON: {player: [mu, sigma]}
    Column("played", Integer, nullable=False),  # games committed
    Column("standings", Text, nullable=False),  # JSON: the runner's standings after them
    Column("created_at", UTCDateTime(), nullable=False),
    Column("finished_at", UTCDateTime()),
    # A people's tournament (docs/tournaments.md): who opened it and when it starts.
    Column("organizer_id", Integer),
    Column("starts_at", UTCDateTime()),
    Column("series", Integer),  # the series drawn last
    Index("ix_tournaments_status", "status"),
)

tournament_entries = Table(
    "tournament_entries",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(40), nullable=False),
    Column("at", UTCDateTime(), nullable=False),
    Column("partner", String(40), nullable=True),  # the name he named (a pair: both did)
    PrimaryKeyConstraint("tournament_id", "user_id", name="pk_tournament_entries"),
)

tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), nullable=False),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("series", Integer, nullable=False),
    Column("seats", Text, nullable=False),  # JSON: the player's name at each seat
    PrimaryKeyConstraint("tournament_id", "table_id", name="pk_tournament_tables"),
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("config", Text, nullable=False),  # JSON: rules and table options
    Column("status", String(12), nullable=False, index=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), index=True),
    Column("owner", String(64), index=True),  # the server process serving it (nodes.id)
)

nodes = Table(
    "nodes",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("url", Text, nullable=False),  # where clients reach the process
    Column("seen_at", Float, nullable=False),  # Unix seconds of its last renewal: its lease
)

game_events = Table(
    "game_events",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("payload", Text, nullable=False),
    Column("at", UTCDateTime(), nullable=False),
    UniqueConstraint("table_id", "seq", name="uq_game_events_table_seq"),
)

games = Table(
    "games",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("result", Text, nullable=False),  # JSON
    Column("record", Text),  # ISS record for Skat
    Column("finished_at", UTCDateTime(), nullable=False),
    UniqueConstraint("table_id", "number", name="uq_games_table_number"),
)

# A finished deal's analysis (bots/skat/analysis), computed once and kept: JSON.
analyses = Table(
    "analyses",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("analysis", Text, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("table_id", "number", name="pk_analyses"),
)

results = Table(
    "results",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("rank", Integer, nullable=False),
    Column("points", Integer, nullable=False),
    Column("standing", Text, nullable=False),  # JSON
    PrimaryKeyConstraint("table_id", "seat", name="pk_results"),
)

ratings = Table(
    "ratings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("game", String(16), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("lists", Integer, nullable=False),
    Column("bot", Boolean, nullable=False),
    PrimaryKeyConstraint("user_id", "game", name="pk_ratings"),
)

rating_history = Table(
    "rating_history",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("game", String(16), nullable=False),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("at", UTCDateTime(), nullable=False),
)


# Players find each other (migration 0007, server/store/social.py): a row of `friends` per
# direction, (a, b) alone a request, both a friendship.


def _user_column(name: str) -> Column[int]:
    return Column(name, Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False)


friends = Table(
    "friends",
    metadata,
    _user_column("user_id"),
    _user_column("friend_id"),
    Column("at", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("user_id", "friend_id", name="pk_friends"),
)

blocks = Table(
    "blocks",
    metadata,
    _user_column("user_id"),
    _user_column("blocked_id"),
    Column("at", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("user_id", "blocked_id", name="pk_blocks"),
)

lobby_chat = Table(
    "lobby_chat",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    _user_column("user_id"),
    Column("name", String(40), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", UTCDateTime(), nullable=False),
)

reports = Table(
    "reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    _user_column("reporter_id"),
    _user_column("reported_id"),
    Column("reason", Text, nullable=False),
    Column("at", UTCDateTime(), nullable=False),
)

roles = Table(
    "roles",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("role", String(16), nullable=False),  # moderator
)

mutes = Table(
    "mutes",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("until", UTCDateTime(), nullable=False),
    Column("by_id", Integer),
)
