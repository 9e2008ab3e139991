"""The engine's command line.

``python -m engine.cartographers new --seats 2 --side B --seed 4`` prints a fresh
position; ``score FILE.json`` prints what each scoring card gives a map (or every map of
a position or record) and which cells earned it; ``show FILE.json [--seat S] [--png
out.png]`` prints the table (or a map) as text and can write the map as a PNG; ``legal
FILE.json --seat S --terrain T --shape N`` lists the legal placements of a position;
``play [--side A|B] [--seed N]`` is a solo game on standard input and output;
``show`` and ``play`` speak English, Spanish or Italian (``--locale es``);
``simulate LEVEL LEVEL… [--games N]`` plays AI seats against each other and prints their
win rates.

Input errors print ``{"error": ...}`` and exit 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TextIO

from engine.cartographers.components import COIN_TRACK, DRAWABLE, Terrain
from engine.cartographers.messages import catalogue, text
from engine.cartographers.notation import read_position
from engine.cartographers.rules import legal_placements
from engine.cartographers.scoring import score_all
from engine.cartographers.sheet import MapSheet
from engine.cartographers.state import GameState
from engine.cartographers.table import Expedition
from engine.cartographers.terminal import play
from engine.cartographers.text import render_map, render_scores, render_table
from engine.cartographers.view import view
from engine.core import JSON, GameRecord, MalformedPosition, replay, to_jsonable
from engine.jsonio import (
    CommandParser,
    add_locale,
    dump,
    parse_whole_number,
    read_json,
    run_command,
    whole_number,
    write_file,
)

EXIT_INTERRUPTED = 130
"""What a shell reports for a program stopped by Ctrl-C."""


@dataclass(frozen=True)
class Loaded:
    """What a file held: a whole table, or a single map (with its coins)."""

    state: GameState | None
    sheet: MapSheet | None = None
    coins: int = 0


def load(document: JSON) -> Loaded:
    """A game record, a position, ``{"map": [rows], "coins": n}`` or a bare list of rows."""
    if isinstance(document, list):
        return Loaded(None, MapSheet.from_rows(document))
    if not isinstance(document, Mapping):
        raise MalformedPosition("the file must hold a record, a position or a map")
    if "ruleset" in document:
        record = GameRecord.from_json(document)
        if record.ruleset != "cartographers":
            raise MalformedPosition(f"this is a {record.ruleset} record")
        state = replay(record)
        assert isinstance(state, GameState)
        return Loaded(state)
    if "map" in document and "players" not in document:
        unknown = sorted(set(document) - {"map", "coins"})
        if unknown:
            raise MalformedPosition(f"a map file holds map and coins, not {', '.join(unknown)}")
        coins = document.get("coins", 0)
        if isinstance(coins, bool) or not isinstance(coins, int) or not 0 <= coins <= COIN_TRACK:
            raise MalformedPosition(f"coins must be a whole number from 0 to {COIN_TRACK}")
        rows = document["map"]
        if not isinstance(rows, list):
            raise MalformedPosition("a map is a list of 11 rows")
        return Loaded(None, MapSheet.from_rows(rows), coins)
    return Loaded(read_position(document))


def run_new(args: argparse.Namespace, out: TextIO) -> int:
    expedition = Expedition.new(
        seats=args.seats, seed=args.seed, side=args.side, ambush=args.ambush
    )
    dump(expedition.position(), out, args.compact)
    return 0


def run_score(args: argparse.Namespace, out: TextIO) -> int:
    loaded = load(read_json(args.file))
    if loaded.sheet is not None:
        dump({"scores": [to_jsonable(s) for s in score_all(loaded.sheet)]}, out, args.compact)
        return 0
    assert loaded.state is not None
    players = [
        {"seat": p.seat, "scores": [to_jsonable(s) for s in score_all(p.sheet)]}
        for p in loaded.state.players
    ]
    dump({"players": players}, out, args.compact)
    return 0


def run_show(args: argparse.Namespace, out: TextIO) -> int:
    loaded = load(read_json(args.file))
    lines: list[str] = []
    if loaded.state is not None:
        state = loaded.state
        seat = args.seat or state.seats[0]
        if seat not in state.seats:
            raise MalformedPosition(f"there is no seat {seat} at this table")
        seat_view = view(state, None)
        lines.append(render_table(seat_view, seat, args.locale))
        lines.extend(render_scores(seat_view, seat, args.locale))
        player = state.player(seat)
        sheet, coins = player.sheet, player.coins
    else:
        assert loaded.sheet is not None
        sheet, coins = loaded.sheet, loaded.coins
        lines.extend(render_map(sheet))
    if args.png:
        from engine.cartographers.render import map_picture, seat_map_picture

        if loaded.state is not None:
            picture = seat_map_picture(view(loaded.state, None), seat, lang=args.locale)
        else:
            picture = map_picture(sheet, coins=coins, lang=args.locale)
        write_file(args.png, picture.png)
    out.write("\n".join(lines) + "\n")
    return 0


def run_legal(args: argparse.Namespace, out: TextIO) -> int:
    loaded = load(read_json(args.file))
    if loaded.state is None:
        raise MalformedPosition("legal placements need a position or a record, not a bare map")
    state = loaded.state
    if args.seat not in state.seats:
        raise MalformedPosition(f"there is no seat {args.seat} at this table")
    if state.is_over:
        raise MalformedPosition("the game is over: nothing more can be drawn")
    try:
        terrain = Terrain(args.terrain)
    except ValueError:
        names = ", ".join(t.value for t in DRAWABLE)
        raise MalformedPosition(f"{args.terrain!r} is not a terrain ({names})") from None
    offer = state.offer()
    if args.shape == "1x1":
        shape = None
        allowed = offer.fallback_terrains
    else:
        shape = parse_whole_number(args.shape, 0, len(offer.shapes) - 1)
        allowed = offer.terrains
    if terrain not in allowed:
        offered = ", ".join(t.value for t in allowed)
        raise MalformedPosition(f"the card in play offers {offered}, not {terrain.value}")
    drawings = legal_placements(state, args.seat, terrain, shape)
    dump({"count": len(drawings), "placements": [d.to_json() for d in drawings]}, out, args.compact)
    return 0


def run_play(args: argparse.Namespace, out: TextIO) -> int:
    """The solo game on the terminal; one Ctrl-C abandons it with a line, not a traceback."""
    try:
        return play(sys.stdin, out, seed=args.seed, side=args.side, lang=args.locale)
    except KeyboardInterrupt:
        out.write("\n" + text("play.bye", lang=args.locale) + "\n")
        return EXIT_INTERRUPTED


def run_simulate(args: argparse.Namespace, out: TextIO) -> int:
    from engine.cartographers.simulate import simulate

    summary = simulate(
        args.levels,
        args.games,
        args.seed,
        side=args.side,
        ambush=args.ambush,
        jobs=args.jobs,
    )
    dump(summary, out, args.compact)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="python -m engine.cartographers",
        description="Cartographers' engine on the command line.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    new = commands.add_parser("new", help="print a fresh position")
    new.add_argument("--seats", type=whole_number(1), default=1, help="1 to 100 (default 1)")
    new.add_argument("--side", choices=("A", "B"), default="A")
    new.add_argument("--seed", type=whole_number(0), default=0)
    new.add_argument("--ambush", choices=("auto", "neighbour"), default="auto")
    new.add_argument("--compact", action="store_true", help="one-line JSON")
    new.set_defaults(run=run_new)

    score = commands.add_parser("score", help="every scoring card on a map, with cells")
    score.add_argument("file", help="a map, position or record (- for stdin)")
    score.add_argument("--compact", action="store_true", help="one-line JSON")
    score.set_defaults(run=run_score)

    show = commands.add_parser("show", help="a table or map as text, optionally as PNG")
    show.add_argument("file", help="a map, position or record (- for stdin)")
    show.add_argument("--seat", help="whose map to show (default: the first)")
    show.add_argument("--png", help="also write the map as a PNG to this path")
    add_locale(show, catalogue().locales)
    show.set_defaults(run=run_show)

    legal = commands.add_parser("legal", help="the legal placements in a position")
    legal.add_argument("file", help="a position or record (- for stdin)")
    legal.add_argument("--seat", default="1")
    legal.add_argument("--terrain", required=True)
    legal.add_argument(
        "--shape", default="0", help="0-based shape number of the card in play, or 1x1"
    )
    legal.add_argument("--compact", action="store_true", help="one-line JSON")
    legal.set_defaults(run=run_legal)

    solo = commands.add_parser("play", help="a solo game on standard input and output")
    solo.add_argument("--side", choices=("A", "B"), default="A")
    solo.add_argument("--seed", type=whole_number(0), default=0)
    add_locale(solo, catalogue().locales)
    solo.set_defaults(run=run_play)

    simulate = commands.add_parser("simulate", help="AI seats against each other")
    simulate.add_argument("levels", nargs="+", help="one level per seat: random, greedy, strategic")
    simulate.add_argument("--games", type=whole_number(1), default=100)
    simulate.add_argument("--seed", type=whole_number(0), default=0)
    simulate.add_argument("--side", choices=("A", "B"), default="A")
    simulate.add_argument("--ambush", choices=("auto", "neighbour"), default="auto")
    simulate.add_argument(
        "--jobs", type=whole_number(1), default=1, help="processes (same figures)"
    )
    simulate.add_argument("--compact", action="store_true", help="one-line JSON")
    simulate.set_defaults(run=run_simulate)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run a command; input errors print ``{"error": ...}`` and return 2."""
    return run_command(build_parser(), argv, out)
