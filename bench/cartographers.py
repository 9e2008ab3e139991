"""Cartographers engine speed: median / p99 time to enumerate the legal placements of the
largest (five-cell) shapes on an empty and on a half-full map, full 4-player games per
second with random legal placements, and the PNG render time.

    python bench/cartographers.py [--games 40] [--repeat 300] [--seed 1]

Prints JSON. A measurement, never a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cartographers import Expedition, MapSheet, Side
from engine.cartographers.components import EXPLORE_CARDS
from engine.cartographers.placement import Offer, legal_drawings
from engine.cartographers.render import map_picture
from engine.cartographers.rules import MONSTER, PLACE, legal_placements
from engine.cartographers.state import GameState, Phase
from engine.core import Rng


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "median_us": round(statistics.median(values) * 1e6, 1),
        "p99_us": round(percentile(values, 0.99) * 1e6, 1),
    }


def options(state: GameState, seat: str) -> list[object]:
    offer = state.offer()
    found = [
        drawing
        for terrain in offer.terrains
        for shape in range(len(offer.shapes))
        for drawing in legal_placements(state, seat, terrain, shape)
    ]
    if not found:
        found = [
            drawing
            for terrain in offer.fallback_terrains
            for drawing in legal_placements(state, seat, terrain, None)
        ]
    return found


def half_full_map(seed: int) -> MapSheet:
    expedition = Expedition.new(seats=1, seed=seed)
    rng = Rng(seed, 9)
    while expedition.state.players[0].sheet.filled_mask.bit_count() < 60:
        state = expedition.state
        choices = options(state, "1")
        expedition.place("1", choices[rng.below(len(choices))].placement)  # type: ignore[attr-defined]
    return expedition.state.players[0].sheet


def bench_enumeration(repeat: int, seed: int) -> dict[str, object]:
    largest = [
        (card, index)
        for card in EXPLORE_CARDS
        for index, shape in enumerate(card.shapes)
        if shape.size == 5
    ]
    maps = {"empty": MapSheet.blank(Side.A), "half_full": half_full_map(seed)}
    out: dict[str, object] = {"shapes": [f"{card.id}/{index}" for card, index in largest]}
    for name, sheet in maps.items():
        times: list[float] = []
        counts: list[int] = []
        for card, index in largest:
            offer = Offer.explore(card, ruins=False)
            for _ in range(repeat):
                begin = time.perf_counter()
                drawings = legal_drawings(sheet, offer, card.terrains[0], index)
                times.append(time.perf_counter() - begin)
            counts.append(len(drawings))
        out[name] = {
            **summary(times),
            "filled_cells": sheet.filled_mask.bit_count(),
            "placements": counts,
        }
    return out


def bench_games(games: int, seats: int, seed: int) -> dict[str, object]:
    actions = 0
    started = time.perf_counter()
    for number in range(games):
        expedition = Expedition.new(seats=seats, seed=seed + number)
        rng = Rng(seed + number, 1)
        while not expedition.is_over:
            state = expedition.state
            seat = state.waiting_for[0]
            choices = options(state, seat)
            kind = PLACE if state.phase is Phase.DRAW else MONSTER
            drawing = choices[rng.below(len(choices))]
            expedition.act(kind, seat, drawing.placement)  # type: ignore[attr-defined]
            actions += 1
    took = time.perf_counter() - started
    return {
        "games": games,
        "seats": seats,
        "games_per_second": round(games / took, 2),
        "actions_per_game": round(actions / games, 1),
    }


def bench_png(repeat: int, seed: int) -> dict[str, object]:
    sheet = half_full_map(seed)
    times = []
    for _ in range(repeat):
        begin = time.perf_counter()
        map_picture(sheet, coins=5, scored=[12, 13])
        times.append(time.perf_counter() - begin)
    micro = summary(times)
    return {
        "median_ms": round(micro["median_us"] / 1000, 2),
        "p99_ms": round(micro["p99_us"] / 1000, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    report = {
        "legal_placements_largest_shapes": bench_enumeration(args.repeat, args.seed),
        "random_games": bench_games(args.games, 4, args.seed),
        "png_render": bench_png(max(10, args.repeat // 10), args.seed),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
