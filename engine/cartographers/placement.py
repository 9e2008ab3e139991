"""Drawing on a map: a player's placement, its legality, every legal placement, the 1×1
fallback, and the solo ambush scan (spec §2, rulebook "Fase de dibujo", "Modo solitario").

A :class:`Placement` is what a player chooses: a terrain, one of the card's shapes (or
the 1×1 fallback), an orientation and an anchor (the top-left cell of the placed shape's
bounding box). Its JSON form is ``{"terrain": "farm", "shape": 1, "rotation": 90,
"flip": true, "at": "C4"}``, or ``{"terrain": "farm", "fallback": true, "at": "C4"}``;
``"cells": ["C4", "D4", …]`` may replace ``rotation``/``flip``/``at``. :func:`analyse`
turns it into a :class:`Drawing` (the cells it covers, whether it earns a coin) or
refuses it with a reason the player can read.

An :class:`Offer` is what the current card lets a player draw: terrains and shapes, which
shapes carry a coin, whether a ruins card demands covering an unfilled ruins cell.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from engine.cartographers.components import (
    DRAWABLE,
    AmbushCard,
    Corner,
    ExploreCard,
    Terrain,
    Turning,
)
from engine.cartographers.geometry import (
    ROTATIONS,
    SIZE,
    Orientation,
    Shape,
    Spot,
    cell,
    cells_of,
    label,
    mask_of,
    parse_label,
    row_col,
    spot_for_cells,
    spots,
)
from engine.cartographers.messages import refuse
from engine.cartographers.sheet import MapSheet
from engine.core import JSON, IllegalAction, MalformedAction

SINGLE = Shape.parse("#")
PLACEMENT_KEYS = frozenset({"terrain", "shape", "rotation", "flip", "at", "fallback", "cells"})


@dataclass(frozen=True)
class Placement:
    """A player's choice: ``shape`` indexes the card's shapes, ``None`` is the 1×1
    fallback; ``anchor`` is the top-left cell of the placed shape's bounding box."""

    terrain: Terrain
    shape: int | None
    orientation: Orientation
    anchor: int

    @property
    def fallback(self) -> bool:
        return self.shape is None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"terrain": self.terrain.value}
        if self.shape is None:
            out["fallback"] = True
        else:
            out["shape"] = self.shape
            out["rotation"] = self.orientation.rotation
            out["flip"] = self.orientation.flip
        out["at"] = label(self.anchor)
        return out

    def __str__(self) -> str:
        """The terminal form, shape numbered from 1: ``farm 2 r90 flip C4``."""
        if self.shape is None:
            return f"{self.terrain.value} 1x1 {label(self.anchor)}"
        return f"{self.terrain.value} {self.shape + 1} {self.orientation} {label(self.anchor)}"


@dataclass(frozen=True)
class Drawing:
    """A legal placement, resolved: the canonical placement, the cells, and the coin."""

    placement: Placement
    cells: tuple[int, ...]
    coin: bool = False

    @property
    def terrain(self) -> Terrain:
        return self.placement.terrain

    @property
    def mask(self) -> int:
        return mask_of(self.cells)

    def to_json(self) -> dict[str, JSON]:
        out = self.placement.to_json()
        out["cells"] = [label(index) for index in self.cells]
        if self.coin:
            out["coin"] = True
        return out


@dataclass(frozen=True)
class Offer:
    """What a card lets one player draw this turn."""

    card: str
    terrains: tuple[Terrain, ...]
    shapes: tuple[Shape, ...]
    coin_shapes: frozenset[int] = frozenset()
    ruins: bool = False
    """A ruins card came before: a shape must cover an unfilled ruins cell."""

    @classmethod
    def explore(cls, card: ExploreCard, ruins: bool) -> Offer:
        return cls(card.id, card.terrains, card.shapes, card.coin_shapes, ruins)

    @classmethod
    def monster(cls, card: AmbushCard) -> Offer:
        """A neighbour drawing an ambush's monster (rotation and flip allowed)."""
        return cls(card.id, (Terrain.MONSTER,), (card.shape,))

    @property
    def fallback_terrains(self) -> tuple[Terrain, ...]:
        """Terrains allowed for the 1×1 fallback: the card's, or any after ruins."""
        return DRAWABLE if self.ruins else self.terrains


# --------------------------------------------------------------------------- reading


def _int_field(obj: Mapping[str, JSON], key: str, default: int | None = None) -> int:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise refuse(MalformedAction, "bad_number", field=key)
    return value


