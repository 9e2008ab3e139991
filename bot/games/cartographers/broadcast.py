"""Cartographers as outsiders see it: a step is a resolved turn (the drawings committed
before it are secret), drawn as every player's map with the season's scores, told as
what each player drew, the ambushes and the season's scores."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games.base import Broadcast
from bot.games.cartographers.story import position_lines, turn_story
from engine.cartographers import SeatView
from engine.cartographers.render import season_picture
from engine.core import Event


def maps_png(
    view: SeatView, names: Mapping[str, str], lang: str, season: str | None = None
) -> bytes:
    """Every map, with ``season``'s scores (None: the season in play, not scored yet)."""
    shown = season if season is not None else view.season.id
    return season_picture(view, names=names, season=shown, lang=lang).png


class CartographersBroadcast(Broadcast):
    def picture(self, view: SeatView, names: Mapping[str, str], lang: str) -> bytes:
        """Right after a season's end (or the game's), with that season's scores; else
        with the season in play."""
        seasons = view.players[0].seasons if view.players else ()
        scored = seasons[-1].season if seasons else None
        just_ended = scored is not None and (view.result is not None or view.time_used == 0)
        return maps_png(view, names, lang, scored if just_ended else None)

    def story(
        self,
        events: Sequence[Event],
        view: SeatView,
        names: Mapping[str, str],
        locale: str | None,
    ) -> list[str]:
        return turn_story(events, names, locale)

    def summary(self, view: SeatView, names: Mapping[str, str], locale: str | None) -> list[str]:
        return position_lines(view, locale)


BROADCAST = CartographersBroadcast()

__all__ = ["BROADCAST", "CartographersBroadcast", "maps_png"]
