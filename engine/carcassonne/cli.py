"""The engine's command line.

``python -m engine.carcassonne new --seats 3 --seed 5`` prints a fresh position.

``python -m engine.carcassonne apply FILE.json``: the file holds a position and, under
``"action"``, one action (``{"kind": "place", "seat": "red", "data": {"x": 1, "y": 0,
"rotation": 90}}``; the seat defaults to the active one). Prints ``{"position", "events",
"result"}``; a refused or malformed input exits 2 printing only ``{"error": "..."}`` (a
refused action adds its ``message`` id and ``params``).

``python -m engine.carcassonne show FILE.json [--png out.png] [--locale es]`` prints the
text summary (and writes the board picture) in English, Spanish or Italian.
``score FILE.json`` prints what every open feature would score at the end.
``simulate --seats strategic,greedy --games 400 --seed 1`` plays AI levels against each
other.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import TextIO

from engine.carcassonne.messages import catalogue
from engine.carcassonne.rules import final_scores
from engine.carcassonne.simulate import simulate
from engine.carcassonne.table import Table
from engine.core import JSON, Action, EngineError, MalformedPosition
from engine.jsonio import (
    CommandParser,
    add_locale,
    dump,
    read_json,
    run_command,
    split_position,
    write_file,
)


def apply_file(document: JSON) -> dict[str, JSON]:
    """Apply the one action a position-with-action describes (the ``apply`` command)."""
    position, action_obj = split_position(document, "action", '{"kind": …, "data": …}')
    table = Table.from_position(position)
    action = Action.from_json({"seat": table.active, **action_obj})
    if action.chance:
        raise MalformedPosition("an action to apply carries no chance outcomes")
    events = table.act(action)
    return {
        "position": table.position(),
        "events": [event.to_json() for event in events],
        "result": None if table.result is None else table.result.to_json(),
    }


def score_file(document: JSON) -> dict[str, JSON]:
    """What every feature holding meeples would score if the game ended now."""
    if not isinstance(document, Mapping):
        raise MalformedPosition("the file must hold a position object")
    state = Table.from_position(document).state
    features: list[JSON] = []
    totals = dict(zip(state.units, state.scores, strict=True))
    for event in final_scores(state):
        features.append(
            {
                **event.at.to_json(),
                "kind": event.kind.value,
                "unit": event.unit,
                "points": event.points,
                "tiles": event.tiles,
                "symbols": event.symbols,
            }
        )
        totals[event.unit] += event.points
    return {"features": features, "scores_if_ended_now": totals}


def run_new(args: argparse.Namespace, out: TextIO) -> int:
    options = {"team": args.team, "unplaceable": args.unplaceable}
    dump(Table.new(seats=args.seats, seed=args.seed, **options).position(), out, args.compact)
    return 0


def run_apply(args: argparse.Namespace, out: TextIO) -> int:
    dump(apply_file(read_json(args.file)), out, args.compact)
    return 0


def run_show(args: argparse.Namespace, out: TextIO) -> int:
    from engine.carcassonne.render import board_png, summary

    view = Table.from_position(_position(read_json(args.file))).view()
    out.write(summary(view, args.locale) + "\n")
    if args.png is not None:
        write_file(args.png, board_png(view, locale=args.locale))
    return 0


def _position(document: JSON) -> JSON:
    if isinstance(document, Mapping):
        return {key: value for key, value in document.items() if key != "action"}
    return document


def run_score(args: argparse.Namespace, out: TextIO) -> int:
    dump(score_file(_position(read_json(args.file))), out, args.compact)
    return 0


def run_simulate(args: argparse.Namespace, out: TextIO) -> int:
    seats = [level.strip() for level in args.seats.split(",")]
    dump(simulate(seats, args.games, args.seed, jobs=args.jobs), out, args.compact)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="python -m engine.carcassonne",
        description="Carcassonne: Star Wars's engine on the command line.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    new = commands.add_parser("new", help="print a fresh position")
    new.add_argument("--seats", type=int, default=2, help="2 to 5 (default 2)")
    new.add_argument("--seed", type=int, default=0)
    new.add_argument("--team", action="store_true", help="the 4-player team variant")
    new.add_argument("--unplaceable", default="remove", help="remove (default) or return")
    new.add_argument("--compact", action="store_true", help="one-line JSON")
    new.set_defaults(run=run_new)

    apply = commands.add_parser("apply", help="apply one action to a position")
    apply.add_argument("file", help='position JSON with an "action" object (- for stdin)')
    apply.add_argument("--compact", action="store_true", help="one-line JSON")
    apply.set_defaults(run=run_apply)

    show = commands.add_parser("show", help="a position as text (and as a picture)")
    show.add_argument("file", help="position JSON (- for stdin)")
    show.add_argument("--png", help="write the board picture to this file")
    add_locale(show, catalogue().locales)
    show.set_defaults(run=run_show)

    score = commands.add_parser("score", help="what each open feature would score at the end")
    score.add_argument("file", help="position JSON (- for stdin)")
    score.add_argument("--compact", action="store_true", help="one-line JSON")
    score.set_defaults(run=run_score)

    sim = commands.add_parser("simulate", help="play AI levels against each other")
    sim.add_argument("--seats", default="strategic,greedy", help="one level per seat: a,b,…")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--jobs", type=int, default=1, help="processes (same figures)")
    sim.add_argument("--compact", action="store_true", help="one-line JSON")
    sim.set_defaults(run=run_simulate)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run a command; input errors print ``{"error": ...}`` (with the message id and
    params of a refused action) and return 2."""
    return run_command(build_parser(), argv, out, refusal=EngineError.to_json)
