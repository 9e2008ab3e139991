"""The package people install: one version (``bot.__version__``) in its metadata and at the
top of the changelog, its licence beside the fonts' own, and the ``circus`` command."""

import importlib
import importlib.metadata
import re
import tomllib
from pathlib import Path

import bot

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_is_written_once_and_installed_as_written() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "bot.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", bot.__version__)
    assert importlib.metadata.version("circus") == bot.__version__


def test_the_changelog_starts_with_this_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## (\d+\.\d+\.\d+)\b", changelog, flags=re.MULTILINE)
    assert versions and versions[0] == bot.__version__


def test_the_licence_is_the_project_s_and_the_fonts_keep_theirs() -> None:
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "engine/fonts" in licence
    metadata = importlib.metadata.metadata("circus")
    assert metadata["License-Expression"] == PYPROJECT["project"]["license"] == "MIT"
    files = set(metadata.get_all("License-File") or [])
    fonts = {f"engine/fonts/{p.name}" for p in (ROOT / "engine" / "fonts").glob("LICENSE-*")}
    assert fonts and {"LICENSE", *fonts} <= files


def test_the_circus_command_is_the_bot_s_entry_point() -> None:
    target = PYPROJECT["project"]["scripts"]["circus"]
    module, function = target.split(":")
    assert callable(getattr(importlib.import_module(module), function))
    [script] = [
        entry
        for entry in importlib.metadata.entry_points(group="console_scripts")
        if entry.name == "circus"
    ]
    assert script.value == target
