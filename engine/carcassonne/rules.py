"""Carcassonne: Star Wars as a :class:`~engine.core.Ruleset` (spec §2–§6).

A turn is two actions of the active seat:

- ``place`` ``{"x": 1, "y": 0, "rotation": 90}``: put the tile in hand on the map
  (rotation in degrees clockwise);
- ``deploy`` ``{"x": 1, "y": 0, "feature": 0, "meeple": "small"}`` (a feature of the tile
  just placed, by its catalogue index, or ``"feature": "planet"`` for a planet on that
  tile or on one of the 8 around it), or ``{}`` to deploy nothing. Then battles are
  fought, completed features scored, and the next seat draws.

The set-up shuffles the stack (``"stack"``) and every battle die is a ``"battle die"``
outcome, so the record holds the draw order and every roll.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from engine.carcassonne.battle import fight, units_in
from engine.carcassonne.board import Board, FeatureRef, Placed, Region
from engine.carcassonne.components import (
    COLOURS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TEAM_COLOURS,
    Colour,
    Kind,
    Size,
    catalogue,
    tile_type,
)
from engine.carcassonne.events import (
    FeatureScored,
    GameEnded,
    MeepleDeployed,
    NothingDeployed,
    TileDrawn,
    TilePlaced,
    TileRemoved,
    TileReturned,
)
from engine.carcassonne.messages import say as catalogue_text
from engine.carcassonne.state import GameState, Meeple, Options, Phase, Result, Unplaceable
from engine.core import (
    JSON,
    Action,
    Chance,
    EngineError,
    Event,
    GameOver,
    IllegalAction,
    MalformedAction,
    MalformedPosition,
    SeededRules,
    Transition,
)

PLACE = "place"
DEPLOY = "deploy"


@dataclass(frozen=True, order=True)
class Placement:
    x: int
    y: int
    rotation: int
    """Quarter turns clockwise (0–3)."""

    def to_json(self) -> dict[str, JSON]:
        return {"x": self.x, "y": self.y, "rotation": self.rotation * 90}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Placement:
        unknown = set(data) - {"x", "y", "rotation"}
        if unknown:
            raise MalformedAction(f"unknown placement keys: {', '.join(sorted(unknown))}")
        x, y, rotation = data.get("x"), data.get("y"), data.get("rotation", 0)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y, rotation)):
            raise MalformedAction("a placement needs integer 'x', 'y' and 'rotation'")
        assert isinstance(x, int) and isinstance(y, int) and isinstance(rotation, int)
        if rotation not in (0, 90, 180, 270):
            raise MalformedAction("'rotation' is 0, 90, 180 or 270 (degrees clockwise)")
        return cls(x, y, rotation // 90)


@dataclass(frozen=True, order=True)
class Deployment:
    """A meeple of ``size`` onto ``at``; ``None`` as a whole means deploying nothing."""

    at: FeatureRef
    size: Size

    def to_json(self) -> dict[str, JSON]:
        return {**self.at.to_json(), "meeple": self.size.value}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Deployment | None:
        if not data:
            return None
        unknown = set(data) - {"x", "y", "feature", "meeple"}
        if unknown:
            raise MalformedAction(f"unknown deployment keys: {', '.join(sorted(unknown))}")
        size = data.get("meeple", Size.SMALL.value)
        if size not in (Size.SMALL.value, Size.LARGE.value):
            raise MalformedAction('\'meeple\' is "small" or "large"')
        assert isinstance(size, str)
        return cls(FeatureRef.from_json(data), Size(size))


# --------------------------------------------------------------------------- set-up


def game_config(
    seats: int = 2,
    *,
    colours: list[str] | None = None,
    team: bool = False,
    unplaceable: str = Unplaceable.REMOVE.value,
) -> dict[str, JSON]:
    """A set-up configuration (see :func:`read_config`)."""
    config: dict[str, JSON] = {"seats": seats, "team": team, "unplaceable": unplaceable}
    if colours is not None:
        config["colours"] = list(colours)
    return config


def read_config(config: Mapping[str, JSON]) -> tuple[tuple[str, ...], Options]:
    """Seats (their colours, in turn order) and options. ``colours`` picks the colours;
    else ``seats`` takes the first colours in red, green, black, white, orange. The team
    variant seats red, black, green, white (team-mates diagonal, spec §5)."""
    unknown = set(config) - {"seats", "colours", "team", "unplaceable"}
    if unknown:
        raise MalformedPosition(f"unknown configuration keys: {', '.join(sorted(unknown))}")
    team = config.get("team", False)
    if not isinstance(team, bool):
        raise MalformedPosition("'team' is true or false")
    try:
        unplaceable = Unplaceable(config.get("unplaceable", Unplaceable.REMOVE.value))
    except ValueError:
        raise MalformedPosition('\'unplaceable\' is "remove" or "return"') from None
    if team:
        if config.get("seats", 4) != 4 or config.get("colours", None) not in (None, TEAM_COLOURS):
            raise MalformedPosition("the team variant is for 4 players: red, black, green, white")
        return tuple(TEAM_COLOURS), Options(team=True, unplaceable=unplaceable)
    colours = config.get("colours")
    if colours is None:
        seats = config.get("seats", 2)
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise MalformedPosition("'seats' is a number of players")
        colours = [colour.value for colour in COLOURS[: max(0, seats)]]
        if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
            raise MalformedPosition(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if (
        not isinstance(colours, list)
        or not MIN_PLAYERS <= len(colours) <= MAX_PLAYERS
        or len(set(map(str, colours))) != len(colours)
        or any(colour not in {c.value for c in COLOURS} for colour in colours)
    ):
        raise MalformedPosition(
            f"'colours' lists {MIN_PLAYERS} to {MAX_PLAYERS} different colours of "
            + ", ".join(c.value for c in COLOURS)
        )
    return tuple(str(colour) for colour in colours), Options(unplaceable=unplaceable)


# --------------------------------------------------------------------------- legality


def legal_placements(state: GameState) -> list[Placement]:
    """Every square and rotation where the tile in hand fits, row by row (spec §2). Turns
    that look the same (a symmetric tile) are listed once, the smallest rotation."""
    if state.phase is not Phase.PLACE or state.current is None:
        return []
    fitting = state.board.fitting(tile_type(state.current))
    return [Placement(x, y, rotation) for x, y, rotation in fitting]


def deploy_targets(state: GameState) -> list[FeatureRef]:
    """Where the active seat may deploy (spec §2, rulings of §6): a feature of the tile
    just placed that holds no meeple, that tile's planet, or a planet on one of the 8
    squares around it even if occupied (an attack)."""
    if state.phase is not Phase.DEPLOY or state.placed is None:
        return []
    x, y = state.placed
    board = state.board
    placed = board.at[(x, y)]
    occupied = {board.region(meeple.at).anchor for meeple in state.meeples}
    targets = [
        FeatureRef(x, y, index)
        for index in range(len(placed.type.features))
        if board.region(FeatureRef(x, y, index)).anchor not in occupied
    ]
    if placed.type.planet is not None:
        targets.append(FeatureRef(x, y, None))
    targets.extend(board.planets_around(x, y))
    return targets


def legal_deployments(state: GameState) -> list[Deployment | None]:
    """Every deployment open to the active seat, ``None`` (deploy nothing) first."""
    targets = deploy_targets(state)
    if state.phase is not Phase.DEPLOY:
        return []
    supply = state.supply(state.active_seat)
    sizes = [size for size in (Size.SMALL, Size.LARGE) if supply[size] > 0]
    return [None, *(Deployment(at, size) for at in targets for size in sizes)]


def _check_turn(state: GameState, action: Action, phase: Phase) -> None:
    if state.phase is Phase.OVER:
        raise _refused(GameOver, action.seat, "rule.game_over")
    if action.seat not in state.seats:
        raise MalformedAction(f"there is no seat {action.seat} in this game")
    if action.seat != state.active_seat:
        raise _refused(IllegalAction, action.seat, "rule.not_your_turn", seat=state.active_seat)
    if state.phase is not phase:
        wanted = "rule.place_first" if state.phase is Phase.PLACE else "rule.deploy_first"
        raise _refused(IllegalAction, action.seat, wanted)


# --------------------------------------------------------------------------- the turn


def place(state: GameState, seat: str, placement: Placement) -> tuple[GameState, list[Event]]:
    assert state.current is not None
    tile = tile_type(state.current)
    if not state.board.fits(tile, placement.x, placement.y, placement.rotation):
        raise _refused(
            IllegalAction,
            seat,
            "rule.does_not_fit",
            tile=tile.id,
            x=placement.x,
            y=placement.y,
            degrees=placement.rotation * 90,
        )
    placed = Placed(placement.x, placement.y, tile.id, placement.rotation)
    after = dataclasses.replace(
        state,
        board=state.board.with_tile(placed),
        current=None,
        phase=Phase.DEPLOY,
        placed=placed.square,
    )
    event = TilePlaced(seat, tile.id, placed.x, placed.y, placed.rotation * 90)
    return after, [event]


def deploy(
    state: GameState, seat: str, deployment: Deployment | None, chance: Chance
) -> tuple[GameState, list[Event]]:
    """Deploy (or not), fight the battles, score what the tile completed, draw on."""
    events: list[Event] = []
    meeples = list(state.meeples)
    board = state.board
    if deployment is None:
        events.append(NothingDeployed(seat))
    else:
        if deployment.at not in deploy_targets(state):
            message, params = _refusal(state, deployment.at)
            raise _refused(IllegalAction, seat, message, **params)
        if state.supply(seat)[deployment.size] == 0:
            raise _refused(IllegalAction, seat, "rule.no_meeple", size=deployment.size.value)
        meeples.append(Meeple(seat, deployment.size, deployment.at))
        attack = deployment.at.is_planet and deployment.at.square != state.placed
        kind = board.region(deployment.at).kind
        events.append(MeepleDeployed(seat, deployment.size, deployment.at, kind, attack))
    scores = dict(zip(state.units, state.scores, strict=True))
    assert state.placed is not None
    x, y = state.placed
    touched = touched_regions(board, x, y)
    for region in touched:
        inside = [m for m in meeples if board.region(m.at) is region]
        if len(units_in(inside, state.unit_of)) < 2:
            continue
        winner, points, battle_events = fight(
            region.anchor, region, inside, state.units, state.unit_of, state.faction_of, chance
        )
        events.extend(battle_events)
        for unit, gained in points.items():
            scores[unit] += gained
        meeples = [m for m in meeples if m not in inside or state.unit_of(m.seat) == winner]
    for region in touched:
        if not region.complete:
            continue
        inside = [m for m in meeples if board.region(m.at) is region]
        if not inside:
            continue
        event = _score(region, inside, state.unit_of, final=False)
        scores[event.unit] += event.points
        events.append(event)
        meeples = [m for m in meeples if m not in inside]
    after = dataclasses.replace(
        state,
        meeples=tuple(meeples),
        scores=tuple(scores[unit] for unit in state.units),
    )
    return next_turn(after, chance, events)


def touched_regions(board: Board, x: int, y: int) -> list[Region]:
    """The features the tile on (x, y) may have joined, contested or completed, in the
    order battles are fought and features scored (ruling of §6): the tile's features in
    catalogue order, then its own planet, then the planets around it clockwise from the
    north-west (the attacked one among them)."""
    placed = board.at[(x, y)]
    refs = [FeatureRef(x, y, index) for index in range(len(placed.type.features))]
    if placed.type.planet is not None:
        refs.append(FeatureRef(x, y, None))
    refs.extend(board.planets_around(x, y))
    regions: list[Region] = []
    for ref in refs:
        region = board.region(ref)
        if all(region is not seen for seen in regions):
            regions.append(region)
    return regions


def _refusal(state: GameState, at: FeatureRef) -> tuple[str, dict[str, JSON]]:
    """Why a deployment's target is refused: a message id and its parameters."""
    board = state.board
    if state.placed is not None and at.square == state.placed and not at.is_planet:
        if not board.has(at):
            return "rule.no_feature", {"feature": at.feature}
        return "rule.feature_held", {}
    if at.is_planet:
        return "rule.planet_not_near", {}
    return "rule.not_on_tile", {}


