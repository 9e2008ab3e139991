"""The active player's Carcassonne panel, without Discord: a turn is two steps (spec §2).

1. **Place**: the tile in hand, the squares where it fits numbered from 1 (row by row, as
   :func:`engine.carcassonne.legal_placements` lists them), the chosen square and a turn
   of the tile that fits there (``Rotate`` goes to the next turn that fits). The picture
   shows the tile where it would go, with every spot numbered.
2. **Deploy**: the features of the placed tile that hold no meeple, its planet and the
   planets around it (an attack, even when occupied), or nothing; a small or large meeple
   while the seat has one left. The picture numbers them from 1 in the order listed.

Placing the tile is a choice like the others, kept in the draft: nothing is played until
Confirm plays the placement and the deployment (as the terminal game does), so ``undo``
takes the tile back into the hand until then, and nothing random has happened. A
placement stored already (a turn timed out halfway) cannot be taken back.

The draft (what the player has picked, not yet played) is stored by the service per seat
and turn as JSON, so a panel keeps working after a restart. Every choice read from a
control is checked against the current position: a stale or forged value is refused.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bot.games.base import ServiceError
from bot.games.carcassonne.story import tile_text
from bot.text import t
from engine.carcassonne import (
    DEPLOY,
    PLACE,
    Deployment,
    FeatureRef,
    Phase,
    Placement,
    SeatView,
    Size,
    legal_placements,
    view,
)
from engine.carcassonne.render import board_png
from engine.carcassonne.rules import deploy_targets, place
from engine.carcassonne.text import target_words
from engine.core import JSON, Action, typed_number
from engine.i18n import base_locale

SPOTS_PER_PAGE = 25
"""A Discord select holds 25 options; more spots are paged."""
NOTHING = "none"


def spots_of(seat_view: SeatView) -> dict[tuple[int, int], tuple[int, ...]]:
    """Every square where the tile in hand fits, in the engine's order, with the turns
    (quarter turns clockwise) that fit there."""
    spots: dict[tuple[int, int], list[int]] = {}
    for placement in legal_placements(seat_view.as_state()):
        spots.setdefault((placement.x, placement.y), []).append(placement.rotation)
    return {square: tuple(turns) for square, turns in spots.items()}


@dataclass(frozen=True)
class TurnDraft:
    """What the active player has picked this turn (stored as JSON)."""

    spot: int = 0
    """The chosen square's index in :func:`spots_of` order."""
    turn: int | None = None
    """The chosen quarter turns; None: the first that fits."""
    target: int | None = None
    """The chosen deployment target's index; None: deploy nothing."""
    size: str = Size.SMALL.value
    placed: bool = False
    """The tile is placed on the chosen spot and turn (not played before Confirm)."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "spot": self.spot,
            "turn": self.turn,
            "target": self.target,
            "size": self.size,
            "placed": self.placed,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON] | None) -> TurnDraft:
        if not data:
            return cls()
        spot, turn, target, size = (data.get(k) for k in ("spot", "turn", "target", "size"))
        return cls(
            spot if isinstance(spot, int) and spot >= 0 else 0,
            turn if isinstance(turn, int) and 0 <= turn < 4 else None,
            target if isinstance(target, int) and target >= 0 else None,
            size if size in (Size.SMALL.value, Size.LARGE.value) else Size.SMALL.value,
            data.get("placed") is True,
        )


@dataclass(frozen=True)
class PlacePanel:
    """Step 1: where the tile goes."""

    tile: str
    squares: tuple[tuple[int, int], ...]
    turns: tuple[int, ...]
    """The turns that fit on the chosen square."""
    spot: int
    turn: int

    @property
    def square(self) -> tuple[int, int]:
        return self.squares[self.spot]

    @property
    def placement(self) -> Placement:
        return Placement(self.square[0], self.square[1], self.turn)

    @property
    def page(self) -> int:
        return self.spot // SPOTS_PER_PAGE

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.squares) // SPOTS_PER_PAGE))

    def page_spots(self) -> list[tuple[int, tuple[int, int]]]:
        """The (index, square) pairs the spot select shows: the chosen spot's page."""
        start = self.page * SPOTS_PER_PAGE
        return list(enumerate(self.squares))[start : start + SPOTS_PER_PAGE]


