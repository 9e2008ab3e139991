"""The engine's command line (spec §11).

``python -m engine.charioteer resolve FILE.json`` resolves one turn of a position whose
object also holds ``"moves"`` by seat and prints ``{"position", "events", "result"}``; an
illegal or malformed input exits 2 printing only ``{"error": "..."}``.

``python -m engine.charioteer new --seats 4 --seed 7`` prints a fresh position.

``python -m engine.charioteer show FILE.json [--seat A] [--png out.png] [--locale es]``
renders a position: the public board as text, a seat's hand, the board image, in English,
Spanish or Italian.
``python -m engine.charioteer simulate --seats strategic,greedy --races 400 --seed 1``
races AI levels against each other and prints their figures (win rates, turns, moves).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TextIO

from engine.charioteer.events import MoveCommitted
from engine.charioteer.race import Race
from engine.charioteer.render.common import catalogue
from engine.charioteer.simulate import simulate
from engine.core import JSON, Event, MalformedPosition
from engine.jsonio import (
    CommandParser,
    add_locale,
    dump,
    read_json,
    run_command,
    split_position,
    whole_number,
    write_file,
)


def resolve_file(document: JSON) -> dict[str, JSON]:
    """Resolve the turn a position-with-moves describes (the ``resolve`` command)."""
    position, moves = split_position(document, "moves", "{seat: move, …}")
    race = Race.from_position(position)
    strangers = sorted(set(moves) - set(race.seats))
    if strangers:
        raise MalformedPosition(
            f"moves name seats not in the race: {', '.join(strangers)}", seat=strangers[0]
        )
    start_turn = race.turn
    events: list[Event] = []
    for seat in race.seats:
        if seat in moves:
            events.extend(race.commit(seat, moves[seat]))
    if race.turn == start_turn and not race.is_over:
        waiting = ", ".join(race.waiting_for)
        raise MalformedPosition(f"no move for {waiting}", seat=race.waiting_for[0])
    return {
        "position": race.position(),
        "events": [event.to_json() for event in events if not isinstance(event, MoveCommitted)],
        "result": None if race.result is None else race.result.to_json(),
    }


def run_resolve(args: argparse.Namespace, out: TextIO) -> int:
    dump(resolve_file(read_json(args.file)), out, args.compact)
    return 0


def run_new(args: argparse.Namespace, out: TextIO) -> int:
    race = Race.new(seats=args.seats, seed=args.seed, laps=args.laps)
    dump(race.position(), out, args.compact)
    return 0


def run_show(args: argparse.Namespace, out: TextIO) -> int:
    from engine.charioteer.render.show import show_position

    text, image = show_position(
        read_json(args.file), seat=args.seat, png=args.png is not None, locale=args.locale
    )
    if image is not None:
        write_file(args.png, image)
    out.write(text + "\n")
    return 0


def run_simulate(args: argparse.Namespace, out: TextIO) -> int:
    seats = [level.strip() for level in args.seats.split(",")]
    dump(simulate(seats, args.races, args.seed, laps=args.laps, jobs=args.jobs), out, args.compact)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="python -m engine.charioteer", description="Charioteer's engine on the command line."
    )
    commands = parser.add_subparsers(dest="command", required=True)

    resolve = commands.add_parser("resolve", help="resolve one turn of a position file")
    resolve.add_argument("file", help="position JSON with a 'moves' object (- for stdin)")
    resolve.add_argument("--compact", action="store_true", help="one-line JSON")
    resolve.set_defaults(run=run_resolve)

    new = commands.add_parser("new", help="print a fresh position")
    new.add_argument("--seats", type=whole_number(1), default=4, help="2 to 6 (default 4)")
    new.add_argument("--seed", type=whole_number(0), default=0)
    new.add_argument("--laps", type=whole_number(1), default=3)
    new.add_argument("--compact", action="store_true", help="one-line JSON")
    new.set_defaults(run=run_new)

    show = commands.add_parser("show", help="render a position as text (and as an image)")
    show.add_argument("file", help="position JSON (- for stdin)")
    show.add_argument("--seat", help="also show this seat's hand")
    show.add_argument("--png", help="write the board image to this file")
    add_locale(show, catalogue().locales)
    show.set_defaults(run=run_show)

    sim = commands.add_parser("simulate", help="race AI levels against each other")
    sim.add_argument("--seats", default="strategic,greedy", help="one level per seat: a,b,…")
    sim.add_argument("--races", type=whole_number(1), default=100)
    sim.add_argument("--seed", type=whole_number(0), default=1)
    sim.add_argument("--laps", type=whole_number(1), default=3)
    sim.add_argument("--jobs", type=whole_number(1), default=1, help="processes (same figures)")
    sim.add_argument("--compact", action="store_true", help="one-line JSON")
    sim.set_defaults(run=run_simulate)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run a command; input errors print ``{"error": ...}`` and return 2."""
    return run_command(build_parser(), argv, out)
