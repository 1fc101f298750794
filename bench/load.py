"""Load benchmark: N WebSocket clients playing Skat at 0.5 actions/s each against a real server.

Three kinds of process, so that none measures itself: the server (`tischrunde serve`, SQLite in
a temp folder, its own process), `--client-processes` load-client processes that each hold a
share of the N connections, and this coordinating process, which samples the server's memory
and CPU. Three clients share each table and play random legal moves; a client whose turn it is
waits so that it acts about every 2 s on average (0.5 actions/s per client at the table's pace).

With `--servers N` (N > 1 needs `--postgres`) it starts N server processes on one fresh
PostgreSQL database, as a cluster (`docs/architecture.md`): each load-client process talks to
one of them (process i to server i mod N) and creates its tables there, so each process serves
its own share; memory and CPU are summed over the servers.

Reported: p50/p99 latency from sending `act` to receiving the event of that move on the same
connection, the server's memory per idle connection (RSS growth after N clients said hello,
divided by N), and the CPU of the server, of the load clients and of the whole machine while
playing (percent of one core; the server's also per action, which holds up better than the
latency when other work shares the cores). Loopback only; bounded in time.

The baseline: in the same run (after the server, unless `--no-echo`), a bare `websockets` echo
server in its own process, with the server's connection options, gets the same N connections
from the same client processes (connect, `hello`), and each client sends an `act`-sized frame
at the same 0.5 per second and waits for its echo. The report adds the echo's figures (CPU per
message, p50/p99 from send to echo, memory per idle connection) and the server's ratios to
them: what the game costs beyond moving frames through the same WebSocket library. With
`--echo-fan-out 3` the echo sends each frame to the three connections of its group (the
sender's among them), as the server sends a move's event to the three seats of its table: the
floor of a move's I/O, in the same units.

    python -m bench.load --clients 1000 --seconds 20
    python -m bench.load --clients 1000 --seconds 20 --no-server --echo-fan-out 3
    python -m bench.load --clients 2000 --servers 2 --postgres --mqtt mqtt://127.0.0.1:1883
    python -m bench.load --people --clients 1000 --seconds 20     # presence, bench/people.py

The CPU that the local PostgreSQL and Mosquitto spend is reported per action too, as the
figures a capacity plan needs (docs/capacity.md). Starting and measuring the servers is in
bench/serving.py, shared with bench/people.py.
"""

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from typing import Any

import msgspec
import psutil
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.serving import (
    Servers,
    free_port,
    fresh_database,
    receive_all,
    request,
    service_cpu_seconds,
    start_server,
    wait_listening,
    wait_ready,
)

ACTIONS_PER_SECOND = 0.5
SEATS = 3
WARMUP_SECONDS = 5.0
SERVICES = ("postgres", "mosquitto")  # local services whose CPU is reported per action
UNRATED_MOVES = ("resign", "kontra", "re")  # random play would end deals early with these
ECHO_ACTION = b'{"type":"play","card":"JC"}'  # what the echo clients send, as a Skat move
PROTOCOL_VERSION = 2  # a move: its event to each seat, the mover's with the act's id


class Kind(msgspec.Struct):
    type: str


class View(msgspec.Struct):
    """The two fields of a seat's view a bench client needs; the rest is skipped unparsed."""

    to_move: int | None = None
    legal: list[msgspec.Raw] = []


class Push(msgspec.Struct):
    """Any server message, reduced to what a bench client looks at."""

    type: str
    id: int | str | None = None
    table: str | dict[str, Any] | None = None  # an id, or a snapshot's table
    seq: int | None = None
    code: str | None = None
    view: View | None = None


class ActRequest(msgspec.Struct, tag="act"):
    table: str
    seq: int
    action: msgspec.Raw


_push = msgspec.json.Decoder(Push)
_kind = msgspec.json.Decoder(Kind)
_encode = msgspec.json.Encoder().encode


