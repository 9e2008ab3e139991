"""The host's message catalogue (``bot/locales/*.json``): every sentence the bot writes,
in the player's language, English first (see :mod:`engine.i18n`); and :func:`plain`, the
one cleaning of text members type or choose (a tournament's name, display names, typed
options) before the host stores or shows it.

A sentence names a slash command as ``</race new>`` (its English path, in every
language): :func:`t` writes it as Discord's clickable mention ``</race new:ID>``, which
each member's client shows in their own language, once the command's id is known (after
the commands are synced: :func:`know_command_ids`), else as the command's name in the
reader's language ("/carrera nueva")."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from engine.i18n import Catalogue

COMMAND = re.compile(r"</([a-z]+(?: [a-z]+){0,2})>")
"""A command named in a sentence: its English path between ``</`` and ``>``."""
COMMAND_IDS: dict[str, int] = {}
"""Each top-level slash command's id, by its English name, once known."""
UNPRINTABLE = frozenset({"Cc", "Cs"})
"""Unicode categories :func:`plain` drops: control characters and lone surrogates."""


@functools.cache
def catalogue() -> Catalogue:
    return Catalogue.from_package("bot")


def t(locale: str | None, key: str, /, **params: Any) -> str:
    """The message ``key`` in ``locale`` (falling back to English), the commands it
    names as mentions (:func:`command_mention`)."""
    text = catalogue().text(locale, key, **params)
    if "</" not in text:
        return text
    return COMMAND.sub(lambda match: command_mention(locale, match.group(1)), text)


def know_command_ids(ids: Mapping[str, int]) -> None:
    """Remember the slash commands' ids (top-level English name → id), as synced."""
    COMMAND_IDS.update(ids)


def command_name(locale: str | None, path: str) -> str | None:
    """``/race new`` in the reader's language ("/carrera nueva"), or None when ``path``
    is no command the catalogue names."""
    words = path.split()
    names = catalogue().ids()
    if f"cmd.{words[0]}" not in names:
        return None
    shown = []
    for word in words:
        key = next((key for key in (f"cmd.{words[0]}.{word}", f"cmd.{word}") if key in names), None)
        shown.append(word if key is None else str(catalogue().template(locale, key)))
    return "/" + " ".join(shown)


def command_mention(locale: str | None, path: str) -> str:
    """The command ``path`` ("race new") as a clickable mention, its name in the reader's
    language while its id is unknown; text that names no command is left as it is."""
    command_id = COMMAND_IDS.get(path.split()[0])
    if command_id is not None:
        return f"</{path}:{command_id}>"
    return command_name(locale, path) or f"</{path}>"


def plain(text: str, limit: int | None = None) -> str:
    """``text`` as one clean line, the same on every storage backend: line breaks, tabs
    and other spaces become one space, other control characters (NUL, escapes) and lone
    surrogates (no character at all) are dropped, and the line is cut to ``limit``
    characters."""
    kept = "".join(
        char for char in text if char.isspace() or unicodedata.category(char) not in UNPRINTABLE
    )
    line = " ".join(kept.split())
    return line if limit is None else line[:limit].rstrip()
