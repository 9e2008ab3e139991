"""The terminal solo game, driven by scripted input lines."""

from __future__ import annotations

import io

from engine.cartographers import Expedition
from engine.cartographers.messages import name
from engine.cartographers.terminal import parse_command, play
from tests.engine.cartographers.helpers import options_for


def scripted_lines(seed: int, side: str) -> list[str]:
    """The lines a player would type, found by playing the same seeded game alongside."""
    expedition = Expedition.new(seats=1, seed=seed, side=side)
    lines = ["help", "legal", "map", "nonsense here", "forest 1 r45 A1"]
    while not expedition.is_over:
        choices = options_for(expedition.state, "1")
        drawing = choices[len(choices) // 3]
        lines.append(str(drawing.placement))
        expedition.place("1", drawing.placement)
    return lines


def test_parse_command_reads_the_terminal_form() -> None:
    assert parse_command("farm 2 r90 flip C4") == {
        "terrain": "farm",
        "shape": 1,
        "rotation": 90,
        "flip": True,
        "at": "C4",
    }
    assert parse_command("water 1x1 k11") == {"terrain": "water", "fallback": True, "at": "K11"}
    assert parse_command("forest c4") == {"terrain": "forest", "shape": 0, "at": "C4"}
    assert parse_command("lava 1 C4") is None
    assert parse_command("farm 2 r90") is None


def test_a_scripted_solo_game_reaches_its_title() -> None:
    for seed, side in ((4, "A"), (5, "B")):
        out = io.StringIO()
        code = play(scripted_lines(seed, side), out, seed=seed, side=side)
        text = out.getvalue()
        assert code == 0
        last = text.strip().splitlines()[-1]
        assert last.startswith("Score ") and last.endswith(".")
        titles = [
            name("title", t)
            for t in (
                "legendary_cartographer",
                "master_mapsmith",
                "journeyman_topographer",
                "apprentice_surveyor",
                "amateur_assessor",
                "inept_assistant",
                "dimwitted_doodler",
                "oblivious_inkdrinker",
            )
        ]
        assert any(last.endswith(f": {title}.") for title in titles)
        assert "I could not read “nonsense here”" in text
        assert "Not accepted" in text or "could not read “forest 1 r45 A1”" in text
        assert text.count("End of ") == 4


def test_running_out_of_input_or_quitting_abandons_the_game() -> None:
    out = io.StringIO()
    assert play(["legal"], out, seed=1) == 1
    assert "The input ended before the game did." in out.getvalue()
    out = io.StringIO()
    assert play(["quit"], out, seed=1) == 1
    assert out.getvalue().strip().endswith("Game abandoned.")
