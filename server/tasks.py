"""Stopping the background tasks of the server's long-lived parts."""

import asyncio
import contextlib

__all__ = ["cancel"]


async def cancel(task: "asyncio.Task[None] | None") -> None:
    """Cancel `task` (if any) and wait until it has finished unwinding."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
