"""Whether an error means the database is away for now (down, restarting, the connection
lost, SQLite locked), and a block that tolerates it: callers hold or retry, never give up."""

import contextlib
import logging
from collections.abc import Iterator

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

__all__ = ["is_unavailable", "unless_unavailable"]


def is_unavailable(error: BaseException) -> bool:
    """Whether `error` means the database cannot be reached now (down, restarting, the
    connection lost, SQLite locked) rather than that the request was wrong: the same write
    may succeed later, so callers hold or reject with `store_unavailable`, never give up."""
    if isinstance(error, DBAPIError):
        # SQLSTATE class 08: connection exceptions; 57P0x: shutting down, restarting, or
        # "the database system is starting up".
        state = str(getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", ""))
        if error.connection_invalidated or state.startswith(("08", "57P")):
            return True
    return isinstance(error, OperationalError | InterfaceError | OSError)


@contextlib.contextmanager
def unless_unavailable(logger: logging.Logger, what: str) -> Iterator[None]:
    """Run the block; if the database is unavailable (`is_unavailable`), log that `what`
    did not happen this time and go on (the caller tries again later). Other errors rise."""
    try:
        yield
    except Exception as error:
        if not is_unavailable(error):
            raise
        logger.warning("%s: the database is unavailable (%s)", what, error)
