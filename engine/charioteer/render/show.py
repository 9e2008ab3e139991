"""Rendering a position file (the ``show`` command of ``python -m engine.charioteer``), so
anyone can look at a puzzle or a bug report: the public board, optionally a seat's hand,
optionally the board image."""

from __future__ import annotations

from collections.abc import Mapping

from engine.charioteer.race import Race
from engine.charioteer.render.board import board_text
from engine.charioteer.render.common import SEAT_COLOURS
from engine.charioteer.render.image import board_png
from engine.charioteer.render.panel import hand_text
from engine.core import JSON, MalformedPosition


def show_position(
    document: JSON, *, seat: str | None = None, png: bool = False, locale: str = "en"
) -> tuple[str, bytes | None]:
    """The board text of a position (plus ``seat``'s hand) and, if asked, the board PNG.
    A ``"moves"`` object (a ``resolve`` file) is ignored.

    Raises:
        MalformedPosition: the position cannot be read, names seats the board has no
            colour for, or ``seat`` is not in it.
    """
    if not isinstance(document, Mapping):
        raise MalformedPosition("the file must hold a position object")
    position = {key: value for key, value in document.items() if key != "moves"}
    race = Race.from_position(position)
    unpainted = [name for name in race.seats if name not in SEAT_COLOURS]
    if unpainted:
        raise MalformedPosition(
            f"the board paints seats {', '.join(SEAT_COLOURS)} only, not {', '.join(unpainted)}"
            " (positions with other seat names can be resolved, not drawn)"
        )
    public = race.view(None)
    text = board_text(public, locale=locale)
    if seat is not None:
        if seat not in race.seats:
            raise MalformedPosition(f"there is no seat {seat} in this race", seat=seat)
        text += "\n\n" + hand_text(race.view(seat), locale=locale)
    image = board_png(public, locale=locale) if png else None
    return text, image
