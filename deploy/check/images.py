"""The images the stack needs, made here from Debian packages: no registry is ever asked.

deploy/compose.yaml and deploy/Dockerfile name four public images. The check builds stand-ins
with `mmdebstrap` from Debian bookworm's packages, tagged with the same names, each doing what
the stack relies on from the original (entrypoints in `images/`): Python with pip, PostgreSQL
that creates its user and database on first start, Mosquitto with its clients, nginx that fills
in its templates. A base image carries a label with the digest of its recipe and is rebuilt only
when that changes, so a second run finds them in the check's image store.

Behind a TLS-inspecting proxy pip in the Python image must trust the proxy's certificate: a
`ca_bundle` given to the build (the check passes the host's) replaces that image's CA bundle.
"""

import hashlib
import subprocess
import tempfile
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from deploy.check.podman import Podman

__all__ = ["BASE_IMAGES", "BaseImage", "build_base_images", "build_project_image"]

HERE = Path(__file__).resolve().parent
SUITE = "bookworm"
MIRRORS = (
    "deb http://deb.debian.org/debian bookworm main",
    "deb http://deb.debian.org/debian bookworm-updates main",
    "deb http://deb.debian.org/debian-security bookworm-security main",
)
RECIPE_LABEL = "org.tischrunde.check.recipe"
PROJECT_IMAGE = "tischrunde:latest"
BUILD_STAGE = "tischrunde:build"


@dataclass(frozen=True)
class BaseImage:
    """One base image: its tag, Debian packages, mmdebstrap customize hooks (run with the
    root folder as "$1"), files copied to /usr/local/bin, and Dockerfile-like settings."""

    tag: str
    packages: tuple[str, ...]
    hooks: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()

    def digest(self, ca_bundle: Path | None) -> str:
        recipe = hashlib.sha256(repr((self, MIRRORS)).encode())
        for name in self.scripts:
            recipe.update((HERE / "images" / name).read_bytes())
        if ca_bundle is not None and self.trusts_host:
            recipe.update(ca_bundle.read_bytes())
        return recipe.hexdigest()[:16]

    @property
    def trusts_host(self) -> bool:
        """Does this image get the host's CA bundle (for pip in builds)?"""
        return "python3-pip" in self.packages


BASE_IMAGES = (
    BaseImage(
        "python:3.11-slim",
        (
            "python3",
            "python3-pip",
            "python3-venv",
            "python-is-python3",
            "ca-certificates",
            "passwd",
        ),
        # The python image installs into the system's Python, as pip does in the original.
        hooks=('rm -f "$1"/usr/lib/python3*/EXTERNALLY-MANAGED',),
        settings=("ENV LANG=C.UTF-8", 'CMD ["python3"]'),
    ),
    BaseImage(
        "postgres:15",
        ("postgresql-15",),
        # Debian's package makes a cluster of its own; the entrypoint makes the real one.
        hooks=('rm -rf "$1"/var/lib/postgresql/15 "$1"/etc/postgresql/15',),
        scripts=("postgres-entrypoint.sh",),
        settings=(
            "ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/bin:/bin",
            "ENV PGDATA=/var/lib/postgresql/data",
            'ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]',
            'CMD ["postgres"]',
            "STOPSIGNAL SIGINT",
            "EXPOSE 5432",
        ),
    ),
    BaseImage(
        "eclipse-mosquitto:2",
        ("mosquitto", "mosquitto-clients"),
        hooks=('mkdir -p "$1"/mosquitto/config "$1"/mosquitto/data "$1"/mosquitto/log',),
        settings=('CMD ["mosquitto", "-c", "/mosquitto/config/mosquitto.conf"]', "EXPOSE 1883"),
    ),
    BaseImage(
        "nginx:1.27",
        ("nginx", "gettext-base"),
        hooks=(
            'rm -f "$1"/etc/nginx/sites-enabled/default',
            'mkdir -p "$1"/etc/nginx/templates',
            'ln -sf /dev/stdout "$1"/var/log/nginx/access.log',
            'ln -sf /dev/stderr "$1"/var/log/nginx/error.log',
        ),
        scripts=("nginx-entrypoint.sh",),
        settings=(
            'ENTRYPOINT ["/usr/local/bin/nginx-entrypoint.sh"]',
            'CMD ["nginx", "-g", "daemon off;"]',
            "STOPSIGNAL SIGQUIT",
            "EXPOSE 443",
        ),
    ),
)


