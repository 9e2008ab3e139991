"""Carcassonne: Star Wars in the terminal (``python -m bot local --game carcassonne``): the
player against AI seats through the table service, on the text map of
:mod:`engine.carcassonne.text`.

A turn is put together before anything is played: the player types where the tile goes,
a spot numbered on the map and a turn of the tile (``3b``), sees what the placement would
join, score or fight, chooses where a meeple goes (or none) with what each choice would
do, and confirms. Until then ``back`` and ``n`` take the placement or the meeple back:
nothing is stored and nothing random has happened. Once confirmed, the placement and the
deployment are played (battles are rolled, features scored, the next tile drawn), then
the AI seats play, and their turns are told in words.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.console import PLAYER_ID, GameConsole
from bot.games.carcassonne.panel import spots_of
from bot.service import Table, Update
from bot.text import t
from engine.carcassonne import (
    DEPLOY,
    PLACE,
    Deployment,
    FeatureRef,
    Phase,
    Placement,
    SeatView,
    Size,
)
from engine.carcassonne.components import MAX_PLAYERS, MIN_PLAYERS, tile_type
from engine.carcassonne.events import (
    BattleLost,
    BattleStarted,
    BattleTied,
    BattleWon,
    DiceRolled,
    FeatureScored,
    MeepleDeployed,
    NothingDeployed,
    TileRemoved,
    TileReturned,
)
from engine.carcassonne.messages import colour_name, say
from engine.carcassonne.rules import deploy_targets, place
from engine.carcassonne.text import (
    TILE_HEIGHT,
    deployment_text,
    legend,
    map_lines,
    placement_lines,
    region_label,
    target_words,
    tile_rows,
    tile_words,
)
from engine.carcassonne.view import view
from engine.core import Action, Event

TURN_LETTERS = "abcd"
"""A tile's quarter turns clockwise, as typed after the spot: ``3b``."""
SPOT = re.compile(r"^\s*(\d+)\s*([a-d]?)\s*$")
CHOICE = re.compile(r"^\s*(\d*)\s*(\w*)\s*$")
REACH = 2
"""How far around a previewed placement its close-up shows the map."""


@dataclass(frozen=True)
class Choice:
    """Where the meeple goes (None: nowhere) and which meeple."""

    target: FeatureRef | None
    size: Size


