"""Charioteer on the host: simultaneous secret moves, the last one resolves the turn
(engine: :mod:`engine.charioteer`; rules: ``spec/charioteer.md`` §3).

Lobby option: ``laps`` (1–9, default 3). Timeout policies: ``ai`` (the AI seat's move) or
``reset`` (discard the weakest card, :func:`timeout_reset`). Announcements per resolved
turn: the reveal, then the board of the next turn or the podium.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.games.base import BOARD, PODIUM, REVEAL, GameHost, ServiceError, Shape, Standing
from engine.charioteer import RULESET, Move, RaceOptions, SeatView, view
from engine.charioteer.components import MAX_PLAYERS, MIN_PLAYERS
from engine.charioteer.race import COMMIT, WITHDRAW, race_config
from engine.charioteer.render import rule_text
from engine.charioteer.state import MAX_LAPS as ENGINE_MAX_LAPS
from engine.charioteer.state import SEAT_NAMES, RaceState
from engine.core import JSON, Action, EngineError, Event, Rng

AI_LEVELS: tuple[str, ...] = ("random", "greedy", "strategic")
MAX_LAPS = ENGINE_MAX_LAPS
"""The most laps a table offers, on Discord as in the terminal: the engine's most."""


def commit(move: Move, seat: str | None = None) -> Action:
    """The engine action of a seat committing ``move``."""
    return Action(COMMIT, seat, move.to_json())


def timeout_reset(seat_view: SeatView) -> Move:
    """The reset move a timed-out seat makes: one card, the one with the fewest symbols."""
    hand = seat_view.hand
    weakest = min(
        range(len(hand)), key=lambda index: (sum(c for _, c in hand[index].symbols), index)
    )
    return Move.reset((weakest,))


class CharioteerHost(GameHost):
    id: ClassVar[str] = RULESET.id
    ruleset = RULESET
    shape = Shape.SIMULTANEOUS
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    default_seats = 4
    ai_levels = AI_LEVELS
    timeout_policies = ("ai", "reset")
    option_names = tuple(option.name for option in dataclasses.fields(RaceOptions))
    demo_options: ClassVar[Mapping[str, JSON]] = {"laps": 1}

    def rule_text(self, error: EngineError, locale: str | None) -> str:
        return rule_text(error, locale or "en")

    def check_options(self, options: Mapping[str, JSON], seats: int) -> dict[str, JSON]:
        try:
            chosen = RaceOptions(**dict(options))
        except (EngineError, TypeError):
            raise ServiceError("error.bad_options") from None
        return {"laps": chosen.laps, **chosen.to_json()}

    def seat_names(self, count: int, options: Mapping[str, JSON]) -> tuple[str, ...]:
        return SEAT_NAMES[:count]

    def config(self, seats: int, options: Mapping[str, JSON]) -> dict[str, JSON]:
        return race_config(seats, **dict(options))

    def waiting_for(self, state: RaceState) -> tuple[str, ...]:
        return state.waiting_for

    def stage(self, state: RaceState) -> int:
        return state.turn

    def standing(self, state: RaceState) -> Standing | None:
        result = state.result
        if result is None:
            return None
        places = {seat: place for place, seat in enumerate(result.ranking, start=1)}
        return Standing(places, result.turns)

    def announcements(
        self, before: RaceState, after: RaceState, events: Sequence[Event]
    ) -> tuple[tuple[str, int], ...]:
        if after.turn == before.turn and after.result is None:
            return ()
        if after.result is not None:
            return ((REVEAL, before.turn), (PODIUM, before.turn))
        return ((REVEAL, before.turn), (BOARD, after.turn))

    def view(self, state: RaceState, seat: str | None) -> SeatView:
        return view(state, seat)

    def action(self, seat: str, move: Any) -> Action:
        if isinstance(move, Action):
            return Action(move.kind, seat, move.data)
        return commit(move, seat)

    def repeats(self, state: RaceState, action: Action) -> bool:
        assert action.seat is not None
        chosen = state.commit_of(action.seat)
        return chosen is not None and chosen.to_json() == dict(action.data)

    def has_chosen(self, state: RaceState, seat: str) -> bool:
        return state.commit_of(seat) is not None

    def withdraw_action(self, state: RaceState, seat: str) -> Action | None:
        return Action(WITHDRAW, seat) if self.has_chosen(state, seat) else None

    def ai_action(self, level: str, seat_view: SeatView, rng: Rng) -> Action:
        from engine.charioteer.ai import policy_for

        move = policy_for(level).choose(seat_view, rng)
        seat_view.analyse(move)
        return commit(move)

    def fallback_action(self, seat_view: SeatView) -> Action:
        return commit(timeout_reset(seat_view))

    def timeout_action(self, policy: str, seat_view: SeatView, rng: Rng) -> Action | None:
        return commit(timeout_reset(seat_view)) if policy == "reset" else None


HOST = CharioteerHost()

__all__ = ["AI_LEVELS", "HOST", "MAX_LAPS", "CharioteerHost", "commit", "timeout_reset"]
