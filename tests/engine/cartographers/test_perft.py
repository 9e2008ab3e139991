"""Perft-style counts: how many distinct legal placements a (map, card, shape) position
has, from ``data/perft.json``; each count is also checked by a brute-force enumeration
written independently of the engine's geometry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.cartographers.components import EXPLORE_BY_ID, Terrain
from engine.cartographers.placement import Offer, legal_drawings
from engine.cartographers.sheet import MapSheet

DATA = Path(__file__).parent / "data" / "perft.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["cases"]


def brute_force(sheet: MapSheet, pattern: str, ruins: bool) -> int:
    """Distinct cell sets of every rotation and mirror image at every offset."""
    base = [
        (r, c)
        for r, line in enumerate(pattern.split("/"))
        for c, ch in enumerate(line)
        if ch == "#"
    ]
    images = []
    for mirror in (False, True):
        cells = [(r, -c) for r, c in base] if mirror else list(base)
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]
            images.append(cells)
    found: set[frozenset[int]] = set()
    for image in images:
        for dr in range(-20, 21):
            for dc in range(-20, 21):
                placed = [(r + dr, c + dc) for r, c in image]
                if not all(0 <= r < 11 and 0 <= c < 11 for r, c in placed):
                    continue
                indices = frozenset(r * 11 + c for r, c in placed)
                if any(sheet.is_filled(i) for i in indices):
                    continue
                if ruins and not any(sheet.grid[i] == "R" for i in indices):
                    continue
                found.add(indices)
    return len(found)


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_legal_placement_counts(case: dict[str, Any]) -> None:
    sheet = MapSheet.from_rows(case["map"])
    card = EXPLORE_BY_ID[case["card"]]
    offer = Offer.explore(card, case["ruins"])
    terrain = Terrain(case["terrain"])
    shape = case["shape"]
    drawings = legal_drawings(sheet, offer, terrain, shape)
    assert len(drawings) == case["count"]
    if shape is not None:
        assert brute_force(sheet, card.shapes[shape].pattern(), case["ruins"]) == case["count"]
    else:
        fits = any(brute_force(sheet, s.pattern(), case["ruins"]) for s in card.shapes)
        assert case["count"] == (0 if fits else len(sheet.empty_cells))
