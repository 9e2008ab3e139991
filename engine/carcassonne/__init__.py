"""Carcassonne: Star Wars, tile laying with faction battles for 2–5 players (rules:
``spec/carcassonne-star-wars.md``; tiles: the packaged catalogue, a reconstruction)."""

from engine.carcassonne.board import Board, FeatureRef, Placed, Region
from engine.carcassonne.components import Colour, Faction, Kind, Side, Size, catalogue
from engine.carcassonne.notation import read_position, write_position
from engine.carcassonne.rules import (
    DEPLOY,
    PLACE,
    RULESET,
    CarcassonneRules,
    Deployment,
    Placement,
    game_config,
    legal_deployments,
    legal_placements,
)
from engine.carcassonne.state import GameState, Meeple, Options, Phase, Result
from engine.carcassonne.table import Table
from engine.carcassonne.view import SeatView, view

__all__ = [
    "DEPLOY",
    "PLACE",
    "RULESET",
    "Board",
    "CarcassonneRules",
    "Colour",
    "Deployment",
    "Faction",
    "FeatureRef",
    "GameState",
    "Kind",
    "Meeple",
    "Options",
    "Phase",
    "Placed",
    "Placement",
    "Region",
    "Result",
    "SeatView",
    "Side",
    "Size",
    "Table",
    "catalogue",
    "game_config",
    "legal_deployments",
    "legal_placements",
    "read_position",
    "view",
    "write_position",
]
