"""Charioteer in the terminal (``python -m bot local``): a race against AI seats through the
table service, moves typed in the text form of :mod:`bot.games.charioteer.drafts`
(``R5 1 2 crowd t1``, ``reset 3``), each previewed and played once confirmed.

The hand shows the symbols in their colours on a terminal that has them, and a key of
the letters either way; ``moves`` lists the longest moves, none of which only adds a card,
the crowd card or a token that changes nothing it does.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Sequence

from bot.console import PLAYER_ID, GameConsole, OptionError, strip_fences
from bot.games.charioteer import MAX_LAPS
from bot.games.charioteer.drafts import Draft, DraftError, parse_move_text
from bot.service import Table, Update
from bot.text import t
from engine.charioteer import Move
from engine.charioteer.components import COLOURS, LAPS, Colour
from engine.charioteer.render import (
    board_text,
    hand_text,
    move_distance,
    preview_text,
    reveal_text,
    rule_text,
)
from engine.charioteer.render.common import (
    chariot_name,
    colour_letter,
    colour_name,
    say,
    token_text,
)
from engine.charioteer.state import SEAT_NAMES
from engine.charioteer.view import SeatView
from engine.core import EngineError, public_events

MOVE_SAMPLES = 12
SYMBOL_COLOURS = {
    Colour.GREEN: "32",
    Colour.RED: "31",
    Colour.YELLOW: "33",
    Colour.BLACK: "30;47",
}
"""ANSI colours of the card symbols (black on grey, so it shows on a dark terminal)."""


class CharioteerConsole(GameConsole):
    """One race in a terminal: read a line, answer, until the podium."""

    game = "charioteer"
    commands = ("help", "rules", "board", "hand", "moves", "quit")
    phrases = "console"
    default_seats = 4
    seat_range = (2, len(SEAT_NAMES))

    @classmethod
    def check(cls, args: argparse.Namespace) -> None:
        super().check(args)
        if args.laps is None:
            args.laps = LAPS
        if not 1 <= args.laps <= MAX_LAPS:
            raise OptionError(t(args.locale, "console.bad_laps", high=MAX_LAPS))

    @classmethod
    def seats_error(cls, locale: str, low: int, high: int) -> str:
        return t(locale, "error.bad_seats", low=low, high=high)

    @classmethod
    def own_options(cls) -> tuple[str, ...]:
        return ("laps",)

    def table_options(self, args: argparse.Namespace) -> dict[str, object]:
        return {"laps": args.laps}

    def seat_name(self, seat: str) -> str:
        return chariot_name(seat, self.locale)

    def welcome(self, table: Table, args: argparse.Namespace) -> str:
        return self.text(
            "console.welcome",
            count=args.laps,
            opponents=args.seats - 1,
            level=self.text(f"ai.{args.level}"),
            you=self.names(table)[SEAT_NAMES[0]],
        )

    def help_text(self) -> str:
        return self.text("console.help")

    async def rules_text(self, table_id: int) -> str:
        return self.text("rules.card")

    async def run_command(self, table_id: int, command: str) -> None:
        if command == "board":
            await self.show_board(table_id)
        elif command == "hand":
            await self.show_hand(table_id)
        elif command == "moves":
            await self.show_moves(table_id)

    async def play(self, table_id: int, line: str) -> None:
        """Read the move, show what it would do, and play it once confirmed."""
        _, seat_view = await self.service.view_for(table_id, PLAYER_ID)
        try:
            draft = parse_move_text(line, len(seat_view.hand), len(seat_view.tokens), self.locale)
            move = draft.to_move(seat_view.tokens)
        except DraftError as error:
            self.say(self.text(error.key, **error.params))
            return
        try:
            seat_view.analyse(move)
        except EngineError as error:
            self.say(self.text("error.illegal_move", reason=rule_text(error, self.locale)))
            return
        preview = self.coloured(preview_text(seat_view, move, locale=self.locale))
        self.say(f"{Draft.from_move(move).text(self.locale)}: {preview}")
        spent = spent_text(seat_view, move, self.locale)
        if spent:
            self.say(spent)
        if not self.confirm(self.text("console.confirm")):
            self.say(self.text("console.not_played"))
            return
        updates = await self.submit(table_id, move, seat_view.turn)
        if updates is not None:
            await self.announce(table_id, updates)

    async def announce(self, table_id: int, updates: Sequence[Update]) -> None:
        """Print what was resolved, then mark the race's announcements posted."""
        for update in updates:
            for report in update.turns:
                names = self.names(update.table)
                story = reveal_text(
                    public_events(report.events), report.view, names=names, locale=self.locale
                )
                self.say(story)
        await self.mark_announced(table_id)
        table = await self.service.table(table_id)
        if table.status == "running" and any(update.turns for update in updates):
            await self.show_board(table_id)

    async def show_turn(self, table_id: int) -> None:
        await self.show_board(table_id)

    async def show_board(self, table_id: int) -> None:
        table, seat_view = await self.service.view_for(table_id, PLAYER_ID)
        self.say(strip_fences(board_text(seat_view, names=self.names(table), locale=self.locale)))
        if table.status == "running":
            await self.show_hand(table_id)

    async def show_hand(self, table_id: int) -> None:
        _, seat_view = await self.service.view_for(table_id, PLAYER_ID)
        self.say(self.coloured(hand_text(seat_view, locale=self.locale)))
        self.say(self.coloured(symbols_key(self.locale)))

    async def show_moves(self, table_id: int) -> None:
        _, seat_view = await self.service.view_for(table_id, PLAYER_ID)
        ranked = ranked_moves(seat_view)
        self.say(self.text("console.moves_header", count=len(ranked)))
        for move in ranked[:MOVE_SAMPLES]:
            preview = self.coloured(preview_text(seat_view, move, locale=self.locale))
            spent = spent_text(seat_view, move, self.locale)
            self.say_item(f"  {Draft.from_move(move).text(self.locale):<22} ", preview)
            if spent:
                self.say_item(f"  {'':<22} ", spent)

    async def show_end(self, table_id: int) -> None:
        """The final board, then the podium (or the word that the race was abandoned)."""
        table = await self.service.table(table_id)
        if table.status == "abandoned":
            self.say(self.text("console.abandoned"))
            return
        await self.show_board(table_id)
        names = self.names(table)
        for row in await self.service.storage.results(table_id):
            self.say(self.text("console.podium_line", place=row.place, name=names[row.seat]))

    def coloured(self, text: str) -> str:
        """``text`` with each card symbol ("R5", "G2×2") in its colour, on a terminal that
        shows colours."""
        if not self.terminal.colour:
            return text
        letters = {colour_letter(colour, self.locale): colour for colour in COLOURS}
        pattern = re.compile(rf"(?<!\w)([{''.join(letters)}])(\d(?:×2)?)(?!\w)")
        return pattern.sub(
            lambda found: self.terminal.paint(found.group(0), SYMBOL_COLOURS[letters[found[1]]]),
            text,
        )


