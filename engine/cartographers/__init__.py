"""Cartographers, the map-drawing game for 1 to 100 players, solo mode included (rules:
``spec/cartographers.md``)."""

from engine.cartographers.components import Side, Terrain
from engine.cartographers.geometry import Orientation, Shape, label, parse_label
from engine.cartographers.notation import read_position, write_position
from engine.cartographers.placement import Drawing, Offer, Placement
from engine.cartographers.rules import (
    MONSTER,
    PLACE,
    RULESET,
    CartographersRules,
    legal_placements,
    table_config,
)
from engine.cartographers.scoring import Score, score, score_all
from engine.cartographers.sheet import MapSheet
from engine.cartographers.state import AmbushMode, GameState, Phase, Player, Result
from engine.cartographers.table import Expedition
from engine.cartographers.view import SeatView, view

__all__ = [
    "MONSTER",
    "PLACE",
    "RULESET",
    "AmbushMode",
    "CartographersRules",
    "Drawing",
    "Expedition",
    "GameState",
    "MapSheet",
    "Offer",
    "Orientation",
    "Phase",
    "Placement",
    "Player",
    "Result",
    "Score",
    "SeatView",
    "Shape",
    "Side",
    "Terrain",
    "label",
    "legal_placements",
    "parse_label",
    "read_position",
    "score",
    "score_all",
    "table_config",
    "view",
    "write_position",
]
