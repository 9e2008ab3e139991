"""The track's geometry (spec §2): lap indices, outer spaces, lap lengths, the finish,
and laps as the engine reports them (``LapCompleted`` events)."""

from __future__ import annotations

import pytest

from engine.charioteer.events import LapCompleted
from engine.charioteer.track import finish_position, is_outer, lap_index, laps_completed
from tests.engine.charioteer.builders import STAY, chariot, move, play, position


def test_start_space_and_finish_line_lap_indices() -> None:
    """§2: the Start space is lap index 60; positions 1–2 are 61–62; the finish line
    follows position 2, so position 3 is lap index 1; p ≥ 3 is (p − 3) mod 62 + 1."""
    assert [lap_index(p) for p in (0, 1, 2, 3, 4)] == [60, 61, 62, 1, 2]
    assert [lap_index(p) for p in (64, 65, 127, 189)] == [62, 1, 1, 1]
    assert all(lap_index(p + 62) == lap_index(p) for p in range(3, 200))


def test_each_lap_has_62_spaces_with_8_outer_spaces_per_curve() -> None:
    """§2: one lap is 62 spaces, 46 regular + 16 outer; curve 1 (lap indices 4–20) and
    curve 2 (35–51) alternate regular and outer, starting and ending regular."""
    lap = range(3, 3 + 62)
    outer = [lap_index(p) for p in lap if is_outer(p)]
    assert len(outer) == 16
    assert [i for i in outer if 4 <= i <= 20] == list(range(5, 20, 2))
    assert [i for i in outer if 35 <= i <= 51] == list(range(36, 51, 2))
    assert not any(is_outer(p) for p in range(0, 3))


def test_a_three_lap_race_ends_at_position_189_and_the_first_lap_is_65_long() -> None:
    """§2: lap k is complete at position ≥ 3 + 62·k: the first lap is 65 spaces from
    Start, the others 62, and a 3-lap race ends on reaching 189."""
    assert finish_position(3) == 189
    assert [laps_completed(p) for p in (0, 3, 64, 65, 126, 127, 188, 189)] == [
        0,
        0,
        0,
        1,
        1,
        2,
        2,
        3,
    ]


@pytest.mark.parametrize(
    ("start", "spaces", "laps"),
    [
        (0, 6, []),  # crossing the line at position 3 only starts lap 1
        (60, 4, []),  # 64 is the last space of lap 1
        (60, 5, [1]),  # 65: lap 1 complete
        (124, 4, [2]),  # 127: lap 2 complete
    ],
)
def test_laps_are_reported_when_the_finish_line_is_crossed(
    start: int, spaces: int, laps: list[int]
) -> None:
    """§2, §8: a LapCompleted event for each completed lap, the first at position 65."""
    hand = {4: ["G2", "G2"], 5: ["G2", "G2 Y4", "G2 R1"], 6: ["G4", "G4"]}[spaces]
    symbol = hand[0]
    start_position = position(
        chariot("A", start, hand=hand),
        chariot("B", start + 40, hand=["G6"]),
    )
    turn = play(start_position, {"A": move(symbol, *range(len(hand))), "B": STAY})
    assert turn.chariot("A")["position"] == start + spaces
    assert [event.lap for event in turn.of(LapCompleted, seat="A")] == laps
