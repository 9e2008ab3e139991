"""Nim's host adapter: turn-based play, one pile, AI seats that play at random or
perfectly (leave the opponent a multiple of four)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import BOARD, PODIUM, REVEAL, GameHost, ServiceError, Shape, Standing
from engine.core import JSON, Action, Event, Rng
from tests.games.nim.rules import MAX_TAKE, PILE, RULESET, SEATS, TAKE, NimState, NimView, view


def take(seat: str, count: int) -> Action:
    return Action(TAKE, seat, {"count": count})


class NimHost(GameHost):
    id = "nim"
    ruleset = RULESET
    shape = Shape.TURN_BASED
    min_seats = 2
    max_seats = len(SEATS)
    default_seats = 2
    ai_levels = ("random", "greedy")
    """``greedy`` plays the perfect move whenever there is one."""
    option_names = ("pile",)

    def check_options(self, options: Mapping[str, JSON], seats: int) -> dict[str, JSON]:
        pile = options.get("pile", PILE)
        if set(options) - {"pile"} or not isinstance(pile, int) or not 1 <= pile <= 99:
            raise ServiceError("error.bad_options")
        return {"pile": pile}

    def seat_names(self, count: int, options: Mapping[str, JSON]) -> tuple[str, ...]:
        return tuple(SEATS[:count])

    def config(self, seats: int, options: Mapping[str, JSON]) -> dict[str, JSON]:
        return {"seats": seats, "pile": options.get("pile", PILE)}

    def waiting_for(self, state: NimState) -> tuple[str, ...]:
        return () if state.is_over else (state.active,)

    def stage(self, state: NimState) -> int:
        return state.turn

    def standing(self, state: NimState) -> Standing | None:
        if state.winner is None:
            return None
        places = {seat: 1 if seat == state.winner else 2 for seat in state.seats}
        return Standing(places, state.turn - 1)

    def announcements(
        self, before: NimState, after: NimState, events: Sequence[Event]
    ) -> tuple[tuple[str, int], ...]:
        last = (PODIUM, before.turn) if after.is_over else (BOARD, after.turn)
        return ((REVEAL, before.turn), last)

    def view(self, state: NimState, seat: str | None) -> NimView:
        return view(state, seat)

    def action(self, seat: str, move: Any) -> Action:
        if isinstance(move, Action):
            return Action(move.kind, seat, move.data)
        return take(seat, int(move))

    def ai_action(self, level: str, seat_view: NimView, rng: Rng) -> Action:
        perfect = seat_view.pile % (MAX_TAKE + 1)
        if level == "greedy" and perfect:
            return take(seat_view.active, perfect)
        return take(seat_view.active, 1 + rng.below(seat_view.most))

    def fallback_action(self, seat_view: NimView) -> Action:
        return take(seat_view.active, 1)


HOST = NimHost()