def read_placement(obj: JSON, offer: Offer, *, seat: str | None = None) -> Placement:
    """A placement from its JSON form (either form), checked against the card's terrains
    and shapes but not yet against the map.

    Raises:
        MalformedAction: not an object, unknown keys, unknown terrain or shape, bad cells.
        IllegalAction: a terrain or shape the card does not offer.
    """
    if not isinstance(obj, Mapping):
        raise refuse(MalformedAction, "placement_not_object", seat=seat)
    unknown = sorted(set(obj) - PLACEMENT_KEYS)
    if unknown:
        raise refuse(MalformedAction, "placement_unknown_keys", seat=seat, keys=", ".join(unknown))
    fallback = obj.get("fallback", False)
    if not isinstance(fallback, bool):
        raise refuse(MalformedAction, "bad_flag", seat=seat, field="fallback")
    terrain_name = obj.get("terrain")
    try:
        terrain = Terrain(str(terrain_name))
    except ValueError:
        raise refuse(
            MalformedAction, "unknown_terrain", seat=seat, given=str(terrain_name)
        ) from None
    allowed = offer.fallback_terrains if fallback else offer.terrains
    if terrain not in allowed:
        raise refuse(
            IllegalAction,
            "terrain_not_offered",
            seat=seat,
            terrain=terrain.value,
            card=offer.card,
            choices=", ".join(t.value for t in allowed),
        )
    shape_index: int | None = None
    if fallback:
        if "shape" in obj or "rotation" in obj or "flip" in obj:
            raise refuse(MalformedAction, "fallback_has_shape", seat=seat)
        shape = SINGLE
    else:
        shape_index = _int_field(obj, "shape", 0)
        if not 0 <= shape_index < len(offer.shapes):
            raise refuse(
                MalformedAction,
                "unknown_shape",
                seat=seat,
                number=shape_index + 1,
                card=offer.card,
                count=len(offer.shapes),
            )
        shape = offer.shapes[shape_index]
    if "cells" in obj:
        if "at" in obj or "rotation" in obj or "flip" in obj:
            raise refuse(MalformedAction, "cells_and_anchor", seat=seat)
        return _placement_from_cells(obj["cells"], terrain, shape_index, shape, seat)
    rotation = _int_field(obj, "rotation", 0)
    if rotation not in ROTATIONS:
        raise refuse(MalformedAction, "bad_rotation", seat=seat, given=rotation)
    flip = obj.get("flip", False)
    if not isinstance(flip, bool):
        raise refuse(MalformedAction, "bad_flag", seat=seat, field="flip")
    at = obj.get("at")
    anchor = parse_label(at) if isinstance(at, str) else None
    if anchor is None:
        raise refuse(MalformedAction, "bad_cell", seat=seat, given=str(at))
    return Placement(terrain, shape_index, Orientation(rotation, flip), anchor)


def _placement_from_cells(
    raw: JSON, terrain: Terrain, shape_index: int | None, shape: Shape, seat: str | None
) -> Placement:
    if not isinstance(raw, list) or not raw:
        raise refuse(MalformedAction, "bad_cells", seat=seat)
    cells: set[int] = set()
    for item in raw:
        index = parse_label(item) if isinstance(item, str) else None
        if index is None:
            raise refuse(MalformedAction, "bad_cell", seat=seat, given=str(item))
        cells.add(index)
    spot = spot_for_cells(shape, frozenset(cells))
    if spot is None:
        raise refuse(IllegalAction, "cells_not_shape", seat=seat)
    return Placement(terrain, shape_index, spot.orientation, spot.anchor)


# --------------------------------------------------------------------------- legality


def legal_spots(sheet: MapSheet, shape: Shape, *, ruins: bool = False) -> Iterator[Spot]:
    """Every distinct legal spot of ``shape`` (rotations and flips deduplicated): on
    empty cells only and, if ``ruins``, covering at least one unfilled ruins cell."""
    filled = sheet.filled_mask
    need = sheet.open_ruins_mask if ruins else -1
    for spot in spots(shape):
        if not spot.mask & filled and spot.mask & need:
            yield spot


def can_draw_a_shape(sheet: MapSheet, offer: Offer) -> bool:
    """Whether any shape of the card fits (the fallback is allowed only if not)."""
    return any(next(legal_spots(sheet, shape, ruins=offer.ruins), None) for shape in offer.shapes)


def legal_drawings(
    sheet: MapSheet, offer: Offer, terrain: Terrain, shape: int | None
) -> list[Drawing]:
    """Every legal drawing of ``terrain`` with shape ``shape`` (``None``: the 1×1
    fallback, legal only when no shape of the card fits), one per set of cells."""
    if shape is None:
        if terrain not in offer.fallback_terrains or can_draw_a_shape(sheet, offer):
            return []
        return [
            Drawing(Placement(terrain, None, Orientation(), index), (index,))
            for index in sheet.empty_cells
        ]
    if terrain not in offer.terrains or not 0 <= shape < len(offer.shapes):
        return []
    coin = shape in offer.coin_shapes
    return [
        Drawing(Placement(terrain, shape, spot.orientation, spot.anchor), spot.cells, coin)
        for spot in legal_spots(sheet, offer.shapes[shape], ruins=offer.ruins)
    ]


