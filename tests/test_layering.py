"""The layers know only the layer below: the engine and the host never import discord,
the engine imports neither asyncio, a database nor a clock, and the host's core imports no
game (each game plugs in through its adapter in ``bot/games/<game>/``). On Discord, a
game's front (``cogs/games/<game>/``) imports no other game's front, adapter or engine,
the shared front and the rest of ``cogs/`` import no game at all, and the client
(``cogs/app.py``) does not even name one: it builds the fronts the registry names."""

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


# --------------------------------------------------------------------------- the Discord layer

COGS = ROOT / "cogs"
FRONTS = COGS / "games"
"""Each game's Discord front, one package per game."""


def game_named(module: str) -> str | None:
    """The shipped game a module belongs to (its front, host adapter or engine), if any."""
    for game in GAMES:
        for package in (f"cogs.games.{game}", f"bot.games.{game}", f"engine.{game}"):
            if module == package or module.startswith(f"{package}."):
                return game
    return None


def games_imported(path: Path) -> set[str]:
    """The games whose front, adapter or engine a module imports (``cogs.games`` itself,
    the registry and the host's base are no game's)."""
    return {game for module in imported_modules(path) if (game := game_named(module))}


def front_of(path: Path) -> str:
    return path.relative_to(FRONTS).parts[0]


GAME_FRONT_FILES = sorted(p for p in FRONTS.rglob("*.py") if p.parent != FRONTS)
SHARED_FILES = sorted(p for p in COGS.rglob("*.py") if FRONTS not in p.parents)
"""The shared front (``cogs/front/``) and every other module of the Discord layer."""


def test_every_game_has_a_front_of_its_own() -> None:
    assert {front_of(path) for path in GAME_FRONT_FILES} == set(GAMES)


@pytest.mark.parametrize("path", GAME_FRONT_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_games_front_imports_no_other_game(path: Path) -> None:
    assert games_imported(path) <= {front_of(path)}


@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_shared_front_imports_no_game(path: Path) -> None:
    assert games_imported(path) == set()
    assert not any(module.startswith("cogs.games.") for module in imported_modules(path))


def test_the_client_names_no_game() -> None:
    source = (COGS / "app.py").read_text(encoding="utf-8").lower()
    assert [game for game in GAMES if game in source] == []


def test_the_front_checks_see_a_game_imported(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from cogs.games.cartographers.posts import lang\nimport engine.carcassonne.render\n"
        "from bot.games import host_for\nfrom bot.games.base import BOARD\n",
        encoding="utf-8",
    )
    assert games_imported(sample) == {"cartographers", "carcassonne"}
