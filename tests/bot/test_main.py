"""``python -m bot``: without a token it says what to set and exits 2."""

import logging
import os
import shlex
import subprocess
import sys
from pathlib import Path

import discord
import pytest

import bot
from bot.__main__ import configure_logging, main
from bot.config import Settings
from cogs.app import run

ROOT = Path(__file__).resolve().parents[2]


def run_bot(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "DISCORD_TOKEN"}
    environment["PYTHONPATH"] = str(ROOT)
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        timeout=60,
        check=False,
    )


def test_without_a_token_the_bot_says_what_to_set(tmp_path: Path) -> None:
    done = run_bot(cwd=tmp_path)
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and ".env" in done.stderr
    assert "python -m bot local" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_bad_setting_is_named(tmp_path: Path) -> None:
    done = run_bot(cwd=tmp_path, env={"DISCORD_TOKEN": "x", "LOG_LEVEL": "LOUD"})
    assert done.returncode == 2
    assert "LOG_LEVEL" in done.stderr


def test_the_token_may_come_from_a_dotenv_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("LOG_LEVEL=NOISY\n", encoding="utf-8")
    done = run_bot(cwd=tmp_path)
    assert done.returncode == 2
    assert "LOG_LEVEL" in done.stderr


def test_without_a_network_the_bot_tries_again_then_says_so_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Nothing listens on port 1 of the loopback: the login cannot connect, as with no
    network at all. A network may come back: the start is tried again, then the bot
    exits 75 (not 2, a setting to fix), which systemd and Docker restart."""
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:1/api/v10")
    settings = Settings("not-a-token", tmp_path / "circus.db", "INFO", None)
    with caplog.at_level(logging.WARNING, logger="bot.startup"):
        assert run(settings, pauses=(0.0, 0.0)) == 75
    err = capsys.readouterr().err
    assert "cannot reach Discord" in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
    retries = [r.getMessage() for r in caplog.records if r.name == "bot.startup"]
    assert len(retries) == 2 and all("cannot reach Discord" in line for line in retries)
    assert "try 1 of 3" in retries[0] and "try 2 of 3" in retries[1]


def test_a_database_that_does_not_answer_at_start_is_tried_again_then_75(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The database is opened before Discord is asked (here it could not be reached
    either): a PostgreSQL not up yet is tried again, then the bot exits 75."""
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:1/api/v10")
    url = "postgresql://circus:secret@127.0.0.1:1/circus"
    settings = Settings("not-a-token", tmp_path / "circus.db", "INFO", None, database_url=url)
    with caplog.at_level(logging.WARNING, logger="bot.startup"):
        assert run(settings, pauses=(0.0,)) == 75
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("circus: cannot reach the PostgreSQL database at 127.0.0.1:1/circus")
    assert "secret" not in line
    assert [r.name for r in caplog.records if "trying again" in r.getMessage()] == ["bot.startup"]