def mmdebstrap_command(image: BaseImage, target: Path, ca_bundle: Path | None) -> list[str]:
    """Debian's minimal base with `image`'s packages, as a tarball at `target`."""
    hooks = list(image.hooks)
    for name in image.scripts:
        hooks.append(f"copy-in {HERE / 'images' / name} /usr/local/bin/")
    if ca_bundle is not None and image.trusts_host:
        hooks.append(f"upload {ca_bundle} /etc/ssl/certs/ca-certificates.crt")
    return [
        "mmdebstrap",
        "--quiet",
        "--variant=minbase",
        "--include=" + ",".join(image.packages),
        '--aptopt=APT::Install-Recommends "false"',
        '--aptopt=Acquire::Languages "none"',
        "--dpkgopt=force-unsafe-io",  # no fsync per file: a throwaway tree, much faster
        *(f"--dpkgopt=path-exclude=/usr/share/{folder}/*" for folder in ("doc", "man", "info")),
        *(f"--customize-hook={hook}" for hook in hooks),
        SUITE,
        str(target),
        *MIRRORS,
    ]


def current(podman: Podman, image: BaseImage, digest: str) -> bool:
    """Is `image` in the store, built from this recipe?"""
    labels = '{{index .Labels "' + RECIPE_LABEL + '"}}'
    found = podman.run("image", "inspect", "--format", labels, image.tag, check=False)
    return found.returncode == 0 and found.stdout.strip() == digest


def build_base_image(podman: Podman, image: BaseImage, ca_bundle: Path | None) -> None:
    digest = image.digest(ca_bundle)
    with tempfile.TemporaryDirectory(prefix="tischrunde-image-") as folder:
        tarball = Path(folder) / "root.tar"
        subprocess.run(mmdebstrap_command(image, tarball, ca_bundle), check=True)
        changes = [*image.settings, f"LABEL {RECIPE_LABEL}={digest}"]
        podman.run("import", *(f"--change={change}" for change in changes), str(tarball), image.tag)


def build_base_images(
    podman: Podman, ca_bundle: Path | None, images: Iterable[BaseImage] = BASE_IMAGES
) -> list[str]:
    """Build the base images whose recipe changed (in parallel: mostly downloads and
    unpacking); returns the tags built."""
    stale = [image for image in images if not current(podman, image, image.digest(ca_bundle))]
    with ThreadPoolExecutor(max_workers=len(stale) or 1) as pool:
        for done in [pool.submit(build_base_image, podman, image, ca_bundle) for image in stale]:
            done.result()
    return [image.tag for image in stale]


def build_project_image(podman: Podman, root: Path) -> int:
    """Build deploy/Dockerfile as the compose file's `server` image; returns its size in
    bytes. `--format docker` keeps the HEALTHCHECK (podman's default OCI format drops it);
    `--network=host` gives the build steps the host's network, whose only reachable hosts
    here are the package registries. The build stage is tagged too, so that pruning what
    earlier runs left keeps it as the cache of the next build."""
    dockerfile = root / "deploy" / "Dockerfile"
    options = ["--format", "docker", "--network=host", "--pull=never", "--layers"]
    for target, tag in ((["--target", "build"], BUILD_STAGE), ([], PROJECT_IMAGE)):
        podman.run("build", *options, *target, "-f", str(dockerfile), "-t", tag, str(root))
    podman.run("image", "prune", "--force")
    return int(podman.output("image", "inspect", "--format", "{{.Size}}", PROJECT_IMAGE))
