"""A solo game in a terminal: placements read line by line, the table written as text.

``play(lines, out, seed=4, side="A")`` drives one solo game (auto-ambush, seat "1")
from any iterable of lines, so the bot's console front end and the tests can run it as
well as ``python -m engine.cartographers play``. A placement is typed as terrain, shape
number (from 1, or ``1x1`` for the fallback square), rotation, optional ``flip`` and the
anchor cell — the top-left corner of the placed shape's bounding box: ``farm 2 r90 flip
C4``. Other commands: ``legal [terrain shape]``, ``map``, ``rules``, ``help``, ``quit``
(which asks first). ``play(..., lang="es")`` speaks Spanish and also reads the Spanish
words for terrains, ``flip`` and the commands (``granja 2 r90 voltear C4``, ``ayuda``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TextIO

from engine.cartographers.components import DRAWABLE, EDICTS, SEASONS, CardKind, Terrain, card
from engine.cartographers.events import (
    AmbushIgnored,
    CardRevealed,
    CoinsGained,
    MonsterPlaced,
    SeasonScored,
    ShapeDrawn,
)
from engine.cartographers.geometry import ROTATIONS, label, parse_label
from engine.cartographers.messages import catalogue, name, seasons_text, text
from engine.cartographers.placement import Drawing, legal_drawings
from engine.cartographers.table import Expedition
from engine.cartographers.text import render_scores, render_table
from engine.cartographers.view import SeatView
from engine.core import JSON, EngineError, Event

SEAT = "1"
EXAMPLES = 3
EXIT_DONE = 0
EXIT_ABANDONED = 1
COMMANDS = ("legal", "map", "rules", "help", "quit")
YES = frozenset({"y", "yes", "s", "si", "sí"})
"""Answers that confirm quitting (English, Spanish and Italian)."""


class UnreadableCommand(ValueError):
    """A typed line that is not a placement; ``message`` and ``params`` say which word."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.params = params

    def text(self, lang: str = "en") -> str:
        return text(self.message, self.params, lang)


def terrain_words(lang: str = "en") -> dict[str, Terrain]:
    """The words a drawable terrain is typed as: its id, and its name in ``lang``
    (``granja`` as well as ``farm`` in Spanish)."""
    words = {terrain.value: terrain for terrain in DRAWABLE}
    for terrain in DRAWABLE:
        words.setdefault(name("terrain", terrain.value, lang).lower(), terrain)
    return words


def terrain_word(terrain: Terrain, lang: str) -> str:
    """The word a terrain is typed as in ``lang`` (its name there, if that is one word)."""
    shown = name("terrain", terrain.value, lang).lower()
    return (
        shown if terrain_words(lang).get(shown) is terrain and " " not in shown else terrain.value
    )


def read_command(line: str, lang: str = "en") -> dict[str, JSON]:
    """A placement's JSON from ``farm 2 r90 flip C4`` (any order after the terrain; the
    shape number counts from 1; ``1x1`` asks for the fallback square; the terrain and
    ``flip`` may be said in ``lang`` too). Raises :class:`UnreadableCommand` naming the
    word that is wrong or said twice."""
    words = line.lower().replace(",", " ").split()
    if not words:
        raise UnreadableCommand("play.empty")
    terrain = terrain_words(lang).get(words[0])
    if terrain is None:
        names = ", ".join(terrain_word(t, lang) for t in DRAWABLE)
        raise UnreadableCommand("play.bad_terrain", word=words[0], names=names)
    placement: dict[str, JSON] = {"terrain": terrain.value}

    def put(key: str, value: JSON, word: str) -> None:
        if key in placement:
            what = text(f"play.part.{key}", lang=lang)
            raise UnreadableCommand("play.twice", word=word, what=what)
        placement[key] = value

    for word in words[1:]:
        if word in ("1x1", "single"):
            put("fallback", True, word)
        elif word in ("flip", text("play.word.flip", lang=lang)):
            put("flip", True, word)
        elif word.startswith("r") and word[1:].isascii() and word[1:].isdigit():
            if int(word[1:]) not in ROTATIONS:
                raise UnreadableCommand("play.bad_rotation", word=word)
            put("rotation", int(word[1:]), word)
        elif word.isascii() and word.isdigit() and int(word) >= 1:
            put("shape", int(word) - 1, word)
        elif (cell := parse_label(word)) is not None:
            put("at", label(cell), word)
        else:
            raise UnreadableCommand("play.bad_word", word=word)
    if "at" not in placement:
        raise UnreadableCommand("play.no_cell")
    if placement.get("fallback"):
        extra = sorted(set(placement) - {"terrain", "fallback", "at"})
        if extra:
            what = text(f"play.part.{extra[0]}", lang=lang)
            raise UnreadableCommand("play.fallback_extra", what=what)
        return placement
    placement.setdefault("shape", 0)
    return placement


