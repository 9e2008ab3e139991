"""The host's message catalogue (``bot/locales/*.json``): every sentence the bot writes,
in the player's language, English first (see :mod:`engine.i18n`); and :func:`plain`, the
one cleaning of text members type or choose (a tournament's name, display names, typed
options) before the host stores or shows it."""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

from engine.i18n import Catalogue

UNPRINTABLE = frozenset({"Cc", "Cs"})
"""Unicode categories :func:`plain` drops: control characters and lone surrogates."""


@functools.cache
def catalogue() -> Catalogue:
    return Catalogue.from_package("bot")


def t(locale: str | None, key: str, /, **params: Any) -> str:
    """The message ``key`` in ``locale`` (falling back to English)."""
    return catalogue().text(locale, key, **params)


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
