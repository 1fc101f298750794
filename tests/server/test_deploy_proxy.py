"""The reverse proxy of `deploy/`: the real nginx, configured from the shipped template,
terminates TLS in front of a real server; a human plays a Skat deal against two bots through
it and downloads the record over HTTPS."""

import asyncio
import contextlib
import os
import socket
import ssl
import string
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.app import App, running
from server.settings import Settings
from tests.server.client import PATIENCE, Client, play
from tests.server.conftest import server_settings
from tests.server.services import free_port, require_program

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
TEMPLATE = DEPLOY / "nginx" / "tischrunde.conf.template"


def make_certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    subprocess.run(
        [
            require_program("openssl"),
            *("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def render(upstream: str, listen: int, cert: Path, key: Path, node_port: int) -> str:
    """The template as the nginx image's envsubst step renders it: only the named variables."""
    values = {
        "TISCHRUNDE_UPSTREAM": upstream,
        "TISCHRUNDE_SERVER_NAME": "localhost",
        "TLS_CERTIFICATE": str(cert),
        "TLS_CERTIFICATE_KEY": str(key),
        "LISTEN_PORT": str(listen),
        "TISCHRUNDE_NODE_PORT": str(node_port),
        "TISCHRUNDE_RESOLVER": "127.0.0.1",  # redirects here name addresses: never asked
    }
    return string.Template(TEMPLATE.read_text()).safe_substitute(values)


@contextlib.contextmanager
def nginx_site(
    tmp_path: Path, upstream: str, node_port: int, port: int | None = None
) -> Iterator[tuple[int, ssl.SSLContext]]:
    """nginx with the shipped site on `port` (default: a free one); yields the port and a
    context trusting it."""
    nginx = require_program("nginx")
    cert, key = make_certificate(tmp_path)
    port = port or free_port()
    site = tmp_path / "tischrunde.conf"
    site.write_text(render(upstream, port, cert, key, node_port))
    temp = {name: tmp_path / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for folder in temp.values():
        folder.mkdir()
    main = tmp_path / "nginx.conf"
    main.write_text(
        "daemon off;\n"
        + ("user root;\n" if os.geteuid() == 0 else "")
        + f"pid {tmp_path / 'nginx.pid'};\nerror_log {tmp_path / 'error.log'} warn;\n"
        + "worker_processes 1;\nevents { worker_connections 64; }\nhttp {\n  access_log off;\n"
        + "".join(f"  {name}_temp_path {path};\n" for name, path in temp.items()).replace(
            "body_temp_path", "client_body_temp_path"
        )
        + f"  include {site};\n}}\n"
    )
    process = subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(main)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_listening(port, process)
        context = ssl.create_default_context(cafile=str(cert))
        yield port, context
    finally:
        process.terminate()
        process.wait(timeout=PATIENCE)


@pytest.fixture
def proxy(app: App, tmp_path: Path) -> Iterator[tuple[int, ssl.SSLContext]]:
    """nginx on a free port in front of `app`."""
    with nginx_site(tmp_path, f"127.0.0.1:{app.port}", app.port) as site:
        yield site


def wait_listening(port: int, process: "subprocess.Popen[bytes]") -> None:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        if process.poll() is not None:
            error = process.stderr.read().decode() if process.stderr else ""
            raise RuntimeError(f"nginx exited: {error}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError("nginx did not listen")


def https_get(port: int, path: str, context: ssl.SSLContext) -> tuple[int, str]:
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=context)
    )
    with opener.open(f"https://localhost:{port}{path}", timeout=PATIENCE) as response:
        return response.status, response.read().decode()


async def test_a_deal_is_played_and_downloaded_through_the_tls_proxy(
    proxy: tuple[int, ssl.SSLContext],
) -> None:
    port, context = proxy
    human = await Client.open(port, url=f"wss://localhost:{port}/ws", ssl=context)
    created = await human.ok("create_table", game="skat", series_length=1)
    table = created["table"]["id"]
    await human.ok("join", table=table)
    await human.ok("add_bot", table=table, seat=1, level="random")
    await human.ok("add_bot", table=table, seat=2, level="random")
    await play({0: human}, table, deals=1)
    await human.close()
    status, record = await asyncio.to_thread(https_get, port, f"/api/records/{table}/0", context)
    assert status == 200 and record.startswith("(;GM[Skat]")
    status, page = await asyncio.to_thread(https_get, port, "/", context)
    assert status == 200 and "<html" in page.lower()


async def test_the_servers_frame_limit_still_answers_through_the_proxy(
    proxy: tuple[int, ssl.SSLContext],
) -> None:
    port, context = proxy
    client = await Client.open(port, url=f"wss://localhost:{port}/ws", ssl=context)
    await client.send({"type": "chat", "table": "x", "text": "a" * 40_000})
    closed = await asyncio.wait_for(client.ws.wait_closed(), PATIENCE)
    assert closed is None and client.ws.close_code == 1009


async def test_the_proxy_takes_a_redirected_client_to_the_process_serving_its_table(
    tmp_path: Path,
) -> None:
    # Two server processes on one port of two loopback addresses, one database; nginx sends
    # `/ws` to the first and `/node/<address>/ws` to the process at that address.
    node_port = free_port()
    proxy_port = free_port()
    base = f"wss://localhost:{proxy_port}/node"

    def settings(address: str) -> Settings:
        url = f"{base}/{address}/ws"
        return server_settings(
            tmp_path, host=address, port=node_port, node=f"n-{address}", node_url=url
        )

    async with (
        running(settings("127.0.0.1")) as first,
        running(settings("127.0.0.2")) as second,
    ):
        (tmp_path / "nginx").mkdir()
        upstream = f"127.0.0.1:{node_port}"
        with nginx_site(tmp_path / "nginx", upstream, node_port, proxy_port) as site:
            port, context = site
            host = await Client.open(port, url=second.url, ssl=context)
            table = (await host.ok("create_table", game="skat", series_length=1))["table"]["id"]
            assert table in second.lobby.tables

            human = await Client.open(port, url=f"wss://localhost:{port}/ws", ssl=context)
            moved = await human.request("join", table=table, seat=0)
            assert moved["code"] == "moved" and moved["url"] == f"{base}/127.0.0.2/ws"
            there = await Client.open(port, url=moved["url"], ssl=context, token=human.token)
            await there.ok("join", table=table, seat=0)
            await host.ok("add_bot", table=table, seat=1, level="random")
            await host.ok("add_bot", table=table, seat=2, level="random")
            await play({0: there}, table, deals=1)
            assert table not in first.lobby.tables
            for client in (host, human, there):
                await client.close()
