"""Nim, a game that does not ship with the bot: its rules (:mod:`.rules`), host adapter
(:mod:`.host`) and Discord front (:mod:`.front`) plug into the bot through the registry
(:data:`ENTRY`), with no file outside this folder. It proves that a fourth game costs only
its own folder."""

from bot.games import GameEntry

ENTRY = GameEntry(
    "nim",
    engine="tests.games.nim.rules",
    host="tests.games.nim.host",
    front="tests.games.nim.front",
)
"""Where Nim lives, for :func:`bot.games.register`."""

__all__ = ["ENTRY"]
