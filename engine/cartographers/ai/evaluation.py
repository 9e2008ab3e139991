"""How the AI levels judge a drawing: what it changes on the map it lands on.

:func:`immediate_gain` is the ``greedy`` judgement: the stars the drawing would change at
this season's end if the season ended now (spec §2 "Season end"): the season's two
edicts, coins (a coin shape, a newly surrounded mountain), and empty cells next to a
monster.

:class:`Outlook` is the ``strategic`` judgement. It weighs every edict still to be scored
by how many scorings it has left (spec §1: each edict is scored in two seasons), a coin
by the seasons it still scores in, a cell next to a monster by the seasons it may still
cost; adds progress that the scoring cards do not pay yet (a village cluster on its way to
six cells, a nearly complete row or diagonal, a forest cluster reaching a second
mountain); keeps unfilled ruins for the ruins cards to come; and, where ambushes are
drawn by the solo scan, looks at where the monsters still in the deck would land.
Every number of that judgement is a field of :class:`Weights`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cartographers.components import (
    AMBUSH_CARDS,
    COIN_TRACK,
    EDICTS,
    EXPLORE_BY_ID,
    EXPLORE_CARDS,
    SEASONS,
    CardKind,
    Terrain,
)
from engine.cartographers.geometry import SIZE, cell, neighbours
from engine.cartographers.placement import Drawing, solo_ambush
from engine.cartographers.scoring import GREENGOLD_TYPES, SCORERS, broken_road_diagonals
from engine.cartographers.sheet import MapSheet
from engine.cartographers.state import AmbushMode
from engine.cartographers.view import SeatView

WILDHOLDS_SIZE = 6
RUINS_CARDS = sum(card.kind is CardKind.RUINS for card in EXPLORE_CARDS)
MEAN_CARD_TIME = 1.4
"""Time an explore card takes off the season on average (11 explore cards, 2 ruins, 0–2)."""


def coins_after(surrounded: frozenset[int], after: MapSheet, drawing: Drawing, coins: int) -> int:
    """The map owner's coins once ``drawing`` is on ``after`` (spec §2: the coin shape,
    and a coin per mountain surrounded for the first time — ``surrounded`` are those
    surrounded before; the track stops at 14)."""
    newly = len(after.enclosed_mountains() - surrounded)
    return min(COIN_TRACK, coins + int(drawing.coin) + newly)


def season_edicts(view: SeatView) -> tuple[str, str]:
    """The scoring cards of the season in play."""
    first, second = view.season.edicts
    return view.edicts[EDICTS.index(first)], view.edicts[EDICTS.index(second)]


class ImmediateGain:
    """The stars a drawing changes for the owner of ``sheet`` at this season's end: the
    season's edicts, coins, and empty cells next to monsters (the map as it stands is
    measured once)."""

    def __init__(self, view: SeatView, sheet: MapSheet, coins: int) -> None:
        self.sheet = sheet
        self.coins = coins
        self.edicts = season_edicts(view)
        self.surrounded = sheet.enclosed_mountains()
        self.base = self.stars(sheet, coins)

    def stars(self, sheet: MapSheet, coins: int) -> int:
        edicts = sum(SCORERS[edict](sheet)[0] for edict in self.edicts)
        return edicts + coins - len(sheet.monster_threat())

    def __call__(self, drawing: Drawing) -> int:
        after = self.sheet.draw(drawing.cells, drawing.terrain)
        coins = coins_after(self.surrounded, after, drawing, self.coins)
        return self.stars(after, coins) - self.base


def immediate_gain(view: SeatView, sheet: MapSheet, coins: int, drawing: Drawing) -> int:
    """The stars ``drawing`` changes for the owner of ``sheet`` (with ``coins``) at this
    season's end (see :class:`ImmediateGain`)."""
    return ImmediateGain(view, sheet, coins)(drawing)


@dataclass(frozen=True)
class Weights:
    """The strategic level's search and judgement; worths are in stars."""

    shortlist: int = 24
    """Drawings kept after the first look (edicts, coins, monsters) for the full one;
    drawings tied with the last one kept are kept too, up to :attr:`shortlist_limit`."""
    shortlist_limit: int = 160
    """Most drawings given the full look (a sample of them, by the rng, beyond that)."""
    later_scoring: float = 0.8
    """A later season's scoring of an edict, against this season's."""
    later_threat: float = 0.35
    """A cell next to a monster costs this share of a star in each later season (it is
    often filled before then)."""
    progress: float = 0.5
    """Worth of progress the scoring cards do not pay yet, per scoring left."""
    open_ruins: float = 0.6
    """An unfilled ruins cell kept while ruins cards may still come, when few are left."""
    ruins_scarce: int = 2
    """Below this many unfilled ruins cells, covering one costs :attr:`open_ruins`."""
    ambush: float = 0.8
    """Weight of the monsters the solo scan would draw on the map this season."""


DEFAULT_WEIGHTS = Weights()


