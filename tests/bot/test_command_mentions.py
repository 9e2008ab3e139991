"""Sentences name slash commands as the reader sees them: Discord's clickable mention
(``</race new:ID>``, shown in each member's language) once the ids are known, else the
command's name in the reader's language; never the English name to a Spanish reader."""

from __future__ import annotations

import re

import pytest

from bot.text import COMMAND, catalogue, command_name, know_command_ids, t

LOCALES = ("en", "es", "it")
TYPED_COMMAND = re.compile(
    r"(?<![<\w])/(race|game|cartographers|carcassonne|leaderboard|profile|settings)\b"
)
NOT_ON_DISCORD = {"web.index"}
"""Sentences read on the web page, where a mention would show as raw text."""


def templates(locale: str) -> list[tuple[str, str]]:
    out = []
    for key in sorted(catalogue().ids(locale)):
        template = catalogue().template(locale, key)
        texts = [template] if isinstance(template, str) else list(template.values())
        out += [(key, text) for text in texts]
    return out


@pytest.mark.parametrize("locale", LOCALES)
def test_every_command_a_sentence_names_is_a_mention(locale: str) -> None:
    typed = [
        key
        for key, text in templates(locale)
        if key not in NOT_ON_DISCORD and TYPED_COMMAND.search(text)
    ]
    assert typed == [], "commands written as text, not as </command> mentions"
    named = {path for _, text in templates(locale) for path in COMMAND.findall(text)}
    assert {"race new", "game rules", "game log", "tournament join"} <= named
    for path in named:
        assert command_name(locale, path) is not None, path


def test_without_ids_a_command_is_named_in_the_readers_language() -> None:
    assert "/race new." in t("en", "error.no_race_here")
    assert "/carrera nueva." in t("es", "error.no_race_here")
    assert "/corsa nuova." in t("it", "error.no_race_here")
    assert "/partida registro" in t("es", "carc.podium.more", count=2)
    assert "</" not in t("it", "game.no_table_here")


@pytest.mark.parametrize("locale", LOCALES)
def test_with_ids_known_a_command_is_a_clickable_mention(locale: str) -> None:
    know_command_ids({"race": 101, "cartographers": 102, "carcassonne": 103, "game": 104})
    text = t(locale, "game.no_table_here")
    assert "</race new:101>" in text and "</cartographers new:102>" in text
    assert "</carcassonne new:103>" in text
    assert "</game rules:104>" in t(locale, "help.game.cartographers")


def test_a_name_typed_by_a_member_is_not_made_a_command() -> None:
    know_command_ids({"race": 101})
    assert "</nothing here>" in t("en", "board.waiting", people="</nothing here>")
