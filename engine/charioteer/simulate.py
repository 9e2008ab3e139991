"""Races between AI seats, to measure the levels' strength (the ``simulate`` command).

:func:`simulate` plays ``races`` races with one policy per entry of ``seats``. Entries
rotate through the seats from race to race (seat A starts innermost and the first player
is drawn at random), so each entry sits in every seat equally often when ``races`` is a
multiple of the number of seats. Everything is seeded: the same arguments give the same
figures, on any machine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine.charioteer.ai import policy_for
from engine.charioteer.ai.base import Policy
from engine.charioteer.components import MAX_PLAYERS, MIN_PLAYERS
from engine.charioteer.events import (
    Attacked,
    BonusSlotTaken,
    DistanceComputed,
    MoveFinished,
    ResetMade,
    Whipped,
)
from engine.charioteer.race import Race
from engine.charioteer.state import RaceOptions
from engine.core import JSON, Event, MalformedAction, Rng
from engine.simulation import game_seed, wilson_interval

MAX_TURNS = 200
"""A race still running after this many turns is abandoned (counted; never expected)."""


@dataclass(frozen=True)
class EntryStats:
    """What one entry did in one race."""

    moves: int = 0
    resets: int = 0
    distance: int = 0
    spaces: int = 0
    whip_spaces: int = 0
    attacks: int = 0
    boxed: int = 0


@dataclass(frozen=True)
class RaceRecord:
    """One simulated race; seats are given by entry (index into the ``seats`` list)."""

    seed: int
    turns: int
    winner: int | None
    ranking: tuple[int, ...]
    stats: tuple[EntryStats, ...]


def play_race(
    policies: Sequence[Policy], seed: int, *, laps: int = 3, rotation: int = 0
) -> RaceRecord:
    """One race in which entry ``i`` sits in seat ``(i + rotation) % len(policies)``."""
    count = len(policies)
    race = Race.new(seats=count, seed=seed, laps=laps)
    seats = race.seats
    entry_of = {seats[(entry + rotation) % count]: entry for entry in range(count)}
    tallies = [{item.name: 0 for item in dataclasses.fields(EntryStats)} for _ in range(count)]
    while not race.is_over and race.turn <= MAX_TURNS:
        events: list[Event] = []
        for index, seat in enumerate(seats):
            rng = Rng(seed, race.turn * len(seats) + index)
            move = policies[entry_of[seat]].choose(race.view(seat), rng)
            events.extend(race.commit(seat, move))
        for event in events:
            _tally(tallies, entry_of, event)
    result = race.result
    stats = tuple(EntryStats(**tally) for tally in tallies)
    if result is None:
        return RaceRecord(seed, race.turn - 1, None, (), stats)
    ranking = tuple(entry_of[seat] for seat in result.ranking)
    return RaceRecord(seed, result.turns, ranking[0], ranking, stats)


def _tally(tallies: list[dict[str, int]], entry_of: dict[str, int], event: Event) -> None:
    seat = getattr(event, "seat", None)
    if seat is None:
        return
    tally = tallies[entry_of[seat]]
    if isinstance(event, DistanceComputed):
        tally["moves"] += 1
        tally["distance"] += event.distance
    elif isinstance(event, ResetMade):
        tally["resets"] += 1
    elif isinstance(event, MoveFinished):
        tally["spaces"] += event.spaces
    elif isinstance(event, Whipped):
        tally["whip_spaces"] += event.spaces
    elif isinstance(event, Attacked):
        tally["attacks"] += 1
    elif isinstance(event, BonusSlotTaken):
        tally["boxed"] += 1


def simulate(
    seats: Sequence[str],
    races: int,
    seed: int,
    *,
    laps: int = 3,
    jobs: int = 1,
    policies: Callable[[str], Policy] = policy_for,
) -> dict[str, JSON]:
    """Play ``races`` races between the levels named in ``seats`` and summarise them.

    ``jobs`` > 1 plays races in that many processes; records are gathered in race order,
    so the figures are the same whatever ``jobs`` is.

    Raises:
        MalformedAction: an unknown level, a seat count outside 2–6, no race to play.
        MalformedPosition: a number of laps the rules do not allow.
    """
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise MalformedAction(f"a race has {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    if races < 1:
        raise MalformedAction("simulate at least one race")
    RaceOptions(laps=laps)
    runner = _RaceRunner(tuple(policies(level) for level in seats), seed, laps)
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            records = list(pool.map(runner, range(races), chunksize=4))
    else:
        records = [runner(index) for index in range(races)]
    return summarise(seats, records, seed=seed, laps=laps)


@dataclass(frozen=True)
class _RaceRunner:
    """Race ``index`` of a run (a picklable callable, for parallel maps)."""

    players: tuple[Policy, ...]
    seed: int
    laps: int

    def __call__(self, index: int) -> RaceRecord:
        return play_race(
            self.players,
            game_seed(self.seed, index),
            laps=self.laps,
            rotation=index % len(self.players),
        )


def summarise(
    seats: Sequence[str], records: Sequence[RaceRecord], *, seed: int, laps: int
) -> dict[str, JSON]:
    """The figures of a run: per level (all its seats together) and per entry."""
    finished = [record for record in records if record.winner is not None]
    turns = [record.turns for record in finished]
    levels: dict[str, JSON] = {}
    for level in dict.fromkeys(seats):
        entries = [index for index, name in enumerate(seats) if name == level]
        levels[level] = _figures(entries, records, finished, len(seats))
    return {
        "seats": list(seats),
        "races": len(records),
        "seed": seed,
        "laps": laps,
        "unfinished": len(records) - len(finished),
        "mean_turns": _mean(sum(turns), len(turns)),
        "turns_range": [min(turns), max(turns)] if turns else None,
        "levels": levels,
        "entries": [
            {"entry": index, "level": level, **_figures([index], records, finished, len(seats))}
            for index, level in enumerate(seats)
        ],
    }


def _figures(
    entries: Sequence[int],
    records: Sequence[RaceRecord],
    finished: Sequence[RaceRecord],
    seat_count: int,
) -> dict[str, JSON]:
    wins = sum(record.winner in entries for record in finished)
    low, high = wilson_interval(wins, len(finished))
    seat_races = len(records) * len(entries)
    stats = [record.stats[entry] for record in records for entry in entries]
    moves = sum(item.moves for item in stats)
    ranks = [record.ranking.index(entry) + 1 for record in finished for entry in entries]
    return {
        "seats": len(entries),
        "wins": wins,
        "win_rate": _mean(wins, len(finished)),
        "win_rate_ci95": [round(low, 4), round(high, 4)],
        "fair_share": round(len(entries) / seat_count, 4),
        "mean_rank": _mean(sum(ranks), len(ranks)),
        "mean_moves": _mean(moves, seat_races),
        "mean_resets": _mean(sum(item.resets for item in stats), seat_races),
        "mean_distance_per_move": _mean(sum(item.distance for item in stats), moves),
        "mean_spaces_per_turn": _mean(
            sum(item.spaces for item in stats), moves + sum(item.resets for item in stats)
        ),
        "mean_whip_spaces": _mean(sum(item.whip_spaces for item in stats), seat_races),
        "mean_attacks": _mean(sum(item.attacks for item in stats), seat_races),
        "mean_bonus_slots": _mean(sum(item.boxed for item in stats), seat_races),
    }


def _mean(total: int, count: int) -> float | None:
    return round(total / count, 4) if count else None