class CarcassonneConsole(GameConsole):
    """One game in a terminal: the player is the first seat, the AI seats follow."""

    game = "carcassonne"
    default_seats = 3
    seat_range = (MIN_PLAYERS, MAX_PLAYERS)
    commands = ("help", "rules", "map", "quit")
    deploying = False
    """The tile in hand is placed already (a game stopped between the two): the next
    line says where the meeple goes."""
    spot_example = "1a"
    """A placement the tile in hand has (``2c``), for the prompts."""
    meeple_prompt = ""
    """The question where a meeple goes, with an example of a place there is."""

    def table_options(self, args: argparse.Namespace) -> dict[str, object]:
        return {"team": False, "unplaceable": "remove"}

    def seat_name(self, seat: str) -> str:
        name = colour_name(seat, self.locale)
        return name[:1].upper() + name[1:]

    def welcome(self, table: Table, args: argparse.Namespace) -> str:
        return self.text(
            "console.carc.welcome",
            you=self.names(table)[self.my_seat(table)],
            count=args.seats - 1,
            level=self.text(f"ai.{args.level}"),
        )

    def prompt(self) -> str:
        if self.deploying:
            return self.meeple_prompt
        return self.text("console.carc.prompt", example=self.spot_example)

    def help_text(self) -> str:
        example = self.spot_example
        number, large = example.rstrip(TURN_LETTERS), self.text("console.word.large")
        return "\n".join(
            [
                self.text("console.carc.help", spot=example, number=number, meeple=f"1 {large}"),
                legend(self.locale),
            ]
        )

    async def rules_text(self, table_id: int) -> str:
        return self.text("carc.rules")

    async def run_command(self, table_id: int, command: str) -> None:
        if command == "map":
            await self.show_turn(table_id)

    async def seat_view(self, table_id: int) -> tuple[Table, SeatView]:
        table, seat_view = await self.service.view_for(table_id, PLAYER_ID)
        assert isinstance(seat_view, SeatView)
        return table, seat_view

    @staticmethod
    def my_seat(table: Table) -> str:
        seat = table.seat_of(PLAYER_ID)
        assert seat is not None
        return seat.seat

    def numbers(self, seat_view: SeatView) -> dict[str, int]:
        """Each seat's number on the map: its place in turn order."""
        return {seat: index for index, seat in enumerate(seat_view.seats, start=1)}

    # ------------------------------------------------------------------ the turn

    async def show_turn(self, table_id: int) -> None:
        """The map with the spots where the tile in hand fits, the players, the tile and
        its turns; or, when the tile is placed already (a game resumed between the two),
        where a meeple can go."""
        table, seat_view = await self.seat_view(table_id)
        self.deploying = seat_view.phase is Phase.DEPLOY
        last = seat_view.board.tiles[-1].square if len(seat_view.board) > 1 else None
        spots = tuple(spots_of(seat_view)) if seat_view.phase is Phase.PLACE else ()
        self.say("")
        self.say(self.text("console.carc.turn", turn=seat_view.turn, count=seat_view.stack_size))
        numbers = self.numbers(seat_view)
        self.say(
            "\n".join(map_lines(seat_view, numbers, spots=spots, last=last, locale=self.locale))
        )
        self.say_players(table, seat_view)
        if seat_view.phase is Phase.DEPLOY:
            self.say_targets(table, seat_view)
            return
        if seat_view.current is not None:
            self.say_tile(seat_view)

    def say_players(self, table: Table, seat_view: SeatView) -> None:
        names = self.names(table)
        for number, seat in enumerate(seat_view.seats, start=1):
            supply = seat_view.supply(seat)
            self.say(
                self.text(
                    "console.carc.player",
                    number=number,
                    name=names[seat],
                    count=seat_view.scores[seat_view.units.index(seat)],
                    small=supply[Size.SMALL],
                    large=supply[Size.LARGE],
                )
            )

    def say_tile(self, seat_view: SeatView) -> None:
        """The tile in hand in words, drawn in each turn that fits somewhere, and the spots."""
        assert seat_view.current is not None
        tile = seat_view.current
        spots = spots_of(seat_view)
        turns = [
            turn
            for turn in tile_type(tile).symmetric_rotations
            if any(turn in t for t in spots.values())
        ]
        self.say(self.text("console.carc.your_tile", tile=tile_words(tile, 0, self.locale)))
        drawn = [tile_rows(tile, turn, locale=self.locale) for turn in turns]
        self.say("  " + "".join(f"{TURN_LETTERS[turn]:^7}" for turn in turns).rstrip())
        for line in range(TILE_HEIGHT):
            self.say("  " + "".join(f" {rows[line]} " for rows in drawn).rstrip())
        listed = " · ".join(
            f"{number} ({', '.join(TURN_LETTERS[turn] for turn in fitting)})"
            for number, fitting in enumerate(spots.values(), start=1)
        )
        last = list(spots.values())[-1]
        self.spot_example = f"{len(spots)}{TURN_LETTERS[last[-1]]}"
        self.say_item("", self.text("console.carc.spots", count=len(spots), spots=listed))

    async def play(self, table_id: int, line: str) -> None:
        """A spot and a turn: previewed, then a meeple chosen, then the turn confirmed."""
        table, seat_view = await self.seat_view(table_id)
        if seat_view.phase is Phase.DEPLOY:
            await self.deploy_only(table_id, table, seat_view, line)
            return
        placement = self.read_spot(seat_view, line)
        if placement is None:
            return
        after = self.preview(table, seat_view, placement)
        choice = self.choose_meeple(table, after)
        if choice is None:
            self.say(self.text("console.carc.taken_back"))
            return
        spot = list(spots_of(seat_view)).index((placement.x, placement.y)) + 1
        summary = self.choice_text(table, after, choice)
        question = self.text(
            "console.carc.confirm",
            spot=spot,
            turn=TURN_LETTERS[placement.rotation],
            choice=summary,
        )
        if not self.confirm(question):
            self.say(self.text("console.carc.not_played"))
            return
        assert seat_view.seat is not None
        placed = await self.submit(
            table_id, Action(PLACE, None, placement.to_json()), seat_view.turn
        )
        if placed is None:
            return
        updates = await self.submit(table_id, deploy_action(choice), seat_view.turn)
        if updates is not None:
            await self.announce(table_id, [*placed, *updates])

    async def deploy_only(
        self, table_id: int, table: Table, seat_view: SeatView, line: str
    ) -> None:
        """The meeple of a tile already placed (a game stopped between the two)."""
        if self.word(line) == "back":
            self.say(self.text("console.carc.placed_already"))
            return
        choice = self.read_choice(table, seat_view, line)
        if choice is None:
            return
        question = self.text(
            "console.carc.confirm_meeple", choice=self.choice_text(table, seat_view, choice)
        )
        if not self.confirm(question):
            self.say(self.text("console.carc.not_played"))
            return
        updates = await self.submit(table_id, deploy_action(choice), seat_view.turn)
        if updates is not None:
            await self.announce(table_id, updates)

    def read_spot(self, seat_view: SeatView, line: str) -> Placement | None:
        """The placement ``3b`` names (spot 3 turned b; the first turn that fits when no
        turn is given), or None after saying what is wrong."""
        spots = spots_of(seat_view)
        squares = list(spots)
        found = SPOT.match(line.lower())
        if found is None or not 1 <= int(found[1]) <= len(squares):
            self.say(
                self.text(
                    "console.carc.bad_spot",
                    text=line.strip()[:20],
                    count=len(squares),
                    example=self.spot_example,
                )
            )
            return None
        number = int(found[1])
        square = squares[number - 1]
        fitting = spots[square]
        turn = TURN_LETTERS.index(found[2]) if found[2] else fitting[0]
        if turn not in fitting:
            self.say(
                self.text(
                    "console.carc.bad_turn",
                    turn=found[2],
                    spot=number,
                    turns=", ".join(TURN_LETTERS[t] for t in fitting),
                )
            )
            return None
        return Placement(square[0], square[1], turn)

    def preview(self, table: Table, seat_view: SeatView, placement: Placement) -> SeatView:
        """What the placement would join, score or fight, and the map around it with the
        tile in place; returns the view as it would be."""
        assert seat_view.seat is not None
        names = self.names(table)
        number = list(spots_of(seat_view)).index((placement.x, placement.y)) + 1
        self.say(
            self.text("console.carc.preview", spot=number, turn=TURN_LETTERS[placement.rotation])
        )
        effects = placement_lines(seat_view, placement, names, self.locale)
        for effect in effects or [self.text("console.carc.joins_nothing")]:
            self.say_item("  • ", effect)
        after_state, _ = place(seat_view.as_state(), seat_view.seat, placement)
        after = view(after_state, seat_view.seat)
        square = (placement.x, placement.y)
        close = map_lines(
            after, self.numbers(after), last=square, focus=square, locale=self.locale, reach=REACH
        )
        self.say("\n".join(close))
        return after

    def say_targets(self, table: Table, after: SeatView) -> None:
        names = self.names(table)
        supply = after.supply(after.active)
        self.say(
            self.text("console.carc.where", small=supply[Size.SMALL], large=supply[Size.LARGE])
        )
        self.say(f"  0  {self.text('console.carc.no_meeple')}")
        if not supply[Size.SMALL] and not supply[Size.LARGE]:
            return
        size = Size.SMALL if supply[Size.SMALL] else Size.LARGE
        targets = deploy_targets(after.as_state())
        for number, ref in enumerate(targets, start=1):
            where = target_words(after.board, after.placed, ref, self.locale)
            does = deployment_text(after, ref, size, names, self.locale)
            self.say_item(f"  {number}  ", f"{where}: {does}")
        if supply[Size.LARGE]:
            self.meeple_prompt = self.text(
                "console.carc.meeple_prompt", count=len(targets), example=self.large_example()
            )
        else:
            self.meeple_prompt = self.text("console.carc.meeple_prompt_small", count=len(targets))

    def large_example(self) -> str:
        """How the large meeple is typed on the first place there is: “1 large”."""
        return f"1 {self.text('console.word.large')}"

    def choose_meeple(self, table: Table, after: SeatView) -> Choice | None:
        """Ask where the meeple goes until the answer is one; None: the placement is taken
        back (``back``, or the end of the input)."""
        supply = after.supply(after.active)
        if not supply[Size.SMALL] and not supply[Size.LARGE]:
            self.say(self.text("console.carc.no_meeples_left"))
            return Choice(None, Size.SMALL)
        if not deploy_targets(after.as_state()):
            self.say(self.text("console.carc.nowhere"))
            return Choice(None, Size.SMALL)
        self.say_targets(table, after)
        while True:
            answer = self.ask(self.meeple_prompt)
            if answer is None or self.word(answer) == "back":
                return None
            choice = self.read_choice(table, after, answer)
            if choice is not None:
                return choice

    def word(self, text: str) -> str | None:
        """``back`` or ``large`` as typed in English or the player's language."""
        typed = text.strip().lower()
        for word in ("back", "large"):
            if typed in (word, self.text(f"console.word.{word}")):
                return word
        return None

    def read_choice(self, table: Table, after: SeatView, text: str) -> Choice | None:
        """``0`` (or Enter) for no meeple, ``2``, ``2 large`` (``large`` alone where there
        is one place); None after saying what is wrong."""
        targets = deploy_targets(after.as_state())
        found = CHOICE.match(text.lower())
        number = found[1] if found is not None else ""
        extra = found[2] if found is not None else text
        large = bool(extra) and self.word(extra) == "large"
        if found is None or (extra and not large) or (number and int(number) > len(targets)):
            self.say(
                self.text("console.carc.bad_choice", text=text.strip()[:20], count=len(targets))
            )
            return None
        if large and not number:
            if len(targets) != 1:
                self.say(self.text("console.carc.large_which", example=self.large_example()))
                return None
            number = "1"
        if not number or int(number) == 0:
            return Choice(None, Size.SMALL)
        supply = after.supply(after.active)
        size = Size.LARGE if large or not supply[Size.SMALL] else Size.SMALL
        if not supply[size]:
            self.say(self.text(f"console.carc.no_{size.value}"))
            return None
        return Choice(targets[int(number) - 1], size)

    def choice_text(self, table: Table, after: SeatView, choice: Choice) -> str:
        if choice.target is None:
            return self.text("console.carc.no_meeple")
        where = target_words(after.board, after.placed, choice.target, self.locale)
        does = deployment_text(after, choice.target, choice.size, self.names(table), self.locale)
        size = say(self.locale, f"size.{choice.size.value}")
        return self.text("console.carc.choice", size=size, target=where, does=does)

    # ------------------------------------------------------------------ what happened

    async def announce(self, table_id: int, updates: Sequence[Update]) -> None:
        """Each turn played, told in words, then the next turn of the player."""
        for update in updates:
            names = self.names(update.table)
            for report in update.turns:
                for line in turn_story(report.events, report.view, names, self.locale):
                    self.say(line)
        await self.mark_announced(table_id)
        table = await self.service.table(table_id)
        if table.status == "running" and any(update.turns for update in updates):
            await self.show_turn(table_id)

    async def show_end(self, table_id: int) -> None:
        """The final map and the ranking (or the word that the game was abandoned)."""
        table, seat_view = await self.seat_view(table_id)
        if table.status == "abandoned":
            self.say(self.phrase("abandoned"))
            return
        numbers = self.numbers(seat_view)
        self.say("")
        self.say("\n".join(map_lines(seat_view, numbers, locale=self.locale)))
        names = self.names(table)
        scores = dict(zip(seat_view.units, seat_view.scores, strict=True))
        for row in await self.service.storage.results(table_id):
            self.say(
                self.text(
                    "console.carc.ranking",
                    place=row.place,
                    name=names[row.seat],
                    count=scores[row.seat],
                )
            )


