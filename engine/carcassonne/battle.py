"""Battles (spec §3, §5, rulings of §6): who fights with how many dice, the rolls and
re-rolls, the points of ties and losers, and the odds of a battle for the AI.

A *unit* fights: a seat, or a team in the team variant, whose meeples in the feature are
pooled. Every die comes from :class:`~engine.core.Chance` (``"battle die"``), so the record
holds every roll in the order they were made and a replay never re-rolls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache

from engine.carcassonne.board import FeatureRef, Region
from engine.carcassonne.components import DIE_SIDES, MAX_DICE, Faction
from engine.carcassonne.events import (
    BattleLost,
    BattleStarted,
    BattleTied,
    BattleWon,
    DiceRolled,
)
from engine.carcassonne.state import Meeple
from engine.core import Chance, Event

DIE = "battle die"


def units_in(meeples: Sequence[Meeple], unit_of: Callable[[str], str]) -> list[str]:
    """The units holding meeples among ``meeples``, first come first."""
    return list(dict.fromkeys(unit_of(meeple.seat) for meeple in meeples))


def dice_for(
    unit: str,
    meeples: Sequence[Meeple],
    region: Region,
    unit_of: Callable[[str], str],
    faction_of: Callable[[str], Faction],
) -> int:
    """1 per small meeple, 2 for the large one, +1 if a symbol of the unit's faction lies
    in the feature itself (ruling: symbols elsewhere give nothing), at most 3 (spec §3)."""
    dice = sum(meeple.size.dice for meeple in meeples if unit_of(meeple.seat) == unit)
    if faction_of(unit) in region.symbols:
        dice += 1
    return min(MAX_DICE, dice)


def fight(
    at: FeatureRef,
    region: Region,
    meeples: Sequence[Meeple],
    order: Sequence[str],
    unit_of: Callable[[str], str],
    faction_of: Callable[[str], Faction],
    chance: Chance,
) -> tuple[str, dict[str, int], list[Event]]:
    """Fight the battle for a feature holding ``meeples`` of several units.

    Units roll in ``order`` (the table's order of units), each unit's dice in a row. Returns
    the winner, the points each unit earned, and the events. Rulings: a loser scores its
    dice at once even while others fight on; every tied unit scores 1 per tied roll, and
    only the tied units roll again.
    """
    present = set(units_in(meeples, unit_of))
    fighting = [unit for unit in order if unit in present]
    dice = {unit: dice_for(unit, meeples, region, unit_of, faction_of) for unit in fighting}
    points: dict[str, int] = {}
    events: list[Event] = [BattleStarted(at, region.kind, tuple((u, dice[u]) for u in fighting))]
    round_number = 0
    while True:
        round_number += 1
        rolls = {
            unit: tuple(chance.roll(DIE, DIE_SIDES) + 1 for _ in range(dice[unit]))
            for unit in fighting
        }
        events.append(DiceRolled(at, round_number, tuple(rolls.items())))
        best = max(max(roll) for roll in rolls.values())
        top = [unit for unit in fighting if max(rolls[unit]) == best]
        for unit in fighting:
            if unit not in top:
                points[unit] = points.get(unit, 0) + dice[unit]
                events.append(BattleLost(at, unit, dice[unit]))
        if len(top) == 1:
            events.append(BattleWon(at, top[0]))
            return top[0], points, events
        for unit in top:
            points[unit] = points.get(unit, 0) + 1
        events.append(BattleTied(at, tuple(top)))
        fighting = top


# --------------------------------------------------------------------------- odds


@cache
def _best_die(dice: int) -> tuple[float, ...]:
    """P(highest of ``dice`` d6 == face) for face 1..6 (index 0 is face 1)."""
    return tuple(
        (face / DIE_SIDES) ** dice - ((face - 1) / DIE_SIDES) ** dice
        for face in range(1, DIE_SIDES + 1)
    )


@cache
def _win_odds(dice: tuple[int, ...]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """For units rolling ``dice``: each one's chance of winning and its expected battle
    points (ties and losses), the battle fought to its end.

    A roll where every unit ties repeats the same battle after giving each unit 1 point:
    with ``t`` its probability, ``win = a / (1 - t)`` and ``points = (b + t) / (1 - t)``
    where ``a`` and ``b`` sum over every other roll.
    """
    count = len(dice)
    if count == 1:
        return ((1.0,), (0.0,))
    faces = [_best_die(d) for d in dice]
    win = [0.0] * count
    pts = [0.0] * count
    full_tie = 0.0

    def walk(index: int, chosen: tuple[int, ...], weight: float) -> None:
        nonlocal full_tie
        if index < count:
            for face in range(DIE_SIDES):
                if faces[index][face] > 0:
                    walk(index + 1, (*chosen, face), weight * faces[index][face])
            return
        best = max(chosen)
        top = [i for i in range(count) if chosen[i] == best]
        if len(top) == count:
            full_tie += weight
            return
        for i in range(count):
            if i not in top:
                pts[i] += weight * dice[i]
        if len(top) == 1:
            win[top[0]] += weight
            return
        sub_win, sub_pts = _win_odds(tuple(dice[i] for i in top))
        for slot, i in enumerate(top):
            pts[i] += weight * (1 + sub_pts[slot])
            win[i] += weight * sub_win[slot]

    walk(0, (), 1.0)
    rest = 1.0 - full_tie
    return (
        tuple(w / rest for w in win),
        tuple((p + full_tie) / rest for p in pts),
    )


def battle_odds(dice: Mapping[str, int]) -> tuple[dict[str, float], dict[str, float]]:
    """Each unit's chance of winning a battle fought with ``dice`` per unit, and its
    expected points from ties and losing (what the strategic AI weighs battles by)."""
    units = list(dice)
    win, pts = _win_odds(tuple(dice[unit] for unit in units))
    return dict(zip(units, win, strict=True)), dict(zip(units, pts, strict=True))