E = TypeVar("E", bound=EngineError)


def _refused(kind: type[E], who: str | None, message: str, /, **params: JSON) -> E:
    """A rule error whose reason is the English of ``message`` (its id and parameters go
    with it, for :func:`engine.carcassonne.messages.reason` in another language)."""
    reason = catalogue_text("en", message, **params)
    return kind(reason, seat=who, message=message, params=params)


def _score(region: Region, inside: list[Meeple], unit_of: Any, *, final: bool) -> FeatureScored:
    units = units_in(inside, unit_of)
    assert len(units) == 1, "a feature is scored once its battle is over"
    return FeatureScored(
        at=region.anchor,
        kind=region.kind,
        unit=units[0],
        points=region.value(final=final),
        tiles=region.tiles,
        symbols=len(region.symbols),
        complete=region.complete,
        final=final,
        returned=tuple(m.seat for m in inside),
    )


def next_turn(
    state: GameState, chance: Chance, events: list[Event]
) -> tuple[GameState, list[Event]]:
    """Pass to the next seat and draw (or end the game)."""
    state = dataclasses.replace(
        state, active=(state.active + 1) % len(state.seats), turn=state.turn + 1
    )
    return draw(state, chance, events)


def draw(state: GameState, chance: Chance, events: list[Event]) -> tuple[GameState, list[Event]]:
    """Draw for the active seat: a tile that fits nowhere is removed (or returned, the
    table option) and another drawn; an empty stack ends the game (spec §2, §4)."""
    stack = list(state.stack)
    removed = list(state.removed)
    board = state.board
    while stack:
        tile = stack.pop(0)
        if board.fits_anywhere(tile_type(tile)):
            events.append(TileDrawn(state.active_seat, tile, len(stack)))
            return (
                dataclasses.replace(
                    state,
                    stack=tuple(stack),
                    removed=tuple(removed),
                    current=tile,
                    phase=Phase.PLACE,
                    placed=None,
                    draws=chance.next_index,
                ),
                events,
            )
        if (
            state.options.unplaceable is Unplaceable.RETURN
            and stack
            and any(board.fits_anywhere(tile_type(other)) for other in set(stack))
        ):
            depth = 1 + chance.roll("returned tile depth", len(stack))
            stack.insert(depth, tile)
            events.append(TileReturned(tile))
            continue
        removed.append(tile)
        events.append(TileRemoved(tile))
    state = dataclasses.replace(
        state,
        stack=(),
        removed=tuple(removed),
        current=None,
        placed=None,
        draws=chance.next_index,
    )
    return end_game(state, events)


