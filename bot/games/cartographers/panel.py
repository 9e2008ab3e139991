"""The private drawing panel as data: what a seat's panel offers and shows for its view and
its draft (spec ``cartographers.md`` §2 "Play": the explore card's terrains and shapes,
rotation and flip, the ruins requirement, the 1×1 fallback; ambushes in neighbour mode).

A :class:`DrawDraft` is the drawing being put together: terrain, shape, orientation and
the anchor cell (top-left of the placed shape's bounding box), as the panel's selects,
buttons and the typed ``C4`` set them. :func:`build_panel` turns a seat's view and its
draft into a :class:`DrawPanel`: the options to offer, the candidate drawing (checked by
the engine, with its reason when illegal), the coins and stars it earns, and whether it
can be confirmed. With no cell chosen yet, the first legal spot of the chosen terrain and
shape is proposed, so a player can confirm at once or move it.

Front ends turn a panel into their own widgets (Discord selects and buttons); nothing here
knows Discord.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.games.base import ServiceError
from engine.cartographers import Phase, SeatView
from engine.cartographers.components import Terrain
from engine.cartographers.geometry import (
    COLUMN_LETTERS,
    ROTATIONS,
    SIZE,
    Orientation,
    cell,
    parse_label,
    row_col,
)
from engine.cartographers.messages import name, text
from engine.cartographers.placement import (
    Drawing,
    Placement,
    analyse,
    can_draw_a_shape,
    legal_drawings,
)
from engine.cartographers.scoring import score
from engine.cartographers.sheet import MapSheet
from engine.core import JSON, EngineError, typed_number

FALLBACK = "1x1"
"""The shape select's value for the 1×1 square (allowed only when no shape fits)."""


class DrawDraftError(ServiceError):
    """A choice that is not a drawing (a typed cell off the map, a forged control)."""


@dataclass(frozen=True)
class DrawDraft:
    """The drawing chosen so far; ``shape`` is the card's shape index, or None for the
    1×1 fallback when ``fallback``; ``row``/``col`` are 0-based, None until chosen."""

    terrain: str | None = None
    shape: int | None = None
    fallback: bool = False
    rotation: int = 0
    flip: bool = False
    row: int | None = None
    col: int | None = None

    @property
    def at(self) -> int | None:
        if self.row is None or self.col is None:
            return None
        return cell(self.row, self.col)

    def to_json(self) -> dict[str, JSON]:
        return {
            "terrain": self.terrain,
            "shape": self.shape,
            "fallback": self.fallback,
            "rotation": self.rotation,
            "flip": self.flip,
            "row": self.row,
            "col": self.col,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, JSON] | None) -> DrawDraft:
        """A stored draft; anything unreadable is an empty draft (never an error)."""
        if not obj:
            return cls()

        def number(key: str, low: int, high: int) -> int | None:
            value = obj.get(key)
            if isinstance(value, bool) or not isinstance(value, int):
                return None
            return value if low <= value <= high else None

        terrain = obj.get("terrain")
        rotation = number("rotation", 0, 270)
        return cls(
            terrain=terrain if isinstance(terrain, str) else None,
            shape=number("shape", 0, 9),
            fallback=obj.get("fallback") is True,
            rotation=rotation if rotation in ROTATIONS else 0,
            flip=obj.get("flip") is True,
            row=number("row", 0, SIZE - 1),
            col=number("col", 0, SIZE - 1),
        )

    @classmethod
    def from_drawing(cls, drawing: Drawing) -> DrawDraft:
        placement = drawing.placement
        row, col = row_col(placement.anchor)
        return cls(
            terrain=placement.terrain.value,
            shape=placement.shape,
            fallback=placement.fallback,
            rotation=placement.orientation.rotation,
            flip=placement.orientation.flip,
            row=row,
            col=col,
        )


