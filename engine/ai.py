"""What every game's computer players share: a level's policy found by its name.

Each game's ``ai`` package keeps its own policies and lists them by level, weakest first;
:func:`policy_of_level` makes the one a level names or refuses the level in words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from engine.core import MalformedAction

PolicyT = TypeVar("PolicyT")


def policy_of_level(level: str, policies: Mapping[str, Callable[[], PolicyT]]) -> PolicyT:
    """A new policy of ``level``, one of the names of ``policies``.

    Raises:
        MalformedAction: an unknown level (the reason lists the known ones).
    """
    make = policies.get(level)
    if make is None:
        raise MalformedAction(f"unknown AI level '{level}' (one of {', '.join(policies)})")
    return make()