def deploy_action(choice: Choice) -> Action:
    deployment = None if choice.target is None else Deployment(choice.target, choice.size)
    return Action(DEPLOY, None, {} if deployment is None else deployment.to_json())


def turn_story(
    events: Sequence[Event], seat_view: SeatView, names: Mapping[str, str], locale: str
) -> list[str]:
    """A turn in words, as the terminal tells it: the tile placed, the meeple, each battle
    round by round with every die, what was scored, tiles that fit nowhere; at the end of
    the game every feature still held, scored."""
    board = seat_view.board
    last = board.tiles[-1]
    lines: list[str] = []
    final = False
    for event in events:
        if isinstance(event, (MeepleDeployed, NothingDeployed)):
            lines.append(
                t(
                    locale,
                    "console.carc.placed",
                    name=names[event.seat],
                    tile=tile_words(last.tile, last.rotation, locale),
                )
            )
        if isinstance(event, MeepleDeployed):
            key = "console.carc.attacked" if event.attack else "console.carc.deployed"
            where = target_words(board, last.square, event.at, locale)
            size = say(locale, f"size.{event.size.value}")
            lines.append(t(locale, key, name=names[event.seat], size=size, target=where))
        elif isinstance(event, NothingDeployed):
            lines.append(t(locale, "console.carc.nothing", name=names[event.seat]))
        elif isinstance(event, BattleStarted):
            sides = ", ".join(
                say(locale, "effect.side", name=names.get(unit, unit), count=dice)
                for unit, dice in event.sides
            )
            region = region_label(board, event.at, locale)
            lines.append(t(locale, "console.carc.battle", region=region, sides=sides))
        elif isinstance(event, DiceRolled):
            rolls = " · ".join(
                f"{names.get(unit, unit)} {' '.join(f'[{die}]' for die in dice)}"
                for unit, dice in event.rolls
            )
            lines.append(t(locale, "carc.story.roll", round=event.round, rolls=rolls))
        elif isinstance(event, BattleTied):
            units = ", ".join(names.get(unit, unit) for unit in event.units)
            lines.append(t(locale, "carc.story.tied", units=units))
        elif isinstance(event, BattleLost):
            lines.append(
                t(
                    locale,
                    "carc.story.lost",
                    unit=names.get(event.unit, event.unit),
                    count=event.points,
                )
            )
        elif isinstance(event, BattleWon):
            lines.append(t(locale, "carc.story.won", unit=names.get(event.unit, event.unit)))
        elif isinstance(event, FeatureScored):
            region = region_label(board, event.at, locale)
            if event.final and not final:
                lines.append(t(locale, "console.carc.final_header"))
                final = True
            key = "console.carc.final" if event.final else "console.carc.scored"
            lines.append(
                t(
                    locale,
                    key,
                    region=region,
                    name=names.get(event.unit, event.unit),
                    count=event.points,
                )
            )
        elif isinstance(event, TileRemoved):
            lines.append(t(locale, "console.carc.removed", tile=tile_words(event.tile, 0, locale)))
        elif isinstance(event, TileReturned):
            lines.append(t(locale, "console.carc.returned"))
    return lines


CONSOLE = CarcassonneConsole

__all__ = ["CONSOLE", "CarcassonneConsole", "Choice", "turn_story"]