def parse_cell(text: str) -> tuple[int, int]:
    """A typed cell such as ``C4`` (column letter A–K, row 1–11) as (row, col)."""
    index = parse_label(text.strip().upper())
    if index is None:
        raise DrawDraftError("carto.bad_cell", given=text.strip()[:20])
    return row_col(index)


def apply_choice(draft: DrawDraft, verb: str, values: Sequence[str]) -> DrawDraft:
    """The draft after one panel control: ``terrain``/``shape``/``row``/``col`` selects,
    ``rotate``/``flip`` buttons, ``suggest`` (back to the first legal spot), ``at`` (a
    typed cell). Raises :class:`DrawDraftError`
    for a value no panel offers (a forged or stale control)."""
    value = values[0] if values else ""
    if verb == "terrain":
        try:
            Terrain(value)
        except ValueError:
            raise DrawDraftError("error.stale_choice") from None
        return dataclasses.replace(draft, terrain=value)
    if verb == "shape":
        if value == FALLBACK:
            return dataclasses.replace(draft, shape=None, fallback=True, rotation=0, flip=False)
        shape = typed_number(value, 1)
        if shape is None:
            raise DrawDraftError("error.stale_choice")
        return dataclasses.replace(draft, shape=shape, fallback=False)
    if verb == "suggest":
        return dataclasses.replace(draft, rotation=0, flip=False, row=None, col=None)
    if verb == "rotate":
        return dataclasses.replace(draft, rotation=(draft.rotation + 90) % 360)
    if verb == "flip":
        return dataclasses.replace(draft, flip=not draft.flip)
    if verb in ("row", "col"):
        number = typed_number(value, 2)
        if number is None or number >= SIZE:
            raise DrawDraftError("error.stale_choice")
        if verb == "row":
            return dataclasses.replace(draft, row=number)
        return dataclasses.replace(draft, col=number)
    if verb == "at":
        row, col = parse_cell(value)
        return dataclasses.replace(draft, row=row, col=col)
    raise DrawDraftError("error.stale_choice")


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    selected: bool = False


@dataclass(frozen=True)
class DrawPanel:
    """Everything a drawing panel shows for one seat and one draft."""

    draft: DrawDraft
    """The draft completed with the panel's defaults (what Confirm would draw)."""
    target: str
    """Whose map the drawing goes on (a neighbour's in an ambush)."""
    ambush: bool
    card: str
    terrains: tuple[Option, ...]
    shapes: tuple[Option, ...]
    ruins: bool
    """A ruins card came before: the shape must cover an unfilled ruins cell."""
    fallback_only: bool
    """No shape of the card fits (on a ruins cell, after ruins): only a 1×1 square."""
    candidate: Drawing | None
    """The drawing the draft makes, when legal."""
    cells: tuple[int, ...]
    """The cells the draft covers (to highlight), legal or not."""
    shown: Placement | None
    """The placement the draft describes, legal or not (None until it has a cell)."""
    refusal: str | None
    """Why the draft is not a legal drawing (the engine's reason), if it is not."""
    proposed: bool
    """No cell chosen yet: the candidate is the first legal spot."""
    nowhere: bool
    """No cell chosen yet, and the chosen shape fits nowhere on the map."""
    coins: int
    stars: tuple[tuple[str, int], ...]
    """(edict card, stars gained or lost) for the season's two edicts."""
    committed: Drawing | None

    @property
    def can_confirm(self) -> bool:
        if self.candidate is None:
            return False
        if self.committed is None:
            return True
        return self.committed.placement != self.candidate.placement

    def placement(self) -> Placement:
        assert self.candidate is not None
        return self.candidate.placement


def season_stars(view: SeatView, before: MapSheet, after: MapSheet) -> tuple[tuple[str, int], ...]:
    """What a drawing changes in this season's two edicts' scores."""
    return tuple(
        (edict, score(edict, after).points - score(edict, before).points)
        for _, edict in view.season_edicts
    )


