"""A tournament as a log of events, folded into its state: pure and deterministic.

Events (each one stored, in order): ``signed_up`` (player, name, rating), ``dropped``
(player; the organiser removing someone is the same event), ``started``, ``cancelled``
(sign-up closed without a start: too few players at the deadline), ``paused`` and
``resumed`` (no round is paired while paused), ``round`` (the pairing), ``result`` (one
table's places). :meth:`Tournament.apply` checks every event against the state before it
(a finished or cancelled tournament takes none: its record stands), and a ``round`` event
must be exactly the pairing the state computes (:meth:`Tournament.next_round`), so
replaying the stored log always rebuilds the same tournament and a pairing can never be
forged or drift.

Formats:

* **Swiss** (multiplayer): a fixed number of rounds paired by :func:`pairing.swiss_round`
  from the standings; points per place (configurable; by default a table's last place
  scores 0 and each place above one more, the points of tied places are shared out); a
  bye scores the average of a full table's points; standings break ties by opponents'
  points (the points of everyone a player sat with, once per game) and then by rating.
* **Heats and a final**: heats seeded by rating (snake order); the best ``advance`` of
  each heat (byes too) go on, in heats again while they are more than a table, then to
  one final table, whose winner is champion.
* **Single elimination** (two-player games): a bracket seeded by rating; a drawn game goes
  to the higher seed.

Ratings here are the players' ordinals when they signed up (stored with the sign-up).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations
from typing import Any

from bot.community.pairing import (
    Round,
    bracket_order,
    first_elimination_round,
    next_elimination_round,
    pair_key,
    snake_heats,
    swiss_round,
)
from engine.core import JSON

SIGNED_UP, DROPPED, STARTED, ROUND, RESULT = "signed_up", "dropped", "started", "round", "result"
CANCELLED, PAUSED, RESUMED = "cancelled", "paused", "resumed"
SIGNUP, RUNNING, FINISHED = "signup", "running", "finished"
MAX_TABLE = 12
"""The most players a tournament seats at a table (its game may seat fewer)."""
MAX_ROUNDS = 20
MAX_PLAYERS = 512
MAX_HOURS = 720
"""The longest sign-up and the longest round: thirty days."""
MAX_POINTS = 1000.0
"""The most points a place or a bye may score."""


class Format(StrEnum):
    SWISS = "swiss"
    HEATS = "heats"
    ELIMINATION = "elimination"


class TournamentError(Exception):
    """An event the tournament refuses; ``key`` names the message to show."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class TournamentSettings:
    """What the organiser chose; ``points[i]`` is what place ``i + 1`` scores at a full
    table (a smaller table scores with the last places' points)."""

    format: Format = Format.SWISS
    table_size: int = 4
    min_table: int = 3
    rounds: int = 3
    points: tuple[float, ...] = ()
    bye_points: float | None = None
    advance: int = 1
    max_players: int | None = None
    """Sign-up closes to newcomers at this many players (None: no limit)."""
    round_hours: float | None = None
    """A round ends this long after it was paired, finished or not (None: when its games
    end, or the organiser advances it)."""
    min_reliability: int | None = None
    """Sign-up is refused to a member whose reliability (:mod:`bot.community.reliability`)
    is below this percentage (None: anyone may sign up)."""
    table: Mapping[str, JSON] = field(default_factory=dict)
    """The host's settings for every table the tournament opens (time per turn, the
    game's options), as stored JSON; the seats follow each table's pairing."""

    def checked(self) -> TournamentSettings:
        """These settings with their points filled in, once every one is within its range
        (whatever a command let through); raises :class:`TournamentError` naming the
        first that is not."""
        if not 2 <= self.table_size <= MAX_TABLE:
            raise TournamentError("error.tournament_table_size_range", most=MAX_TABLE)
        if self.format is Format.ELIMINATION and (self.table_size, self.min_table) != (2, 2):
            raise TournamentError("error.tournament_elimination_is_two_player")
        if not 2 <= self.min_table <= self.table_size:
            raise TournamentError("error.tournament_bad_table_size")
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise TournamentError("error.tournament_bad_rounds", most=MAX_ROUNDS)
        if self.points and len(self.points) != self.table_size:
            raise TournamentError("error.tournament_bad_points", seats=self.table_size)
        scores = [*self.points, *([] if self.bye_points is None else [self.bye_points])]
        if not all(0 <= score <= MAX_POINTS for score in scores):  # NaN fails too
            raise TournamentError("error.tournament_points_range", most=f"{MAX_POINTS:g}")
        if not 1 <= self.advance < self.min_table:
            raise TournamentError("error.tournament_bad_advance")
        if self.max_players is not None:
            if self.max_players < max(2, self.min_table):
                raise TournamentError("error.tournament_too_few", count=max(2, self.min_table))
            if self.max_players > MAX_PLAYERS:
                raise TournamentError("error.tournament_max_players_range", most=MAX_PLAYERS)
        if self.min_reliability is not None and not 1 <= self.min_reliability <= 100:
            raise TournamentError("error.tournament_reliability_range")
        hours = self.round_hours
        if hours is not None and not 1 <= hours <= MAX_HOURS:  # NaN fails too
            raise TournamentError("error.tournament_round_hours_range", most=MAX_HOURS)
        points = self.points or tuple(
            float(self.table_size - p) for p in range(1, 1 + self.table_size)
        )
        bye = sum(points) / len(points) if self.bye_points is None else self.bye_points
        return dataclasses.replace(self, points=points, bye_points=bye)

    def table_sizes(self) -> range:
        """Every number of players this tournament could seat at one table: from 2 (Swiss
        pairs smaller tables as players drop; the last heats' final and a bracket's tables
        can be smaller too) up to the table size."""
        return range(2, self.table_size + 1)

    def to_json(self) -> dict[str, JSON]:
        return {
            "format": self.format.value,
            "table_size": self.table_size,
            "min_table": self.min_table,
            "rounds": self.rounds,
            "points": list(self.points),
            "bye_points": self.bye_points,
            "advance": self.advance,
            "max_players": self.max_players,
            "round_hours": self.round_hours,
            "min_reliability": self.min_reliability,
            "table": dict(self.table),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> TournamentSettings:
        return cls(
            format=Format(obj["format"]),
            table_size=int(obj["table_size"]),
            min_table=int(obj["min_table"]),
            rounds=int(obj["rounds"]),
            points=tuple(float(p) for p in obj["points"]),
            bye_points=None if obj["bye_points"] is None else float(obj["bye_points"]),
            advance=int(obj["advance"]),
            max_players=None if obj.get("max_players") is None else int(obj["max_players"]),
            round_hours=None if obj.get("round_hours") is None else float(obj["round_hours"]),
            min_reliability=(
                None if obj.get("min_reliability") is None else int(obj["min_reliability"])
            ),
            table=dict(obj.get("table") or {}),
        )


@dataclass(frozen=True)
class Event:
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Entrant:
    player: str
    name: str
    rating: float
    active: bool = True


@dataclass
class RoundPlay:
    pairing: Round
    results: dict[int, dict[str, int]] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.pairing.tables)


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: str
    name: str
    points: float
    opponents_points: float
    rating: float
    games: int
    byes: int
    active: bool


