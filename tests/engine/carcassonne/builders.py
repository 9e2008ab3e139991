"""Positions for rule tests: a map laid tile by tile, meeples put where a test needs them,
and dice scripted, so each test states a table the way the rule text draws it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from engine.carcassonne.board import Board, FeatureRef, Placed
from engine.carcassonne.components import Side, Size, catalogue
from engine.carcassonne.rules import DEPLOY, PLACE, RULESET
from engine.carcassonne.state import EMPIRE, REBELS, GameState, Meeple, Options, Phase
from engine.core import JSON, Action, Chance, Event

TileSpec = tuple[int, int, str, int]
"""(x, y, tile id, rotation in degrees)."""
MeepleSpec = tuple[str, str, int, int, int | None]
"""(seat, "small"/"large", x, y, feature index or None for the planet)."""


def board(*tiles: TileSpec) -> Board:
    """The start tile on 0,0 and then ``tiles`` in order, each on a free square matching
    every neighbour's edge (a test map need not be laid in an order that keeps it in one
    piece)."""
    out = Board((Placed(0, 0, catalogue().start.id, 0),))
    for x, y, tile, degrees in tiles:
        placed = Placed(x, y, tile, degrees // 90)
        assert (x, y) not in out.at, f"{x},{y} is taken"
        for side in Side:
            dx, dy = side.step
            edge = out.edge_at(x + dx, y + dy, side.opposite)
            assert edge in (None, placed.type.edge(side, placed.rotation)), f"{tile} on {x},{y}"
        out = out.with_tile(placed)
    return out


def position(
    tiles: Sequence[TileSpec],
    meeples: Sequence[MeepleSpec] = (),
    *,
    seats: Sequence[str] = ("red", "white"),
    placed: tuple[int, int] | None = None,
    current: str | None = None,
    stack: Sequence[str] = ("SW34", "SW34"),
    active: int = 0,
    team: bool = False,
) -> GameState:
    """A state: in the deploy phase after the last tile of ``tiles`` when ``placed`` is
    given, else in the place phase holding ``current``."""
    units = (REBELS, EMPIRE) if team else tuple(seats)
    return GameState(
        seats=tuple(seats),
        options=Options(team=team),
        seed=0,
        draws=0,
        board=board(*tiles),
        meeples=tuple(Meeple(s, Size(z), FeatureRef(x, y, f)) for s, z, x, y, f in meeples),
        stack=tuple(stack),
        current=None if placed is not None else (current or "SW34"),
        removed=(),
        active=active,
        turn=1,
        phase=Phase.DEPLOY if placed is not None else Phase.PLACE,
        placed=placed,
        scores=tuple(0 for _ in units),
    )


def dice(*faces: int) -> list[dict[str, JSON]]:
    return [{"what": "battle die", "roll": face - 1} for face in faces]


def deploy(
    state: GameState, data: dict[str, JSON] | None = None, rolls: Sequence[int] = ()
) -> tuple[GameState, tuple[Event, ...]]:
    """The active seat deploys ``data`` (nothing when None) with the dice scripted; every
    scripted die must be used."""
    chance = Chance.scripted(dice(*rolls))
    transition = RULESET.apply(state, Action(DEPLOY, state.active_seat, data or {}), chance)
    chance.finish()
    return transition.state, transition.events


def place(state: GameState, x: int, y: int, degrees: int = 0) -> GameState:
    chance = Chance.scripted([])
    action = Action(PLACE, state.active_seat, {"x": x, "y": y, "rotation": degrees})
    return RULESET.apply(state, action, chance).state


def score(state: GameState, unit: str) -> int:
    return state.score_of(unit)


EventT = TypeVar("EventT", bound=Event)


def of_type(events: Sequence[Event], kind: type[EventT]) -> list[EventT]:
    return [event for event in events if isinstance(event, kind)]