class Player:
    """One bench client: answers its turns, measures act -> own event latency."""

    def __init__(self, ws: ClientConnection, seat: int, table: str, rng: random.Random) -> None:
        self.ws = ws
        self.seat = seat
        self.table = table
        self.rng = rng
        self.seq = 0
        self.view: View | None = None
        self.pending: dict[int, float] = {}  # expected seq -> send time
        self.latencies: list[float] = []
        self.turn = asyncio.Event()
        self.measuring = False
        self.errors: list[str] = []
        self.acted_at = -1

    async def read(self) -> None:
        async for frame in self.ws:
            message = _push.decode(frame)
            if message.type == "error":
                self.errors.append(message.code or "")
            if message.type in ("event", "snapshot") and message.seq is not None:
                self.seq = max(self.seq, message.seq)
                sent = self.pending.pop(message.seq, None)
                if sent is not None and self.measuring:
                    self.latencies.append(time.perf_counter() - sent)
                if message.view is not None:
                    self.view = message.view
                    if self.my_turn():
                        self.turn.set()

    def my_turn(self) -> bool:
        view = self.view
        return (
            view is not None
            and view.to_move == self.seat
            and bool(view.legal)
            and self.seq != self.acted_at
        )

    async def play(self, stop: float) -> None:
        # Each of the table's three clients acts on its turn: one action per client per
        # 1 / ACTIONS_PER_SECOND seconds means a table-wide pace of SEATS * 0.5 actions/s.
        while time.monotonic() < stop:
            if not self.my_turn():
                self.turn.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.turn.wait(), stop - time.monotonic())
                continue
            await asyncio.sleep(self.rng.expovariate(SEATS * ACTIONS_PER_SECOND))
            if not self.my_turn() or self.view is None:
                continue
            legal = self.view.legal
            moves = [a for a in legal if _kind.decode(a).type not in UNRATED_MOVES] or legal
            self.acted_at = self.seq
            self.pending[self.seq + 1] = time.perf_counter()
            act = ActRequest(self.table, self.seq, self.rng.choice(moves))
            await self.ws.send(_encode(act).decode())


class Echoer:
    """One bench client of the echo baseline: sends an `act`-sized frame at the clients' pace
    (0.5 per second on average) and measures the time to its echo (its own frames are those
    naming its own table; with a fan-out the others' come too)."""

    def __init__(self, ws: ClientConnection, rng: random.Random) -> None:
        self.ws = ws
        self.rng = rng
        self.table = f"{rng.getrandbits(32):08x}"  # a table id's length
        self.pending: dict[int, float] = {}
        self.latencies: list[float] = []
        self.measuring = False
        self.errors: list[str] = []
        self.sent = 0

    async def read(self) -> None:
        async for frame in self.ws:
            message = _push.decode(frame)
            if message.table != self.table:
                continue
            sent = self.pending.pop(message.seq, None) if message.seq is not None else None
            if sent is not None and self.measuring:
                self.latencies.append(time.perf_counter() - sent)

    async def play(self, stop: float) -> None:
        while True:
            wait = self.rng.expovariate(ACTIONS_PER_SECOND)
            if time.monotonic() + wait >= stop:
                return
            await asyncio.sleep(wait)
            self.sent += 1
            self.pending[self.sent] = time.perf_counter()
            act = ActRequest(self.table, self.sent, msgspec.Raw(ECHO_ACTION))
            await self.ws.send(_encode(act).decode())


async def client_share(
    port: int, clients: int, seed: int, parent: Connection, echo: bool = False
) -> None:
    """One load-client process: `clients` connections, in tables of three, driven by `parent`.

    Steps, each acknowledged to the parent: connect and say hello; seat everyone; on "go",
    play until the given stop time and send back the measured latencies and own CPU time.
    Against the echo server (`echo`) nobody is seated: each client sends frames and times
    their echoes instead of playing.
    """
    rng = random.Random(seed)
    url = f"ws://127.0.0.1:{port}/ws"
    sockets: list[ClientConnection] = []
    for _ in range(clients):
        ws = await connect(url, max_size=2**20)
        await request(ws, {"type": "hello", "id": 1, "version": PROTOCOL_VERSION})
        sockets.append(ws)
    parent.send("connected")
    parent.recv()
    players: list[Player | Echoer] = []
    if echo:
        players = [Echoer(ws, random.Random(rng.random())) for ws in sockets]
    for start in range(0, 0 if echo else clients - clients % SEATS, SEATS):
        group = sockets[start : start + SEATS]
        created = await request(
            group[0], {"type": "create_table", "id": 2, "game": "skat", "series_length": 200}
        )
        table = created["table"]["id"]
        for seat, ws in enumerate(group):
            players.append(Player(ws, seat, table, random.Random(rng.random())))
            await request(ws, {"type": "join", "id": 3, "table": table, "seat": seat})
    readers = [asyncio.create_task(p.read()) for p in players]
    parent.send("seated")
    go = await asyncio.to_thread(parent.recv)  # (warm-up end, stop) on time.time()'s clock
    warm_end = time.monotonic() + go[0] - time.time()
    stop = time.monotonic() + go[1] - time.time()
    playing = [asyncio.create_task(p.play(stop)) for p in players]
    await asyncio.sleep(warm_end - time.monotonic())
    for p in players:
        p.measuring = True
    cpu_before = time.process_time()
    await asyncio.gather(*playing)
    cpu = time.process_time() - cpu_before
    for task in readers:
        if task.done():
            task.result()  # a reader that failed (a frame it could not parse) fails the run
        task.cancel()
    parent.send(
        {
            "latencies": [x for p in players for x in p.latencies],
            "errors": sum(len(p.errors) for p in players),
            "cpu_seconds": cpu,
        }
    )
    for ws in sockets:
        await ws.close()


