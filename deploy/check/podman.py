"""The check's own podman: a private configuration and image store, and a network namespace.

Nothing here changes the machine's podman setup. Every podman command of the check gets
CONTAINERS_CONF, CONTAINERS_STORAGE_CONF and CONTAINERS_REGISTRIES_CONF naming files in the
check's state folder, so its images, containers, volumes and networks live apart from anyone
else's (and the base images stay cached there for the next run). What this kind of machine
needs is set in those files: ulimits the sandbox allows (podman's defaults ask for more than
it may raise), runc (crun refuses the host's hybrid cgroup layout), cgroupfs and file events
(no systemd), and no registries at all (short names resolve only to local images, so nothing is
ever pulled).

The stack runs inside a network namespace the check creates (`ip netns`): podman's bridge, its
veth pairs, the containers' DNS (aardvark-dns) and the published ports exist only there, and
the check's clients talk to nginx on that namespace's loopback. Commands enter it with
`nsenter --net` rather than `ip netns exec`, which would remount /sys and hide the cgroups.
"""

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

__all__ = ["CommandFailed", "NetworkNamespace", "Podman"]

CONTAINERS_CONF = """\
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"

[network]
network_config_dir = "{networks}"
"""

STORAGE_CONF = """\
[storage]
driver = "overlay"
graphroot = "{graphroot}"
runroot = "{runroot}"
"""

REGISTRIES_CONF = "unqualified-search-registries = []\n"


class CommandFailed(Exception):
    """A command of the check failed; the message holds its output."""

    def __init__(self, done: "subprocess.CompletedProcess[str]") -> None:
        command = " ".join(str(arg) for arg in done.args)
        super().__init__(
            f"{command} exited with {done.returncode}\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )


class NetworkNamespace:
    """A network namespace made with `ip netns`, with only its loopback (brought up)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def create(self) -> None:
        subprocess.run(["ip", "netns", "add", self.name], check=True)
        subprocess.run(self.enter(["ip", "link", "set", "lo", "up"]), check=True)

    def delete(self) -> None:
        subprocess.run(["ip", "netns", "delete", self.name], check=False)

    def enter(self, command: Sequence[str]) -> list[str]:
        """`command`, run inside this namespace."""
        return ["nsenter", f"--net=/run/netns/{self.name}", *command]


class Podman:
    """podman and podman-compose with the check's private configuration in `state`, run
    inside `namespace` if one is given."""

    def __init__(self, state: Path, namespace: NetworkNamespace | None = None) -> None:
        self.state = state
        self.namespace = namespace
        config = state / "config"
        config.mkdir(parents=True, exist_ok=True)
        files = {
            "CONTAINERS_CONF": CONTAINERS_CONF.format(networks=state / "networks"),
            "CONTAINERS_STORAGE_CONF": STORAGE_CONF.format(
                graphroot=state / "storage", runroot=f"/run/tischrunde-check-{os.getuid()}"
            ),
            "CONTAINERS_REGISTRIES_CONF": REGISTRIES_CONF,
        }
        self.env = dict(os.environ)
        for variable, text in files.items():
            path = config / f"{variable.lower()}.conf"
            path.write_text(text)
            self.env[variable] = str(path)

    def inside(self, namespace: NetworkNamespace) -> "Podman":
        """This podman, running its commands inside `namespace`."""
        return Podman(self.state, namespace)

    def command(self, program: str, args: Sequence[str]) -> list[str]:
        full = [program, *args]
        return self.namespace.enter(full) if self.namespace else full

    def run(
        self,
        *args: str,
        program: str = "podman",
        check: bool = True,
        env: dict[str, str] | None = None,
    ) -> "subprocess.CompletedProcess[str]":
        """Run a podman (or podman-compose) command and return what it printed."""
        done = subprocess.run(
            self.command(program, args),
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        if check and done.returncode != 0:
            raise CommandFailed(done)
        return done

    def output(self, *args: str) -> str:
        return self.run(*args).stdout.strip()