def final_scores(state: GameState) -> list[FeatureScored]:
    """What every feature still holding meeples scores at the end (spec §4), in map order."""
    board = state.board
    out: list[FeatureScored] = []
    for region in board.regions:
        inside = [m for m in state.meeples if board.region(m.at) is region]
        if inside:
            out.append(_score(region, inside, state.unit_of, final=True))
    return out


def end_game(state: GameState, events: list[Event]) -> tuple[GameState, list[Event]]:
    scores = dict(zip(state.units, state.scores, strict=True))
    for event in final_scores(state):
        scores[event.unit] += event.points
        events.append(event)
    ranking = sorted(state.units, key=lambda unit: -scores[unit])
    top = scores[ranking[0]]
    result = Result(
        tuple((unit, scores[unit]) for unit in ranking),
        tuple(unit for unit in ranking if scores[unit] == top),
    )
    events.append(GameEnded(result))
    after = dataclasses.replace(
        state,
        meeples=(),
        scores=tuple(scores[unit] for unit in state.units),
        phase=Phase.OVER,
        result=result,
    )
    return after, events


class CarcassonneRules(SeededRules[GameState]):
    """The rules of Carcassonne: Star Wars (pure; see :class:`~engine.core.Ruleset`)."""

    id: ClassVar[str] = "carcassonne"
    version: ClassVar[int] = 1

    def setup(self, config: Mapping[str, JSON], seed: int, chance: Chance) -> GameState:
        """The start tile on 0,0, the stack shuffled, the first tile drawn for the first
        seat (spec §2; the first seat plays first)."""
        seats, options = read_config(config)
        tiles = catalogue()
        ordered = tiles.stack()
        stack = tuple(ordered[i] for i in chance.shuffle("stack", len(ordered)))
        state = GameState(
            seats=seats,
            options=options,
            seed=seed,
            draws=chance.next_index,
            board=Board((Placed(0, 0, tiles.start.id, 0),)),
            meeples=(),
            stack=stack,
            current=None,
            removed=(),
            active=0,
            turn=1,
            phase=Phase.PLACE,
            placed=None,
            scores=tuple(0 for _ in (("rebels", "empire") if options.team else seats)),
        )
        return draw(state, chance, [])[0]

    def apply(self, state: GameState, action: Action, chance: Chance) -> Transition[GameState]:
        """Apply a ``place`` or a ``deploy``.

        Raises:
            MalformedAction: unknown kind or seat, unreadable data.
            IllegalAction: not this seat's turn or phase, a tile that does not fit, a
                deployment the rules forbid.
            GameOver: the game has ended.
        """
        if action.kind == PLACE:
            _check_turn(state, action, Phase.PLACE)
            assert action.seat is not None
            after, events = place(state, action.seat, Placement.from_json(action.data))
        elif action.kind == DEPLOY:
            _check_turn(state, action, Phase.DEPLOY)
            assert action.seat is not None
            after, events = deploy(state, action.seat, Deployment.from_json(action.data), chance)
        else:
            raise MalformedAction(
                f"unknown action '{action.kind}' (a turn is '{PLACE}' then '{DEPLOY}')"
            )
        return Transition(after, tuple(events))

    def from_position(self, position: Mapping[str, JSON]) -> GameState:
        from engine.carcassonne.notation import read_position

        return read_position(position)

    def to_position(self, state: GameState) -> dict[str, JSON]:
        from engine.carcassonne.notation import write_position

        return write_position(state)


RULESET = CarcassonneRules()

__all__ = [
    "DEPLOY",
    "PLACE",
    "RULESET",
    "CarcassonneRules",
    "Colour",
    "Deployment",
    "Kind",
    "Placement",
    "game_config",
    "legal_deployments",
    "legal_placements",
]