def typed(drawing: Drawing, lang: str) -> str:
    """A drawing as it would be typed in ``lang`` (``granja 2 r90 C4``)."""
    words = str(drawing.placement).split()
    flip = text("play.word.flip", lang=lang)
    shown = [flip if word == "flip" else word for word in words[1:]]
    return " ".join([terrain_word(Terrain(words[0]), lang), *shown])


def legal_choices(view: SeatView) -> list[tuple[Terrain, int | None, list[Drawing]]]:
    """Every terrain and shape of the card in play with the viewing seat's legal drawings
    on the map it draws on (then the fallback, when no shape fits)."""
    offer = view.offer
    if offer is None or view.target is None:
        return []
    sheet = view.player(view.target).sheet
    found: list[tuple[Terrain, int | None, list[Drawing]]] = [
        (terrain, shape, legal_drawings(sheet, offer, terrain, shape))
        for terrain in offer.terrains
        for shape in range(len(offer.shapes))
    ]
    if not any(drawings for _, _, drawings in found):
        found = [
            (terrain, None, legal_drawings(sheet, offer, terrain, None))
            for terrain in offer.fallback_terrains
        ]
    return found


def legal_lines(view: SeatView, words: list[str], lang: str) -> list[str]:
    """What ``legal [terrain [shape]]`` answers: for each terrain and shape of the card
    (those named in ``words``), how many drawings are legal and a few of them as typed."""
    lines = []
    for terrain, shape, drawings in legal_choices(view):
        if words and terrain_words(lang).get(words[0]) is not terrain:
            continue
        if shape is None:
            if drawings:
                lines.append(
                    text("play.fallback_hint", {"example": typed(drawings[0], lang)}, lang)
                )
                break
            continue
        if len(words) > 1 and words[1] != str(shape + 1):
            continue
        params: dict[str, object] = {"terrain": terrain.value, "number": shape + 1}
        if drawings:
            params["count"] = len(drawings)
            params["examples"] = "; ".join(typed(d, lang) for d in drawings[:EXAMPLES])
            lines.append(text("play.legal_count", params, lang))
        else:
            lines.append(text("play.legal_none", params, lang))
    return lines


def narrate(
    events: Iterable[Event], seat: str, lang: str, typed_as: str | None = None
) -> list[str]:
    """What happened on ``seat``'s map, in words: its drawing echoed as it was typed
    (``typed_as``, else in the terminal form of ``lang``), coins, ambushes, ruins, and
    each season's score line by line. Other maps' events are left to the caller."""
    lines = []
    for event in events:
        if isinstance(event, ShapeDrawn) and event.map == seat:
            shown = typed_as if typed_as is not None else typed(event.drawing, lang)
            cells = ", ".join(label(cell) for cell in event.drawing.cells)
            lines.append(text("play.drawn", {"placement": shown, "cells": cells}, lang))
        elif isinstance(event, CoinsGained) and event.map == seat:
            count = event.shape + len(event.mountains)
            lines.append(
                text("play.coin", lang=lang)
                if count == 1
                else text("play.coins", {"count": count}, lang)
            )
        elif isinstance(event, MonsterPlaced) and event.map == seat:
            lines.append(
                text("play.ambush", {"card": event.card, "cells": ", ".join(event.cells)}, lang)
            )
        elif isinstance(event, AmbushIgnored) and event.map == seat:
            lines.append(text("play.ambush_ignored", {"card": event.card}, lang))
        elif isinstance(event, CardRevealed) and card(event.card).kind is CardKind.RUINS:
            lines.append(text("play.ruins", lang=lang))
        elif isinstance(event, SeasonScored) and event.seat == seat:
            score = event.score
            lines.append(text("play.season_end", {"season_end": score.season}, lang))
            for edict, points in zip(event.edicts, score.edicts, strict=True):
                lines.append(text("play.season_edict", {"card": edict, "points": points}, lang))
            lines.append(text("play.season_coins", {"coins": score.coins}, lang))
            lines.append(text("play.season_monsters", {"monsters": -score.monsters}, lang))
            lines.append(
                text("play.season_total", {"total": score.total, "stars": event.stars}, lang)
            )
    return lines


