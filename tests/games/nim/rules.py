"""Nim, the test game's rules: players take 1 to 3 counters from one pile in turn; who
takes the last counter wins. Pure, as an engine is (no chance at all: the seed only names
the game). Seats are ``A``, ``B``, … in turn order."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from engine.core import JSON, Action, Chance, Event, GameOver, IllegalAction, Transition

PILE = 15
MAX_TAKE = 3
SEATS = "ABCD"
TAKE = "take"


@dataclass(frozen=True)
class NimState:
    seats: tuple[str, ...]
    pile: int
    turn: int = 1
    seed: int = 0
    winner: str | None = None

    @property
    def active(self) -> str:
        return self.seats[(self.turn - 1) % len(self.seats)]

    @property
    def is_over(self) -> bool:
        return self.winner is not None


@dataclass(frozen=True)
class Took(Event):
    type: ClassVar[str] = "took"
    seat: str
    count: int
    left: int


@dataclass(frozen=True)
class Won(Event):
    type: ClassVar[str] = "won"
    seat: str


@dataclass(frozen=True)
class NimView:
    """Everything is public in Nim: every seat sees the same."""

    seat: str | None
    seats: tuple[str, ...]
    pile: int
    turn: int
    active: str
    winner: str | None

    @property
    def most(self) -> int:
        """The most counters the active seat may take."""
        return min(MAX_TAKE, self.pile)


class NimRules:
    id: ClassVar[str] = "nim"
    version: ClassVar[int] = 1

    def setup(self, config: Mapping[str, JSON], seed: int, chance: Chance) -> NimState:
        count = int(config["seats"])
        return NimState(tuple(SEATS[:count]), int(config.get("pile", PILE)), seed=seed)

    def apply(self, state: NimState, action: Action, chance: Chance) -> Transition[NimState]:
        if state.is_over:
            raise GameOver("the game is over")
        if action.kind != TAKE or action.seat != state.active:
            raise IllegalAction(f"it is {state.active}'s turn to take")
        count = action.data.get("count")
        if not isinstance(count, int) or not 1 <= count <= min(MAX_TAKE, state.pile):
            raise IllegalAction(f"take 1 to {min(MAX_TAKE, state.pile)} counters")
        left = state.pile - count
        events: list[Event] = [Took(state.active, count, left)]
        winner = state.active if left == 0 else None
        if winner is not None:
            events.append(Won(winner))
        after = replace(state, pile=left, turn=state.turn + 1, winner=winner)
        return Transition(after, tuple(events))

    def chance_index(self, state: NimState) -> int:
        return 0

    def seed_of(self, state: NimState) -> int:
        return state.seed

    def from_position(self, position: Mapping[str, JSON]) -> NimState:
        return NimState(
            tuple(position["seats"]),
            int(position["pile"]),
            int(position["turn"]),
            int(position["seed"]),
            position.get("winner"),
        )

    def to_position(self, state: NimState) -> dict[str, JSON]:
        return {
            "seats": list(state.seats),
            "pile": state.pile,
            "turn": state.turn,
            "seed": state.seed,
            "winner": state.winner,
        }


def view(state: NimState, seat: str | None) -> NimView:
    return NimView(seat, state.seats, state.pile, state.turn, state.active, state.winner)


RULESET = NimRules()
