"""How fast and how big the pictures and the text board are.

    python bench/render.py [--races 10] [--repeat 3] [--games 2] [--turns 0]

Prints, for Charioteer's ``board_png`` and ``board_text`` on every turn of seeded 6-seat
races, and for Cartographers' pictures (a player's map with a candidate placement and the
table below it, as posted; the drawing panel's map with its candidate; the explore card
alone; the season composite of 12 players) on every turn of seeded 12-player games, and
for Carcassonne's map on every turn of seeded 5-player games (and on the maps of 68 to 72
tiles alone, and the panel's picture of the tile tried on four spots of each) — the first
``--turns`` of each race and game only, if not 0: median and 99th-percentile time per
call, the median and 99th-percentile CPU time, and the median and largest output size.
Targets (not asserted): a picture a player waits for in at most 10 ms of CPU at the
median and 300 KB; a text board within one Discord message (2,000 characters).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.carcassonne.panel import place_png
from bot.games.cartographers.pictures import panel_png
from engine.carcassonne import Placement, Table, legal_placements
from engine.carcassonne import SeatView as CarcassonneView
from engine.carcassonne.ai import next_action, policy_for
from engine.carcassonne.render import board_png as carcassonne_png
from engine.cartographers import Expedition
from engine.cartographers import SeatView as MapView
from engine.cartographers.placement import Drawing
from engine.cartographers.render import card_picture, season_picture, seat_map_picture
from engine.charioteer import Race, SeatView
from engine.charioteer.render import board_png, board_text
from engine.core import Rng

NAMES = {seat: f"Charioteer {seat}{seat}" for seat in "ABCDEF"}
"""12-column display names, the longest the board shows."""


def positions(races: int, turns: int = 0) -> list[SeatView]:
    """Every turn (the first ``turns``, if not 0) of ``races`` seeded 6-seat races (random
    legal moves, favouring long ones), as the public view."""
    views = []
    for seed in range(races):
        race = Race.new(seats=6, seed=seed)
        rng = Rng(seed, 2)
        views.append(race.view())
        while not race.is_over and not (turns and race.turn > turns):
            for seat in race.seats:
                moves = race.legal_moves(seat, discards=False)
                sample = [moves[rng.below(len(moves))] for _ in range(6)]
                seat_view = race.view(seat)
                race.commit(
                    seat,
                    max(sample, key=lambda move: seat_view.analyse(move).card_distance),
                )
            views.append(race.view())
    return views


def cartographers_positions(games: int, turns: int = 0) -> list[tuple[MapView, Drawing]]:
    """Every turn (the first ``turns``, if not 0) of ``games`` seeded 12-player games
    (random legal drawings), as the first player's view with the drawing it is about to
    choose."""
    from tests.engine.cartographers.helpers import options_for, random_move

    out = []
    for seed in range(games):
        expedition = Expedition.new(seats=12, seed=seed, side="B")
        rng = Rng(seed, 2)
        while not expedition.is_over and not (turns and expedition.state.turn > turns):
            seat = expedition.state.waiting_for[0]
            choices = options_for(expedition.state, seat)
            out.append((expedition.view(seat), choices[rng.below(len(choices))]))
            kind, seat, drawing = random_move(expedition, rng)
            expedition.act(kind, seat, drawing.placement)
    return out


def carcassonne_positions(games: int) -> tuple[list[CarcassonneView], list[CarcassonneView]]:
    """Every turn of ``games`` seeded 5-player games (random legal moves), as the public
    view, and the active player's view whenever a tile is to be placed."""
    views, placing = [], []
    policy = policy_for("random")
    for seed in range(games):
        table = Table.new(seats=5, seed=seed)
        rng = Rng(seed, 2)
        while not table.is_over:
            views.append(table.view())
            seat_view = table.view(table.active)
            if seat_view.current is not None and seat_view.placed is None:
                placing.append(seat_view)
            table.act(next_action(policy, seat_view, rng))
        views.append(table.view())
    return views, placing