def build_panel(view: SeatView, draft: DrawDraft, lang: str = "en") -> DrawPanel | None:
    """The panel for ``view``'s seat and its draft; None when the seat owes no drawing
    (the game is over or its target map is full)."""
    offer = view.offer
    if offer is None or view.seat is None or view.target is None:
        return None
    sheet = view.player(view.target).sheet
    ambush = view.phase is Phase.AMBUSH
    fallback_only = not can_draw_a_shape(sheet, offer)
    terrains = offer.fallback_terrains if fallback_only else offer.terrains
    committed = view.my_drawing
    if draft == DrawDraft() and committed is not None:
        draft = DrawDraft.from_drawing(committed)
    terrain_value = draft.terrain if draft.terrain in {t.value for t in terrains} else None
    terrain = Terrain(terrain_value) if terrain_value else terrains[0]
    if fallback_only:
        draft = dataclasses.replace(draft, shape=None, fallback=True, rotation=0, flip=False)
    elif draft.fallback or draft.shape is None or not 0 <= draft.shape < len(offer.shapes):
        draft = dataclasses.replace(draft, shape=0, fallback=False)
    draft = dataclasses.replace(draft, terrain=terrain.value)

    proposed = nowhere = False
    if draft.at is None:
        choices = legal_drawings(sheet, offer, terrain, draft.shape)
        if choices:
            draft = DrawDraft.from_drawing(choices[0])
            proposed = True
        else:
            nowhere = True
    candidate: Drawing | None = None
    cells: tuple[int, ...] = ()
    refusal: str | None = None
    placement: Placement | None = None
    if draft.at is not None:
        placement = Placement(
            terrain, draft.shape, Orientation(draft.rotation, draft.flip), draft.at
        )
        shape = None if draft.shape is None else offer.shapes[draft.shape]
        if shape is not None:
            turned = shape.turned(placement.orientation)
            cells = turned.placed(draft.row or 0, draft.col or 0) or ()
        else:
            cells = (draft.at,)
        try:
            candidate = analyse(sheet, offer, placement, seat=view.seat)
            cells = candidate.cells
        except EngineError as error:
            refusal = (
                error.reason if error.message is None else text(error.message, error.params, lang)
            )

    coins = 0
    stars: tuple[tuple[str, int], ...] = ()
    if candidate is not None:
        after = sheet.draw(candidate.cells, candidate.terrain)
        if not ambush:
            coins = int(candidate.coin) + len(
                after.enclosed_mountains() - sheet.enclosed_mountains()
            )
        stars = season_stars(view, sheet, after)

    terrain_options = tuple(
        Option(t.value, name("terrain", t.value, lang), t is terrain) for t in terrains
    )
    if fallback_only:
        shape_options: tuple[Option, ...] = (Option(FALLBACK, "1×1", True),)
    else:
        shape_options = tuple(
            Option(str(index), str(index + 1), index == draft.shape)
            for index in range(len(offer.shapes))
        )
    return DrawPanel(
        draft=draft,
        target=view.target,
        ambush=ambush,
        card=offer.card,
        terrains=terrain_options,
        shapes=shape_options,
        ruins=offer.ruins,
        fallback_only=fallback_only,
        candidate=candidate,
        cells=cells,
        shown=placement,
        refusal=refusal,
        proposed=proposed,
        nowhere=nowhere,
        coins=coins,
        stars=stars,
        committed=committed,
    )


def row_options(selected: int | None) -> tuple[Option, ...]:
    return tuple(Option(str(row), str(row + 1), row == selected) for row in range(SIZE))


def column_options(selected: int | None) -> tuple[Option, ...]:
    return tuple(Option(str(col), COLUMN_LETTERS[col], col == selected) for col in range(SIZE))


__all__ = [
    "FALLBACK",
    "DrawDraft",
    "DrawDraftError",
    "DrawPanel",
    "Option",
    "apply_choice",
    "build_panel",
    "column_options",
    "parse_cell",
    "row_options",
    "season_stars",
]
