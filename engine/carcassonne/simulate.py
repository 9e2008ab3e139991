"""Games between AI seats, to measure the levels' strength (the ``simulate`` command).

:func:`simulate` plays ``games`` games with one level per entry of ``seats``. Entries
rotate through the seats from game to game (the first seat plays first), so each entry
sits in every seat equally often when ``games`` is a multiple of the number of seats.
Everything is seeded: the same arguments give the same figures on any machine, whatever
``jobs`` is.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine.carcassonne.ai import next_action, policy_for
from engine.carcassonne.ai.base import Policy
from engine.carcassonne.components import MAX_PLAYERS, MIN_PLAYERS
from engine.carcassonne.events import BattleStarted, BattleWon
from engine.carcassonne.table import Table
from engine.core import JSON, MalformedAction, Rng
from engine.simulation import game_seed, wilson_interval


@dataclass(frozen=True)
class GameRecordSummary:
    """One simulated game, by entry (index into ``seats``)."""

    seed: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    battles: int
    battles_won: tuple[int, ...]


def play_game(policies: Sequence[Policy], seed: int, *, rotation: int = 0) -> GameRecordSummary:
    """One game in which entry ``i`` sits in seat ``(i + rotation) % len(policies)``."""
    count = len(policies)
    table = Table.new(seats=count, seed=seed)
    seats = table.seats
    entry_of = {seats[(entry + rotation) % count]: entry for entry in range(count)}
    battles = 0
    won = [0] * count
    step = 0
    while not table.is_over:
        seat = table.active
        step += 1
        action = next_action(policies[entry_of[seat]], table.view(seat), Rng(seed, step))
        for event in table.act(action):
            if isinstance(event, BattleStarted):
                battles += 1
            elif isinstance(event, BattleWon):
                won[entry_of[event.unit]] += 1
    result = table.result
    assert result is not None
    final = dict(result.scores)
    scores = tuple(final[seats[(entry + rotation) % count]] for entry in range(count))
    winners = tuple(entry_of[unit] for unit in result.winners)
    return GameRecordSummary(seed, scores, winners, battles, tuple(won))


@dataclass(frozen=True)
class _Runner:
    levels: tuple[str, ...]
    seed: int

    def __call__(self, index: int) -> GameRecordSummary:
        policies = [policy_for(level) for level in self.levels]
        return play_game(policies, game_seed(self.seed, index), rotation=index % len(policies))


def simulate(seats: Sequence[str], games: int, seed: int, *, jobs: int = 1) -> dict[str, JSON]:
    """Play ``games`` games between the levels in ``seats`` and summarise them. A shared
    first place counts as half a win for each of two (a third for three…).

    Raises:
        MalformedAction: an unknown level, a seat count outside 2–5, no game to play.
    """
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise MalformedAction(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    if games < 1:
        raise MalformedAction("simulate at least one game")
    for level in seats:
        policy_for(level)
    runner = _Runner(tuple(seats), seed)
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            records = list(pool.map(runner, range(games), chunksize=4))
    else:
        records = [runner(index) for index in range(games)]
    return summarise(seats, records, seed)


def summarise(
    seats: Sequence[str], records: Sequence[GameRecordSummary], seed: int
) -> dict[str, JSON]:
    entries: list[JSON] = []
    for entry, level in enumerate(seats):
        wins = sum(1 / len(r.winners) for r in records if entry in r.winners)
        low, high = wilson_interval(wins, len(records))
        entries.append(
            {
                "entry": entry,
                "level": level,
                "wins": round(wins, 2),
                "win_rate": round(wins / len(records), 4),
                "win_rate_ci95": [round(low, 4), round(high, 4)],
                "mean_score": round(sum(r.scores[entry] for r in records) / len(records), 2),
                "battles_won": sum(r.battles_won[entry] for r in records),
            }
        )
    return {
        "seats": list(seats),
        "games": len(records),
        "seed": seed,
        "mean_battles": round(sum(r.battles for r in records) / len(records), 2),
        "entries": entries,
    }
