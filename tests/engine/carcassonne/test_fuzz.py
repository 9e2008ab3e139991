"""Random play: round-trips, replays, and the conservation laws (issue: tests)."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from engine.carcassonne import Size, Table, catalogue, read_position, write_position
from engine.core import GameRecord, Rng, replay

GAMES = 200 if os.environ.get("CIRCUS_LONG") else 6


def _all_tiles() -> Counter[str]:
    return Counter(catalogue().stack()) + Counter([catalogue().start.id])


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games_keep_every_law(seed: int) -> None:
    seats = 2 + seed % 4
    table = Table.new(seats=seats, seed=seed, team=(seats == 4 and seed % 8 == 2))
    rng = Rng(seed, 1)
    scores = table.state.scores
    while not table.is_over:
        placements = table.legal_placements()
        assert placements, "a drawn tile always fits somewhere"
        table.place(table.active, placements[rng.below(len(placements))])
        deployments = table.legal_deployments()
        table.deploy(table.active, deployments[rng.below(len(deployments))])
        state = table.state
        assert all(now >= before for now, before in zip(state.scores, scores, strict=True))
        scores = state.scores
        for seat in state.seats:
            mine = [m for m in state.meeples if m.seat == seat]
            assert sum(m.size is Size.SMALL for m in mine) <= 4
            assert sum(m.size is Size.LARGE for m in mine) <= 1
        held = Counter(p.tile for p in state.board.tiles) + Counter(state.stack)
        held += Counter(state.removed) + Counter([state.current] if state.current else [])
        assert held == _all_tiles()
        assert read_position(write_position(state)) == state
    record = GameRecord.from_json(table.record.to_json())
    assert replay(record) == table.state
    assert table.result is not None
    assert len(table.state.board) + len(table.state.removed) == 76
