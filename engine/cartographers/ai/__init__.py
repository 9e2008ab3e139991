"""Computer players for Cartographers: one interface, three levels, and the timeout move.

An AI seat sees exactly what a player in that seat sees (spec §4): it is handed a
:class:`~engine.cartographers.view.SeatView`, never the table, and a seeded
:class:`~engine.core.Rng`, never the global random source. The host calls
``ai_action(level, expedition.view(seat), Rng(seed, stream))`` for computer seats, and
:func:`timeout_action` for a seat whose player did not draw in time. In a draw turn the
action places the explore card on the seat's own map; in neighbour-ambush mode it draws
the monster on the neighbour's map the seat holds.

Levels:

- ``random``: any legal drawing, uniformly.
- ``greedy``: the most stars if the season ended now (its two edicts, coins, monsters).
- ``strategic``: the most stars over the seasons left (see
  :mod:`engine.cartographers.ai.strategic`).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.ai import policy_of_level
from engine.cartographers.ai.base import Policy, action_for, legal_choices
from engine.cartographers.ai.basic import GreedyPolicy, RandomPolicy
from engine.cartographers.ai.strategic import StrategicPolicy
from engine.cartographers.view import SeatView
from engine.core import Action, Rng

POLICIES: dict[str, Callable[[], Policy]] = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
    "strategic": StrategicPolicy,
}
LEVELS: tuple[str, ...] = tuple(POLICIES)
TIMEOUT_LEVEL = "random"
"""The timeout move is the lowest level's: cheap, and always legal."""


def policy_for(level: str) -> Policy:
    """The policy of a level: ``"random"``, ``"greedy"`` or ``"strategic"``.

    Raises:
        MalformedAction: an unknown level.
    """
    return policy_of_level(level, POLICIES)


def ai_action(level: str, view: SeatView, rng: Rng) -> Action:
    """The action an AI seat of ``level`` submits now (``place`` or ``monster``).

    Raises:
        MalformedAction: an unknown level.
        GameOver: the game has ended.
        IllegalAction: a spectator's view, or a seat with nowhere to draw.
    """
    return action_for(view, policy_for(level).choose(view, rng))


def timeout_action(view: SeatView, rng: Rng) -> Action:
    """The drawing made for a seat whose player did not draw in time. Raises like
    :func:`ai_action`."""
    return ai_action(TIMEOUT_LEVEL, view, rng)


__all__ = [
    "LEVELS",
    "TIMEOUT_LEVEL",
    "GreedyPolicy",
    "Policy",
    "RandomPolicy",
    "StrategicPolicy",
    "action_for",
    "ai_action",
    "legal_choices",
    "policy_for",
    "timeout_action",
]
