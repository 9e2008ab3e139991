"""Games between AI seats, to measure the levels' strength (the ``simulate`` command).

:func:`simulate` plays ``games`` games with one level per entry of ``levels``. Entries
rotate through the seats from game to game, so each entry sits in every seat equally
often when ``games`` is a multiple of the number of seats (seat order matters in
neighbour-ambush mode: it says whose map each seat draws on). Everything is seeded: the
same arguments give the same figures, on any machine and whatever ``jobs`` is.

A shared win (spec §2 "End": still tied after monsters) counts as a share of a win for
each winner, so the win rates of a run add up to 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine.cartographers.ai import action_for, policy_for
from engine.cartographers.ai.base import Policy
from engine.cartographers.components import MAX_PLAYERS, MIN_PLAYERS
from engine.cartographers.rules import read_config, table_config
from engine.cartographers.table import Expedition
from engine.core import JSON, MalformedAction, Rng
from engine.simulation import game_seed, wilson_interval

DECISION_STREAMS = 1 << 12
"""Rng streams per turn: one per seat, more than any table has."""


@dataclass(frozen=True)
class GameRecord:
    """One simulated game, by entry (index into the ``levels`` list)."""

    seed: int
    turns: int
    stars: tuple[int, ...]
    coins: tuple[int, ...]
    monster_losses: tuple[int, ...]
    winners: tuple[int, ...]


def play_game(
    policies: Sequence[Policy],
    seed: int,
    *,
    side: str = "A",
    ambush: str = "auto",
    rotation: int = 0,
) -> GameRecord:
    """One game in which entry ``i`` sits in seat ``(i + rotation) % len(policies)``.
    Each seat owing a drawing chooses from its own view, in seat order."""
    count = len(policies)
    expedition = Expedition.new(seats=count, seed=seed, side=side, ambush=ambush)
    seats = expedition.seats
    entry_of = {seats[(entry + rotation) % count]: entry for entry in range(count)}
    while not expedition.is_over:
        turn = expedition.state.turn
        for seat in expedition.waiting_for:
            view = expedition.view(seat)
            rng = Rng(seed, turn * DECISION_STREAMS + seats.index(seat))
            action = action_for(view, policies[entry_of[seat]].choose(view, rng))
            expedition.game.act(action)
    result = expedition.result
    assert result is not None
    players = sorted(expedition.state.players, key=lambda player: entry_of[player.seat])
    return GameRecord(
        seed=seed,
        turns=expedition.state.turn,
        stars=tuple(player.stars for player in players),
        coins=tuple(player.coins for player in players),
        monster_losses=tuple(player.monster_losses for player in players),
        winners=tuple(sorted(entry_of[seat] for seat in result.winners)),
    )


def simulate(
    levels: Sequence[str],
    games: int,
    seed: int,
    *,
    side: str = "A",
    ambush: str = "auto",
    jobs: int = 1,
    policies: Callable[[str], Policy] = policy_for,
) -> dict[str, JSON]:
    """Play ``games`` games between the levels named in ``levels`` and summarise them.

    Raises:
        MalformedAction: an unknown level, a seat count the game does not allow, no game
            to play.
        MalformedPosition: a side or ambush mode the game does not have (or neighbour
            mode alone).
    """
    if not MIN_PLAYERS <= len(levels) <= MAX_PLAYERS:
        raise MalformedAction(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    if games < 1:
        raise MalformedAction("simulate at least one game")
    read_config(table_config(len(levels), side, ambush))
    runner = _GameRunner(tuple(policies(level) for level in levels), seed, side, ambush)
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            records = list(pool.map(runner, range(games), chunksize=2))
    else:
        records = [runner(index) for index in range(games)]
    return summarise(levels, records, seed=seed, side=side, ambush=ambush)


@dataclass(frozen=True)
class _GameRunner:
    """Game ``index`` of a run (a picklable callable, for parallel maps)."""

    players: tuple[Policy, ...]
    seed: int
    side: str
    ambush: str

    def __call__(self, index: int) -> GameRecord:
        return play_game(
            self.players,
            game_seed(self.seed, index),
            side=self.side,
            ambush=self.ambush,
            rotation=index % len(self.players),
        )


def summarise(
    levels: Sequence[str],
    records: Sequence[GameRecord],
    *,
    seed: int,
    side: str,
    ambush: str,
) -> dict[str, JSON]:
    """The figures of a run: per level (all its seats together) and per entry."""
    summary: dict[str, JSON] = {
        "levels": list(levels),
        "games": len(records),
        "seed": seed,
        "side": side,
        "ambush": ambush,
        "mean_turns": _mean(sum(record.turns for record in records), len(records)),
        "by_level": {
            level: _figures([i for i, name in enumerate(levels) if name == level], records)
            for level in dict.fromkeys(levels)
        },
        "entries": [
            {"entry": index, "level": level, **_figures([index], records)}
            for index, level in enumerate(levels)
        ],
    }
    return summary


def _figures(entries: Sequence[int], records: Sequence[GameRecord]) -> dict[str, JSON]:
    wins = sum(
        sum(entry in record.winners for entry in entries) / len(record.winners)
        for record in records
    )
    low, high = wilson_interval(wins, len(records))
    seat_games = len(records) * len(entries)
    stars = [record.stars[entry] for record in records for entry in entries]
    seat_count = len(records[0].stars) if records else 1
    return {
        "seats": len(entries),
        "wins": round(wins, 4),
        "win_rate": _mean(wins, len(records)),
        "win_rate_ci95": [round(low, 4), round(high, 4)],
        "fair_share": round(len(entries) / seat_count, 4),
        "mean_stars": _mean(sum(stars), seat_games),
        "stars_range": [min(stars), max(stars)] if stars else None,
        "mean_coins": _mean(
            sum(record.coins[entry] for record in records for entry in entries), seat_games
        ),
        "mean_monster_losses": _mean(
            sum(record.monster_losses[entry] for record in records for entry in entries),
            seat_games,
        ),
    }


def _mean(total: float, count: int) -> float | None:
    return round(total / count, 4) if count else None
