"""Each hosted game's Discord front, one package per game (``cogs/games/<game>/``), on the
shared front of :mod:`cogs.front`: its ``/… new`` command and lobby options, its private
panel and typed-move form, its posts and its rules card. A game's package exposes
``FRONT``, a :class:`~cogs.front.game.GameFront` class, and is named by the registry of
:mod:`bot.games`; no game's package imports another's.
"""
