"""The layers know only the layer below: the engine and the host never import discord,
the engine imports neither asyncio, a database nor a clock, and the host's core imports no
game (each game plugs in through its adapter in ``bot/games/<game>/``)."""

import ast
from pathlib import Path

import pytest

from bot.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
ENGINE_FORBIDDEN = {
    "discord",
    "asyncio",
    "aiosqlite",
    "sqlite3",
    "time",
    "datetime",
    "random",
    "bot",
    "cogs",
}
HOST_FORBIDDEN = {"discord", "cogs"}
HOST_ENTRY_POINTS = {"__main__.py"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
    return modules


@pytest.mark.parametrize(
    "path", sorted((ROOT / "engine").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_the_engine_is_pure(path: Path) -> None:
    assert not imported_roots(path) & ENGINE_FORBIDDEN


@pytest.mark.parametrize(
    "path",
    sorted(p for p in (ROOT / "bot").rglob("*.py") if p.name not in HOST_ENTRY_POINTS),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_the_host_knows_nothing_of_discord(path: Path) -> None:
    assert not imported_roots(path) & HOST_FORBIDDEN


def test_the_layering_check_sees_imports() -> None:
    sample = ROOT / "cogs" / "app.py"
    assert "discord" in imported_roots(sample)


HOST_CORE = [*sorted((ROOT / "bot").glob("*.py")), ROOT / "bot" / "games" / "base.py"]
"""The host's core: every module of ``bot/`` but the per-game packages (the console front
end included: it finds a game's terminal part by the game's id)."""


GAME_ENGINES = tuple(f"engine.{game}" for game in GAMES)
GAME_ADAPTERS = tuple(f"bot.games.{game}" for game in GAMES)


def test_the_host_core_imports_no_game_and_no_discord() -> None:
    for path in HOST_CORE:
        for module in imported_modules(path):
            assert not module.startswith(GAME_ENGINES), f"{path.relative_to(ROOT)} imports {module}"
            assert not module.startswith(GAME_ADAPTERS), (
                f"{path.relative_to(ROOT)} imports {module}"
            )
            assert module.split(".")[0] != "discord", f"{path.relative_to(ROOT)} imports discord"
