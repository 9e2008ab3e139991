"""Cartographers' components as data (spec §1): terrains, both map sides, the explore and
ambush cards with their shapes, the seasons, the scoring cards with their solo values and
the solo titles.

Cards are named by a slug (``"great_river"``, ``"shieldgate"``) in every JSON form; the
printed number is kept for reference. Player-facing names live in the message catalogue
(:mod:`engine.cartographers.messages`), keyed ``card.<slug>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cartographers.geometry import Shape

COIN_TRACK = 14
"""Coin spaces on a map sheet [M]; coins beyond the last space are not counted."""

MIN_PLAYERS = 1
MAX_PLAYERS = 100


class Terrain(StrEnum):
    FOREST = "forest"
    VILLAGE = "village"
    FARM = "farm"
    WATER = "water"
    MONSTER = "monster"
    MOUNTAIN = "mountain"
    WASTELAND = "wasteland"

    @property
    def code(self) -> str:
        """The one-letter code used on maps (upper case; lower case when on ruins)."""
        return TERRAIN_CODES[self]


TERRAIN_CODES: dict[Terrain, str] = {
    Terrain.FOREST: "T",
    Terrain.VILLAGE: "V",
    Terrain.FARM: "F",
    Terrain.WATER: "W",
    Terrain.MONSTER: "X",
    Terrain.MOUNTAIN: "M",
    Terrain.WASTELAND: "#",
}
CODE_TERRAINS: dict[str, Terrain] = {code: terrain for terrain, code in TERRAIN_CODES.items()}
EMPTY_CODE = "."
RUINS_CODE = "R"
"""An unfilled ruins cell; a filled one is its terrain's code in lower case."""

DRAWABLE: tuple[Terrain, ...] = (
    Terrain.FOREST,
    Terrain.VILLAGE,
    Terrain.FARM,
    Terrain.WATER,
    Terrain.MONSTER,
)
"""What a player's pencil can draw; mountains and wasteland are printed on the sheet."""


class Side(StrEnum):
    A = "A"
    B = "B"


@dataclass(frozen=True)
class MapSide:
    """The printed content of one side of the map sheet, as (row, col) cells."""

    side: Side
    mountains: tuple[tuple[int, int], ...]
    ruins: tuple[tuple[int, int], ...]
    wasteland: tuple[tuple[int, int], ...] = ()


MAP_SIDES: dict[Side, MapSide] = {
    Side.A: MapSide(
        Side.A,
        mountains=((1, 3), (2, 8), (5, 5), (8, 2), (9, 7)),
        ruins=((1, 5), (2, 1), (2, 9), (8, 1), (8, 9), (9, 5)),
    ),
    Side.B: MapSide(
        Side.B,
        mountains=((1, 8), (2, 3), (7, 5), (8, 9), (9, 2)),
        ruins=((1, 6), (2, 2), (4, 6), (6, 1), (7, 8), (9, 3)),
        wasteland=((3, 5), (4, 4), (4, 5), (5, 4), (5, 5), (5, 6), (6, 5)),
    ),
}


# --------------------------------------------------------------------------- explore deck


class CardKind(StrEnum):
    EXPLORE = "explore"
    RUINS = "ruins"
    AMBUSH = "ambush"


@dataclass(frozen=True)
class ExploreCard:
    """An explore card: its time value, the terrains and shapes it offers (printed
    orientation) and which shapes carry a coin. A ruins card offers nothing."""

    id: str
    number: int
    time: int
    terrains: tuple[Terrain, ...]
    shapes: tuple[Shape, ...]
    coin_shapes: frozenset[int] = frozenset()

    @property
    def kind(self) -> CardKind:
        return CardKind.RUINS if not self.shapes else CardKind.EXPLORE


def _explore(
    slug: str,
    number: int,
    time: int,
    terrains: tuple[Terrain, ...],
    *patterns: str,
    coin: int | None = None,
) -> ExploreCard:
    shapes = tuple(Shape.parse(pattern) for pattern in patterns)
    coins = frozenset() if coin is None else frozenset({coin})
    return ExploreCard(slug, number, time, terrains, shapes, coins)


T = Terrain
EXPLORE_CARDS: tuple[ExploreCard, ...] = (
    _explore("temple_ruins", 5, 0, ()),
    _explore("outpost_ruins", 6, 0, ()),
    _explore("great_river", 7, 1, (T.WATER,), "###", "..#/.##/##.", coin=0),
    _explore("farmland", 8, 1, (T.FARM,), "##", ".#./###/.#.", coin=0),
    _explore("hamlet", 9, 1, (T.VILLAGE,), "#./##", "###/##.", coin=0),
    _explore("forgotten_forest", 10, 1, (T.FOREST,), "#./.#", "#./##/.#", coin=0),
    _explore("hinterland_stream", 11, 2, (T.FARM, T.WATER), "###/#../#.."),
    _explore("homestead", 12, 2, (T.VILLAGE, T.FARM), "#./##/#."),
    _explore("orchard", 13, 2, (T.FOREST, T.FARM), "###/..#"),
    _explore("treetop_village", 14, 2, (T.FOREST, T.VILLAGE), "..##/###."),
    _explore("marshlands", 15, 2, (T.FOREST, T.WATER), "#../###/#.."),
    _explore("fishing_village", 16, 2, (T.VILLAGE, T.WATER), "####"),
    _explore("rift_lands", 17, 0, (T.FOREST, T.VILLAGE, T.FARM, T.WATER, T.MONSTER), "#"),
)
EXPLORE_BY_ID: dict[str, ExploreCard] = {card.id: card for card in EXPLORE_CARDS}


