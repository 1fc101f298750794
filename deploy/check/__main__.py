"""Run the deploy check: preflight, images, then the stack in a network namespace.

Exit status 0 when the stack passed, 1 when it failed. Without the tools (or root, which
`ip netns` needs) the check says what is missing and exits 0 as skipped, or 1 with CI=true.
"""

import argparse
import fcntl
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

from deploy.check.images import build_base_images, build_project_image
from deploy.check.podman import NetworkNamespace, Podman

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {  # program: Debian package
    "podman": "podman",
    "podman-compose": "podman-compose",
    "mmdebstrap": "mmdebstrap",
    "runc": "runc",
    "nsenter": "util-linux",
    "ip": "iproute2",
    "openssl": "openssl",
}
APT_HINT = "apt-get install " + " ".join(sorted(set(TOOLS.values())))
HOST_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")


def default_state() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "tischrunde" / "deploy-check"


def default_ca_bundle() -> Path | None:
    """The host's CA bundle: the Python image trusts what the host trusts, which behind a
    TLS-inspecting proxy includes the proxy's certificate that pip in the build needs."""
    return HOST_CA_BUNDLE if HOST_CA_BUNDLE.is_file() else None


def bundle(value: str) -> Path | None:
    return Path(value) if value else None


def missing() -> list[str]:
    found = [
        name
        for name in TOOLS
        if shutil.which(name, path=os.environ["PATH"] + ":/usr/sbin:/sbin") is None
    ]
    if os.geteuid() != 0:
        found.append("root (ip netns and podman's bridge networks need it)")
    return found


def step(message: str, started: float) -> None:
    print(f"[check] {message} ({time.monotonic() - started:.0f} s)", flush=True)


def sweep(podman: Podman) -> None:
    """Remove whatever the stack left in the check's own store (a failed or killed run)."""
    podman.run("rm", "--all", "--force", "--time", "5", check=False)
    podman.run("volume", "prune", "--force", check=False)
    podman.run("network", "prune", "--force", check=False)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m deploy.check", description=__doc__)
    parser.add_argument(
        "--state",
        type=Path,
        default=default_state(),
        help="the check's podman configuration and image store (default %(default)s)",
    )
    parser.add_argument(
        "--ca-bundle",
        type=bundle,
        default=default_ca_bundle(),
        help="the Python base image's CA bundle (default: the host's, %(default)s; '': Debian's)",
    )
    args = parser.parse_args()

    lacking = missing()
    if lacking:
        print(f"deploy-check needs: {', '.join(lacking)}.\nOn Debian: {APT_HINT}", file=sys.stderr)
        if os.environ.get("CI") == "true":
            return 1
        print("deploy-check skipped.", file=sys.stderr)
        return 0

    args.state.mkdir(parents=True, exist_ok=True)
    with (args.state / "lock").open("w") as lock:
        if not try_lock(lock):
            print(f"[check] waiting for another deploy-check using {args.state}", flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        return check(args.state, args.ca_bundle)


def try_lock(lock: IO[str]) -> bool:
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def check(state: Path, ca_bundle: Path | None) -> int:
    """Images, then the stack in a network namespace; 0 if it passed. One run at a time per
    state folder (the caller holds its lock): runs share container names and the store."""
    started = time.monotonic()
    podman = Podman(state)
    step(f"base images from Debian packages (a few minutes unless cached in {state})", started)
    built = build_base_images(podman, ca_bundle)
    step(f"base images: built {', '.join(built) or 'none (cached)'}", started)
    size = build_project_image(podman, ROOT)
    step(f"server image from deploy/Dockerfile: {size / 1e6:.0f} MB", started)

    namespace = NetworkNamespace(f"tischrunde-check-{os.getpid()}")
    namespace.create()
    inside = podman.inside(namespace)
    try:
        sweep(inside)
        stack = [sys.executable, "-m", "deploy.check.stack", "--state", str(state)]
        passed = subprocess.run(namespace.enter(stack), cwd=ROOT).returncode == 0
    finally:
        sweep(inside)
        namespace.delete()
    step("stack " + ("passed" if passed else "FAILED"), started)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
