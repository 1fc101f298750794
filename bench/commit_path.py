"""What the store's commit path costs beyond the database's work, in one process.

Two measurements, CPU time per step (the event loop's thread and the whole process):

- `Store.append` on a SQLite file for T tables in lock step (each appends one move event and
  waits for it, T appends per commit), with the store's gathering (`GROUP_SECONDS`, and
  `BUSY_GROUP_SECONDS` after a commit of three appends or more) and without it: the same
  groups, the same statements, only the idle wait differs;
- bare asyncio: `asyncio.sleep(0.005)`, a hand-over to a thread (`run_in_executor`), both in
  turn: what the event loop's and a thread's waking from idle cost on this machine.

    python -m bench.commit_path --tables 5 --rounds 600
"""

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor

import msgspec

from server.events import Append, Moved
from server.store import group_commit
from server.store.db import Store
from server.store.migrate import upgrade


async def _appends(url: str, tables: int, rounds: int) -> str:
    store = Store.connect(url, node="bench")
    store.start()
    ids = [f"t{i}" for i in range(tables)]
    for table_id in ids:
        await store.create_table(table_id, "skat", {}, lease={"owner": "bench"})
    event = Moved(0, msgspec.Raw(b'"CJ"'))

    async def play(table_id: str) -> None:
        for seq in range(1, rounds + 1):
            await store.append(table_id, Append(seq, (event,)))

    loop0, process0 = time.thread_time(), time.process_time()
    await asyncio.gather(*(play(table_id) for table_id in ids))
    loop1, process1 = time.thread_time(), time.process_time()
    await store.close()
    n = tables * rounds
    return (
        f"{n / store.commits:.1f} appends per commit: {1e6 * (process1 - process0) / n:.0f} us"
        f" per append, {1e6 * (loop1 - loop0) / n:.0f} us of it on the event loop's thread"
    )


async def _steps(rounds: int) -> list[str]:
    loop = asyncio.get_running_loop()
    lines = []
    with ThreadPoolExecutor(1) as thread:

        async def sleep() -> None:
            await asyncio.sleep(0.005)

        async def hand_over() -> None:
            await loop.run_in_executor(thread, int)

        async def both() -> None:
            await sleep()
            await hand_over()

        steps: dict[str, Callable[[], Awaitable[None]]] = {
            "sleep 5 ms": sleep,
            "hand-over to a thread": hand_over,
            "both": both,
        }
        for name, step in steps.items():
            loop0, process0 = time.thread_time(), time.process_time()
            for _ in range(rounds):
                await step()
            loop1, process1 = time.thread_time(), time.process_time()
            lines.append(
                f"{name}: {1e6 * (process1 - process0) / rounds:.0f} us, of it"
                f" {1e6 * (loop1 - loop0) / rounds:.0f} us on the event loop's thread"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=600)
    args = parser.parse_args()
    gathering = (group_commit.GROUP_SECONDS, group_commit.BUSY_GROUP_SECONDS)
    with tempfile.TemporaryDirectory() as folder:
        for quiet, busy in (gathering, (0.0, 0.0)):
            group_commit.GROUP_SECONDS, group_commit.BUSY_GROUP_SECONDS = quiet, busy
            url = f"sqlite+aiosqlite:///{folder}/gather-{quiet}.db"
            upgrade(url)
            report = asyncio.run(_appends(url, args.tables, args.rounds))
            print(f"gathering {1000 * quiet:g} ms ({1000 * busy:g} ms busy): {report}")
    group_commit.GROUP_SECONDS, group_commit.BUSY_GROUP_SECONDS = gathering
    for line in asyncio.run(_steps(args.rounds)):
        print(line)


if __name__ == "__main__":
    main()
