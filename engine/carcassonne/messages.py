"""Every word Carcassonne: Star Wars's engine shows a player, by message id and locale
(``engine/carcassonne/locales/<locale>.json``, see :mod:`engine.i18n`): the names of
features, sides, factions and colours, a tile and its features in words, the text
summary, the picture's caption and the rule errors' reasons (an engine error carries its
English reason and its message id; :func:`reason` gives it in another language).
"""

from __future__ import annotations

import functools
from typing import Any

from engine.carcassonne.components import Faction, Kind, Side, tile_type
from engine.core import EngineError
from engine.i18n import Catalogue


@functools.cache
def catalogue() -> Catalogue:
    """The Carcassonne message catalogue (every locale file present)."""
    return Catalogue.from_package("engine.carcassonne")


def say(locale: str | None, key: str, /, **params: Any) -> str:
    """The message ``key`` in ``locale`` with its placeholders filled."""
    return catalogue().text(locale, key, **params)


def kind_name(kind: Kind, locale: str | None = "en", form: str | None = None) -> str:
    """A feature's kind in words: "trade route"; with ``form`` "the" or "on" as a sentence
    needs it, article and preposition agreeing: "la ruta comercial", "sulla rotta
    commerciale"."""
    return say(locale, f"kind.{kind.value}" if form is None else f"kind.{kind.value}.{form}")


def count_text(key: str, count: int, locale: str | None = "en") -> str:
    """A number of things with its noun: ``count_text("tiles", 1)`` is "1 tile"."""
    return say(locale, f"count.{key}", count=count)


def side_name(side: Side, locale: str | None = "en") -> str:
    return say(locale, f"side.{side.name.lower()}")


def faction_name(faction: Faction, locale: str | None = "en") -> str:
    return say(locale, f"faction.{faction.value}")


def faction_mark(faction: Faction, locale: str | None = "en") -> str:
    """The one letter a planet or symbol of the faction shows on the map."""
    return say(locale, f"faction.{faction.value}.mark")


def colour_name(seat: str, locale: str | None = "en") -> str:
    """A seat (its colour) in words; an unknown seat is shown as it is."""
    key = f"colour.{seat}"
    return say(locale, key) if key in catalogue().ids() else seat


def square_text(square: tuple[int, int]) -> str:
    return f"({square[0]}, {square[1]})"


def feature_text(
    tile: str,
    index: int | None,
    rotation: int,
    locale: str | None = "en",
    form: str | None = None,
) -> str:
    """A feature of a placed tile in words: "trade route (north–south)", "planet (Rebel
    Alliance)"; ``form`` as in :func:`kind_name` ("the trade route (north–south)")."""
    kind = tile_type(tile)
    if index is None:
        planet = kind_name(Kind.PLANET, locale, form)
        if kind.planet is None:
            return planet
        return say(locale, "feature.planet", kind=planet, faction=faction_name(kind.planet, locale))
    spec = kind.features[index]
    sides = say(locale, "feature.side_joiner").join(
        side_name(side, locale) for side in sorted(kind.feature_sides(index, rotation))
    )
    if spec.symbol is None:
        return say(locale, "feature.plain", kind=kind_name(spec.kind, locale, form), sides=sides)
    return say(
        locale,
        "feature.symbol",
        kind=kind_name(spec.kind, locale, form),
        sides=sides,
        faction=faction_name(spec.symbol, locale),
    )


def tile_text(tile: str, rotation: int = 0, locale: str | None = "en") -> str:
    """The tile's features in words, turned ``rotation`` quarter turns."""
    kind = tile_type(tile)
    parts = [feature_text(tile, index, rotation, locale) for index in range(len(kind.features))]
    if kind.planet is not None:
        parts.append(feature_text(tile, None, rotation, locale))
    if not parts:
        return say(locale, "tile.space_only", tile=tile)
    return say(locale, "tile.features", tile=tile, features="; ".join(parts))


def reason(error: EngineError, locale: str | None = "en") -> str:
    """A rule error's reason in ``locale`` (the English one when it has no message id)."""
    if error.message is None or error.message not in catalogue().ids():
        return error.reason
    params: dict[str, Any] = dict(error.params)
    if isinstance(params.get("size"), str):
        params["size"] = say(locale, f"size.{params['size']}")
    if isinstance(params.get("seat"), str):
        params["seat"] = colour_name(params["seat"], locale)
    return say(locale, error.message, **params)
