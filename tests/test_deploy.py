"""The deployment files as written: the compose file reads the one ``.env`` the settings
come from and hands the web pages no token, every service has a health check, the image
keeps SQLite in a volume, and the systemd units parse (``systemd-analyze verify``, where
Debian's systemd is installed) and restart on everything but a setting to fix."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot.config import SETTINGS

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
DOCKERFILE = (ROOT / "deploy" / "Dockerfile").read_text(encoding="utf-8")
INTERPOLATED = re.compile(r"\$\{([A-Z_]+)(?::?-[^}]*)?\}")
SETTING_NAMES = {name for name, _ in SETTINGS}
UNITS = ("circus@.service", "circus-web.service")


def example_names() -> set[str]:
    """The settings ``.env.example`` names, commented out or not."""
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    return set(re.findall(r"^#? ?([A-Z][A-Z_]+)=", text, flags=re.MULTILINE))


def services() -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = COMPOSE["services"]
    return found


def test_compose_fills_in_only_what_the_one_env_file_names() -> None:
    """Compose reads ``.env`` beside the compose file for ``${…}``: the same file the bot
    containers get and the settings come from."""
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    filled = set(INTERPOLATED.findall(text))
    assert filled >= {"POSTGRES_PASSWORD", "SHARD_COUNT", "WEB_BASE_URL"}
    assert filled <= example_names()
    bots = [name for name in services() if name.startswith("bot-")]
    assert len(bots) == 2
    for name in bots:
        assert services()[name]["env_file"] == ".env"


def test_the_web_pages_get_no_token() -> None:
    web = services()["web"]
    assert "env_file" not in web
    environment = web["environment"]
    assert isinstance(environment, dict)
    assert "DISCORD_TOKEN" not in environment and set(environment) <= SETTING_NAMES
    assert web["command"] == ["python", "-m", "bot", "web"]


@pytest.mark.parametrize(("service", "check"), [("bot-0", []), ("bot-1", []), ("web", ["web"])])
def test_every_service_has_its_health_check(service: str, check: list[str]) -> None:
    healthcheck = services()[service]["healthcheck"]
    assert isinstance(healthcheck, dict)
    assert healthcheck["test"] == ["CMD", "python", "-m", "bot", "health", *check]
    assert services()[service]["restart"] == "unless-stopped"
    build = services()[service]["build"]
    assert isinstance(build, dict)
    assert (ROOT / str(build["context"]) / str(build["dockerfile"])).is_file()


def test_the_image_keeps_sqlite_in_a_volume_and_checks_its_heartbeat() -> None:
    lines = [line.strip() for line in DOCKERFILE.splitlines()]
    assert 'VOLUME ["/data"]' in lines
    assert lines.index("WORKDIR /data") < lines.index("USER circus")
    assert "install -d -o circus -g circus /data" in DOCKERFILE
    assert "ENV HEALTH_FILE=/tmp/circus-health" in lines
    assert 'CMD ["python", "-m", "bot", "health"]' in lines
    copied = {word for line in lines if line.startswith("COPY ") for word in line.split()[1:]}
    assert {"pyproject.toml", "README.md", "LICENSE", "engine", "bot", "cogs"} <= copied


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((ROOT / "deploy" / name).read_text(encoding="utf-8"))
    return parser


@pytest.mark.parametrize("name", UNITS)
def test_a_unit_writes_only_its_state_directory_and_restarts_unless_told_to_fix(
    name: str,
) -> None:
    service = unit(name)["Service"]
    assert service["ProtectSystem"] == "strict"
    assert service["StateDirectory"] == "circus"
    assert service["ReadWritePaths"] == service["WorkingDirectory"] == "/var/lib/circus"
    assert service["Restart"] == "on-failure" and service["RestartPreventExitStatus"] == "2"


def test_the_web_unit_reads_settings_without_the_token() -> None:
    assert unit("circus-web.service")["Service"]["EnvironmentFile"] == "/etc/circus/web.env"
    assert unit("circus@.service")["Service"]["EnvironmentFile"] == "/etc/circus/circus.env"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd is not installed")
def test_systemd_reads_the_units_without_a_complaint(tmp_path: Path) -> None:
    """With ExecStart pointed at this interpreter (verify checks that it exists)."""
    for name in UNITS:
        text = (ROOT / "deploy" / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(
            text.replace("/opt/circus/.venv/bin/python", sys.executable), encoding="utf-8"
        )
    done = subprocess.run(
        ["systemd-analyze", "verify", "circus@0.service", "circus-web.service"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == "" and done.stdout == ""