@dataclass(frozen=True)
class DeployPanel:
    """Step 2: a meeple on (or from) the placed tile, or nothing."""

    placed: tuple[int, int]
    tile: str
    rotation: int
    targets: tuple[FeatureRef, ...]
    labels: tuple[str, ...]
    sizes: tuple[str, ...]
    """The meeple sizes the seat still has."""
    target: int | None
    size: str

    @property
    def deployment(self) -> Deployment | None:
        if self.target is None or not self.sizes:
            return None
        return Deployment(self.targets[self.target], Size(self.size))


def place_panel(seat_view: SeatView, draft: TurnDraft) -> PlacePanel | None:
    """Step 1, while the tile is in hand (not placed yet, not even in the draft)."""
    if draft.placed:
        return None
    return placing(seat_view, draft)


def placing(seat_view: SeatView, draft: TurnDraft) -> PlacePanel | None:
    """The placement the draft chose (placed in it or not), while the tile is in hand."""
    if seat_view.phase is not Phase.PLACE or seat_view.current is None:
        return None
    spots = spots_of(seat_view)
    squares = tuple(spots)
    if not squares:
        return None
    spot = draft.spot if draft.spot < len(squares) else 0
    turns = spots[squares[spot]]
    turn = draft.turn if draft.turn in turns else turns[0]
    return PlacePanel(seat_view.current, squares, turns, spot, turn)


def deploying_view(seat_view: SeatView, draft: TurnDraft) -> SeatView | None:
    """The position step 2 reads: the tile placed as the draft placed it (a preview:
    nothing is played yet), or as stored; None while the tile is in hand."""
    if seat_view.phase is Phase.DEPLOY:
        return seat_view
    placement = draft_placement(seat_view, draft)
    return None if placement is None else preview(seat_view, placement)


def deploy_panel(
    seat_view: SeatView, draft: TurnDraft, locale: str | None = None
) -> DeployPanel | None:
    """Step 2 (``seat_view``: the seat's own view; the placement may be the draft's)."""
    after = deploying_view(seat_view, draft)
    if after is None or after.placed is None:
        return None
    seat_view = after
    placed = seat_view.board.at[after.placed]
    targets = tuple(deploy_targets(seat_view.as_state()))
    labels = []
    for ref in targets:
        words = target_words(seat_view.board, placed.square, ref, base_locale(locale))
        if ref.square != placed.square:
            words = t(locale, "carc.attack_target", feature=words)
        labels.append(words)
    supply = seat_view.supply(seat_view.active)
    sizes = tuple(size.value for size in (Size.SMALL, Size.LARGE) if supply[size] > 0)
    target = draft.target if draft.target is not None and draft.target < len(targets) else None
    size = draft.size if draft.size in sizes else (sizes[0] if sizes else Size.SMALL.value)
    return DeployPanel(
        placed.square, placed.tile, placed.rotation, targets, tuple(labels), sizes, target, size
    )


def choose(seat_view: SeatView, draft: TurnDraft, verb: str, values: Sequence[str]) -> TurnDraft:
    """The draft after one control: ``spot`` (select), ``rotate``, ``page`` (buttons),
    ``where`` and ``size`` (selects), ``undo`` (the tile back in hand). A value that is
    not on offer now is refused."""
    value = values[0] if values else ""
    if verb == "undo":
        if not draft.placed or seat_view.phase is not Phase.PLACE:
            raise ServiceError("carc.nothing_to_undo")
        return TurnDraft(spot=draft.spot, turn=draft.turn)
    if verb in ("spot", "rotate", "page"):
        panel = place_panel(seat_view, draft)
        if panel is None:
            raise ServiceError("carc.already_placed")
        if verb == "spot":
            index = _index(value, len(panel.squares))
            return TurnDraft(spot=index)
        if verb == "rotate":
            turns = panel.turns
            following = turns[(turns.index(panel.turn) + 1) % len(turns)]
            return TurnDraft(spot=panel.spot, turn=following)
        following_page = (panel.page + 1) % panel.pages
        return TurnDraft(spot=following_page * SPOTS_PER_PAGE)
    chosen = deploy_panel(seat_view, draft)
    if chosen is None:
        raise ServiceError("carc.place_first")
    if verb == "where":
        target = None if value == NOTHING else _index(value, len(chosen.targets))
        return replace(draft, target=target, size=chosen.size)
    if verb == "size":
        if value not in chosen.sizes:
            raise ServiceError("game.stale_choice")
        return replace(draft, target=chosen.target, size=value)
    raise ServiceError("error.unknown_button")


def _index(value: str, count: int) -> int:
    index = typed_number(value)
    if index is None or index >= count:
        raise ServiceError("game.stale_choice")
    return index