class Outlook:
    """The worth, in stars to come, of a map for its owner, from one seat's view."""

    def __init__(self, view: SeatView, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights
        season = SEASONS.index(view.season)
        later = weights.later_scoring
        scorings: dict[str, float] = {}
        for index in range(season, len(SEASONS)):
            share = 1.0 if index == season else later
            for edict in SEASONS[index].edicts:
                card_id = view.edicts[EDICTS.index(edict)]
                scorings[card_id] = scorings.get(card_id, 0.0) + share
        self.scorings = scorings
        seasons_left = len(SEASONS) - season
        self.coin = 1.0 + later * (seasons_left - 1)
        self.threat = 1.0 + weights.later_threat * (seasons_left - 1)
        cards_left = max(0.0, (view.season.threshold - view.time_used) / MEAN_CARD_TIME)
        deck = max(1, view.deck_size)
        self.ambush_chance = min(1.0, view.ambushes_in_deck * min(cards_left, deck) / deck)
        self.auto_ambush = view.options.ambush is AmbushMode.AUTO or len(view.players) == 1
        self.ambush_cards = tuple(c for c in AMBUSH_CARDS if c.id not in view.ambushes_out)
        self.ruins_to_come = ruins_to_come(view)

    def first_look(self, sheet: MapSheet, coins: int) -> float:
        """Edicts weighted by the scorings left, coins, and cells next to monsters."""
        value = sum(share * SCORERS[card_id](sheet)[0] for card_id, share in self.scorings.items())
        value += self.coin * coins
        return value - self.threat * len(sheet.monster_threat())

    def further_look(self, sheet: MapSheet, first_look: float) -> float:
        """The full look of a map whose :meth:`first_look` is ``first_look``: progress
        the cards do not pay yet, unfilled ruins kept, and the monsters still to come."""
        weights = self.weights
        value = first_look
        value += weights.progress * sum(
            share * progress(card_id, sheet) for card_id, share in self.scorings.items()
        )
        if self.ruins_to_come:
            open_ruins = sheet.open_ruins_mask.bit_count()
            value -= weights.open_ruins * max(0, weights.ruins_scarce - open_ruins)
        if self.auto_ambush and self.ambush_cards and self.ambush_chance:
            value -= weights.ambush * self.ambush_chance * self.expected_monster_cost(sheet)
        return value

    def full_look(self, sheet: MapSheet, coins: int) -> float:
        """The worth of a map with its owner's coins, everything considered."""
        return self.further_look(sheet, self.first_look(sheet, coins))

    def expected_monster_cost(self, sheet: MapSheet) -> float:
        """Stars an ambush drawn by the solo scan would cost this season, on average over
        the ambush cards not yet revealed: new cells next to a monster."""
        before = len(sheet.monster_threat())
        total = 0
        for card in self.ambush_cards:
            cells = solo_ambush(sheet, card)
            if cells is not None:
                total += len(sheet.draw(cells, Terrain.MONSTER).monster_threat()) - before
        return total / len(self.ambush_cards)


def ruins_to_come(view: SeatView) -> bool:
    """Whether a ruins card may still be revealed: one of this season's is still in the
    deck, or a later season reshuffles them all back in (spec §2 "Season end")."""
    if SEASONS.index(view.season) < len(SEASONS) - 1:
        return True
    revealed = sum(EXPLORE_BY_ID[card_id].kind is CardKind.RUINS for card_id in view.column)
    return view.deck_size > 0 and revealed < RUINS_CARDS


# --------------------------------------------------------------------------- progress


def progress(card_id: str, sheet: MapSheet) -> float:
    """Stars a scoring card is on its way to paying but does not pay yet (0 for cards
    that pay every cell as it is drawn)."""
    measure = PROGRESS.get(card_id)
    return 0.0 if measure is None else measure(sheet)


def _wildholds(sheet: MapSheet) -> float:
    sizes = [len(g) for g in sheet.clusters(Terrain.VILLAGE) if len(g) < WILDHOLDS_SIZE]
    if not sizes:
        return 0.0
    return 8.0 * (max(sizes) / WILDHOLDS_SIZE) ** 2


def _line_progress(lines: Sequence[Sequence[int]], sheet: MapSheet, worth: float) -> float:
    total = 0.0
    for line in lines:
        filled = sum(sheet.is_filled(index) for index in line)
        if filled < len(line):
            total += worth * (filled / len(line)) ** 4
    return total


ROWS_AND_COLUMNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(cell(line, col) for col in range(SIZE)) for line in range(SIZE)
) + tuple(tuple(cell(row, line) for row in range(SIZE)) for line in range(SIZE))
DIAGONALS = tuple(d for d in broken_road_diagonals() if len(d) > 1)


def _borderlands(sheet: MapSheet) -> float:
    return _line_progress(ROWS_AND_COLUMNS, sheet, 6.0)


def _broken_road(sheet: MapSheet) -> float:
    return _line_progress(DIAGONALS, sheet, 3.0)


def _stoneside_forest(sheet: MapSheet) -> float:
    """A forest cluster touching one mountain is half-way to joining two."""
    halfway = 0
    for group in sheet.clusters(Terrain.FOREST):
        touched = {
            other
            for index in group
            for other in neighbours(index)
            if sheet.terrains[other] is Terrain.MOUNTAIN
        }
        halfway += len(touched) == 1
    return 1.5 * halfway


def _greengold_plains(sheet: MapSheet) -> float:
    """A village cluster next to two kinds of terrain is one kind short."""
    near = 0
    for group in sheet.clusters(Terrain.VILLAGE):
        kinds = {
            sheet.terrains[other]
            for index in group
            for other in neighbours(index)
            if sheet.terrains[other] in GREENGOLD_TYPES
        }
        near += len(kinds) == 2
    return 1.5 * near


def _treetower(sheet: MapSheet) -> float:
    """A forest cell with one open side left."""
    almost = 0
    for index in sheet.cells_of(Terrain.FOREST):
        open_sides = sum(not sheet.is_filled(other) for other in neighbours(index))
        almost += open_sides == 1
    return 0.5 * almost


PROGRESS = {
    "wildholds": _wildholds,
    "borderlands": _borderlands,
    "broken_road": _broken_road,
    "stoneside_forest": _stoneside_forest,
    "greengold_plains": _greengold_plains,
    "treetower": _treetower,
}