def round_to_json(pairing: Round) -> dict[str, JSON]:
    return {"tables": [list(table) for table in pairing.tables], "byes": list(pairing.byes)}


def round_from_json(data: Mapping[str, Any]) -> Round:
    return Round(tuple(tuple(table) for table in data["tables"]), tuple(data["byes"]))


class Tournament:
    """The state after a log of events; build it with :meth:`replay`."""

    def __init__(self, settings: TournamentSettings) -> None:
        self.settings = settings.checked()
        self.entrants: dict[str, Entrant] = {}
        self.rounds: list[RoundPlay] = []
        self.started = False
        self.cancelled = False
        self.paused = False

    @classmethod
    def replay(cls, settings: TournamentSettings, events: Sequence[Event]) -> Tournament:
        tournament = cls(settings)
        for event in events:
            tournament.apply(event)
        return tournament

    # ------------------------------------------------------------------ state

    @property
    def status(self) -> str:
        if self.cancelled:
            return CANCELLED
        if not self.started:
            return SIGNUP
        return RUNNING if self.has_next_round() or not self.round_complete else FINISHED

    @property
    def round_complete(self) -> bool:
        return not self.rounds or self.rounds[-1].complete

    def seeds(self) -> list[str]:
        """Active players, best rating first (ties by id)."""
        active = [e for e in self.entrants.values() if e.active]
        return [e.player for e in sorted(active, key=lambda e: (-e.rating, e.player))]

    # ------------------------------------------------------------------ events

    def apply(self, event: Event) -> None:
        """Apply one event, or raise :class:`TournamentError` and change nothing."""
        data = event.data
        if self.cancelled:
            raise TournamentError("error.tournament_cancelled")
        if self.status == FINISHED:
            raise TournamentError("error.tournament_over")
        if event.kind == SIGNED_UP:
            if self.started:
                raise TournamentError("error.tournament_started")
            if data["player"] in self.entrants:
                raise TournamentError("error.tournament_already_signed_up")
            limit = self.settings.max_players
            if limit is not None and len(self.entrants) >= limit:
                raise TournamentError("error.tournament_full", count=limit)
            self.entrants[data["player"]] = Entrant(
                data["player"], str(data["name"]), float(data["rating"])
            )
        elif event.kind == DROPPED:
            entrant = self.entrants.get(data["player"])
            if entrant is None or not entrant.active:
                raise TournamentError("error.tournament_not_entered")
            if self.started:
                entrant.active = False
            else:
                del self.entrants[data["player"]]
        elif event.kind == STARTED:
            if self.started:
                raise TournamentError("error.tournament_started")
            if len(self.entrants) < max(2, self.settings.min_table):
                raise TournamentError(
                    "error.tournament_too_few", count=max(2, self.settings.min_table)
                )
            self.started = True
        elif event.kind == CANCELLED:
            if self.started:
                raise TournamentError("error.tournament_started")
            self.cancelled = True
        elif event.kind == PAUSED:
            if not self.started or self.status == FINISHED:
                raise TournamentError("error.tournament_not_running")
            if self.paused:
                raise TournamentError("error.tournament_paused")
            self.paused = True
        elif event.kind == RESUMED:
            if not self.paused:
                raise TournamentError("error.tournament_not_paused")
            self.paused = False
        elif event.kind == ROUND:
            if self.paused:
                raise TournamentError("error.tournament_paused")
            if not self.started or not self.round_complete:
                raise TournamentError("error.tournament_round_open")
            expected = self.next_round()
            if expected is None or round_from_json(data) != expected:
                raise TournamentError("error.tournament_bad_pairing")
            self.rounds.append(RoundPlay(expected))
        elif event.kind == RESULT:
            self._result(int(data["round"]), int(data["table"]), dict(data["places"]))
        else:
            raise TournamentError("error.tournament_unknown_event", kind=event.kind)

    def _result(self, number: int, table: int, places: dict[str, int]) -> None:
        if number != len(self.rounds) or not self.rounds:
            raise TournamentError("error.tournament_not_this_round")
        play = self.rounds[-1]
        if not 0 <= table < len(play.pairing.tables) or table in play.results:
            raise TournamentError("error.tournament_no_such_table")
        if sorted(places) != sorted(play.pairing.tables[table]):
            raise TournamentError("error.tournament_wrong_players")
        if any(not 1 <= place <= len(places) for place in places.values()):
            raise TournamentError("error.tournament_bad_places")
        play.results[table] = {player: int(place) for player, place in places.items()}

    # ------------------------------------------------------------------ pairing

    def has_next_round(self) -> bool:
        """Whether another round follows the current one (cheap: no pairing)."""
        if not self.started:
            return False
        if self.settings.format is Format.SWISS:
            return len(self.rounds) < self.settings.rounds and len(self.seeds()) >= 2
        final_played = bool(self.rounds) and len(self.rounds[-1].pairing.tables) <= 1
        if self.settings.format is Format.HEATS and final_played:
            return False
        return len(self._qualifiers()) >= 2

    def next_round(self) -> Round | None:
        """The pairing of the next round from the state alone; None when the tournament
        is over (or cannot go on: fewer than two players left)."""
        if not self.has_next_round():
            return None
        settings = self.settings
        if settings.format is Format.SWISS:
            return swiss_round(
                self.order(),
                most=settings.table_size,
                least=min(settings.min_table, max(2, len(self.seeds()))),
                met=self.met(),
                byes_had=self.byes_had(),
            )
        if settings.format is Format.HEATS:
            return self._next_heat()
        return self._next_elimination()

    def _qualifiers(self) -> list[str]:
        """Players going on from the last round (all active players before the first)."""
        if not self.rounds:
            return self.seeds()
        play = self.rounds[-1]
        going = list(play.pairing.byes)
        for index, table in enumerate(play.pairing.tables):
            places = play.results.get(index, {})
            ranked = sorted(table, key=lambda p: (places.get(p, len(table)), self._seed_key(p)))
            going.extend(ranked[: self._advancing(len(table))])
        active = set(self.seeds())
        return sorted((p for p in going if p in active), key=self._seed_key)

    def _advancing(self, seats: int) -> int:
        return 1 if self.settings.format is Format.ELIMINATION else self.settings.advance

    def _seed_key(self, player: str) -> tuple[float, str]:
        return (-self.entrants[player].rating, player)

    def _next_heat(self) -> Round:
        going = self._qualifiers()
        if len(going) <= self.settings.table_size:
            return Round((tuple(going),))
        return snake_heats(going, most=self.settings.table_size, least=self.settings.min_table)

    def _next_elimination(self) -> Round:
        going = self._qualifiers()
        if not self.rounds:
            return first_elimination_round(going)
        bracket = self._bracket_slots()
        return next_elimination_round(sorted(going, key=bracket.__getitem__))

    def _bracket_slots(self) -> dict[str, int]:
        """Each entrant's slot in the first round's bracket (survivors keep meeting their
        neighbours in it)."""
        first = self.rounds[0].pairing
        seeded = sorted(
            {p for table in first.tables for p in table} | set(first.byes), key=self._seed_key
        )
        size = 1
        while size < len(seeded):
            size *= 2
        slot_of_seed = {seed: slot for slot, seed in enumerate(bracket_order(size))}
        return {player: slot_of_seed[index + 1] for index, player in enumerate(seeded)}

    # ------------------------------------------------------------------ scores

    def points_for(self, place: int, seats: int, tied: int) -> float:
        """A place's points at a table of ``seats``; ``tied`` seats sharing the place share
        out the points of the places they span."""
        scale = self.settings.points[len(self.settings.points) - seats :]
        spanned = scale[place - 1 : place - 1 + tied]
        return sum(spanned) / len(spanned)

    def points(self) -> dict[str, float]:
        totals = dict.fromkeys(self.entrants, 0.0)
        bye = float(self.settings.bye_points or 0.0)
        for play in self.rounds:
            for player in play.pairing.byes:
                totals[player] += bye
            for _, places in sorted(play.results.items()):
                tied = Counter(places.values())
                for player, place in places.items():
                    totals[player] += self.points_for(place, len(places), tied[place])
        return totals

    def met(self) -> Counter[tuple[str, str]]:
        met: Counter[tuple[str, str]] = Counter()
        for play in self.rounds:
            for table in play.pairing.tables:
                for a, b in combinations(table, 2):
                    met[pair_key(a, b)] += 1
        return met

    def byes_had(self) -> Counter[str]:
        return Counter(player for play in self.rounds for player in play.pairing.byes)

    def opponents_points(self) -> dict[str, float]:
        points = self.points()
        totals = dict.fromkeys(self.entrants, 0.0)
        for play in self.rounds:
            for table in play.pairing.tables:
                for player in table:
                    totals[player] += sum(points[other] for other in table if other != player)
        return totals

    def order(self) -> list[str]:
        """Active players in standings order."""
        return [row.player for row in self.standings() if row.active]

    def standings(self) -> list[StandingRow]:
        """Everyone who played, best first: by how far they got (heats and elimination),
        points, opponents' points, rating, then id."""
        points, opponents = self.points(), self.opponents_points()
        byes = self.byes_had()
        games = Counter(
            player for play in self.rounds for places in play.results.values() for player in places
        )
        reached = {
            player: number
            for number, play in enumerate(self.rounds, start=1)
            for player in [*play.pairing.byes, *(p for t in play.pairing.tables for p in t)]
        }
        staged = self.settings.format is not Format.SWISS

        def key(entrant: Entrant) -> tuple[float, ...]:
            stage = float(reached.get(entrant.player, 0)) if staged else 0.0
            final_place = 0.0
            if staged and self.rounds and entrant.player in reached:
                last = self.rounds[reached[entrant.player] - 1]
                for places in last.results.values():
                    final_place = float(places.get(entrant.player, final_place))
            return (
                -stage,
                final_place,
                -points[entrant.player],
                -opponents[entrant.player],
                -entrant.rating,
            )

        ranked = sorted(self.entrants.values(), key=lambda e: (key(e), e.player))
        return [
            StandingRow(
                rank,
                e.player,
                e.name,
                points[e.player],
                opponents[e.player],
                e.rating,
                games[e.player],
                byes[e.player],
                e.active,
            )
            for rank, e in enumerate(ranked, start=1)
        ]

    def champion(self) -> str | None:
        """The winner once the tournament is over."""
        if self.status != FINISHED:
            return None
        standings = self.standings()
        return standings[0].player if standings else None


__all__ = [
    "CANCELLED",
    "DROPPED",
    "MAX_HOURS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_TABLE",
    "PAUSED",
    "RESULT",
    "RESUMED",
    "ROUND",
    "SIGNED_UP",
    "STARTED",
    "Entrant",
    "Event",
    "Format",
    "StandingRow",
    "Tournament",
    "TournamentError",
    "TournamentSettings",
    "round_from_json",
    "round_to_json",
]
