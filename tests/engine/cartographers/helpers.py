"""Shared helpers for the Cartographers tests: hand-made maps, positions and random play."""

from __future__ import annotations

from typing import Any

from engine.cartographers import Expedition, MapSheet, Terrain, legal_placements
from engine.cartographers.geometry import label, parse_label
from engine.cartographers.placement import Drawing
from engine.cartographers.rules import MONSTER, PLACE
from engine.cartographers.state import GameState, Phase
from engine.core import JSON, Rng

EMPTY_ROW = "." * 11


def rows(*lines: str) -> list[str]:
    """11 rows from the lines given (spaces ignored), padded with empty cells and rows."""
    out = []
    for line in lines:
        text = line.replace(" ", "")
        assert len(text) <= 11, line
        out.append(text.ljust(11, "."))
    assert len(out) <= 11
    return out + [EMPTY_ROW] * (11 - len(out))


def sheet(*lines: str) -> MapSheet:
    return MapSheet.from_rows(rows(*lines))


def cells(*labels: str) -> frozenset[int]:
    found = frozenset(parse_label(name) for name in labels)
    assert None not in found
    return frozenset(index for index in found if index is not None)


def labels(indices: frozenset[int] | tuple[int, ...]) -> set[str]:
    return {label(index) for index in indices}


def position(
    *,
    seats: int = 1,
    seed: int = 0,
    side: str = "A",
    ambush: str = "auto",
    **overrides: Any,
) -> dict[str, JSON]:
    """A new table's position with some keys replaced; ``maps`` (a list of row lists)
    replaces the players' maps, ``coins`` their coins."""
    base = Expedition.new(seats=seats, seed=seed, side=side, ambush=ambush).position()
    maps = overrides.pop("maps", None)
    coins = overrides.pop("coins", None)
    if "card" in overrides:
        overrides.setdefault("ruins", False)
    base.update(overrides)
    players = base["players"]
    assert isinstance(players, list)
    for index, player in enumerate(players):
        if maps is not None:
            player["map"] = maps[index]
        if coins is not None:
            player["coins"] = coins[index]
    return base


def table(**kwargs: Any) -> Expedition:
    return Expedition.from_position(position(**kwargs))


def options_for(state: GameState, seat: str) -> list[Drawing]:
    """Every legal drawing for ``seat`` now: every terrain and shape, or the fallbacks."""
    offer = state.offer()
    found = [
        drawing
        for terrain in offer.terrains
        for shape in range(len(offer.shapes))
        for drawing in legal_placements(state, seat, terrain, shape)
    ]
    if found:
        return found
    return [
        drawing
        for terrain in offer.fallback_terrains
        for drawing in legal_placements(state, seat, terrain, None)
    ]


def action_kind(state: GameState) -> str:
    return PLACE if state.phase is Phase.DRAW else MONSTER


def random_move(expedition: Expedition, rng: Rng) -> tuple[str, str, Drawing]:
    """A random waiting seat and one of its legal drawings, uniformly."""
    state = expedition.state
    seat = state.waiting_for[rng.below(len(state.waiting_for))]
    choices = options_for(state, seat)
    return action_kind(state), seat, choices[rng.below(len(choices))]


def play_randomly(expedition: Expedition, rng: Rng) -> None:
    while not expedition.is_over:
        kind, seat, drawing = random_move(expedition, rng)
        expedition.act(kind, seat, drawing.placement)


def terrain_cells(sheet_: MapSheet, terrain: Terrain) -> set[str]:
    return labels(sheet_.cells_of(terrain))
