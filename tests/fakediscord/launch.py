"""Run a discord.py bot, unchanged, against the fake Discord.

    python -m tests.fakediscord.launch <module | path/to/file.py> [arguments…]

The launcher sets discord.py's own settings from the environment, then runs the target
as `__main__` (like `python -m module` or `python file.py`):

- `discord.http.Route.BASE` (every REST call, interaction callbacks and webhooks included)
  from `FAKEDISCORD_API_BASE`, e.g. `http://127.0.0.1:PORT/api/v10`;
- `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` (where a non-sharded client connects;
  a sharded one asks `GET /gateway/bot`, which the fake answers too) from
  `FAKEDISCORD_GATEWAY`, e.g. `ws://127.0.0.1:PORT/gateway`;
- if `FAKEDISCORD_GUILD_READY_TIMEOUT` is set, the seconds a client that chooses no
  `guild_ready_timeout` waits for more servers before `on_ready` (2 by default; see
  `pointing.SERVERS_WAIT`).

The bot's token comes from wherever the bot reads it; `FakeDiscord.bot_env()` provides
`DISCORD_TOKEN` with the first two variables.
"""

from __future__ import annotations

import contextlib
import os
import runpy
import sys

from .pointing import point_discord_at, servers_wait


def main(argv: list[str]) -> None:
    if not argv:
        raise SystemExit(__doc__)
    point_discord_at(os.environ["FAKEDISCORD_API_BASE"], os.environ["FAKEDISCORD_GATEWAY"])
    wait = os.environ.get("FAKEDISCORD_GUILD_READY_TIMEOUT")
    target, *arguments = argv
    sys.argv = [target, *arguments]
    with servers_wait(float(wait)) if wait else contextlib.nullcontext():
        if target.endswith(".py"):
            runpy.run_path(target, run_name="__main__")
        else:
            runpy.run_module(target, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