def symbols_key(locale: str) -> str:
    """What the symbols' letters stand for: "Symbols: G green · R red · Y yellow · B black"."""
    names = [
        say(locale, "symbol", letter=colour_letter(colour, locale), number="")
        + " "
        + colour_name(colour, locale)
        for colour in COLOURS
    ]
    return t(locale, "console.symbols_key", symbols=" · ".join(names))


def spent_text(view: SeatView, move: Move, locale: str) -> str:
    """What the move uses up besides its cards: the crowd card, tokens (by number)."""
    parts = []
    if move.crowd:
        parts.append(t(locale, "console.spends_crowd"))
    for index in (move.token, move.discard_token):
        if index is not None:
            token = token_text(view.tokens[index], locale)
            parts.append(t(locale, "console.spends_token", number=index + 1, token=token))
    if not parts:
        return ""
    return t(locale, "console.spends", items=", ".join(parts))


def effects(view: SeatView, move: Move) -> str:
    """What a move does, as its preview says it, less what does nothing (a whip on turn 1)."""
    idle = say("en", "preview.separator") + say("en", "preview.whip_turn1")
    return preview_text(view, move).replace(idle, "")


def lighter_moves(move: Move) -> list[Move]:
    """The move less one of its cards (but a wild one), its crowd card or its token."""
    lighter = [
        dataclasses.replace(move, cards=tuple(card for card in move.cards if card != dropped))
        for dropped in move.cards
        if len(move.cards) > 1 and dropped != move.wild
    ]
    if move.crowd:
        lighter.append(dataclasses.replace(move, crowd=False))
    if move.token is not None:
        lighter.append(dataclasses.replace(move, token=None, wild=None))
    return lighter


def ranked_moves(view: SeatView) -> list[Move]:
    """Legal moves (no discards) by the real distance — cards, token, skill bonus and
    damage — longest first, fewer tokens spent first on a tie. A move that only adds a
    card, the crowd card or a token to another legal move, changing nothing it does (a
    whip card on turn 1, a token for no distance), is left out."""
    moves = view.legal_moves(discards=False)
    legal = set(moves)
    kept = []
    for move in moves:
        if move.symbol is not None:
            does = effects(view, move)
            lighter = [other for other in lighter_moves(move) if other in legal]
            if any(effects(view, other) == does for other in lighter):
                continue
        kept.append(move)

    def key(move: Move) -> tuple[int, int, int, int]:
        play = view.analyse(move)
        spends = (move.token is not None) + move.crowd
        return (-move_distance(view, play), spends, -play.attack_cubes, len(move.cards))

    return sorted(kept, key=key)


CONSOLE = CharioteerConsole

__all__ = ["CONSOLE", "CharioteerConsole", "lighter_moves", "ranked_moves", "spent_text"]
