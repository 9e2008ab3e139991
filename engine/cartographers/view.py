"""What one seat may see of a table (spec §4), and what a spectator sees.

:func:`view` is the only way a player, a renderer or an AI seat looks at a game: every
map, coin and score is public; the explore deck's order, the ambush deck's order, the
seed and every other seat's uncommitted drawing are not. A seat sees its own drawing for
the turn in progress.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cartographers.components import (
    AMBUSH_BY_ID,
    EDICTS,
    EXPLORE_BY_ID,
    CardKind,
    Edict,
    Season,
    card,
)
from engine.cartographers.placement import Drawing, Offer
from engine.cartographers.sheet import MapSheet
from engine.cartographers.state import GameState, Phase, Result, SeasonScore, TableOptions
from engine.core import JSON, to_jsonable


@dataclass(frozen=True)
class PublicPlayer:
    """A player as everyone sees them."""

    seat: str
    sheet: MapSheet
    coins: int
    seasons: tuple[SeasonScore, ...]
    stars: int
    committed: bool

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "map": list(self.sheet.rows()),
            "coins": self.coins,
            "seasons": [season.to_json() for season in self.seasons],
            "stars": self.stars,
            "committed": self.committed,
        }


@dataclass(frozen=True)
class SeatView:
    """A table as ``seat`` sees it (``None``: a spectator)."""

    seat: str | None
    options: TableOptions
    turn: int
    season: Season
    time_used: int
    edicts: tuple[str, str, str, str]
    phase: Phase
    card: str | None
    ruins: bool
    column: tuple[str, ...]
    ambushes_out: tuple[str, ...]
    deck_size: int
    ambushes_in_deck: int
    """Known to everyone: one ambush is shuffled in per season, revealed ones are out."""
    players: tuple[PublicPlayer, ...]
    waiting_for: tuple[str, ...]
    result: Result | None
    target: str | None = None
    """Whose map the viewing seat draws on this turn (a neighbour's during an ambush)."""
    my_drawing: Drawing | None = None

    def player(self, seat: str) -> PublicPlayer:
        for player in self.players:
            if player.seat == seat:
                return player
        raise KeyError(seat)

    @property
    def season_edicts(self) -> tuple[tuple[Edict, str], ...]:
        """The season's two edicts, each letter with the scoring card under it."""
        return tuple((letter, self.edicts[EDICTS.index(letter)]) for letter in self.season.edicts)

    @property
    def season_time(self) -> int:
        """The season's time as its track shows it: the time of the cards revealed, up to
        the season's threshold (a card that takes it past ends the season all the same)."""
        return min(self.time_used, self.season.threshold)

    @property
    def last_turn_of_season(self) -> bool:
        """Whether the season is scored once this turn's drawings are in: its time is used
        up, or the deck has run out (spec §2 "Season end")."""
        if self.phase is Phase.OVER:
            return False
        return self.time_used >= self.season.threshold or self.deck_size == 0

    @property
    def opens_season(self) -> bool:
        """Whether the card in play is the season's first explore card to draw (ruins
        revealed before it aside): the turn a season's edicts are first drawn for."""
        if self.phase is not Phase.DRAW:
            return False
        explored = [found for found in self.column if card(found).kind is CardKind.EXPLORE]
        return len(explored) == 1

    @property
    def offer(self) -> Offer | None:
        """What the card in play lets the viewing seat draw."""
        if self.card is None or self.phase is Phase.OVER:
            return None
        if self.phase is Phase.AMBUSH:
            return Offer.monster(AMBUSH_BY_ID[self.card])
        return Offer.explore(EXPLORE_BY_ID[self.card], self.ruins)

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "seat": self.seat,
            "options": self.options.to_json(),
            "turn": self.turn,
            "season": self.season.id,
            "time_used": self.time_used,
            "threshold": self.season.threshold,
            "edicts": list(self.edicts),
            "phase": self.phase.value,
            "card": self.card,
            "ruins": self.ruins,
            "column": list(self.column),
            "ambushes_out": list(self.ambushes_out),
            "deck_size": self.deck_size,
            "ambushes_in_deck": self.ambushes_in_deck,
            "players": [player.to_json() for player in self.players],
            "waiting_for": list(self.waiting_for),
            "result": to_jsonable(self.result),
        }
        if self.seat is not None:
            out["target"] = self.target
            out["my_drawing"] = None if self.my_drawing is None else self.my_drawing.to_json()
        return out


def view(state: GameState, seat: str | None = None) -> SeatView:
    """The table as ``seat`` may see it; ``None`` gives the public (spectator) view."""
    if seat is not None and seat not in state.seats:
        raise KeyError(f"no seat {seat} at this table")
    committed = {name for name, _ in state.commits}
    players = tuple(
        PublicPlayer(
            player.seat,
            player.sheet,
            player.coins,
            player.seasons,
            player.stars,
            player.seat in committed,
        )
        for player in state.players
    )
    return SeatView(
        seat=seat,
        options=state.options,
        turn=state.turn,
        season=state.season_card,
        time_used=state.time_used,
        edicts=state.edicts,
        phase=state.phase,
        card=state.card,
        ruins=state.ruins,
        column=state.column,
        ambushes_out=state.ambushes_out,
        deck_size=len(state.deck),
        ambushes_in_deck=sum(1 for card in state.deck if card in AMBUSH_BY_ID),
        players=players,
        waiting_for=state.waiting_for,
        result=state.result,
        target=state.target_of(seat) if seat is not None and not state.is_over else None,
        my_drawing=state.commit_of(seat) if seat is not None else None,
    )
