"""Every tunable of the server in one place: defaults, environment variables and flags.

Each setting is a named field with a default (docs/conventions.md section 7: limits are named
settings, as in `websockets.serve`). `TISCHRUNDE_<FIELD>` in the environment overrides a default and
a command line flag overrides both. Durations are seconds.
"""

import os
from collections.abc import Mapping

import msgspec

__all__ = ["ENV_PREFIX", "Settings", "settings_from_env"]

ENV_PREFIX = "TISCHRUNDE_"


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """Server settings.

    Attributes:
        host, port: where to listen (HTTP and WebSocket share the port).
        db: SQLAlchemy async URL; SQLite (aiosqlite) or PostgreSQL (asyncpg).
        mqtt: broker URL `mqtt://host:port`, or "" for no bus.
        grace_seconds: how long a disconnected seat waits for its owner before a bot plays it.
        move_seconds: a human's time for one move before a bot plays it, at tables whose creator
            chose no move clock; 0 turns timers off.
        bot_delay_seconds: human-like minimum time a bot takes per move.
        bot_deadline_seconds: longest a bot may think before the fallback policy answers.
        timeout_bot: the bot level that plays for a human who runs out of time or is away, at
            tables whose own level is `random` (the table's level comes first; never `random`:
            `server.lobby.timeout_level`).
        bot_workers: processes in the bot pool; 0 means one per core.
        bot_warm_up: load the solver in every bot worker before the server listens (the
            first start on a machine compiles it: up to a minute).
        remote_bots_seconds: with `mqtt` set, ask remote bot workers (`tischrunde
            bot-worker`) first and wait this long for one before deciding locally; 0: off.
        series_3, series_4: deals in a Skat list at a 3- or 4-table.
        max_frame_bytes: largest accepted WebSocket message.
        rate_per_second, rate_burst: token bucket per connection.
        social_per_second, social_burst: token bucket per connection for what reaches other
            players (friend requests, invitations, reports, lobby chat).
        abuse_limit: rate-limited messages after which a connection is closed with 1008.
        ping_seconds: keepalive ping interval.
        compression: permessage-deflate on WebSocket frames. Off by default: its zlib state
            costs about 40 KiB per connection and CPU per message, for messages of a few KiB.
        outbox_size: queued outgoing messages per connection before it counts as stuck.
        resume_window: events kept per table for a reconnect; a larger gap gets a snapshot.
        tournament_poll_seconds: how often the server reads the standings of a tournament
            someone watches (its runner is another process writing to the same database).
        node: this process's name in a cluster; tables it owns carry it. `{host}`
            (hostname) and `{port}` are filled in. Default `{host}-{port}`, so a restarted
            process takes its own tables back at once.
        node_url: the WebSocket URL at which clients reach this process, sent to clients
            redirected to a table it owns; `{node}`, `{host}` (hostname) and `{port}` are
            filled in. Default `ws://{listening host}:{port}/ws`.
        lease_seconds: how long a process owns its tables without renewing the lease (it
            renews every third of it); a process that dies loses its tables to another
            after this long.
        guests_per_minute, guest_burst: new guests (a `hello` without a token) the whole
            process creates, as a token bucket; beyond it `too_many_guests`.
        guests_per_minute_per_address, guest_burst_per_address: the same per client address.
        guest_days: a guest who never sat at a table and has not been seen for this many days
            is deleted with his sessions (checked at start and every hour); 0 keeps them.
        login_failures_per_account, login_failures_per_address: failed logins in a row
            after which each further one locks the account (or the address) for
            `login_backoff_seconds`, doubling up to `login_backoff_max_seconds`
            (`too_many_attempts`); a good login clears its account's count.
        trusted_proxies: peers (comma separated addresses or networks, `*` for any) whose
            `X-Forwarded-For` names the client's address (a reverse proxy in front).
        log_level: logging level name.
        analysis_card_worlds, analysis_skat_worlds: the deal analysis's budget (worlds per
            card decision and per valuation of a hand; docs/bots.md "Deal analysis").
        analysis_per_user: deal analyses one user may have under way at once.
        analysis_step_seconds: longest one analysis step may take in a bot worker.
        analyze_finished: analyse every finished Skat deal, not only those asked for.
    """

    host: str = "127.0.0.1"
    port: int = 8765
    db: str = "sqlite+aiosqlite:///tischrunde.db"
    mqtt: str = ""
    grace_seconds: float = 60.0
    move_seconds: float = 0.0
    bot_delay_seconds: float = 0.8
    bot_deadline_seconds: float = 5.0
    timeout_bot: str = "greedy"
    bot_workers: int = 0
    bot_warm_up: bool = True
    remote_bots_seconds: float = 0.0
    series_3: int = 36
    series_4: int = 48
    max_frame_bytes: int = 16 * 1024
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    social_per_second: float = 1.0
    social_burst: float = 10.0
    abuse_limit: int = 50
    ping_seconds: float = 20.0
    compression: bool = False
    outbox_size: int = 256
    resume_window: int = 64
    tournament_poll_seconds: float = 1.0
    node: str = ""
    node_url: str = ""
    lease_seconds: float = 10.0
    guests_per_minute: float = 600.0
    guest_burst: float = 200.0
    guests_per_minute_per_address: float = 1.0
    guest_burst_per_address: float = 20.0
    guest_days: float = 7.0
    login_failures_per_account: int = 5
    login_failures_per_address: int = 20
    login_backoff_seconds: float = 1.0
    login_backoff_max_seconds: float = 900.0
    trusted_proxies: str = ""
    log_level: str = "INFO"
    analysis_card_worlds: int = 24
    analysis_skat_worlds: int = 12
    analysis_per_user: int = 2
    analysis_step_seconds: float = 60.0
    analyze_finished: bool = False

    def series_length(self, players: int) -> int:
        """Default deals in a list for a table of `players` seats."""
        return self.series_4 if players == 4 else self.series_3


def settings_from_env(environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
    """Settings from `TISCHRUNDE_*` variables, then `overrides` (flags; None values ignored).

    Raises msgspec.ValidationError naming the field when a value has the wrong type.
    """
    environ = os.environ if environ is None else environ
    values: dict[str, object] = {}
    for field in msgspec.structs.fields(Settings):
        raw = environ.get(ENV_PREFIX + field.name.upper())
        if raw is not None:
            values[field.name] = raw
    values.update({k: v for k, v in overrides.items() if v is not None})
    return msgspec.convert(values, Settings, strict=False)
