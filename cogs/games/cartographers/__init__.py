"""Cartographers' Discord front (:class:`~cogs.games.cartographers.front.CartographersFront`):
``/cartographers new``, the private drawing panel with its typed-cell form, and the
game's posts. The registry (:mod:`bot.games`) names this package; the bot builds
:data:`FRONT`."""

from cogs.games.cartographers.front import CartographersFront

FRONT = CartographersFront

__all__ = ["FRONT", "CartographersFront"]
