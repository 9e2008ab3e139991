"""Refusals for players: every rule message the engine names exists in the catalogue, and
players read cards and tokens numbered from 1, as the panel numbers them."""

import re
from pathlib import Path

import pytest

from engine.charioteer import Move, Race, Symbol
from engine.charioteer.render import rule_text
from engine.charioteer.render.common import catalogue
from engine.core import EngineError

RULES = Path(__file__).resolve().parents[3] / "engine" / "charioteer" / "rules.py"


def named_messages() -> set[str]:
    text = RULES.read_text(encoding="utf-8")
    keys = set(re.findall(r'message="(rule\.[a-z_]+)"', text))
    keys |= {f"rule.{key}" for key in re.findall(r'^\s+"([a-z_]+)",$', text, flags=re.M)}
    keys |= {f"rule.{key}" for key in re.findall(r'"([a-z_]+)" if options', text)}
    keys |= {f"rule.{key}" for key in re.findall(r'else "([a-z_]+)"', text)}
    keys |= {f"rule.{key}" for key in re.findall(r'illegal\("[^"]*", "([a-z_]+)"\)', text)}
    return keys


def test_every_named_rule_message_is_in_the_catalogue() -> None:
    keys = named_messages()
    assert len(keys) >= 18
    assert keys <= catalogue().ids("en")


@pytest.mark.parametrize(
    ("move", "engine_reason", "player_text"),
    [
        (Move((0, 0), Symbol.parse("R5")), "card 0", "Card 1 "),
        (Move((0, 1), Symbol.parse("G2"), token=9), "no token 9", "no token 10"),
    ],
)
def test_players_read_numbers_from_one(move: Move, engine_reason: str, player_text: str) -> None:
    race = Race.new(seats=2, seed=1)
    with pytest.raises(EngineError) as refused:
        race.commit("A", move)
    assert engine_reason in refused.value.reason
    assert player_text in rule_text(refused.value)


def test_an_error_without_a_message_keeps_its_reason() -> None:
    error = EngineError("something only the engine knows")
    assert rule_text(error) == "something only the engine knows"