def client_process(port: int, clients: int, seed: int, parent: Connection, echo: bool) -> None:
    asyncio.run(client_share(port, clients, seed, parent, echo))


def run(
    clients: int,
    seconds: float,
    ports: list[int],
    servers: Servers,
    processes: int,
    echo: bool = False,
) -> dict[str, Any]:
    """Drive `processes` load clients through connect, seat and play; measure the servers
    (`echo`: the echo server, whose clients send frames instead of playing)."""
    context = multiprocessing.get_context("spawn")
    shares = [clients // processes // SEATS * SEATS] * processes
    shares[-1] += clients - sum(shares)
    base_rss = servers.rss()
    pipes, workers = [], []
    for index, share in enumerate(shares):
        ours, theirs = context.Pipe()
        port = ports[index % len(ports)]
        args = (port, share, index + 1, theirs, echo)
        worker = context.Process(target=client_process, args=args)
        worker.start()
        pipes.append(ours)
        workers.append(worker)
    receive_all(pipes)
    time.sleep(1)
    idle_rss = servers.rss()
    print(f"  {clients} clients connected; seating them", file=sys.stderr)
    for pipe in pipes:
        pipe.send("seat")
    receive_all(pipes)
    start = time.time() + 0.5
    for pipe in pipes:
        pipe.send((start + WARMUP_SECONDS, start + WARMUP_SECONDS + seconds))
    time.sleep(start + WARMUP_SECONDS - time.time())
    cpu_before = servers.cpu_seconds()
    services_before = {name: service_cpu_seconds(name) for name in SERVICES}
    machine_before = psutil.cpu_times()
    wall_before = time.monotonic()
    reports = receive_all(pipes)
    wall = time.monotonic() - wall_before
    cpu_after = servers.cpu_seconds()
    services = {name: service_cpu_seconds(name) - services_before[name] for name in SERVICES}
    machine_after = psutil.cpu_times()
    for worker in workers:
        worker.join(timeout=30)
    latencies = sorted(x for r in reports for x in r["latencies"])

    def pct(q: float) -> float:
        return (
            1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))]
            if latencies
            else float("nan")
        )

    server_busy = cpu_after - cpu_before
    machine_idle = machine_after.idle - machine_before.idle
    machine_total = sum(machine_after) - sum(machine_before)
    cores = psutil.cpu_count() or 1
    return {
        "clients": clients,
        "servers": len(ports),
        "client_processes": processes,
        "actions": len(latencies),
        "errors": sum(r["errors"] for r in reports),
        "actions_per_second": round(len(latencies) / wall, 1),
        "p50_ms": round(pct(0.5), 1),
        "p99_ms": round(pct(0.99), 1),
        "kib_per_idle_connection": round((idle_rss - base_rss) / clients / 1024, 1),
        "server_cpu_percent": round(100 * server_busy / wall, 1),
        "server_cpu_ms_per_action": round(1000 * server_busy / max(len(latencies), 1), 2),
        "clients_cpu_percent": round(100 * sum(r["cpu_seconds"] for r in reports) / wall, 1),
        "machine_cpu_percent": round(100 * cores * (1 - machine_idle / machine_total), 1),
        "machine_cores": cores,
    } | {
        f"{name}_cpu_ms_per_action": round(1000 * busy / max(len(latencies), 1), 3)
        for name, busy in services.items()
    }


