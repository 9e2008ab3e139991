"""Cartographers on the host: every player draws the explore card in play on their own map
at once; the last drawing resolves the turn (engine: :mod:`engine.cartographers`; rules:
``spec/cartographers.md``).

Lobby options: ``side`` (map side ``A`` or ``B``) and ``ambush`` (``auto``: the monster is
drawn by the solo scan; ``neighbour``: each player draws it on a neighbour's map). One to
twelve players; solo play ends with a title. Announcements: where automatic ambushes
landed (a reveal), the board of every new turn (the card in play), the scores at each
season's end, and the podium.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from bot.games.base import BOARD, PODIUM, REVEAL, GameHost, ServiceError, Shape, Standing
from engine.cartographers import MONSTER, PLACE, RULESET, GameState, Phase, SeatView, view
from engine.cartographers.ai import LEVELS, ai_action
from engine.cartographers.ai.base import action_for, legal_choices
from engine.cartographers.events import AmbushIgnored, MonsterPlaced, SeasonScored
from engine.cartographers.messages import text
from engine.cartographers.placement import Placement
from engine.cartographers.rules import WITHDRAW, read_config, seat_names, table_config
from engine.core import JSON, Action, EngineError, Event, Rng
from engine.i18n import base_locale

SEASON = "season"
"""The announcement of a season's scores (after its last turn)."""
MAX_SEATS = 12
"""The engine takes up to 100; a Discord table stays readable up to 12 maps."""
AI_LEVELS: tuple[str, ...] = LEVELS
DEFAULT_OPTIONS: dict[str, JSON] = {"side": "A", "ambush": "auto"}


def drawing_action(seat_view: SeatView, placement: Placement, seat: str | None = None) -> Action:
    """The engine action for drawing ``placement`` now: the explore card's drawing, or in
    an ambush phase the monster on the neighbour's map."""
    kind = MONSTER if seat_view.phase is Phase.AMBUSH else PLACE
    return Action(kind, seat, placement.to_json())


class CartographersHost(GameHost):
    id: ClassVar[str] = RULESET.id
    ruleset = RULESET
    shape = Shape.SIMULTANEOUS
    min_seats = 1
    max_seats = MAX_SEATS
    default_seats = 4
    ai_levels = AI_LEVELS
    option_names = tuple(DEFAULT_OPTIONS)

    def rule_text(self, error: EngineError, locale: str | None) -> str:
        if error.message is None:
            return error.reason
        try:
            return text(error.message, error.params, base_locale(locale))
        except KeyError:
            return error.reason

    def check_options(self, options: Mapping[str, JSON], seats: int) -> dict[str, JSON]:
        chosen = {**DEFAULT_OPTIONS, **dict(options)}
        if set(chosen) != set(DEFAULT_OPTIONS):
            raise ServiceError("error.bad_options")
        try:
            read_config(self.config(max(seats, 2), chosen))
        except EngineError:
            raise ServiceError("error.bad_options") from None
        return chosen

    def seat_names(self, count: int, options: Mapping[str, JSON]) -> tuple[str, ...]:
        return seat_names(count)

    def config(self, seats: int, options: Mapping[str, JSON]) -> dict[str, JSON]:
        chosen = {**DEFAULT_OPTIONS, **dict(options)}
        if seats == 1:
            chosen["ambush"] = "auto"
        return table_config(seats, str(chosen["side"]), str(chosen["ambush"]))

    def waiting_for(self, state: GameState) -> tuple[str, ...]:
        return state.waiting_for

    def stage(self, state: GameState) -> int:
        return state.turn

    def standing(self, state: GameState) -> Standing | None:
        result = state.result
        if result is None:
            return None
        places: dict[str, int] = {}
        for index, seat in enumerate(result.ranking, start=1):
            places[seat] = 1 if seat in result.winners else index
        return Standing(places, state.turn)

    def announcements(
        self, before: GameState, after: GameState, events: Sequence[Event]
    ) -> tuple[tuple[str, int], ...]:
        if after.turn == before.turn and not after.is_over:
            return ()
        rows: list[tuple[str, int]] = []
        if any(isinstance(event, (MonsterPlaced, AmbushIgnored)) for event in events):
            rows.append((REVEAL, before.turn))
        if any(isinstance(event, SeasonScored) for event in events):
            rows.append((SEASON, before.turn))
        rows.append((PODIUM, before.turn) if after.is_over else (BOARD, after.turn))
        return tuple(rows)

    def view(self, state: GameState, seat: str | None) -> SeatView:
        return view(state, seat)

    def action(self, seat: str, move: object) -> Action:
        if isinstance(move, Action):
            return Action(move.kind, seat, move.data)
        if isinstance(move, Placement):
            raise TypeError("a placement needs its phase: use drawing_action")
        raise TypeError(f"not a Cartographers move: {move!r}")

    def repeats(self, state: GameState, action: Action) -> bool:
        assert action.seat is not None
        chosen = state.commit_of(action.seat)
        if chosen is None:
            return False
        wanted = dict(action.data)
        return chosen.placement.to_json() == {
            key: value for key, value in wanted.items() if key != "cells"
        }

    def has_chosen(self, state: GameState, seat: str) -> bool:
        return state.commit_of(seat) is not None

    def withdraw_action(self, state: GameState, seat: str) -> Action | None:
        return Action(WITHDRAW, seat) if self.has_chosen(state, seat) else None

    def ai_action(self, level: str, seat_view: SeatView, rng: Rng) -> Action:
        """The engine's AI of ``level`` (random, greedy, strategic) from the seat's view."""
        return ai_action(level, seat_view, rng)

    def fallback_action(self, seat_view: SeatView) -> Action:
        return action_for(seat_view, legal_choices(seat_view)[0])


HOST = CartographersHost()

__all__ = ["AI_LEVELS", "HOST", "SEASON", "CartographersHost", "drawing_action", "legal_choices"]
