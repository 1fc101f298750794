"""Presence and lobby chat under load (`python -m bench.load --people`): N clients connected
to one server process watch people (`watch_people`); one more client, the mover, changes its
place every `--interval` seconds (sits down at a public table, gets up again) while
`--chat-per-second` lines of lobby chat are said by the watchers in turn.

Reported: p50/p99/max from the mover sending the request that changes its place to each
watcher receiving the `presence` push of it (one sample per watcher and change; clocks are
the machine's monotonic clock, shared by the processes), how many pushes of the changes and
lines of chat arrived out of how many expected, the server's CPU (also per 1,000 pushes,
which holds up better than the latency on a machine that other work shares), the server's
CPU seconds for everybody leaving at the end (each of the N going offline told to the
others still there: the cost of a mass disconnect) and the machine's load average. The
watchers live in `--client-processes` processes of their own, the mover in this one.

    python -m bench.load --people --clients 1000 --seconds 20
"""

import asyncio
import json
import multiprocessing
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

import psutil
from websockets.asyncio.client import ClientConnection, connect

from bench.serving import Servers, receive_all, request

__all__ = ["run_people"]


async def _watch(
    ws: ClientConnection, mover: str, seen: list[tuple[float, str]], lines: list[int]
) -> None:
    """Collect the mover's presence pushes (arrival, place) and count chat lines."""
    async for frame in ws:
        if '"presence"' in frame and mover in frame:
            message = json.loads(frame)
            if message["type"] == "presence":
                places = [p["place"] for p in message["people"] if p["name"] == mover]
                seen.extend((time.monotonic(), place) for place in places)
        elif '"lobby_said"' in frame:
            lines[0] += 1


async def _watchers(port: int, clients: int, index: int, parent: Connection) -> None:
    """One watcher process: connect; watch (told the mover's name), then until the stop
    time say the lines of chat that fall to it; report every watcher's arrivals."""
    url = f"ws://127.0.0.1:{port}/ws"
    sockets = []
    for _ in range(clients):
        ws = await connect(url, max_size=2**22)
        await request(ws, {"type": "hello", "id": 1, "version": 1})
        sockets.append(ws)
    parent.send("connected")
    mover, chat_per_second, processes = parent.recv()
    seen: list[list[tuple[float, str]]] = [[] for _ in sockets]
    lines, watching = [0], [0]

    async def watch(ws: ClientConnection, arrivals: list[tuple[float, str]]) -> None:
        await request(ws, {"type": "watch_people", "id": 2})
        watching[0] += 1
        await _watch(ws, mover, arrivals, lines)

    readers = [
        asyncio.create_task(watch(ws, arrivals)) for ws, arrivals in zip(sockets, seen, strict=True)
    ]
    while watching[0] < len(sockets):
        await asyncio.sleep(0.1)
    parent.send("watching")
    stop = await asyncio.to_thread(parent.recv)
    said = 0
    gap = processes / chat_per_second if chat_per_second > 0 else stop
    while time.time() < stop:
        ws = sockets[said % len(sockets)]
        await ws.send(json.dumps({"type": "lobby_chat", "id": 3, "text": f"line {index}-{said}"}))
        said += 1
        await asyncio.sleep(min(gap, max(0.0, stop - time.time())))
    await asyncio.sleep(2.0)  # the last pushes arrive
    parent.send({"seen": seen, "said": said, "lines": lines[0]})
    for ws in sockets:  # read on while closing: everybody's going offline is pushed to the rest
        await ws.close()
    for task in readers:
        task.cancel()


def _watcher_process(port: int, clients: int, index: int, parent: Connection) -> None:
    asyncio.run(_watchers(port, clients, index, parent))


async def _mover(port: int) -> tuple[ClientConnection, str, str]:
    """The mover's connection, its name and its public table."""
    ws = await connect(f"ws://127.0.0.1:{port}/ws")
    welcome = await request(ws, {"type": "hello", "id": 1, "version": 1})
    created = await request(ws, {"type": "create_table", "id": 2, "game": "skat"})
    return ws, welcome["user"]["name"], created["table"]["id"]


