"""Charioteer's Discord front (:class:`~cogs.games.charioteer.front.CharioteerFront`): the
``/race`` commands, the private move panel and its typed-move form, and the race's posts.
The registry (:mod:`bot.games`) names this package; the bot builds :data:`FRONT`."""

from cogs.games.charioteer.front import CharioteerFront

FRONT = CharioteerFront

__all__ = ["FRONT", "CharioteerFront"]
