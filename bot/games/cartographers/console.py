"""Cartographers in the terminal (``python -m bot local --game cartographers``): the solo
game of :mod:`engine.cartographers.terminal`, from a random seed unless one is given (the
welcome line prints it, so a game can be played again)."""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Sequence

from bot.console import GameConsole, OptionError
from bot.service import Table, Update
from bot.text import t
from engine.core import MAX_SEED


class CartographersConsole(GameConsole):
    game = "cartographers"
    default_seats = 1
    seat_range = (1, 12)

    @classmethod
    def check(cls, args: argparse.Namespace) -> None:
        super().check(args)
        if args.side is None:
            args.side = "A"

    @classmethod
    def own_options(cls) -> tuple[str, ...]:
        return ("side",)

    async def run(self, args: argparse.Namespace) -> int:
        from engine.cartographers.terminal import play

        seed = args.seed if args.seed is not None else secrets.randbelow(MAX_SEED + 1)
        lines = iter(self.terminal.stdin.readline, "")
        return play(lines, self.terminal.out, seed=seed, side=args.side, lang=self.locale)

    def table_options(self, args: argparse.Namespace) -> dict[str, object]:
        raise OptionError(t(self.locale, "console.not_an_option", option="--seats"))

    def seat_name(self, seat: str) -> str:
        return seat

    def welcome(self, table: Table, args: argparse.Namespace) -> str:
        return ""

    def help_text(self) -> str:
        return ""

    async def rules_text(self, table_id: int) -> str:
        return ""

    async def run_command(self, table_id: int, command: str) -> None:
        return None

    async def play(self, table_id: int, line: str) -> None:
        return None

    async def show_turn(self, table_id: int) -> None:
        return None

    async def announce(self, table_id: int, updates: Sequence[Update]) -> None:
        return None

    async def show_end(self, table_id: int) -> None:
        return None


CONSOLE = CartographersConsole
