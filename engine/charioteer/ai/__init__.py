"""Computer opponents for Charioteer: one interface, three levels.

An AI seat sees exactly what a player in that seat sees (spec §9): it is handed a
:class:`~engine.charioteer.view.SeatView`, never the race, and a seeded
:class:`~engine.core.Rng`, never the global random source. The bot calls
``policy_for(level).choose(race.view(seat), Rng(seed, stream))`` for computer seats and for
seats whose player timed out or left.

Levels:

- ``random``: any legal move, uniformly.
- ``greedy``: the longest move of the turn (the designer's "dummy hand").
- ``strategic``: plays to win the race (see :mod:`engine.charioteer.ai.strategic`).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.ai import policy_of_level
from engine.charioteer.ai.base import Policy
from engine.charioteer.ai.basic import GreedyPolicy, RandomPolicy
from engine.charioteer.ai.strategic import StrategicPolicy

POLICIES: dict[str, Callable[[], Policy]] = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
    "strategic": StrategicPolicy,
}
LEVELS: tuple[str, ...] = tuple(POLICIES)


def policy_for(level: str) -> Policy:
    """The policy of a level: ``"random"``, ``"greedy"`` or ``"strategic"``.

    Raises:
        MalformedAction: an unknown level.
    """
    return policy_of_level(level, POLICIES)


__all__ = ["LEVELS", "GreedyPolicy", "Policy", "RandomPolicy", "StrategicPolicy", "policy_for"]
