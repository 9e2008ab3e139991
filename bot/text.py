"""The host's message catalogue (``bot/locales/*.json``): every sentence the bot writes,
in the player's language, English first. See :mod:`engine.i18n`."""

from __future__ import annotations

import functools
from typing import Any

from engine.i18n import Catalogue


@functools.cache
def catalogue() -> Catalogue:
    return Catalogue.from_package("bot")


def t(locale: str | None, key: str, /, **params: Any) -> str:
    """The message ``key`` in ``locale`` (falling back to English)."""
    return catalogue().text(locale, key, **params)
