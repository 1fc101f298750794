"""Real services a test may stop and start at will: a private PostgreSQL cluster and a private
Mosquitto broker on free ports (stopping them disturbs nothing else on the machine)."""

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import NoReturn

import pytest

from tests.server.client import PATIENCE

__all__ = ["PrivateBroker", "PrivatePostgres", "free_port", "missing", "require_program"]


def missing(reason: str) -> NoReturn:
    """Skip the test, or under CI=true fail it: a real service or program is absent."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}, and CI=true forbids skipping")
    pytest.skip(reason)


def require_program(name: str) -> str:
    """The path of program `name` (also looked for in /usr/sbin); missing when absent."""
    path = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")
    if path is None:
        missing(f"{name} is not installed")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PrivatePostgres:
    """A throwaway PostgreSQL cluster (trust auth) that a test may stop and start at will."""

    def __init__(self) -> None:
        binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
        if not binaries:
            missing("PostgreSQL's server binaries (pg_ctl, initdb) are not installed")
        self.bin = Path(binaries[-1]).parent
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="tischrunde-pg-"))
        self.data = self.root / "data"
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb refuses to run as root
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(self.bin / program), *args], check=True, capture_output=True
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.root / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


class PrivateBroker:
    """A throwaway Mosquitto on a free port. `config`: more lines of its mosquitto.conf (the
    files they name belong in `root`); without any, anonymous clients may do anything."""

    def __init__(self, config: str = "allow_anonymous true") -> None:
        self.program = require_program("mosquitto")
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="tischrunde-mqtt-"))
        self.config = config
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        path = self.root / "mosquitto.conf"
        path.write_text(f"listener {self.port} 127.0.0.1\n{self.config}\n")
        if os.geteuid() == 0:  # Mosquitto drops root for its own user, who must read these
            with contextlib.suppress(KeyError):
                owner = pwd.getpwnam("mosquitto")
                for file in (self.root, *self.root.iterdir()):
                    os.chown(file, owner.pw_uid, owner.pw_gid)
        self.process = subprocess.Popen(
            [self.program, "-c", str(path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            time.sleep(0.05)
        raise TimeoutError("mosquitto did not listen")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
