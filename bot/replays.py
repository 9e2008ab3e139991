"""A game's public steps, rebuilt from its record: what anyone outside its table may see
of it, step by step (the server's web page, its replays, the animated replay).

Step 0 is the set-up; each later step is an action the game's
:class:`~bot.games.base.Broadcast` calls public (in simultaneous play a resolved turn: the
secret commits before it are no step; in Carcassonne every action), with the public view
after it (the view for no seat: no hand, no unrevealed move, no stack order) and its
public events. The record is replayed with its recorded chance outcomes, never re-rolled.
A game's pictures are drawn by :func:`step_png`, a module-level function the picture
workers run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import broadcast_for, host_for
from engine.core import Event, GameRecord, public_events, replay, replay_steps


@dataclass(frozen=True)
class Step:
    """One public step: ``number`` counts the steps (0: the set-up), ``seq`` the actions
    it took (the action that made it public), ``turn`` the game's stage it resolved (its
    stage then for the set-up)."""

    number: int
    seq: int
    turn: int
    view: Any
    events: tuple[Event, ...]


def public_steps(game: str, record: GameRecord) -> list[Step]:
    """Every public step of the record, the set-up first."""
    host, broadcast = host_for(game), broadcast_for(game)
    before = replay(record, upto=0)
    steps = [Step(0, 0, host.stage(before), host.view(before, None), ())]
    for seq, (_, transition) in enumerate(replay_steps(record), start=1):
        after = transition.state
        if broadcast.shows_step(host, before, after, transition.events):
            steps.append(
                Step(
                    len(steps),
                    seq,
                    host.stage(before),
                    host.view(after, None),
                    tuple(public_events(transition.events)),
                )
            )
        before = after
    return steps


def step_story(game: str, step: Step, names: Mapping[str, str], locale: str | None) -> list[str]:
    """The step's story, one line per thing that happened (none for the set-up)."""
    if not step.events:
        return []
    return broadcast_for(game).story(step.events, step.view, names, locale)


def step_png(game: str, view: Any, names: Mapping[str, str], lang: str) -> bytes:
    """A public view of ``game`` as a PNG picture (for the picture workers)."""
    return broadcast_for(game).picture(view, dict(names), lang)


def frames_png(game: str, views: Sequence[Any], names: Mapping[str, str], lang: str) -> list[bytes]:
    """The animated replay's frames, one per view."""
    broadcast = broadcast_for(game)
    return [broadcast.frame(view, dict(names), lang) for view in views]


__all__ = ["Step", "frames_png", "public_steps", "step_png", "step_story"]