class Turning(StrEnum):
    """Which way maps are passed (multiplayer) and the solo scan runs along the edge."""

    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter-clockwise"


class Corner(StrEnum):
    TOP_LEFT = "top-left"
    TOP_RIGHT = "top-right"
    BOTTOM_RIGHT = "bottom-right"
    BOTTOM_LEFT = "bottom-left"


@dataclass(frozen=True)
class AmbushCard:
    """An ambush: the monster shape (never rotated in the solo scan), the arrow and the
    corner where the solo scan starts."""

    id: str
    number: int
    shape: Shape
    arrow: Turning
    corner: Corner
    time: int = 0

    @property
    def kind(self) -> CardKind:
        return CardKind.AMBUSH


AMBUSH_CARDS: tuple[AmbushCard, ...] = (
    AmbushCard(
        "goblin_attack",
        1,
        Shape.parse("#../.#./..#"),
        Turning.COUNTER_CLOCKWISE,
        Corner.BOTTOM_RIGHT,
    ),
    AmbushCard("bugbear_assault", 2, Shape.parse("#.#/#.#"), Turning.CLOCKWISE, Corner.TOP_RIGHT),
    AmbushCard(
        "kobold_onslaught", 3, Shape.parse("#./##/#."), Turning.CLOCKWISE, Corner.BOTTOM_LEFT
    ),
    AmbushCard(
        "gnoll_raid", 4, Shape.parse("##/#./##"), Turning.COUNTER_CLOCKWISE, Corner.TOP_LEFT
    ),
)
AMBUSH_BY_ID: dict[str, AmbushCard] = {card.id: card for card in AMBUSH_CARDS}

Card = ExploreCard | AmbushCard


def card(card_id: str) -> Card:
    """The explore or ambush card with this slug (KeyError if none)."""
    found = EXPLORE_BY_ID.get(card_id) or AMBUSH_BY_ID.get(card_id)
    if found is None:
        raise KeyError(card_id)
    return found


def is_card(card_id: object) -> bool:
    return isinstance(card_id, str) and (card_id in EXPLORE_BY_ID or card_id in AMBUSH_BY_ID)


# --------------------------------------------------------------------------- seasons


class Edict(StrEnum):
    A = "A"
    B = "B"
    C = "C"
    D = "D"


EDICTS: tuple[Edict, ...] = (Edict.A, Edict.B, Edict.C, Edict.D)


@dataclass(frozen=True)
class Season:
    id: str
    threshold: int
    edicts: tuple[Edict, Edict]


SEASONS: tuple[Season, ...] = (
    Season("spring", 8, (Edict.A, Edict.B)),
    Season("summer", 8, (Edict.B, Edict.C)),
    Season("autumn", 7, (Edict.C, Edict.D)),
    Season("winter", 6, (Edict.D, Edict.A)),
)


# --------------------------------------------------------------------------- scoring cards


class ScoringDeck(StrEnum):
    FOREST = "forest"
    FARM_WATER = "farm-water"
    VILLAGE = "village"
    PLACEMENT = "placement"


SCORING_DECKS: tuple[ScoringDeck, ...] = tuple(ScoringDeck)


@dataclass(frozen=True)
class ScoringCard:
    id: str
    number: int
    deck: ScoringDeck
    solo: int
    """The value in the card's corner, subtracted from a solo score."""


D = ScoringDeck
SCORING_CARDS: tuple[ScoringCard, ...] = (
    ScoringCard("sentinel_wood", 26, D.FOREST, 25),
    ScoringCard("greenbough", 27, D.FOREST, 22),
    ScoringCard("treetower", 28, D.FOREST, 17),
    ScoringCard("stoneside_forest", 29, D.FOREST, 18),
    ScoringCard("canal_lake", 30, D.FARM_WATER, 24),
    ScoringCard("mages_valley", 31, D.FARM_WATER, 22),
    ScoringCard("golden_granary", 32, D.FARM_WATER, 20),
    ScoringCard("shoreside_expanse", 33, D.FARM_WATER, 27),
    ScoringCard("wildholds", 34, D.VILLAGE, 16),
    ScoringCard("great_city", 35, D.VILLAGE, 16),
    ScoringCard("greengold_plains", 36, D.VILLAGE, 21),
    ScoringCard("shieldgate", 37, D.VILLAGE, 20),
    ScoringCard("borderlands", 38, D.PLACEMENT, 24),
    ScoringCard("lost_barony", 39, D.PLACEMENT, 24),
    ScoringCard("broken_road", 40, D.PLACEMENT, 24),
    ScoringCard("cauldrons", 41, D.PLACEMENT, 20),
)
SCORING_BY_ID: dict[str, ScoringCard] = {card.id: card for card in SCORING_CARDS}


def scoring_deck(deck: ScoringDeck) -> tuple[ScoringCard, ...]:
    return tuple(card for card in SCORING_CARDS if card.deck == deck)


# --------------------------------------------------------------------------- solo titles

SOLO_TITLES: tuple[tuple[int, str], ...] = (
    (30, "legendary_cartographer"),
    (20, "master_mapsmith"),
    (10, "journeyman_topographer"),
    (0, "apprentice_surveyor"),
    (-5, "amateur_assessor"),
    (-10, "inept_assistant"),
    (-20, "dimwitted_doodler"),
)
LOWEST_TITLE = "oblivious_inkdrinker"


def solo_title(rating: int) -> str:
    """The title (a slug; ``title.<slug>`` in the catalogue) for score − solo values."""
    for floor, title in SOLO_TITLES:
        if rating >= floor:
            return title
    return LOWEST_TITLE
