"""What the games' ``simulate`` commands share: seeds for the games of a run and the
confidence interval of a win rate. Pure arithmetic, no game rules."""

from __future__ import annotations

import math

from engine.core import Rng

Z95 = 1.959963984540054


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``."""
    return Rng(seed, index).next64() >> 1


def wilson_interval(wins: float, trials: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = wins / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))
