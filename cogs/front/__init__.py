"""The shared front: what every game does the same way on Discord, so that a game's own
front (``cogs/games/<game>/``) says only what is its own.

- :mod:`cogs.front.game`: :class:`~cogs.front.game.GameFront`, what a game's front is,
  and the routing of every control and form to the game that declared its prefix;
- :mod:`cogs.front.lobby`: the lobby message and buttons, Start and the game's thread;
- :mod:`cogs.front.panel`: the private panel's plumbing (who may open it, answering or
  editing it, the answer to a confirmed move);
- :mod:`cogs.front.components`: the persistent controls and the typed-move form;
- :mod:`cogs.front.announce`: the announcer, which asks each game's front for its posts;
- :mod:`cogs.front.answers`: private answers, the error answer, the follow-up work;
- :mod:`cogs.front.place`: access answers (who may act on which table from where);
- :mod:`cogs.front.tables`: the ``/game …`` commands every game shares.

Nothing here imports a game.
"""