def test_voice_library_warnings_are_not_shown(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    configure_logging("INFO")
    with caplog.at_level(logging.INFO):
        discord.Client(intents=discord.Intents.none())
        logging.getLogger("discord.client").warning("something else went wrong")
    messages = [record.getMessage() for record in caplog.records]
    assert not any("voice" in message for message in messages)
    assert "something else went wrong" in messages


def test_a_database_url_that_is_not_postgresql_is_named(tmp_path: Path) -> None:
    done = run_bot(cwd=tmp_path, env={"DISCORD_TOKEN": "x", "DATABASE_URL": "mysql://db/circus"})
    assert done.returncode == 2
    assert "DATABASE_URL" in done.stderr


@pytest.mark.parametrize(
    "path", ["postgresql://circus@db.example:5432/circus", "sqlite:///circus.db"]
)
def test_a_url_in_database_path_is_refused_naming_database_url(tmp_path: Path, path: str) -> None:
    """Not a SQLite file named after the URL: one line says to set DATABASE_URL."""
    done = run_bot(cwd=tmp_path, env={"DISCORD_TOKEN": "x", "DATABASE_PATH": path})
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("circus: DATABASE_PATH") and "DATABASE_URL" in line
    assert list(tmp_path.iterdir()) == []


def test_a_database_url_replaces_the_sqlite_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://circus@db.example:5432/circus")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "unused.db"))
    settings = Settings.load(env_file=None)
    assert settings.database == "postgresql://circus@db.example:5432/circus"
    monkeypatch.delenv("DATABASE_URL")
    assert Settings.load(env_file=None).database == str(tmp_path / "unused.db")


def test_the_loop_watch_is_on_by_default_and_can_be_turned_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("LOOP_WATCH_MS", raising=False)
    assert Settings.load(env_file=None).loop_watch_ms == 500
    monkeypatch.setenv("LOOP_WATCH_MS", "0")
    assert Settings.load(env_file=None).loop_watch_ms == 0
    monkeypatch.setenv("LOOP_WATCH_MS", "20")
    assert Settings.load(env_file=None).loop_watch_ms == 20


def test_a_loop_watch_that_is_not_a_number_is_named(tmp_path: Path) -> None:
    done = run_bot(cwd=tmp_path, env={"DISCORD_TOKEN": "x", "LOOP_WATCH_MS": "soon"})
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert "LOOP_WATCH_MS" in line


def test_without_a_token_the_local_game_is_named_as_a_command_that_works(
    tmp_path: Path,
) -> None:
    """The suggested command runs as printed, from where the bot was started, whether or
    not a virtual environment is active (no bare ``python``)."""
    done = run_bot(cwd=ROOT)
    suggested = done.stderr.split("To play without Discord: ", 1)[1].strip().rstrip(".")
    assert suggested.startswith("`") and suggested.endswith(" -m bot local`")
    words = shlex.split(suggested.strip("`"))
    assert words[0] != "python"
    environment = dict(os.environ, PYTHONPATH=str(ROOT), PATH="/nonexistent")
    tried = subprocess.run(
        [*words, "--seats", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment,
        timeout=60,
        check=False,
    )
    assert tried.returncode == 2
    assert tried.stderr.strip() == "python -m bot local: A race has 2 to 6 seats."


def test_help_lists_the_commands_and_every_setting_in_plain_text(tmp_path: Path) -> None:
    done = run_bot("--help", cwd=tmp_path)
    assert done.returncode == 0
    assert "``" not in done.stdout and "`" not in done.stdout
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    settings = [
        line.split("=", 1)[0] for line in example.splitlines() if "=" in line and line[0] != "#"
    ]
    assert len(settings) >= 9
    for name in settings:
        assert name in done.stdout, name
    assert "local" in done.stdout and "--game" in done.stdout
    listed = [
        line for line in done.stdout.splitlines() if line.split()[:1] in ([n] for n in settings)
    ]
    assert len(listed) == len(settings) and all(len(line) <= 80 for line in listed)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("LOOP_WATCH_MS", "²"),
        ("WEB_PORT", "8०80"),
        ("WEB_PORT", "9" * 5000),
        ("DEV_GUILD_ID", "12²"),
        ("SHARD_COUNT", "²"),
    ],
)
def test_a_number_setting_in_other_digits_or_endless_is_named_in_one_line(
    tmp_path: Path, name: str, value: str
) -> None:
    done = run_bot(cwd=tmp_path, env={"DISCORD_TOKEN": "x", name: value})
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert name in line and "Traceback" not in done.stderr


def test_the_version_is_the_package_s(tmp_path: Path) -> None:
    done = run_bot("--version", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout.strip() == f"circus {bot.__version__}"


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("run", "DISCORD_TOKEN"),
        ("local", "--seats"),
        ("web", "--database"),
        ("health", "HEALTHCHECK"),
        ("demo", "--seed"),
        ("help", "the command to explain"),
    ],
)
def test_every_command_has_its_help(
    command: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([command, "--help"])
    assert stopped.value.code == 0
    shown = capsys.readouterr().out
    assert says in shown and "usage:" in shown
    assert main(["help", command]) == 0
    assert capsys.readouterr().out == shown


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["dance"], "unknown command 'dance': the commands are run, local, web"),
        (["--loud"], "unrecognized arguments: --loud"),
        (["web", "--port", "1"], "unrecognized arguments: --port 1"),
        (["run", "now"], "unrecognized arguments: now"),
        (["help", "dance"], "invalid choice: 'dance'"),
    ],
)
def test_a_wrong_command_or_option_is_one_line_and_status_2(
    args: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    [line] = captured.err.strip().splitlines()
    assert line.startswith("circus: ") and named in line and line.endswith("--help)")
    assert captured.out == ""


@pytest.mark.parametrize("database", ["mysql://db/circus", "sqlite:///circus.db", " "])
def test_a_web_database_that_is_neither_a_file_nor_postgresql_is_refused(
    tmp_path: Path, database: str
) -> None:
    done = run_bot("web", "--database", database, cwd=tmp_path)
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("circus: --database takes a SQLite file or a postgresql:// URL")
    assert list(tmp_path.iterdir()) == []


def test_the_installed_command_is_named_in_its_own_help(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("circus")
    done = subprocess.run(
        [str(script), "--help"], capture_output=True, text=True, cwd=tmp_path, timeout=60
    )
    assert done.returncode == 0
    assert done.stdout.startswith("usage: circus ")