def measure(
    render: Callable[[Any], object], views: Sequence[Any], repeat: int
) -> tuple[list[float], list[float], list[int]]:
    """Wall-clock and CPU seconds per call, and output sizes (CPU time is the steadier
    figure on a machine shared with other work)."""
    times: list[float] = []
    cpu: list[float] = []
    sizes: list[int] = []
    render(views[0])  # fonts and catalogue loaded once, as in a running bot
    for _ in range(repeat):
        for seat_view in views:
            start, start_cpu = time.perf_counter(), time.process_time()
            out = render(seat_view)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            sizes.append(len(out) if isinstance(out, bytes | str) else 0)
    return times, cpu, sizes


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(
    name: str, times: Sequence[float], cpu: Sequence[float], sizes: Sequence[int], unit: str
) -> None:
    print(
        f"{name:<15} median {statistics.median(times) * 1000:6.1f} ms"
        f"   p99 {percentile(times, 0.99) * 1000:6.1f} ms"
        f"   cpu median {statistics.median(cpu) * 1000:6.1f} ms"
        f"   cpu p99 {percentile(cpu, 0.99) * 1000:6.1f} ms"
        f"   size median {statistics.median(sizes):8.0f} {unit}"
        f"   max {max(sizes):7d} {unit}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--turns", type=int, default=0, help="turns per race and game (0: all)")
    args = parser.parse_args(argv)
    views = positions(args.races, args.turns)
    print(f"{len(views)} positions from {args.races} six-seat races, {args.repeat} rounds")
    renders: dict[str, tuple[Callable[[SeatView], object], str]] = {
        "board_png": (lambda view: board_png(view, names=NAMES), "bytes"),
        "board_text": (lambda view: board_text(view, names=NAMES), "chars"),
    }
    for name, (render, unit) in renders.items():
        report(name, *measure(render, views, args.repeat), unit)

    turns = cartographers_positions(args.games, args.turns)
    print(f"{len(turns)} turns from {args.games} twelve-player Cartographers games")
    names = {str(seat): f"Cartographer {seat:>2}" for seat in range(1, 13)}
    pictures: dict[str, Callable[[tuple[MapView, Drawing]], object]] = {
        "map+candidate": lambda turn: (
            seat_map_picture(turn[0], turn[0].seat or "1", names=names, candidate=turn[1]).png
        ),
        "panel map": lambda turn: panel_png(
            turn[0], names, turn[1].placement, turn[1].cells, legal=True
        ),
        "explore card": lambda turn: card_picture(turn[0].card or "rift_lands").png,
        "season (12)": lambda turn: season_picture(turn[0], names=names).png,
    }
    for name, picture in pictures.items():
        report(name, *measure(picture, turns, 1), "bytes")

    carcassonne, placing = carcassonne_positions(args.games)
    at_70 = [view for view in carcassonne if 68 <= len(view.board.tiles) <= 72]
    print(f"{len(carcassonne)} positions from {args.games} five-player Carcassonne games")
    seat_names = {seat: f"Player {seat}" for seat in ("red", "green", "black", "white", "orange")}

    def carcassonne_map(view: CarcassonneView) -> bytes:
        return carcassonne_png(view, names=seat_names)

    report("carc map", *measure(carcassonne_map, carcassonne, 1), "bytes")
    report("carc map @70", *measure(carcassonne_map, at_70, args.repeat), "bytes")
    tried = [
        (view, placement, spots)
        for view in placing
        if 68 <= len(view.board.tiles) <= 72
        for spots in [tried_spots(view)]
        for placement in spots
    ]

    def place_picture(trial: tuple[CarcassonneView, Placement, list[Placement]]) -> bytes:
        view, placement, spots = trial
        squares = [(spot.x, spot.y) for spot in spots]
        return place_png(view, placement, squares, names=seat_names)

    report("carc panel @70", *measure(place_picture, tried, 1), "bytes")


def tried_spots(view: CarcassonneView) -> list[Placement]:
    """The first placement on each of four spots where the tile in hand fits: what a
    player tries in the panel."""
    spots: dict[tuple[int, int], Placement] = {}
    for placement in legal_placements(view.as_state()):
        spots.setdefault((placement.x, placement.y), placement)
    return list(spots.values())[:4]


if __name__ == "__main__":
    main()
