"""Charioteer as outsiders see it: a step is a resolved turn (the commits before it are
secret), drawn as the public board, told as the turn's reveal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games.base import Broadcast
from engine.charioteer import SeatView
from engine.charioteer.render import board_png, reveal_text
from engine.core import Event


class CharioteerBroadcast(Broadcast):
    def picture(self, view: SeatView, names: Mapping[str, str], lang: str) -> bytes:
        return board_png(view, names=names, locale=lang)

    def story(
        self,
        events: Sequence[Event],
        view: SeatView,
        names: Mapping[str, str],
        locale: str | None,
    ) -> list[str]:
        text = reveal_text(events, view, names=names, locale=locale or "en")
        return [line for line in text.splitlines() if line.strip()]


BROADCAST = CharioteerBroadcast()

__all__ = ["BROADCAST", "CharioteerBroadcast"]
