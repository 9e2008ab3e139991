"""Cartographers in the terminal (``python -m bot local --game cartographers``): solo, or
against AI maps (``--seats``, ``--level``), through the table service, and kept in a
``--database`` to go on later.

A drawing is typed in the terminal form of :mod:`engine.cartographers.terminal` (``farm 2
r90 flip C4``, the terrain and ``flip`` in the player's language too), then previewed —
its cells marked on the map, the coins and this season's stars it earns, as the Discord
panel reckons them (:func:`~bot.games.cartographers.panel.build_panel`) — and drawn once
confirmed. ``legal`` lists drawings that fit, ``map`` shows the table again.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from bot.console import PLAYER_ID, GameConsole
from bot.games.cartographers import MAX_SEATS, drawing_action
from bot.games.cartographers.panel import DrawDraft, DrawPanel, build_panel
from bot.service import Table, Update
from engine.cartographers import SeatView
from engine.cartographers.events import SeasonScored, ShapeDrawn
from engine.cartographers.geometry import label, row_col
from engine.cartographers.messages import name, text
from engine.cartographers.placement import Placement, read_placement
from engine.cartographers.terminal import (
    UnreadableCommand,
    legal_lines,
    narrate,
    read_command,
    reason,
    rules_lines,
    typed,
)
from engine.cartographers.text import render_map, render_scores, render_table
from engine.core import EngineError, public_events
from engine.i18n import signed

DRAWING_MARK = "*"
"""How the cells of a drawing being previewed show on the map."""


class CartographersConsole(GameConsole):
    """One expedition in a terminal: the player draws on map 1, AI maps on the others."""

    game = "cartographers"
    commands = ("help", "rules", "map", "legal", "quit")
    default_seats = 1
    seat_range = (1, MAX_SEATS)

    @classmethod
    def check(cls, args: argparse.Namespace) -> None:
        super().check(args)
        if args.side is None:
            args.side = "A"

    @classmethod
    def own_options(cls) -> tuple[str, ...]:
        return ("side",)

    def table_options(self, args: argparse.Namespace) -> dict[str, object]:
        return {"side": args.side, "ambush": "auto"}

    def seat_name(self, seat: str) -> str:
        return self.text("console.carto.map", seat=seat)

    def welcome(self, table: Table, args: argparse.Namespace) -> str:
        if args.seats == 1:
            return self.text("console.carto.solo", side=args.side)
        return self.text(
            "console.carto.welcome",
            side=args.side,
            you=self.names(table)["1"],
            count=args.seats - 1,
            level=self.text(f"ai.{args.level}"),
        )

    def prompt(self) -> str:
        return self.text("console.carto.prompt")

    def help_text(self) -> str:
        return self.engine_text("play.help") + "\n" + self.engine_text("text.legend")

    def engine_text(self, key: str, **params: object) -> str:
        return text(key, params, self.locale)

    async def rules_text(self, table_id: int) -> str:
        return "\n".join(rules_lines(await self.seat_view(table_id), self.locale))

    async def seat_view(self, table_id: int) -> SeatView:
        _, seat_view = await self.service.view_for(table_id, PLAYER_ID)
        assert isinstance(seat_view, SeatView)
        return seat_view

    async def run_command(self, table_id: int, command: str) -> None:
        if command == "map":
            await self.show_turn(table_id)
        elif command == "legal":
            self.say("\n".join(legal_lines(await self.seat_view(table_id), [], self.locale)))

    async def play(self, table_id: int, line: str) -> None:
        """Read the drawing, show it on the map with what it earns, draw it once confirmed."""
        words = line.split()
        if self.command(words[0]) == "legal":
            self.say("\n".join(legal_lines(await self.seat_view(table_id), words[1:], self.locale)))
            return
        seat_view = await self.seat_view(table_id)
        offer = seat_view.offer
        if offer is None:
            self.say(self.text("carto.nothing_to_draw"))
            return
        try:
            placement = read_placement(read_command(line, self.locale), offer, seat="1")
        except UnreadableCommand as error:
            self.say(self.unreadable(line, error.text(self.locale)))
            return
        except EngineError as error:
            self.say(self.engine_text("play.refused", reason=reason(error, self.locale)))
            return
        panel = build_panel(seat_view, draft_of(placement), self.locale)
        if panel is None or panel.candidate is None:
            why = panel.refusal if panel is not None and panel.refusal else None
            self.say(self.engine_text("play.refused", reason=why or ""))
            return
        shown = " ".join(line.split())
        self.say_preview(seat_view, panel, shown)
        if not self.confirm(self.text("console.carto.confirm")):
            self.say(self.text("console.carto.not_drawn"))
            return
        updates = await self.submit(table_id, drawing_action(seat_view, placement), seat_view.turn)
        if updates is not None:
            await self.announce(table_id, updates, shown)

    def unreadable(self, line: str, why: str) -> str:
        return self.engine_text("play.unreadable", line=line.strip(), why=why)

    def say_preview(self, seat_view: SeatView, panel: DrawPanel, shown: str) -> None:
        """The drawing's cells, coins and stars, then the map with its cells marked."""
        assert panel.candidate is not None and seat_view.target is not None
        parts = [
            self.text(
                "console.carto.cells",
                cells=", ".join(label(cell) for cell in panel.candidate.cells),
            )
        ]
        if panel.coins:
            parts.append(self.text("console.carto.coins", count=panel.coins))
        stars = ", ".join(
            self.text(
                "carto.panel.stars",
                edict=name("card", edict, self.locale),
                stars=signed(points),
            )
            for edict, points in panel.stars
        )
        if stars:
            parts.append(self.text("console.carto.stars", stars=stars))
        self.say(f"{shown}: " + " · ".join(parts))
        sheet = seat_view.player(seat_view.target).sheet
        marks = {cell: DRAWING_MARK for cell in panel.candidate.cells}
        self.say("\n".join(render_map(sheet, marks)))
        self.say(self.text("console.carto.marked", mark=DRAWING_MARK))

    async def announce(
        self, table_id: int, updates: Sequence[Update], typed_as: str | None = None
    ) -> None:
        """The player's drawing and what it earned, the AI maps' drawings, each season's
        scores; then the next turn's table."""
        table = await self.service.table(table_id)
        names = self.names(table)
        for update in updates:
            for report in update.turns:
                events = public_events(report.events)
                self.say("\n".join(narrate(events, "1", self.locale, typed_as)))
                for event in events:
                    if isinstance(event, ShapeDrawn) and event.map != "1":
                        self.say(
                            self.text(
                                "console.carto.drew",
                                name=names[event.map],
                                drawing=typed(event.drawing, self.locale),
                            )
                        )
                    elif isinstance(event, SeasonScored) and event.seat != "1":
                        self.say(self.season_line(event, names))
        await self.mark_announced(table_id)
        table = await self.service.table(table_id)
        if table.status == "running" and any(update.turns for update in updates):
            await self.show_turn(table_id)

    def season_line(self, event: SeasonScored, names: dict[str, str]) -> str:
        score = event.score
        return self.text(
            "carto.season.line",
            name=names[event.seat],
            first=name("card", event.edicts[0], self.locale),
            first_points=score.edicts[0],
            second=name("card", event.edicts[1], self.locale),
            second_points=score.edicts[1],
            coins=score.coins,
            monsters=score.monsters,
            total=score.total,
            stars=event.stars,
        )

    async def show_turn(self, table_id: int) -> None:
        seat_view = await self.seat_view(table_id)
        self.say("")
        self.say(render_table(seat_view, lang=self.locale, legend=False))

    async def show_end(self, table_id: int) -> None:
        """The final map, the player's seasons and title or the ranking (or the word that
        the game was abandoned)."""
        table = await self.service.table(table_id)
        if table.status == "abandoned":
            self.say(self.phrase("abandoned"))
            return
        final = await self.seat_view(table_id)
        self.say("")
        self.say(render_table(final, lang=self.locale, legend=False))
        self.say("")
        self.say("\n".join(render_scores(final, "1", self.locale)))
        if len(table.seats) > 1:
            names = self.names(table)
            for row in await self.service.storage.results(table_id):
                stars = final.player(row.seat).stars
                self.say(
                    self.text(
                        "console.carto.podium_line",
                        place=row.place,
                        name=names[row.seat],
                        stars=stars,
                    )
                )


def draft_of(placement: Placement) -> DrawDraft:
    """The panel's draft of a typed drawing."""
    row, col = row_col(placement.anchor)
    return DrawDraft(
        terrain=placement.terrain.value,
        shape=placement.shape,
        fallback=placement.fallback,
        rotation=placement.orientation.rotation,
        flip=placement.orientation.flip,
        row=row,
        col=col,
    )


CONSOLE = CartographersConsole

__all__ = ["CONSOLE", "CartographersConsole", "draft_of"]
