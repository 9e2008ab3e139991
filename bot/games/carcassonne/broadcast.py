"""Carcassonne: Star Wars as outsiders see it: every action is public (a placement, a
deployment, with their battles and scoring; only the stack's order is secret and no view
or event tells it), drawn as the map, told as the story of the turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Broadcast, GameHost
from bot.games.carcassonne.panel import tile_text
from bot.games.carcassonne.story import (
    final_scoring,
    scores_line,
    seat_name,
    supplies_line,
    turn_story,
)
from bot.text import t
from engine.carcassonne import Phase, SeatView
from engine.carcassonne.events import MeepleDeployed, NothingDeployed, TilePlaced
from engine.carcassonne.render import board_png
from engine.core import Event


class CarcassonneBroadcast(Broadcast):
    def shows_step(self, host: GameHost, before: Any, after: Any, events: Sequence[Event]) -> bool:
        return True

    def picture(self, view: SeatView, names: Mapping[str, str], lang: str) -> bytes:
        return board_png(view, locale=lang)

    def story(
        self,
        events: Sequence[Event],
        view: SeatView,
        names: Mapping[str, str],
        locale: str | None,
    ) -> list[str]:
        lines = turn_story(events, view, names, locale)
        deployed = next(
            (e for e in events if isinstance(e, (TilePlaced, MeepleDeployed, NothingDeployed))),
            None,
        )
        if lines and isinstance(deployed, (MeepleDeployed, NothingDeployed)):
            lines = lines[1:]  # the placement, told again from the map: its own step told it
        return lines + final_scoring(events, view, names, locale)

    def summary(self, view: SeatView, names: Mapping[str, str], locale: str | None) -> list[str]:
        lines = [
            t(locale, "carc.tile_set"),
            t(locale, "carc.board.scores", scores=scores_line(view, names, locale)),
            t(locale, "carc.board.supplies", supplies=supplies_line(view, names, locale)),
        ]
        if view.result is None and view.phase is Phase.PLACE and view.current is not None:
            lines.append(
                t(
                    locale,
                    "carc.board.to_place",
                    name=seat_name(view.active, names, locale),
                    tile=tile_text(view.current, locale=locale),
                    left=view.stack_size,
                )
            )
        elif view.result is None:
            lines.append(
                t(locale, "carc.board.to_deploy", name=seat_name(view.active, names, locale))
            )
        return lines


BROADCAST = CarcassonneBroadcast()

__all__ = ["BROADCAST", "CarcassonneBroadcast"]
