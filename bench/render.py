"""How fast and how big the board renders are, on 6-seat positions from seeded races.

    python bench/render.py [--races 10] [--repeat 3]

Prints, for ``board_png`` and ``board_text``: median and 99th-percentile time per call,
and the median and largest output size. Targets (not asserted): an image in at most
150 ms and 300 KB; a text board within one Discord message (2,000 characters).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.charioteer import Race, SeatView
from engine.charioteer.render import board_png, board_text
from engine.core import Rng

NAMES = {seat: f"Charioteer {seat}{seat}" for seat in "ABCDEF"}
"""12-column display names, the longest the board shows."""


def positions(races: int) -> list[SeatView]:
    """Every turn of ``races`` seeded 6-seat races (random legal moves, favouring long
    ones), as the public view."""
    views = []
    for seed in range(races):
        race = Race.new(seats=6, seed=seed)
        rng = Rng(seed, 2)
        views.append(race.view())
        while not race.is_over:
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


def measure(
    render: Callable[[SeatView], object], views: Sequence[SeatView], repeat: int
) -> tuple[list[float], list[int]]:
    times: list[float] = []
    sizes: list[int] = []
    render(views[0])  # fonts and catalogue loaded once, as in a running bot
    for _ in range(repeat):
        for seat_view in views:
            start = time.perf_counter()
            out = render(seat_view)
            times.append(time.perf_counter() - start)
            sizes.append(len(out) if isinstance(out, bytes | str) else 0)
    return times, sizes


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    views = positions(args.races)
    print(f"{len(views)} positions from {args.races} six-seat races, {args.repeat} rounds")
    renders: dict[str, tuple[Callable[[SeatView], object], str]] = {
        "board_png": (lambda view: board_png(view, names=NAMES), "bytes"),
        "board_text": (lambda view: board_text(view, names=NAMES), "chars"),
    }
    for name, (render, unit) in renders.items():
        times, sizes = measure(render, views, args.repeat)
        print(
            f"{name:<11} median {statistics.median(times) * 1000:6.1f} ms"
            f"   p99 {percentile(times, 0.99) * 1000:6.1f} ms"
            f"   size median {statistics.median(sizes):8.0f} {unit}"
            f"   max {max(sizes):7d} {unit}"
        )


if __name__ == "__main__":
    main()
