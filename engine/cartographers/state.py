"""A table at one moment (spec §2): options, each player's map, coins and season scores,
the decks, the revealed column, the card in play and the placements committed this turn.
Every value is immutable; the rules build new states.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cartographers.components import (
    AMBUSH_BY_ID,
    COIN_TRACK,
    EXPLORE_BY_ID,
    SCORING_BY_ID,
    SEASONS,
    Season,
    Side,
    Turning,
    card,
    solo_title,
)
from engine.cartographers.placement import Drawing, Offer, needs_a_drawing
from engine.cartographers.sheet import MapSheet
from engine.core import JSON, MalformedPosition, commit_of


class AmbushMode(StrEnum):
    AUTO = "auto"
    """Every map gets the monster by the solo scan [ruling: the default]."""
    NEIGHBOUR = "neighbour"
    """Each player draws the monster on a neighbour's map (the printed rule)."""


class Phase(StrEnum):
    DRAW = "draw"
    """Every player draws the explore card in play on their own map."""
    AMBUSH = "ambush"
    """Neighbour mode: every player draws the ambush's monster on a neighbour's map."""
    OVER = "over"


@dataclass(frozen=True)
class TableOptions:
    side: Side = Side.A
    ambush: AmbushMode = AmbushMode.AUTO

    def to_json(self) -> dict[str, JSON]:
        return {"side": self.side.value, "ambush": self.ambush.value}


@dataclass(frozen=True)
class SeasonScore:
    """One season's stars for one player: the season's two edicts, coins, monsters."""

    season: str
    edicts: tuple[int, int]
    coins: int
    monsters: int
    """Stars lost: empty cells next to monsters."""

    @property
    def total(self) -> int:
        return sum(self.edicts) + self.coins - self.monsters

    def to_json(self) -> dict[str, JSON]:
        return {
            "season": self.season,
            "edicts": list(self.edicts),
            "coins": self.coins,
            "monsters": self.monsters,
            "total": self.total,
        }


@dataclass(frozen=True)
class Player:
    seat: str
    sheet: MapSheet
    coins: int = 0
    seasons: tuple[SeasonScore, ...] = ()

    def __post_init__(self) -> None:
        if not 0 <= self.coins <= COIN_TRACK:
            raise MalformedPosition(f"coins run from 0 to {COIN_TRACK}", seat=self.seat)

    @property
    def stars(self) -> int:
        return sum(season.total for season in self.seasons)

    @property
    def monster_losses(self) -> int:
        return sum(season.monsters for season in self.seasons)


@dataclass(frozen=True)
class SoloResult:
    """A solo game's rating: score minus the four cards' solo values, and its title."""

    score: int
    solo_values: int
    title: str

    @property
    def rating(self) -> int:
        return self.score - self.solo_values

    def to_json(self) -> dict[str, JSON]:
        return {
            "score": self.score,
            "solo_values": self.solo_values,
            "rating": self.rating,
            "title": self.title,
        }


@dataclass(frozen=True)
class Result:
    """How the game ended: the ranking (best first: stars, then fewer stars lost to
    monsters), the winners (several when still tied) and, solo, the title."""

    ranking: tuple[str, ...]
    winners: tuple[str, ...]
    solo: SoloResult | None = None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"ranking": list(self.ranking), "winners": list(self.winners)}
        if self.solo is not None:
            out["solo"] = self.solo.to_json()
        return out


