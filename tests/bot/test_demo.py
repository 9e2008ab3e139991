"""``python -m bot demo``: a few AI games of each game, published as a server's page of
their own and served at once, the address printed; the same seed plays the same games."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from bot.demo import DEMO_GUILD_ID, prepare
from bot.games import GAMES
from bot.text import t
from tests.databases import rows

ROOT = Path(__file__).resolve().parents[2]
ADDRESS = r"Open (http://127\.0\.0\.1:\d+/s/([A-Za-z0-9_-]{22})) \(Ctrl-C stops\)"


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.status, answer.read().decode("utf-8")


def start_demo(
    *args: str, cwd: Path, tmpdir: Path | None = None
) -> tuple[subprocess.Popen[str], list[str]]:
    """The demo in a process of its own, once it prints where its page is."""
    environment = {key: value for key, value in os.environ.items() if key != "DISCORD_TOKEN"}
    environment |= {"PYTHONPATH": str(ROOT), "DATABASE_URL": "", "DATABASE_PATH": ""}
    if tmpdir is not None:
        environment["TMPDIR"] = str(tmpdir)
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "demo", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=environment,
    )
    assert process.stdout is not None
    said = []
    for line in process.stdout:
        said.append(line.rstrip("\n"))
        if line.startswith("Open "):
            return process, said
    process.wait(60)
    raise AssertionError(
        f"the demo stopped: {said} {process.stderr.read() if process.stderr else ''}"
    )


def stop(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGTERM)
    _, errors = process.communicate(timeout=60)
    assert process.returncode == 0, errors
    return errors


def test_the_demo_serves_a_page_with_every_game_and_their_replays(tmp_path: Path) -> None:
    database = tmp_path / "demo.db"
    process, said = start_demo("--database", str(database), cwd=tmp_path)
    try:
        summary, address = said[-2:]
        assert summary.startswith("circus demo: 6 finished and 3 running games (")
        assert "seed 1" in summary and str(database) in summary
        url = re.fullmatch(ADDRESS, address)
        assert url is not None
        status, page = get(url[1])
        assert status == 200
        for game in GAMES:
            assert page.count(f"{t('en', f'game.{game}')} #") == 3, game
        finished = re.findall(r'href="(/s/[^"]+/g/\d+)"', page.split("Finished games", 1)[1])
        assert len(finished) == 6
        root = url[1].split("/s/", 1)[0]
        status, replay = get(f"{root}{finished[0]}/replay")
        assert status == 200 and "<img" in replay
        assert get(f"{root}/healthz") == (200, "ok\n")
    finally:
        errors = stop(process)
    assert "Traceback" not in errors
    kept = rows(
        str(database), "SELECT COUNT(*) FROM game_tables WHERE guild_id = ?", (DEMO_GUILD_ID,)
    )
    assert kept == [(9,)]

    again, said = start_demo("--database", str(database), cwd=tmp_path)
    try:
        assert said[-2].startswith("circus demo: 6 finished and 3 running games (")
        served_again = re.fullmatch(ADDRESS, said[-1])
        assert served_again is not None and served_again[2] == url[2]
    finally:
        stop(again)
    assert rows(str(database), "SELECT COUNT(*) FROM game_tables") == [(9,)]


def test_without_a_database_the_demo_leaves_nothing_behind(tmp_path: Path) -> None:
    """Its temporary folder (in ``TMPDIR``) is gone once it stops."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    process, said = start_demo("--seed", "5", cwd=tmp_path, tmpdir=folder)
    assert [path.name[:12] for path in folder.iterdir()] == ["circus-demo-"]
    stop(process)
    assert "a temporary file" in said[-2] and "seed 5" in said[-2]
    assert list(folder.iterdir()) == []
    assert [path.name for path in tmp_path.iterdir()] == ["tmp"]


GAME_ROWS = "SELECT id, game, status, seq, turn, state FROM game_tables ORDER BY id"
ACTION_ROWS = "SELECT table_id, seq, seat, kind, data, chance FROM actions ORDER BY table_id, seq"


async def test_the_same_seed_plays_the_same_demo(tmp_path: Path) -> None:
    first, second, other = (str(tmp_path / name) for name in ("a.db", "b.db", "c.db"))
    for database, seed in ((first, 7), (second, 7), (other, 8)):
        demo = await prepare(database, seed, "es")
        assert demo.page.locale == "es" and demo.count("finished") == 6
    assert rows(first, GAME_ROWS) == rows(second, GAME_ROWS)
    assert rows(first, ACTION_ROWS) == rows(second, ACTION_ROWS)
    assert rows(first, ACTION_ROWS) != rows(other, ACTION_ROWS)
    [(posts,)] = rows(first, "SELECT COUNT(*) FROM outbox")
    unsent = "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL"
    assert posts > 0 and rows(first, unsent) == [(0,)]


@pytest.mark.parametrize("port", ["-1", "eighty"])
def test_a_wrong_port_is_one_line(tmp_path: Path, port: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--port", port],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("circus: ") and "--port" in line