def analyse(
    sheet: MapSheet, offer: Offer, placement: Placement, *, seat: str | None = None
) -> Drawing:
    """Check a placement against a map; the drawing it makes, canonical.

    Raises:
        MalformedAction: a shape the card does not have.
        IllegalAction: a terrain the card does not offer, off the map, on a filled cell,
            missing the ruins, or a fallback while a shape of the card still fits.
    """
    allowed = offer.fallback_terrains if placement.shape is None else offer.terrains
    if placement.terrain not in allowed:
        raise refuse(
            IllegalAction,
            "terrain_not_offered",
            seat=seat,
            terrain=placement.terrain.value,
            card=offer.card,
            choices=", ".join(t.value for t in allowed),
        )
    if placement.shape is not None and not 0 <= placement.shape < len(offer.shapes):
        raise refuse(
            MalformedAction,
            "unknown_shape",
            seat=seat,
            number=placement.shape + 1,
            card=offer.card,
            count=len(offer.shapes),
        )
    shape = SINGLE if placement.shape is None else offer.shapes[placement.shape]
    turned = shape.turned(placement.orientation)
    row, col = row_col(placement.anchor)
    cells = turned.placed(row, col)
    if cells is None:
        raise refuse(IllegalAction, "off_map", seat=seat, cell=label(placement.anchor))
    taken = [index for index in cells if sheet.is_filled(index)]
    if taken:
        raise refuse(
            IllegalAction, "cells_filled", seat=seat, cells=", ".join(label(i) for i in taken)
        )
    if placement.shape is None:
        if can_draw_a_shape(sheet, offer):
            reason = "fallback_ruins_fit" if offer.ruins else "fallback_shape_fits"
            raise refuse(IllegalAction, reason, seat=seat, card=offer.card)
        return Drawing(placement, cells)
    if offer.ruins and not mask_of(cells) & sheet.open_ruins_mask:
        raise refuse(IllegalAction, "must_cover_ruins", seat=seat)
    spot = spot_for_cells(shape, frozenset(cells))
    assert spot is not None
    canonical = Placement(placement.terrain, placement.shape, spot.orientation, spot.anchor)
    return Drawing(canonical, tuple(sorted(cells)), placement.shape in offer.coin_shapes)


def needs_a_drawing(sheet: MapSheet) -> bool:
    """A full map has nowhere to draw: its owner is not waited for."""
    return sheet.filled_mask != (1 << (SIZE * SIZE)) - 1


# --------------------------------------------------------------------------- solo ambush


def _ring_cells(ring: int, corner: Corner, arrow: Turning) -> list[int]:
    """The cells of ring ``ring`` from ``corner`` around in the ``arrow`` direction."""
    low, high = ring, SIZE - 1 - ring
    if low == high:
        return [cell(low, low)]
    clockwise: list[tuple[int, int]] = []
    clockwise += [(low, col) for col in range(low, high)]
    clockwise += [(row, high) for row in range(low, high)]
    clockwise += [(high, col) for col in range(high, low, -1)]
    clockwise += [(row, low) for row in range(high, low, -1)]
    starts = {
        Corner.TOP_LEFT: (low, low),
        Corner.TOP_RIGHT: (low, high),
        Corner.BOTTOM_RIGHT: (high, high),
        Corner.BOTTOM_LEFT: (high, low),
    }
    first = clockwise.index(starts[corner])
    cycle = clockwise[first:] + clockwise[:first]
    if arrow is Turning.COUNTER_CLOCKWISE:
        cycle = [cycle[0], *reversed(cycle[1:])]
    return [cell(row, col) for row, col in cycle]


@functools.cache
def ambush_scan(card: AmbushCard) -> tuple[tuple[int, int], ...]:
    """The solo scan's spots, in the order they are tried, as (ring, mask).

    Ring by ring from the edge inward: a spot is on ring k when its bounding box lies
    inside ring k's square and touches ring k. Each spot is tried at the first ring cell
    (from the card's corner, in the arrow's direction) its bounding box covers; so along
    the first side it is anchored by the bounding box's corner nearest the start, and it
    slides on around the ring keeping against the ring's side.
    """
    shape = card.shape
    order: list[tuple[int, int]] = []
    for ring in range((SIZE + 1) // 2):
        low, high = ring, SIZE - 1 - ring
        seen: set[tuple[int, int]] = set()
        for index in _ring_cells(ring, card.corner, card.arrow):
            row, col = row_col(index)
            fresh = [
                (top, left)
                for top in range(
                    max(low, row - shape.height + 1), min(row, high - shape.height + 1) + 1
                )
                for left in range(
                    max(low, col - shape.width + 1), min(col, high - shape.width + 1) + 1
                )
                if (top, left) not in seen
            ]
            for top, left in sorted(fresh):
                seen.add((top, left))
                placed = shape.placed(top, left)
                assert placed is not None
                order.append((ring, mask_of(placed)))
    return tuple(order)


def solo_ambush(sheet: MapSheet, card: AmbushCard) -> tuple[int, ...] | None:
    """Where the solo rule draws the monster: the first legal spot of the scan, never
    rotated or flipped; ``None`` when it fits nowhere (the card is then ignored)."""
    filled = sheet.filled_mask
    for _, mask in ambush_scan(card):
        if not mask & filled:
            return cells_of(mask)
    return None