def placed(seat_view: SeatView, draft: TurnDraft) -> TurnDraft:
    """The draft with the tile placed where the panel shows it (step 1's Place)."""
    panel = place_panel(seat_view, draft)
    if panel is None:
        raise ServiceError("carc.already_placed")
    return TurnDraft(spot=panel.spot, turn=panel.turn, placed=True)


def turn_actions(
    seat_view: SeatView, draft: TurnDraft, panel: DeployPanel | None = None
) -> list[Action]:
    """What Confirm plays: the draft's placement (unless stored already), then its
    deployment (``panel``: the draft's deployment step, when already worked out)."""
    panel = panel or deploy_panel(seat_view, draft)
    if panel is None:
        raise ServiceError("carc.place_first")
    chosen = placing(seat_view, draft) if seat_view.phase is Phase.PLACE else None
    first = [] if chosen is None else [place_action(seat_view, chosen)]
    return [*first, deploy_action(seat_view, panel)]


def place_action(seat_view: SeatView, panel: PlacePanel) -> Action:
    return Action(PLACE, seat_view.seat, panel.placement.to_json())


def deploy_action(seat_view: SeatView, panel: DeployPanel) -> Action:
    deployment = panel.deployment
    return Action(DEPLOY, seat_view.seat, {} if deployment is None else deployment.to_json())


PREVIEWS_KEPT = 128
"""Previews kept (:func:`preview`): a turn's clicks ask for the same one again and again."""
_previews: OrderedDict[tuple[int, Placement], tuple[SeatView, SeatView]] = OrderedDict()


def preview(seat_view: SeatView, placement: Placement) -> SeatView:
    """The position as it would be with the tile in hand placed (for the panel's picture:
    the turn's own player sees it, nothing is hidden from them). Kept for the view it
    was worked out from (the service gives a turn's clicks one view)."""
    key = (id(seat_view), placement)
    kept = _previews.get(key)
    if kept is not None and kept[0] is seat_view:
        _previews.move_to_end(key)
        return kept[1]
    after = _placed(seat_view, placement)
    _previews[key] = (seat_view, after)  # the view held: its id is not given to another
    while len(_previews) > PREVIEWS_KEPT:
        _previews.popitem(last=False)
    return after


def _placed(seat_view: SeatView, placement: Placement) -> SeatView:
    assert seat_view.seat is not None
    after, _ = place(seat_view.as_state(), seat_view.seat, placement)
    return view(after, seat_view.seat)


def place_png(
    seat_view: SeatView,
    placement: Placement,
    squares: Sequence[tuple[int, int]],
    locale: str = "en",
    names: Mapping[str, str] | None = None,
) -> bytes:
    """The panel's picture in step 1: the tile where it would go (framed), and every spot
    where it fits numbered (the chosen one on its corner), with the players' ``names``."""
    return board_png(
        _placed(seat_view, placement),
        names=names,
        last=placement_square(placement),
        spots=squares,
        locale=locale,
    )


def placement_square(placement: Placement) -> tuple[int, int]:
    return (placement.x, placement.y)


def deploy_png(
    seat_view: SeatView,
    locale: str = "en",
    names: Mapping[str, str] | None = None,
    placement: Placement | None = None,
) -> bytes:
    """The panel's picture in step 2: the map with the placed tile framed and the places
    a meeple can go numbered as the choices list them, with the players' ``names``;
    ``placement``: the tile in hand placed there first (the draft's placement, not
    played yet)."""
    if placement is not None:
        seat_view = _placed(seat_view, placement)
    targets = deploy_targets(seat_view.as_state()) if seat_view.phase is Phase.DEPLOY else []
    return board_png(seat_view, names=names, targets=targets, locale=locale)


def draft_placement(seat_view: SeatView, draft: TurnDraft) -> Placement | None:
    """The placement the draft made and nothing has played yet (the tile still in hand)."""
    if not draft.placed or seat_view.phase is not Phase.PLACE:
        return None
    chosen = placing(seat_view, draft)
    return None if chosen is None else chosen.placement


__all__ = [
    "NOTHING",
    "SPOTS_PER_PAGE",
    "DeployPanel",
    "PlacePanel",
    "TurnDraft",
    "choose",
    "deploy_action",
    "deploy_panel",
    "deploy_png",
    "deploying_view",
    "draft_placement",
    "place_action",
    "place_panel",
    "place_png",
    "placed",
    "placing",
    "preview",
    "spots_of",
    "tile_text",
    "turn_actions",
]