def rules_lines(view: SeatView, lang: str = "en") -> list[str]:
    """The game in a few lines, then the four edicts in play: what each scoring card
    scores and in which seasons."""
    lines = [text("play.rules", lang=lang)]
    for letter, card_id in zip(EDICTS, view.edicts, strict=True):
        seasons = seasons_text((season.id for season in SEASONS if letter in season.edicts), lang)
        lines.append(
            text(
                "play.rules_edict",
                {
                    "letter": letter.value,
                    "card": card_id,
                    "rule": text(f"rule.{card_id}", lang=lang),
                    "seasons": seasons,
                },
                lang,
            )
        )
    return lines


def command_words(lang: str) -> dict[str, str]:
    """The words that name each terminal command: English, and the words of ``lang``."""
    words = {word: word for word in COMMANDS} | {"exit": "quit"}
    for command in COMMANDS:
        words[text(f"play.command.{command}", lang=lang)] = command
    return words


def reason(error: EngineError, lang: str) -> str:
    """An engine error's reason in ``lang`` (the error itself carries the English one)."""
    if error.message is None or error.message not in catalogue().ids():
        return error.reason
    return text(error.message, error.params, lang)


def _write(out: TextIO, lines: Iterable[str]) -> None:
    for line in lines:
        out.write(line + "\n")


def play(
    lines: Iterable[str], out: TextIO, *, seed: int = 0, side: str = "A", lang: str = "en"
) -> int:
    """Play one solo game from ``lines`` in the language ``lang``; 0 when it reached its
    end (the final map, then the solo title as the last line written), 1 when abandoned or
    the input ran out."""
    expedition = Expedition.new(seats=1, seed=seed, side=side)
    source: Iterator[str] = iter(lines)
    _write(
        out,
        [text("play.welcome", {"side": side, "seed": seed}, lang), text("play.help", lang=lang)],
    )
    commands = command_words(lang)
    show_table = True
    while not expedition.is_over:
        if show_table:
            _write(out, ["", render_table(expedition.view(SEAT), lang=lang, legend=False)])
            show_table = False
        out.write(text("play.prompt", lang=lang) + "\n")
        line = next(source, None)
        if line is None:
            _write(out, [text("play.out_of_input", lang=lang)])
            return EXIT_ABANDONED
        words = line.strip().lower().split()
        if not words:
            continue
        command = commands.get(words[0])
        if command == "quit":
            out.write(text("play.quit_question", lang=lang) + "\n")
            answer = next(source, None)
            if answer is None or answer.strip().lower() in YES:
                _write(out, [text("play.bye", lang=lang)])
                return EXIT_ABANDONED
            _write(out, [text("play.quit_cancelled", lang=lang)])
            continue
        if command == "help":
            _write(out, [text("play.help", lang=lang), text("text.legend", lang=lang)])
            continue
        if command == "rules":
            _write(out, rules_lines(expedition.view(SEAT), lang))
            continue
        if command == "map":
            show_table = True
            continue
        if command == "legal":
            _write(out, legal_lines(expedition.view(SEAT), words[1:], lang))
            continue
        try:
            placement = read_command(line, lang)
        except UnreadableCommand as error:
            _write(
                out,
                [text("play.unreadable", {"line": line.strip(), "why": error.text(lang)}, lang)],
            )
            continue
        try:
            events = expedition.place(SEAT, placement)
        except EngineError as error:
            _write(out, [text("play.refused", {"reason": reason(error, lang)}, lang)])
            continue
        _write(out, narrate(events, SEAT, lang, " ".join(line.split())))
        show_table = True
    final = expedition.view(SEAT)
    _write(
        out,
        ["", render_table(final, lang=lang, legend=False), "", *render_scores(final, SEAT, lang)],
    )
    return EXIT_DONE
