"""``python -m bot``: without a token it says what to set and exits 2."""

import os
import subprocess
import sys
from pathlib import Path

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