async def serve_echo(port: int, fan_out: int = 1) -> None:
    """The baseline: every frame straight back (with a `fan_out`, to each connection of the
    sender's group of that many, in the order they connected), with the game server's
    connection options (`server/app.py`: backlog, frame size, keepalive, queue, no
    compression)."""
    from websockets.asyncio.server import ServerConnection, serve

    connected: list[ServerConnection] = []

    async def echo(ws: ServerConnection) -> None:
        index = len(connected)
        connected.append(ws)
        first = index - index % fan_out
        async for frame in ws:
            for peer in connected[first : first + fan_out]:
                with contextlib.suppress(ConnectionClosed):
                    await peer.send(frame)

    sock = socket.create_server(("127.0.0.1", port), backlog=1024)
    async with serve(
        echo,
        sock=sock,
        max_size=16 * 1024,
        ping_interval=20,
        ping_timeout=20,
        max_queue=4,
        compression=None,
    ) as server:
        await server.serve_forever()


def start_echo(port: int, fan_out: int) -> subprocess.Popen[bytes]:
    command = ["-m", "bench.load", "--serve-echo", str(port), "--echo-fan-out", str(fan_out)]
    return subprocess.Popen([sys.executable, *command])


def echo_run(clients: int, seconds: float, processes: int, fan_out: int) -> dict[str, Any]:
    """The same clients against the echo server, in its own process."""
    port = free_port()
    process = start_echo(port, fan_out)
    try:
        wait_listening(port)
        time.sleep(0.5)  # let it settle before its memory is the base
        servers = Servers([psutil.Process(process.pid)])
        return run(clients, seconds, [port], servers, processes, echo=True) | {"fan_out": fan_out}
    finally:
        process.terminate()
        process.wait(timeout=30)


def ratios(server: dict[str, Any], echo: dict[str, Any]) -> dict[str, float]:
    """The server's figures over the echo's: CPU per move over CPU per echoed frame, p99, and
    memory per idle connection."""

    def over(a: str, b: str) -> float:
        return round(server[a] / echo[b], 2) if echo[b] else float("nan")

    return {
        "cpu_per_move_over_echo": over("server_cpu_ms_per_action", "server_cpu_ms_per_action"),
        "p99_over_echo": over("p99_ms", "p99_ms"),
        "idle_connection_memory_over_echo": over(
            "kib_per_idle_connection", "kib_per_idle_connection"
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--servers", type=int, default=1, help="server processes (a cluster)")
    parser.add_argument(
        "--postgres",
        nargs="?",
        const="postgresql://postgres@127.0.0.1:5432/postgres",
        help="run on a fresh database on this PostgreSQL (admin URL; default the local one)",
    )
    parser.add_argument(
        "--mqtt", default="", help="broker URL: the servers publish every event there (a cluster)"
    )
    parser.add_argument("--no-echo", action="store_true", help="skip the echo baseline")
    parser.add_argument("--no-server", action="store_true", help="the echo baseline alone")
    parser.add_argument(
        "--echo-fan-out", type=int, default=1, help="the echo sends each frame to this many"
    )
    parser.add_argument("--serve-echo", type=int, help=argparse.SUPPRESS)  # the echo's process
    parser.add_argument(
        "--people", action="store_true", help="presence and lobby chat instead (bench/people.py)"
    )
    parser.add_argument("--interval", type=float, default=0.5, help="--people: s between moves")
    parser.add_argument("--chat-per-second", type=float, default=2.0, help="--people: lobby chat")
    args = parser.parse_args()
    if args.serve_echo is not None:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve_echo(args.serve_echo, args.echo_fan_out))
        return
    if args.no_server:
        echo = echo_run(args.clients, args.seconds, args.client_processes, args.echo_fan_out)
        print(json.dumps({"echo": echo}))
        return
    if args.servers > 1 and args.postgres is None:
        parser.error("several servers share a database: add --postgres")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # inherited by every process
    ports = [free_port() for _ in range(args.servers)]
    with (
        tempfile.TemporaryDirectory() as folder,
        fresh_database(args.postgres, folder) as db,
    ):
        started = [start_server(port, db, args.mqtt) for port in ports]
        try:
            for port in ports:
                wait_ready(port)
            servers = Servers([psutil.Process(p.pid) for p in started])
            if args.people:
                from bench.people import run_people

                report = run_people(
                    args.clients, args.seconds, ports[0], servers, args.client_processes,
                    args.interval, args.chat_per_second,
                )  # fmt: skip
            else:
                report = run(args.clients, args.seconds, ports, servers, args.client_processes)
            report["db"] = db.split("+", 1)[0]
        finally:
            for process in started:
                process.terminate()
            for process in started:
                process.wait(timeout=30)
    if not (args.no_echo or args.people):
        print("  the echo baseline", file=sys.stderr)
        echo = echo_run(args.clients, args.seconds, args.client_processes, args.echo_fan_out)
        report = {**report, "echo": echo, "ratios": ratios(report, echo)}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
