"""Background tasks of the server's long-lived parts: stopping them, and not losing their
failures (an exception in a task nobody awaits would otherwise only show at shutdown)."""

import asyncio
import contextlib
import logging

__all__ = ["cancel", "log_failure"]

log = logging.getLogger(__name__)


def log_failure(task: "asyncio.Task[object]") -> None:
    """A done-callback: log the exception that ended `task`, if any."""
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("background task %s failed", task.get_name(), exc_info=error)


async def cancel(task: "asyncio.Task[None] | None") -> None:
    """Cancel `task` (if any) and wait until it has finished unwinding."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