@dataclass(frozen=True)
class GameState:
    """The whole table. ``seed`` and ``draws`` feed live chance; ``deck`` (top first,
    explore and ambush card slugs) and ``ambush_deck`` are secret; ``column`` is the
    explore cards revealed this season; ``card`` is the card being drawn (an explore card,
    or an ambush in neighbour mode); ``ruins`` says a ruins card applies to the next
    explore card; ``commits`` are this turn's drawings, by seat, secret until resolved."""

    options: TableOptions
    seed: int
    draws: int
    turn: int
    season: int
    edicts: tuple[str, str, str, str]
    deck: tuple[str, ...]
    ambush_deck: tuple[str, ...]
    column: tuple[str, ...]
    ambushes_out: tuple[str, ...]
    phase: Phase
    card: str | None
    ruins: bool
    players: tuple[Player, ...]
    commits: tuple[tuple[str, Drawing], ...] = ()
    result: Result | None = None

    def __post_init__(self) -> None:
        seats = [player.seat for player in self.players]
        if not seats:
            raise MalformedPosition("a table needs at least one player")
        if len(set(seats)) != len(seats):
            raise MalformedPosition("every player needs their own seat")
        if not 0 <= self.season < len(SEASONS):
            raise MalformedPosition("season is 0 (spring) to 3 (winter)")
        if sorted(self.edicts) != sorted(set(self.edicts)) or not all(
            edict in SCORING_BY_ID for edict in self.edicts
        ):
            raise MalformedPosition("the four edicts are four different scoring cards")
        if self.phase is Phase.DRAW and (self.card is None or self.card not in EXPLORE_BY_ID):
            raise MalformedPosition("while drawing, the card in play is an explore card")
        if self.phase is Phase.AMBUSH and (
            self.card not in AMBUSH_BY_ID or self.options.ambush is not AmbushMode.NEIGHBOUR
        ):
            raise MalformedPosition("an ambush phase needs neighbour mode and an ambush card")
        if (self.phase is Phase.OVER) != (self.result is not None):
            raise MalformedPosition("a game is over exactly when it has a result")

    # ----------------------------------------------------------------- seats

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(player.seat for player in self.players)

    def player(self, seat: str) -> Player:
        for player in self.players:
            if player.seat == seat:
                return player
        raise KeyError(seat)

    def commit_of(self, seat: str) -> Drawing | None:
        return commit_of(self.commits, seat)

    def target_of(self, seat: str) -> str:
        """Whose map ``seat`` draws on: its own, or in an ambush phase its neighbour's.

        Seats sit clockwise in seat order; maps are passed in the arrow's direction, so
        with a clockwise arrow seat 2 holds (and draws on) seat 1's map."""
        if self.phase is not Phase.AMBUSH or self.card is None:
            return seat
        seats = self.seats
        index = seats.index(seat)
        arrow = AMBUSH_BY_ID[self.card].arrow
        step = -1 if arrow is Turning.CLOCKWISE else 1
        return seats[(index + step) % len(seats)]

    def drawer_for(self, map_seat: str) -> str:
        """Who draws on ``map_seat``'s map this turn."""
        for seat in self.seats:
            if self.target_of(seat) == map_seat:
                return seat
        raise KeyError(map_seat)

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """Seats that still owe a drawing this turn, in seat order (a seat whose target
        map is full owes nothing)."""
        if self.phase is Phase.OVER:
            return ()
        done = {seat for seat, _ in self.commits}
        return tuple(
            seat
            for seat in self.seats
            if seat not in done and needs_a_drawing(self.player(self.target_of(seat)).sheet)
        )

    def offer(self) -> Offer:
        """What the card in play lets each player draw."""
        if self.phase is Phase.AMBUSH and self.card is not None:
            return Offer.monster(AMBUSH_BY_ID[self.card])
        assert self.card is not None, "no card in play"
        return Offer.explore(EXPLORE_BY_ID[self.card], self.ruins)

    # ----------------------------------------------------------------- time

    @property
    def season_card(self) -> Season:
        return SEASONS[self.season]

    @property
    def time_used(self) -> int:
        total = 0
        for card_id in self.column:
            found = card(card_id)
            total += found.time
        return total

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def solo(self) -> bool:
        return len(self.players) == 1


def rank(players: tuple[Player, ...], edicts: tuple[str, ...]) -> Result:
    """The final ranking: most stars, then fewest stars lost to monsters; seats still
    tied with the best share the win. Solo, the rating and title too."""
    ordered = sorted(players, key=lambda p: (-p.stars, p.monster_losses))
    best = ordered[0]
    winners = tuple(
        p.seat for p in ordered if (p.stars, p.monster_losses) == (best.stars, best.monster_losses)
    )
    solo = None
    if len(players) == 1:
        values = sum(SCORING_BY_ID[edict].solo for edict in edicts)
        solo = SoloResult(best.stars, values, solo_title(best.stars - values))
    return Result(tuple(p.seat for p in ordered), winners, solo)
