"""Carcassonne: Star Wars on the host: turn-based tile laying, one active player at a time
(engine: :mod:`engine.carcassonne`; rules: ``spec/carcassonne-star-wars.md``).

A player's turn is two actions: ``place`` the drawn tile, then ``deploy`` a meeple on (or
from) it, or nothing. The stage is the engine's turn number, so a panel left open across
another player's turn is stale. Lobby options: ``team`` (the 4-player team variant, §5) and
``unplaceable`` (a tile that fits nowhere is ``remove``\\ d, or ``return``\\ ed to the stack).
A timeout places the tile where the AI would and deploys nothing. Announcements: after each
turn one post, the board of the next player (which tells the turns played since the last
board: placement, battles with every die, scoring), or at the end the podium (the last
turns, the final scoring and the ranking).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from bot.games.base import BOARD, PODIUM, GameHost, ServiceError, Shape, Standing
from engine.carcassonne import DEPLOY, PLACE, RULESET, GameState, Phase, SeatView, view
from engine.carcassonne.ai import LEVELS, RandomPolicy, next_action, policy_for
from engine.carcassonne.components import MAX_PLAYERS, MIN_PLAYERS
from engine.carcassonne.messages import reason
from engine.carcassonne.rules import game_config, read_config
from engine.core import JSON, Action, EngineError, Event, Rng

AI_LEVELS: tuple[str, ...] = LEVELS
TIMEOUT_PLACER = "greedy"
"""The level whose placement a timed-out player's tile gets (then nothing is deployed)."""
DEFAULT_OPTIONS: dict[str, JSON] = {"team": False, "unplaceable": "remove"}


def standing_of(state: GameState) -> Standing | None:
    """Placings from the final scores: a seat shares its team's place in the team variant;
    equal scores share a place."""
    result = state.result
    if result is None:
        return None
    scores = dict(result.scores)
    unit_place = {
        unit: 1 + sum(other > score for other in scores.values()) for unit, score in scores.items()
    }
    places = {seat: unit_place[state.unit_of(seat)] for seat in state.seats}
    teams = {seat: state.unit_of(seat) for seat in state.seats} if state.options.team else {}
    return Standing(places, state.turn, teams)


class CarcassonneHost(GameHost):
    id: ClassVar[str] = RULESET.id
    ruleset = RULESET
    shape = Shape.TURN_BASED
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    default_seats = 3
    ai_levels = AI_LEVELS
    option_names = tuple(DEFAULT_OPTIONS)

    def rule_text(self, error: EngineError, locale: str | None) -> str:
        return reason(error, locale)

    def check_options(self, options: Mapping[str, JSON], seats: int) -> dict[str, JSON]:
        chosen = {**DEFAULT_OPTIONS, **dict(options)}
        if set(chosen) != set(DEFAULT_OPTIONS):
            raise ServiceError("error.bad_options")
        try:
            read_config({"seats": seats, **chosen})  # as typed: a team of "maybe" is no team
        except EngineError:
            raise ServiceError("error.bad_options") from None
        return chosen

    def seat_names(self, count: int, options: Mapping[str, JSON]) -> tuple[str, ...]:
        names, _ = read_config(self.config(count, options))
        return names

    def config(self, seats: int, options: Mapping[str, JSON]) -> dict[str, JSON]:
        chosen = {**DEFAULT_OPTIONS, **dict(options)}
        return game_config(seats, team=bool(chosen["team"]), unplaceable=str(chosen["unplaceable"]))

    def waiting_for(self, state: GameState) -> tuple[str, ...]:
        return () if state.is_over else (state.active_seat,)

    def stage(self, state: GameState) -> int:
        return state.turn

    def standing(self, state: GameState) -> Standing | None:
        return standing_of(state)

    def announcements(
        self, before: GameState, after: GameState, events: Sequence[Event]
    ) -> tuple[tuple[str, int], ...]:
        if after.turn == before.turn and not after.is_over:
            return ()
        return ((PODIUM, before.turn) if after.is_over else (BOARD, after.turn),)

    def view(self, state: GameState, seat: str | None) -> SeatView:
        return view(state, seat)

    def action(self, seat: str, move: object) -> Action:
        if isinstance(move, Action):
            return Action(move.kind, seat, move.data)
        raise TypeError(f"not a Carcassonne action: {move!r}")

    def ai_action(self, level: str, seat_view: SeatView, rng: Rng) -> Action:
        return next_action(policy_for(level), seat_view, rng)

    def fallback_action(self, seat_view: SeatView) -> Action:
        if seat_view.phase is Phase.DEPLOY:
            return Action(DEPLOY, seat_view.seat, {})
        return next_action(RandomPolicy(), seat_view, Rng(0))

    def timeout_action(self, policy: str, seat_view: SeatView, rng: Rng) -> Action | None:
        if seat_view.phase is Phase.DEPLOY:
            return Action(DEPLOY, seat_view.seat, {})
        placed = next_action(policy_for(TIMEOUT_PLACER), seat_view, rng)
        assert placed.kind == PLACE
        return placed


HOST = CarcassonneHost()

__all__ = ["AI_LEVELS", "HOST", "CarcassonneHost", "standing_of"]
