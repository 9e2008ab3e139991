"""Every sentence Cartographers shows a player, as whole templates with named
placeholders, keyed by message id: errors, renderer labels, terminal prompts, and the
names of terrains, cards, seasons and titles. The templates live in
``engine/cartographers/locales/<locale>.json`` (English, Spanish, Italian; see
:mod:`engine.i18n`); an engine error's reason is always the English one.
Parameters stay raw (``terrain="farm"``, ``card="great_river"``) so an error can carry
them as JSON; when a message is rendered, parameters named in :data:`NAMED_PARAMS` are
replaced by their catalogue names (``card.great_river`` → "Great River").
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import TypeVar

from engine.core import JSON, EngineError
from engine.i18n import Catalogue

NAMED_PARAMS: dict[str, str] = {
    "terrain": "terrain",
    "card": "card",
    "season": "season",
    "season_end": "season_end",
    "title": "title",
    "first": "card",
    "second": "card",
}
"""Parameters whose value is an id to be shown by its catalogue name."""


@functools.cache
def catalogue() -> Catalogue:
    """The Cartographers message catalogue (every locale file present)."""
    return Catalogue.from_package("engine.cartographers")


def text(message: str, params: Mapping[str, object] | None = None, lang: str = "en") -> str:
    """Render a message with its parameters (ids named by :data:`NAMED_PARAMS` become
    names)."""
    values: dict[str, object] = {}
    for key, value in (params or {}).items():
        prefix = NAMED_PARAMS.get(key)
        values[key] = name(prefix, str(value), lang) if prefix is not None else value
    return catalogue().text(lang, message, **values)


def name(kind: str, ident: str, lang: str = "en") -> str:
    """The catalogue name of an id (``name("card", "great_river")``), or the id."""
    key = f"{kind}.{ident}"
    if key not in catalogue().ids():
        return ident
    return catalogue().text(lang, key)


def winners_text(winners: Iterable[str], lang: str = "en") -> str:
    """The winners of a game in one sentence: "Winner: Ana.", "Winners: Ana and Bea."."""
    names = list(winners)
    return text("text.winners", {"seats": catalogue().join(lang, names), "count": len(names)}, lang)


def seasons_text(seasons: Iterable[str], lang: str = "en") -> str:
    """Seasons named within a sentence: "spring and winter", "primavera e invierno"."""
    return catalogue().join(lang, (name("season_lower", season, lang) for season in seasons))


E = TypeVar("E", bound=EngineError)


def refuse(kind: type[E], message: str, *, seat: str | None = None, **params: JSON) -> E:
    """An engine error of ``kind`` whose reason is the English rendering of ``message``."""
    return kind(text(message, params), seat=seat, message=message, params=params)
