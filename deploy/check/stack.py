"""The compose stack of deploy/, started and played through nginx over verified TLS.

Runs inside the check's network namespace (`python -m deploy.check` starts it there): the
containers, podman's DNS and nginx's published port exist only in that namespace, and the
clients here reach nginx on its loopback as `https://localhost/` with the certificate that
deploy/make-cert.sh made for this run. What podman-compose 1.0.3 does not do, this does by
hand: it ignores `name:` (so `-p tischrunde`), `depends_on: condition` (so PostgreSQL is
started and waited for first) and `stop_grace_period` (so `-t 30` on every stop).

Steps: a lone fresh server container is timed from start to healthy; the stack comes up; nginx
answers /healthz and /readyz; a guest creates a Skat table and plays it with a bot while
another guest, sent to the replica that does not serve the table, follows its `moved` redirect
through nginx and plays too; the table's events reach the broker (written with the server's
account, read by an anonymous subscriber: the shipped accounts and ACL at work). Then the
servers are stopped and started, and then removed and created anew: each time nginx must answer
without a 502 as soon as they are healthy, and the guests resume the table (kept in PostgreSQL)
and play on.
"""

import argparse
import asyncio
import random
import secrets
import shutil
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from deploy.check.images import PROJECT_IMAGE
from deploy.check.podman import Podman
from tests.server.client import Client

__all__ = ["Stack", "main"]

DEPLOY = Path(__file__).resolve().parents[1]
PROJECT = "tischrunde"  # the compose file's `name:`
NETWORK = f"{PROJECT}_default"
REPLICAS = 2
READY_SECONDS = 300.0  # generous: a CPU the image's numba cache does not fit compiles anew
STOP_SECONDS = "30"  # the compose file's stop_grace_period
MOVES = 12  # table events played between two checks (a bot moves every 0.8 s)
RACES = ("stale_seq", "not_your_turn")  # a move sent as another event arrived: try again


def say(message: str) -> None:
    print(f"[stack] {message}", flush=True)


