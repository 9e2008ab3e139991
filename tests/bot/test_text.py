"""Every message id the bot uses exists in the English catalogue, with the placeholders
the code fills; text members type is cleaned to one plain line."""

import re
from pathlib import Path

from bot.text import catalogue, plain, t

ROOT = Path(__file__).resolve().parents[2]
USE = re.compile(
    r"""\bt\(\s*[^,()]+,\s*"([a-z_.0-9]+)"|ServiceError\(\s*"([a-z_.0-9]+)"|DraftError\(\s*"([a-z_.0-9]+)\""""
)


def used_keys() -> set[str]:
    keys = set()
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            for match in USE.finditer(path.read_text(encoding="utf-8")):
                keys.update(group for group in match.groups() if group)
    return keys


def test_every_message_used_exists_in_english() -> None:
    english = catalogue().ids("en")
    missing = sorted(key for key in used_keys() if key not in english)
    assert missing == []
    assert len(used_keys()) > 50


def test_keys_built_at_run_time_exist_too() -> None:
    english = catalogue().ids("en")
    for level in ("random", "greedy", "strategic"):
        assert {f"ai.{level}", f"ai.{level}.about"} <= english
    from bot.service import TURN_LIMITS

    assert {f"limit.{name}" for name in TURN_LIMITS} <= english
    assert {"timeout.ai", "timeout.reset"} <= english


def test_messages_fill_their_placeholders() -> None:
    assert t("en", "error.bad_seats", low=2, high=6) == "A race has 2 to 6 seats."
    assert t("es-ES", "error.race_over") == "Esta carrera ha terminado."
    assert t("pt-BR", "error.race_over") == t("en", "error.race_over")


def test_typed_text_is_cleaned_to_one_plain_line() -> None:
    assert plain("  Cup\x00 of\n\n the\tbrave\udc80\x1b[31m ") == "Cup of the brave[31m"
    assert plain("Ünïcode ★ 🏆 names") == "Ünïcode ★ 🏆 names"
    assert plain("a" * 40 + " b", 40) == "a" * 40
    assert plain("ab  " + "c" * 10, 4) == "ab c"
    assert plain("abc " + "d" * 10, 4) == "abc"
    assert plain("\x00\ud800") == ""
