"""Cartographers' pictures for the Discord posts and the drawing panel, as PNG bytes: the
map a seat draws on with its candidate drawing outlined, the card in play, and every map with the
season's scores in one picture (spec §4: maps, coins and scores are public; a seat's
uncommitted drawing is drawn only in its own panel).

Module-level functions with picklable arguments, so the bot's picture worker process can
draw them (:mod:`bot.images`); the drawing itself is :mod:`engine.cartographers.render`.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.cartographers import SeatView
from engine.cartographers.messages import text
from engine.cartographers.placement import Drawing, Placement
from engine.cartographers.render import card_picture, map_picture, season_picture
from engine.drawing import Picture
from engine.lettering import isolated


def panel_picture(
    view: SeatView,
    names: Mapping[str, str],
    placement: Placement | None,
    cells: tuple[int, ...],
    legal: bool,
    lang: str = "en",
) -> Picture:
    """The map the viewing seat draws on (a neighbour's in an ambush) under its owner's
    name, with the candidate drawing outlined (crossed out when not legal). The card and
    the edicts are in the panel's text and the turn's post, so the picture stays small:
    it is drawn again after every change in the panel."""
    assert view.target is not None
    owner = view.player(view.target)
    candidate = Drawing(placement, cells) if placement is not None and cells else None
    title = text(
        "picture.map_of",
        {
            "name": isolated(names.get(view.target, "").strip() or view.target),
            "stars": owner.stars,
        },
        lang,
    )
    return map_picture(
        owner.sheet,
        coins=owner.coins,
        title=title,
        candidate=candidate,
        candidate_legal=legal,
        lang=lang,
    )


def panel_png(
    view: SeatView,
    names: Mapping[str, str],
    placement: Placement | None,
    cells: tuple[int, ...],
    legal: bool,
    lang: str = "en",
) -> bytes:
    """:func:`panel_picture` as PNG bytes."""
    return panel_picture(view, names, placement, cells, legal, lang).png


def card_png(card_id: str, ruins: bool, lang: str = "en") -> bytes:
    """The card in play alone: its shapes (coins marked) and terrains."""
    return card_picture(card_id, ruins=ruins, lang=lang).png


def season_png(view: SeatView, names: Mapping[str, str], lang: str = "en") -> bytes:
    """Every player's map and the last season's scores, readable on a phone up to 12."""
    return season_picture(view, names=names, lang=lang).png


__all__ = ["card_png", "panel_picture", "panel_png", "season_png"]