async def _move(ws: ClientConnection, table: str, interval: float, stop: float) -> list[float]:
    """Sit down and get up at `table` every `interval` until `stop` (time.time()); returns
    when each change was sent (time.monotonic())."""
    sent: list[float] = []
    while time.time() < stop:
        kind = "join" if len(sent) % 2 == 0 else "leave"
        sent.append(time.monotonic())
        await request(ws, {"type": kind, "id": 10 + len(sent), "table": table})
        await asyncio.sleep(interval)
    await ws.close()
    return sent


def run_people(
    clients: int, seconds: float, port: int, servers: Servers, processes: int,
    interval: float, chat_per_second: float,
) -> dict[str, Any]:  # fmt: skip
    context = multiprocessing.get_context("spawn")
    shares = [clients // processes] * processes
    shares[-1] += clients - sum(shares)
    pipes, workers = [], []
    for index, share in enumerate(shares):
        ours, theirs = context.Pipe()
        worker = context.Process(target=_watcher_process, args=(port, share, index, theirs))
        worker.start()
        pipes.append(ours)
        workers.append(worker)
    receive_all(pipes)
    print(f"  {clients} watchers connected", file=sys.stderr)

    async def drive() -> tuple[list[float], float, float]:
        ws, name, table = await _mover(port)
        for pipe in pipes:
            pipe.send((name, chat_per_second, processes))
        await asyncio.to_thread(receive_all, pipes)  # everybody watches
        print("  everybody watches: moving", file=sys.stderr)
        stop = time.time() + seconds
        for pipe in pipes:
            pipe.send(stop)
        cpu_before, wall_before = servers.cpu_seconds(), time.monotonic()
        sent = await _move(ws, table, interval, stop)
        return sent, servers.cpu_seconds() - cpu_before, time.monotonic() - wall_before

    sent, busy, wall = asyncio.run(drive())
    reports = receive_all(pipes)
    leaving = servers.cpu_seconds()  # now every watcher closes: each leaving told to the rest
    for worker in workers:
        worker.join(timeout=30)
    leave_cpu = _until_quiet(servers) - leaving
    delays = sorted(
        t - sent[k]
        for report in reports
        for seen in report["seen"]
        for k, (t, _place) in enumerate(seen[: len(sent)])
    )
    said = sum(r["said"] for r in reports)
    pushes = len(delays) + sum(r["lines"] for r in reports)  # what the server pushed, roughly

    def pct(q: float) -> float:
        return (
            round(1000 * delays[min(len(delays) - 1, int(q * len(delays)))], 1)
            if delays
            else float("nan")
        )

    return {
        "clients": clients,
        "client_processes": processes,
        "changes": len(sent),
        "places": sorted({place for r in reports for seen in r["seen"] for _t, place in seen}),
        "pushes_expected": len(sent) * clients,
        "pushes_received": len(delays),
        "p50_ms": pct(0.5),
        "p99_ms": pct(0.99),
        "max_ms": round(1000 * delays[-1], 1) if delays else float("nan"),
        "chat_lines_said": said,
        "chat_pushes_expected": said * clients,
        "chat_pushes_received": sum(r["lines"] for r in reports),
        "server_cpu_percent": round(100 * busy / wall, 1),
        "server_cpu_ms_per_1000_pushes": round(1e6 * busy / max(pushes, 1), 2),
        "leave_server_cpu_seconds": round(leave_cpu, 2),
        "load_average_1min": round(psutil.getloadavg()[0], 1),
        "machine_cores": psutil.cpu_count() or 1,
    }


def _until_quiet(servers: Servers) -> float:
    """The servers' CPU seconds once they have stopped working (less than 2 % of a core for
    half a second, at most 60 s)."""
    deadline = time.monotonic() + 60
    before = servers.cpu_seconds()
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = servers.cpu_seconds()
        if now - before < 0.01:
            return now
        before = now
    return before
