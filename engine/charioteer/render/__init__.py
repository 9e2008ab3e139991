"""Charioteer as players read and see it (spec §2–§9): the public board, a seat's hand and
move preview, and the story of a turn as text for Discord, and the board as a PNG image.

Every function is pure: it reads a :class:`~engine.charioteer.view.SeatView` (and a turn's
events), never the race state, and takes a ``locale`` for the message catalogue
``engine/charioteer/locales/<locale>.json``. Public renders read only public information,
so a seat's private view renders exactly as a spectator's.

=============  =====================================================================
module         owns
=============  =====================================================================
``common``     the catalogue, chariot colours and marks, names, cards and tokens
``board``      :func:`board_text`: the oval and the table of chariots
``panel``      :func:`hand_text`, :func:`preview_text`: a seat's private panel
``story``      :func:`reveal_text`, :func:`reveal_summary`: what happened in a turn
``image``      :func:`board_png`: the board as a picture laid out for a phone
``show``       the ``show`` command: render a position file
=============  =====================================================================
"""

from engine.charioteer.render.board import board_text
from engine.charioteer.render.common import CHARIOT_RGB, SEAT_COLOURS, card_text, token_text
from engine.charioteer.render.image import board_png
from engine.charioteer.render.panel import hand_text, move_distance, preview_text, rule_text
from engine.charioteer.render.story import reveal_summary, reveal_text

__all__ = [
    "CHARIOT_RGB",
    "SEAT_COLOURS",
    "board_png",
    "board_text",
    "card_text",
    "hand_text",
    "move_distance",
    "preview_text",
    "reveal_summary",
    "reveal_text",
    "rule_text",
    "token_text",
]