class Stack:
    """The compose stack of a copy of deploy/'s files in `folder`, with this run's settings."""

    def __init__(self, podman: Podman, folder: Path) -> None:
        self.podman = podman
        self.folder = folder
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for name in ("compose.yaml", "make-cert.sh"):
            shutil.copy(DEPLOY / name, folder / name)
        for name in ("nginx", "mosquitto"):
            shutil.copytree(DEPLOY / name, folder / name)
        subprocess.run(
            ["sh", str(folder / "make-cert.sh"), "localhost"], check=True, capture_output=True
        )
        self.tls = ssl.create_default_context(cafile=str(folder / "tls" / "fullchain.pem"))
        self.env = {
            "POSTGRES_PASSWORD": secrets.token_hex(16),
            "MQTT_SERVER_PASSWORD": secrets.token_hex(16),
            "MQTT_BOTS_PASSWORD": secrets.token_hex(16),
            "TISCHRUNDE_REPLICAS": str(REPLICAS),
            "TISCHRUNDE_SERVER_NAME": "localhost",
            "TISCHRUNDE_LOG_LEVEL": "INFO",
        }

    def compose(self, *args: str, check: bool = True) -> None:
        self.podman.run(
            "-p", PROJECT, "-f", str(self.folder / "compose.yaml"), *args,
            program="podman-compose", env=self.env, check=check,
        )  # fmt: skip

    def create_network(self) -> str:
        """Create the stack's network (as podman-compose would) and return the address of its
        DNS server, podman's aardvark-dns on the gateway: nginx's resolver."""
        labels = [f"--label=io.podman.compose.project={PROJECT}"]
        self.podman.run("network", "create", *labels, NETWORK)
        gateway = self.podman.output(
            "network", "inspect", "--format", "{{range .Subnets}}{{.Gateway}}{{end}}", NETWORK
        )
        self.env["TISCHRUNDE_RESOLVER"] = gateway
        return gateway

    def containers(self, service: str) -> list[str]:
        names = self.podman.output(
            "ps", "--all", "--format", "{{.Names}}",
            "--filter", f"label=com.docker.compose.service={service}",
        )  # fmt: skip
        return sorted(names.split())

    def hostname(self, container: str) -> str:
        return self.podman.output("inspect", "--format", "{{.Config.Hostname}}", container)

    def wait_healthy(self, containers: list[str], since: float) -> dict[str, float]:
        """Run each container's health check until it passes; seconds from `since` until it
        did, per container."""
        ready: dict[str, float] = {}
        deadline = since + READY_SECONDS
        while len(ready) < len(containers):
            if time.monotonic() > deadline:
                waiting = sorted(set(containers) - set(ready))
                raise TimeoutError(f"not healthy after {READY_SECONDS:.0f} s: {waiting}")
            for name in containers:
                if name not in ready:
                    check = self.podman.run("healthcheck", "run", name, check=False)
                    if check.returncode == 0:
                        ready[name] = time.monotonic() - since
            time.sleep(0.5)
        return ready

    def https(self, path: str) -> tuple[int, str]:
        """GET `path` through nginx: the status (502 included) and the body, or 0 and the
        reason when nginx did not answer within 10 s."""
        opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=self.tls)
        )
        try:
            with opener.open(f"https://localhost{path}", timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, ""
        except (urllib.error.URLError, TimeoutError) as error:
            return 0, str(error)

    def subscribe(self, topic: str, count: int) -> "subprocess.Popen[str]":
        """mosquitto_sub in the broker's container: the first `count` messages on `topic`, as
        an anonymous public reader (deploy/mosquitto/acl lets it read public tables' events;
        only the server's account may write them)."""
        broker = self.containers("mosquitto")[0]
        command = ["exec", broker, "mosquitto_sub", "-v", "-t", topic, "-C", str(count)]
        return subprocess.Popen(
            self.podman.command("podman", [*command, "-W", "120"]),
            env=self.podman.env,
            stdout=subprocess.PIPE,
            text=True,
        )


class Guest:
    """A player connected through nginx, who follows `moved` redirects."""

    def __init__(self, client: Client, tls: ssl.SSLContext) -> None:
        self.client = client
        self.tls = tls

    @classmethod
    async def connect(cls, tls: ssl.SSLContext, path: str = "/ws", token: str = "") -> "Guest":
        url = f"wss://localhost{path}"
        return cls(await Client.open(443, url=url, ssl=tls, token=token or None), tls)

    async def ask(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a table request; on `moved`, reconnect where the table is served and ask
        there."""
        reply = await self.client.request(kind, **fields)
        if reply["type"] == "error" and reply["code"] == "moved":
            await self.client.close()
            url, token = reply["url"], self.client.token
            self.client = await Client.open(443, url=url, ssl=self.tls, token=token)
            reply = await self.client.request(kind, **fields)
        if reply["type"] == "error":
            raise AssertionError(f"{kind}: {reply}")
        return reply

    async def close(self) -> None:
        await self.client.close()


async def play(guests: dict[int, Guest], table: str, events: int) -> int:
    """The guests (seat -> guest) play random legal moves until the table has gone `events`
    events further; returns the table's last seq."""
    rng = random.Random(7)

    def seq() -> int:
        return max(g.client.last_seq(table) for g in guests.values())

    goal = seq() + events
    deadline = time.monotonic() + 30 + events * 2
    while seq() < goal:
        if time.monotonic() > deadline:
            raise TimeoutError(f"table {table} stuck at seq {seq()} (goal {goal})")
        for seat, guest in guests.items():
            view = guest.client.latest_view(table)
            if view is None or view["phase"] == "over" or view["to_move"] != seat:
                continue
            moves = [a for a in view["legal"] if a["type"] not in ("resign", "kontra", "re")]
            if moves:
                action = rng.choice(moves)
                at = guest.client.last_seq(table)
                reply = await guest.client.request("act", table=table, seq=at, action=action)
                if reply["type"] == "error" and reply["code"] not in RACES:
                    raise AssertionError(f"act: {reply}")
        await asyncio.sleep(0.05)
    return seq()


async def first_table(stack: Stack) -> tuple[str, dict[int, str], int]:
    """A table with a bot, played by a guest who created it and by one who reached it through
    a redirect; returns the table, the guests' tokens by seat, and its last seq."""
    host = await Guest.connect(stack.tls)
    created = await host.ask("create_table", game="skat", series_length=4)
    table = created["table"]["id"]
    await host.ask("join", table=table, seat=0)
    await host.ask("add_bot", table=table, seat=2, level="greedy")

    # Each replica by name (/node/<host name>/ws): the one not serving the table redirects.
    redirects = []
    for name in [stack.hostname(c) for c in stack.containers("server")]:
        probe = await Guest.connect(stack.tls, f"/node/{name}/ws")
        reply = await probe.client.request("watch", table=table)
        if reply["type"] == "error":
            assert reply["code"] == "moved", reply
            redirects.append((name, reply["url"]))
        await probe.close()
    assert len(redirects) == 1, f"one replica of {REPLICAS} must redirect: {redirects}"
    name, url = redirects[0]
    assert url.startswith("wss://localhost/node/") and name not in url, url
    say(f"replica {name} redirected the table to {url}")
    guest = await Guest.connect(stack.tls, f"/node/{name}/ws")
    await guest.ask("join", table=table, seat=1)  # follows the redirect

    seq = await play({0: host, 1: guest}, table, MOVES)
    tokens = {0: host.client.token, 1: guest.client.token}
    for each in (host, guest):
        await each.close()
    return table, tokens, seq


async def resumed_table(stack: Stack, table: str, tokens: dict[int, str], seq: int) -> int:
    """The guests come back after a restart, resume the table from `seq` and play on;
    returns its last seq."""
    guests = {}
    for seat, token in tokens.items():
        guests[seat] = await Guest.connect(stack.tls, token=token)
        # From one event back: its push carries the seat's view to play on from.
        await guests[seat].ask("resume", table=table, seq=seq - 1)
    last = await play(guests, table, MOVES)
    for guest in guests.values():
        await guest.close()
    return last


def no_bad_gateway(stack: Stack, requests: int = 20) -> None:
    """Right after the servers are healthy, every request through nginx is served."""
    statuses = [stack.https("/readyz")[0] for _ in range(requests)]
    assert statuses == [200] * requests, f"nginx answered {statuses}"


def report_ready(what: str, ready: dict[str, float]) -> None:
    times = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in sorted(ready.items()))
    say(f"{what}: ready after {times}")


def lone_server(stack: Stack) -> float:
    """Seconds from `podman run` of a fresh server container (SQLite, two bot workers, no
    network) to its first passing health check: what the solver's cache in the image saves."""
    name = f"{PROJECT}_lone"
    started = time.monotonic()
    stack.podman.run(
        "run", "--detach", "--network=none", f"--name={name}",
        "--env=TISCHRUNDE_BOT_WORKERS=2", PROJECT_IMAGE,
    )  # fmt: skip
    try:
        return stack.wait_healthy([name], started)[name]
    finally:
        stack.podman.run("rm", "--force", "--time=5", name)


def run(stack: Stack) -> None:
    say(f"a fresh server container alone: ready after {lone_server(stack):.1f} s")
    say(f"podman's DNS for nginx: {stack.create_network()}")
    started = time.monotonic()
    stack.compose("up", "-d", "--no-build", "postgres", "mosquitto")
    stack.wait_healthy(stack.containers("postgres"), started)
    started = time.monotonic()
    stack.compose("up", "-d", "--no-build")
    servers = stack.containers("server")
    assert len(servers) == REPLICAS, servers
    report_ready("fresh servers", stack.wait_healthy(servers, started))
    for path, body in (("/healthz", "ok"), ("/readyz", "ready")):
        status, text = stack.https(path)
        assert status == 200 and body in text, (path, status, text)
    say("nginx answers /healthz and /readyz over verified TLS")

    events = stack.subscribe("tischrunde/v1/tables/+/events", MOVES)
    table, tokens, seq = asyncio.run(first_table(stack))
    say(f"table {table}: two guests and a bot played to seq {seq}")
    heard, _ = events.communicate(timeout=60)
    assert heard.count(f"tischrunde/v1/tables/{table}/events ") == MOVES, heard
    say(f"the broker carried {MOVES} of the table's events")

    started = time.monotonic()
    stack.compose("stop", "-t", STOP_SECONDS, "server")
    stack.compose("start", "server")
    report_ready("servers stopped and started", stack.wait_healthy(servers, started))
    no_bad_gateway(stack)
    seq = asyncio.run(resumed_table(stack, table, tokens, seq))
    say(f"table {table} resumed after stop/start, played to seq {seq}")

    started = time.monotonic()
    stack.compose("stop", "-t", STOP_SECONDS, "server")
    stack.podman.run("rm", *servers)
    stack.compose("up", "-d", "--no-build", "server")
    servers = stack.containers("server")
    report_ready("servers removed and created anew", stack.wait_healthy(servers, started))
    no_bad_gateway(stack)
    seq = asyncio.run(resumed_table(stack, table, tokens, seq))
    say(f"table {table} resumed in new server containers, played to seq {seq}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--state", type=Path, required=True, help="the check's state folder")
    args = parser.parse_args()
    stack = Stack(Podman(args.state), args.state / "stack")
    try:
        run(stack)
    except Exception:
        for container in stack.containers("server") + stack.containers("proxy"):
            logs = stack.podman.run("logs", "--tail", "40", container, check=False)
            print(f"--- {container}\n{logs.stdout}{logs.stderr}", file=sys.stderr)
        raise
    finally:
        stack.compose("down", "-v", "-t", STOP_SECONDS, check=False)
        stack.podman.run("network", "rm", NETWORK, check=False)  # not podman-compose's own


if __name__ == "__main__":
    main()
