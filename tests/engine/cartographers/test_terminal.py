"""The terminal solo game, driven by scripted input lines."""

from __future__ import annotations

import io

import pytest

from engine.cartographers import Expedition
from engine.cartographers.geometry import label
from engine.cartographers.messages import name
from engine.cartographers.terminal import UnreadableCommand, play, read_command
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


def test_read_command_reads_the_terminal_form() -> None:
    assert read_command("farm 2 r90 flip C4") == {
        "terrain": "farm",
        "shape": 1,
        "rotation": 90,
        "flip": True,
        "at": "C4",
    }
    assert read_command("water 1x1 k11") == {"terrain": "water", "fallback": True, "at": "K11"}
    assert read_command("forest c4") == {"terrain": "forest", "shape": 0, "at": "C4"}


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("lava 1 C4", "“lava” is not a terrain"),
        ("farm 2 r90", "Say where"),
        ("farm 2 r45 C4", "“r45” is not a rotation"),
        ("farm 2 banana C4", "“banana” is not"),
        ("farm 2 3 C4", "“3” gives the shape a second time"),
        ("farm 2 C4 D5", "“d5” gives the cell a second time"),
        ("farm 2 flip flip C4", "“flip” gives the flip a second time"),
        ("farm 1x1 r90 C4", "takes no rotation"),
        ("farm ٣ C4", "“٣” is not"),
    ],
)
def test_an_unreadable_placement_names_the_wrong_word(line: str, named: str) -> None:
    with pytest.raises(UnreadableCommand) as error:
        read_command(line)
    assert named in error.value.text()


def test_the_drawing_is_echoed_as_typed_and_each_season_is_broken_down() -> None:
    lines = scripted_lines(4, "A")
    out = io.StringIO()
    play(lines[5:], out, seed=4, side="A")
    text = out.getvalue()
    first = " ".join(lines[5].split())
    assert f"Drawn: {first} (cells " in text
    assert text.count("  coins: ") == 4 and text.count("stars this season") == 4
    final_map = text.rindex("Map of player 1")
    assert final_map > text.rindex("End of ")


def test_rules_explain_the_four_edicts_in_play() -> None:
    expedition = Expedition.new(seats=1, seed=4, side="A")
    out = io.StringIO()
    play(["rules", "quit", "y"], out, seed=4, side="A")
    text = out.getvalue()
    for letter, card_id in zip("ABCD", expedition.view("1").edicts, strict=True):
        assert f"{letter} {name('card', card_id)}: " in text
    assert "Scored in spring and winter." in text


def test_a_flip_is_echoed_as_flip() -> None:
    expedition = Expedition.new(seats=1, seed=4, side="A")
    flipped = next(
        d.placement
        for d in options_for(expedition.state, "1")
        if d.placement.orientation.flip and d.placement.shape is not None
    )
    assert flipped.shape is not None
    turn = flipped.orientation.rotation
    typed = f"{flipped.terrain.value} {flipped.shape + 1} flip r{turn} {label(flipped.anchor)}"
    out = io.StringIO()
    play([typed, "quit", "y"], out, seed=4, side="A")
    assert f"Drawn: {typed} (cells" in out.getvalue()


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
        assert "I could not read “nonsense here”: “nonsense” is not a terrain" in text
        assert "Not accepted" in text or "could not read “forest 1 r45 A1”" in text
        assert text.count("End of ") == 4


def test_running_out_of_input_or_quitting_abandons_the_game() -> None:
    out = io.StringIO()
    assert play(["legal"], out, seed=1) == 1
    assert "The input ended before the game did." in out.getvalue()
    out = io.StringIO()
    assert play(["quit", "y"], out, seed=1) == 1
    assert out.getvalue().strip().endswith("Game abandoned.")


def test_quit_asks_first_and_no_plays_on() -> None:
    out = io.StringIO()
    assert play(["quit", "n", "map"], out, seed=1) == 1
    text = out.getvalue()
    assert "Abandon this game? [y/n]" in text and "Playing on." in text
    assert "Game abandoned." not in text


@pytest.mark.parametrize(
    ("locale", "line"),
    [
        ("es", "granja 2 r90 voltear C4"),
        ("it", "fattoria 2 r90 ribalta C4"),
        ("es", "farm 2 r90 flip C4"),
    ],
)
def test_a_placement_may_be_typed_in_the_game_language(locale: str, line: str) -> None:
    assert read_command(line, locale) == {
        "terrain": "farm",
        "shape": 1,
        "rotation": 90,
        "flip": True,
        "at": "C4",
    }


def test_an_unreadable_placement_is_explained_in_the_game_language() -> None:
    with pytest.raises(UnreadableCommand) as error:
        read_command("lava 1 C4", "es")
    assert error.value.text("es").startswith("«lava» no es un terreno; los terrenos son bosque")


def test_a_refused_placement_is_explained_in_the_game_language() -> None:
    out = io.StringIO()
    play(["granja 1 K11", "salir", "s"], out, seed=4, lang="es")
    text = out.getvalue()
    assert "No aceptada: Anclada en K11, la forma se sale del mapa." in text
    assert "Not accepted" not in text and "Partida abandonada." in text
