"""Carcassonne: Star Wars' Discord front (:class:`~cogs.games.carcassonne.front.
CarcassonneFront`): ``/carcassonne new``, the active seat's panel, and the game's posts.
The registry (:mod:`bot.games`) names this package; the bot builds :data:`FRONT`."""

from cogs.games.carcassonne.front import CarcassonneFront

FRONT = CarcassonneFront

__all__ = ["FRONT", "CarcassonneFront"]
