"""Charioteer, the chariot race for 2–6 players (rules: ``spec/charioteer.md``)."""

from engine.charioteer.components import Card, Colour, EmperorFace, Symbol, Token, TokenKind
from engine.charioteer.moves import Move, RevealedMove
from engine.charioteer.notation import read_position, write_position
from engine.charioteer.race import RULESET, CharioteerRules, Race, race_config
from engine.charioteer.rules import Play, analyse, iter_legal_moves, legal_moves
from engine.charioteer.state import Chariot, RaceOptions, RaceState, Result, Skill
from engine.charioteer.view import PublicChariot, SeatView, view

__all__ = [
    "RULESET",
    "Card",
    "Chariot",
    "CharioteerRules",
    "Colour",
    "EmperorFace",
    "Move",
    "Play",
    "PublicChariot",
    "Race",
    "RaceOptions",
    "RaceState",
    "Result",
    "RevealedMove",
    "SeatView",
    "Skill",
    "Symbol",
    "Token",
    "TokenKind",
    "analyse",
    "iter_legal_moves",
    "legal_moves",
    "race_config",
    "read_position",
    "view",
    "write_position",
]
