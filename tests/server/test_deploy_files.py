"""The files of `deploy/` agree with the code: settings they name exist, commands they run
parse, files they mount or copy are in the repository."""

import re
import shlex
from pathlib import Path

import msgspec
import yaml

from server.cli import build_parser
from server.settings import ENV_PREFIX, Settings, settings_from_env

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
FIELDS = {field.name for field in msgspec.structs.fields(Settings)}


def env_file(path: Path) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)
    return {key.strip(): value.strip() for key, value in pairs if not key.startswith("#")}


def setting_name(variable: str) -> str:
    assert variable.startswith(ENV_PREFIX), variable
    return variable.removeprefix(ENV_PREFIX).lower()


def test_the_environment_example_names_only_settings_and_parses() -> None:
    environ = env_file(DEPLOY / "tischrunde.env.example")
    assert {setting_name(name) for name in environ} <= FIELDS
    settings = settings_from_env(environ)
    assert settings.db.startswith("postgresql+asyncpg://") and settings.mqtt


def test_the_systemd_unit_runs_commands_the_cli_accepts() -> None:
    unit = (DEPLOY / "systemd" / "tischrunde.service").read_text()
    commands = re.findall(r"^ExecStart(?:Pre)?=(.+)$", unit, re.MULTILINE)
    assert len(commands) == 2
    for command in commands:
        program, *args = shlex.split(command)
        assert program.endswith("/tischrunde")
        build_parser().parse_args(args)


def test_the_compose_file_sets_settings_and_mounts_files_that_exist() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert {"server", "postgres", "mosquitto", "proxy"} <= set(services)
    server_env = services["server"]["environment"]
    assert {setting_name(name) for name in server_env} <= FIELDS
    for service in services.values():
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0]
            if source.startswith("./") and source != "./tls":
                assert (DEPLOY / source).exists(), source
    assert (ROOT / services["server"]["build"]["dockerfile"]).exists()


def test_the_dockerfile_copies_what_exists_and_runs_unprivileged() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    for line in re.findall(r"^COPY (?!--from)(.+)$", dockerfile, re.MULTILINE):
        *sources, _target = line.split()
        for source in sources:
            assert (ROOT / source).exists(), source
    users = re.findall(r"^USER (\S+)$", dockerfile, re.MULTILINE)
    assert users and users[-1] != "root"
    env = dict(re.findall(r"(TISCHRUNDE_\w+)=(\S+)", dockerfile))
    assert {setting_name(name) for name in env} <= FIELDS


def test_the_deploy_guide_lists_every_setting() -> None:
    guide = (ROOT / "docs" / "deploy.md").read_text()
    missing = [name for name in FIELDS if f"{ENV_PREFIX}{name.upper()}" not in guide]
    assert not missing, missing


def test_the_deploy_check_builds_every_image_the_deploy_files_name() -> None:
    # `make deploy-check` pulls nothing: each image the compose file or the Dockerfile names
    # must be one it builds (tests importing deploy.check run no podman).
    from deploy.check.images import BASE_IMAGES, PROJECT_IMAGE

    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    named = {service["image"] for service in services.values()}
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    stages = re.findall(r"^FROM (\S+) AS (\S+)$", dockerfile, re.MULTILINE)
    bases = set(re.findall(r"^FROM (\S+)", dockerfile, re.MULTILINE)) - {s for _, s in stages}
    assert services["server"]["image"] == PROJECT_IMAGE
    assert (named - {PROJECT_IMAGE}) | bases <= {image.tag for image in BASE_IMAGES}
