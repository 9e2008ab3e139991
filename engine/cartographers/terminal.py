"""A solo game in a terminal: placements read line by line, the table written as text.

``play(lines, out, seed=4, side="A")`` drives one solo game (auto-ambush, seat "1")
from any iterable of lines, so the bot's console front end and the tests can run it as
well as ``python -m engine.cartographers play``. A placement is typed as terrain, shape
number (from 1, or ``1x1`` for the fallback square), rotation, optional ``flip`` and the
anchor cell — the top-left corner of the placed shape's bounding box: ``farm 2 r90 flip
C4``. Other commands: ``legal [terrain shape]``, ``map``, ``help``, ``quit``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TextIO

from engine.cartographers.components import CardKind, Terrain, card
from engine.cartographers.events import (
    AmbushIgnored,
    CardRevealed,
    CoinsGained,
    MonsterPlaced,
    SeasonScored,
    ShapeDrawn,
)
from engine.cartographers.geometry import ROTATIONS, label, parse_label
from engine.cartographers.messages import text
from engine.cartographers.placement import Drawing
from engine.cartographers.table import Expedition
from engine.cartographers.text import render_scores, render_table
from engine.core import JSON, EngineError, Event

SEAT = "1"
EXAMPLES = 3
EXIT_DONE = 0
EXIT_ABANDONED = 1


def parse_command(line: str) -> dict[str, JSON] | None:
    """A placement's JSON from ``farm 2 r90 flip C4`` (any order after the terrain; the
    shape number counts from 1; ``1x1`` asks for the fallback square), or ``None``."""
    words = line.lower().replace(",", " ").split()
    if not words:
        return None
    try:
        terrain = Terrain(words[0])
    except ValueError:
        return None
    placement: dict[str, JSON] = {"terrain": terrain.value}
    for word in words[1:]:
        if word in ("1x1", "single"):
            placement["fallback"] = True
        elif word == "flip":
            placement["flip"] = True
        elif word.startswith("r") and word[1:].isdigit() and int(word[1:]) in ROTATIONS:
            placement["rotation"] = int(word[1:])
        elif word.isdigit() and int(word) >= 1:
            placement["shape"] = int(word) - 1
        elif parse_label(word) is not None:
            placement["at"] = label(parse_label(word) or 0)
        else:
            return None
    if "at" not in placement:
        return None
    if placement.get("fallback"):
        return {"terrain": terrain.value, "fallback": True, "at": placement["at"]}
    placement.setdefault("shape", 0)
    return placement


def _legal(expedition: Expedition) -> list[tuple[Terrain, int | None, list[Drawing]]]:
    """Every terrain and shape of the card with its legal drawings (then the fallback)."""
    offer = expedition.state.offer()
    found: list[tuple[Terrain, int | None, list[Drawing]]] = [
        (terrain, shape, expedition.legal_placements(SEAT, terrain, shape))
        for terrain in offer.terrains
        for shape in range(len(offer.shapes))
    ]
    if not any(drawings for _, _, drawings in found):
        found = [
            (terrain, None, expedition.legal_placements(SEAT, terrain, None))
            for terrain in offer.fallback_terrains
        ]
    return found


def _describe_legal(expedition: Expedition, words: list[str]) -> list[str]:
    lines = []
    for terrain, shape, drawings in _legal(expedition):
        if words and words[0] != terrain.value:
            continue
        if shape is None:
            if drawings:
                lines.append(text("play.fallback_hint", {"example": str(drawings[0].placement)}))
                break
            continue
        if len(words) > 1 and words[1] != str(shape + 1):
            continue
        params: dict[str, object] = {"terrain": terrain.value, "number": shape + 1}
        if drawings:
            params["count"] = len(drawings)
            params["examples"] = "; ".join(str(d.placement) for d in drawings[:EXAMPLES])
            lines.append(text("play.legal_count", params))
        else:
            lines.append(text("play.legal_none", params))
    return lines


def _narrate(events: Iterable[Event]) -> list[str]:
    lines = []
    for event in events:
        if isinstance(event, ShapeDrawn):
            lines.append(text("play.drawn", {"placement": str(event.drawing.placement)}))
        elif isinstance(event, CoinsGained):
            count = event.shape + len(event.mountains)
            lines.append(text("play.coin") if count == 1 else text("play.coins", {"count": count}))
        elif isinstance(event, MonsterPlaced):
            lines.append(text("play.ambush", {"card": event.card, "cells": ", ".join(event.cells)}))
        elif isinstance(event, AmbushIgnored):
            lines.append(text("play.ambush_ignored", {"card": event.card}))
        elif isinstance(event, CardRevealed) and card(event.card).kind is CardKind.RUINS:
            lines.append(text("play.ruins"))
        elif isinstance(event, SeasonScored):
            lines.append(text("play.season_end", {"season": event.score.season}))
    return lines


def _write(out: TextIO, lines: Iterable[str]) -> None:
    for line in lines:
        out.write(line + "\n")


def play(lines: Iterable[str], out: TextIO, *, seed: int = 0, side: str = "A") -> int:
    """Play one solo game from ``lines``; 0 when it reached its end (the solo title is
    the last line written), 1 when abandoned or the input ran out."""
    expedition = Expedition.new(seats=1, seed=seed, side=side)
    source: Iterator[str] = iter(lines)
    _write(out, [text("play.welcome", {"side": side, "seed": seed}), text("play.help")])
    show_table = True
    while not expedition.is_over:
        if show_table:
            _write(out, ["", render_table(expedition.view(SEAT), legend=False)])
            show_table = False
        out.write(text("play.prompt") + "\n")
        line = next(source, None)
        if line is None:
            _write(out, [text("play.out_of_input")])
            return EXIT_ABANDONED
        words = line.strip().lower().split()
        if not words:
            continue
        if words[0] in ("quit", "exit"):
            _write(out, [text("play.bye")])
            return EXIT_ABANDONED
        if words[0] == "help":
            _write(out, [text("play.help"), text("text.legend")])
            continue
        if words[0] == "map":
            show_table = True
            continue
        if words[0] == "legal":
            _write(out, _describe_legal(expedition, words[1:]))
            continue
        placement = parse_command(line)
        if placement is None:
            _write(
                out, [text("play.unreadable", {"line": line.strip(), "help": text("play.help")})]
            )
            continue
        try:
            events = expedition.place(SEAT, placement)
        except EngineError as error:
            _write(out, [text("play.refused", {"reason": error.reason})])
            continue
        _write(out, _narrate(events))
        show_table = True
    _write(out, ["", *render_scores(expedition.view(SEAT), SEAT)])
    return EXIT_DONE
