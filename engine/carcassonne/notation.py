"""The JSON position notation: a whole game at one moment, round-tripping exactly.

```
{"game": "carcassonne", "version": 1, "tile_set": "reconstruction",
 "seats": ["red", "green"], "options": {"team": false, "unplaceable": "remove"},
 "seed": 5, "draws": 1, "turn": 1, "active": "red", "phase": "place",
 "board": [{"x": 0, "y": 0, "tile": "SW01", "rotation": 0}, ...],
 "meeples": [{"seat": "red", "size": "small", "x": 0, "y": 0, "feature": 1}, ...],
 "current": "SW34", "stack": ["SW13", ...], "removed": [], "placed": null,
 "scores": {"red": 0, "green": 0}, "result": null}
```

``board`` is in placement order; ``rotation`` in degrees clockwise; a meeple's ``feature``
is a catalogue index on its tile or ``"planet"``. ``stack`` (top first) is the secret part:
views leave it out. Reading checks what a position must satisfy: every tile on a free
square matching its neighbours, every tile of the set accounted for exactly once, meeples
on real features, at most 4 small and 1 large per seat, no feature shared by two sides
(units) but in the deploy phase: a tile placed may join features held by two sides, whose
battle is fought once the deploy is played (spec §2, §3). Then ``placed`` is the last tile
of ``board``, no meeple stands on it yet, and on the map without it no feature is shared.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import Any

from engine.carcassonne.battle import units_in
from engine.carcassonne.board import Board, FeatureRef, Placed, fits_among
from engine.carcassonne.components import Size, catalogue, tile_type
from engine.carcassonne.rules import read_config
from engine.carcassonne.state import GameState, Meeple, Options, Phase, Result, Unplaceable
from engine.core import JSON, MalformedPosition

GAME = "carcassonne"
VERSION = 1
KEYS = frozenset(
    {
        "game",
        "version",
        "tile_set",
        "seats",
        "options",
        "seed",
        "draws",
        "turn",
        "active",
        "phase",
        "board",
        "meeples",
        "current",
        "stack",
        "removed",
        "placed",
        "scores",
        "result",
    }
)


def write_position(state: GameState) -> dict[str, JSON]:
    return {
        "game": GAME,
        "version": VERSION,
        "tile_set": catalogue().name,
        "seats": list(state.seats),
        "options": state.options.to_json(),
        "seed": state.seed,
        "draws": state.draws,
        "turn": state.turn,
        "active": state.active_seat,
        "phase": state.phase.value,
        "board": [placed.to_json() for placed in state.board.tiles],
        "meeples": [meeple.to_json() for meeple in state.meeples],
        "current": state.current,
        "stack": list(state.stack),
        "removed": list(state.removed),
        "placed": None if state.placed is None else list(state.placed),
        "scores": dict(zip(state.units, state.scores, strict=True)),
        "result": None if state.result is None else state.result.to_json(),
    }


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedPosition(f"{what} must be an integer")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise MalformedPosition(f"{what} must be a list")
    return value


def _tile_ids(value: Any, what: str) -> tuple[str, ...]:
    ids = _list(value, what)
    for tile in ids:
        if not isinstance(tile, str):
            raise MalformedPosition(f"{what} holds tile ids")
        tile_type(tile)
    return tuple(ids)


def read_position(position: Mapping[str, JSON]) -> GameState:
    """A state from its notation. Raises :class:`MalformedPosition` on anything wrong."""
    if not isinstance(position, Mapping):
        raise MalformedPosition("a position must be a JSON object")
    unknown = set(position) - KEYS
    if unknown:
        raise MalformedPosition(f"unknown position keys: {', '.join(sorted(unknown))}")
    missing = KEYS - set(position) - {"tile_set", "result"}
    if missing:
        raise MalformedPosition(f"the position lacks {', '.join(sorted(missing))}")
    if position["game"] != GAME or position["version"] != VERSION:
        raise MalformedPosition(f"this is not a {GAME} v{VERSION} position")
    options_obj = position["options"]
    if not isinstance(options_obj, Mapping):
        raise MalformedPosition("options must be an object")
    config: dict[str, JSON] = {"colours": position["seats"], **options_obj}
    if options_obj.get("team") is True:
        config.pop("colours")
        config["seats"] = len(_list(position["seats"], "seats"))
    seats, options = read_config(config)
    if list(seats) != position["seats"]:
        raise MalformedPosition("the team variant seats red, black, green, white")
    board = _read_board(position["board"])
    meeples = tuple(
        _read_meeple(obj, seats, board) for obj in _list(position["meeples"], "meeples")
    )
    state = GameState(
        seats=seats,
        options=Options(options.team, Unplaceable(options.unplaceable)),
        seed=_int(position["seed"], "seed"),
        draws=_int(position["draws"], "draws"),
        board=board,
        meeples=meeples,
        stack=_tile_ids(position["stack"], "stack"),
        current=None,
        removed=_tile_ids(position["removed"], "removed"),
        active=0,
        turn=_int(position["turn"], "turn"),
        phase=Phase.PLACE,
        placed=None,
        scores=(),
    )
    active = position["active"]
    if active not in seats:
        raise MalformedPosition(f"the active seat {active!r} is not at the table")
    try:
        phase = Phase(position["phase"])
    except ValueError:
        raise MalformedPosition("phase is place, deploy or over") from None
    current = position["current"]
    if current is not None:
        current = _tile_ids([current], "current")[0]
    placed_obj = position["placed"]
    placed: tuple[int, int] | None = None
    if placed_obj is not None:
        pair = _list(placed_obj, "placed")
        if len(pair) != 2:
            raise MalformedPosition("placed is [x, y]")
        placed = (_int(pair[0], "placed x"), _int(pair[1], "placed y"))
        if placed not in board.at:
            raise MalformedPosition("placed names an empty square")
    if (phase is Phase.PLACE) != (current is not None) or (phase is Phase.DEPLOY) != (
        placed is not None
    ):
        raise MalformedPosition(
            "a tile is in hand exactly in the place phase, and a placed square is named "
            "exactly in the deploy phase"
        )
    scores_obj = position["scores"]
    if not isinstance(scores_obj, Mapping) or set(scores_obj) != set(state.units):
        raise MalformedPosition(f"scores are given for {', '.join(state.units)}")
    scores = tuple(_int(scores_obj[unit], f"the score of {unit}") for unit in state.units)
    result = _read_result(position.get("result"), state.units, phase)
    state = GameState(
        seats=state.seats,
        options=state.options,
        seed=state.seed,
        draws=state.draws,
        board=board,
        meeples=meeples,
        stack=state.stack,
        current=current,
        removed=state.removed,
        active=seats.index(str(active)),
        turn=state.turn,
        phase=phase,
        placed=placed,
        scores=scores,
        result=result,
    )
    _check_conservation(state)
    return state


def _read_board(value: Any) -> Board:
    tiles = _list(value, "board")
    if not tiles:
        raise MalformedPosition("the board holds at least the start tile")
    at: dict[tuple[int, int], Placed] = {}
    for index, obj in enumerate(tiles):
        if not isinstance(obj, Mapping) or set(obj) != {"x", "y", "tile", "rotation"}:
            raise MalformedPosition("a board tile is {x, y, tile, rotation}")
        rotation = _int(obj["rotation"], "rotation")
        if rotation not in (0, 90, 180, 270):
            raise MalformedPosition("rotation is 0, 90, 180 or 270")
        tile = _tile_ids([obj["tile"]], "board")[0]
        placed = Placed(_int(obj["x"], "x"), _int(obj["y"], "y"), tile, rotation // 90)
        if index == 0:
            if not placed.type.start or placed.square != (0, 0):
                raise MalformedPosition("the board starts with the start tile on 0,0")
        elif not fits_among(at, placed.type, placed.x, placed.y, placed.rotation):
            raise MalformedPosition(f"the tile on {placed.x},{placed.y} does not fit there")
        at[placed.square] = placed
    return Board(tuple(at.values()))


def _read_meeple(obj: Any, seats: tuple[str, ...], board: Board) -> Meeple:
    if not isinstance(obj, Mapping) or set(obj) != {"seat", "size", "x", "y", "feature"}:
        raise MalformedPosition("a meeple is {seat, size, x, y, feature}")
    if obj["seat"] not in seats:
        raise MalformedPosition(f"a meeple of {obj['seat']!r}, who is not at the table")
    try:
        size = Size(obj["size"])
    except ValueError:
        raise MalformedPosition("a meeple is small or large") from None
    at = FeatureRef.from_json(obj, MalformedPosition)
    if not board.has(at):
        raise MalformedPosition(f"a meeple on {at}, which is no feature")
    return Meeple(str(obj["seat"]), size, at)


def _read_result(value: Any, units: tuple[str, ...], phase: Phase) -> Result | None:
    if (value is None) != (phase is not Phase.OVER):
        raise MalformedPosition("a result is given exactly when the game is over")
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) != {"scores", "winners"}:
        raise MalformedPosition("a result is {scores, winners}")
    scores, winners = value["scores"], value["winners"]
    if not isinstance(scores, Mapping) or list(scores) != sorted(
        scores, key=lambda unit: -_int(scores[unit], "a result score")
    ):
        raise MalformedPosition("result scores are listed best first")
    if set(scores) != set(units) or not isinstance(winners, list) or not winners:
        raise MalformedPosition("a result scores every unit and names the winners")
    return Result(tuple((str(u), int(scores[u])) for u in scores), tuple(map(str, winners)))


@cache
def _tile_set() -> Counter[str]:
    """Every tile of the tile set, the start tile too, by id."""
    return Counter(catalogue().stack()) + Counter([catalogue().start.id])


def _check_conservation(state: GameState) -> None:
    everything = _tile_set()
    held = Counter(placed.tile for placed in state.board.tiles)
    held.update(state.stack)
    held.update(state.removed)
    if state.current is not None:
        held[state.current] += 1
    if held != everything:
        raise MalformedPosition("the board, hand, stack and removed tiles are not the tile set")
    for seat in state.seats:
        supply = state.supply(seat)
        if supply[Size.SMALL] < 0 or supply[Size.LARGE] < 0:
            raise MalformedPosition(f"{seat} has more meeples on the map than they own")
    _check_sides(state)
    if state.is_over and state.meeples:
        raise MalformedPosition("no meeple stays on the map once the game is over")


def _shared(board: Board, state: GameState) -> FeatureRef | None:
    """The anchor of the first feature of ``board`` holding meeples of two sides."""
    if len(units_in(state.meeples, state.unit_of)) < 2:
        return None  # one side or none on the map: no feature is shared
    for region in board.regions:
        inside = [m for m in state.meeples if board.region(m.at) is region]
        if len(units_in(inside, state.unit_of)) > 1:
            return region.anchor
    return None


def _check_sides(state: GameState) -> None:
    """A feature holds one side, but after a placement that joined two sides' features,
    until the deploy fights the battle: the map before that tile holds no shared feature."""
    if state.phase is Phase.DEPLOY:
        if len(state.board) < 2 or state.placed != state.board.tiles[-1].square:
            raise MalformedPosition("placed names the tile placed last")
        if any(meeple.at.square == state.placed for meeple in state.meeples):
            raise MalformedPosition("no meeple stands on the tile just placed before the deploy")
    shared = _shared(state.board, state)
    if shared is None:
        return
    if state.phase is not Phase.DEPLOY:
        raise MalformedPosition(f"the feature at {shared} holds two sides")
    before = _shared(Board(state.board.tiles[:-1]), state)
    if before is not None:
        raise MalformedPosition(f"the feature at {before} held two sides before the tile placed")


__all__ = ["read_position", "write_position"]
