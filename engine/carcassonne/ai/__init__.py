"""Computer opponents for Carcassonne: Star Wars: one interface, three levels.

An AI seat sees what any player sees (a :class:`~engine.carcassonne.view.SeatView`: not
the stack's order) and draws its randomness from a seeded :class:`~engine.core.Rng`.
``next_action(policy_for(level), table.view(seat), Rng(seed, stream))`` is the action
for the phase in play.

Levels: ``random`` (any legal turn), ``greedy`` (best immediate score and meeple value),
``strategic`` (looks ahead over the stack, weighs battles by their odds).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.ai import policy_of_level
from engine.carcassonne.ai.base import Policy, next_action
from engine.carcassonne.ai.basic import GreedyPolicy, RandomPolicy
from engine.carcassonne.ai.evaluation import Turn
from engine.carcassonne.ai.strategic import StrategicPolicy

POLICIES: dict[str, Callable[[], Policy]] = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
    "strategic": StrategicPolicy,
}
LEVELS: tuple[str, ...] = tuple(POLICIES)


def policy_for(level: str) -> Policy:
    """The policy of a level. Raises :class:`MalformedAction` for an unknown one."""
    return policy_of_level(level, POLICIES)


__all__ = [
    "LEVELS",
    "GreedyPolicy",
    "Policy",
    "RandomPolicy",
    "StrategicPolicy",
    "Turn",
    "next_action",
    "policy_for",
]
