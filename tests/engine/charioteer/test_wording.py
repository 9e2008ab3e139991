"""Charioteer's sentences as a native reader reads them, in English, Spanish and Italian:
a colour agrees with the skill it names, several names take a plural verb, a reset is a
reset move, learning comes from icons, recovery removes damage cubes, the emperor's face
is named as the die shows it, and the board's column headings are words or real
abbreviations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.charioteer import Card, Colour, EmperorFace, Race
from engine.charioteer.events import (
    Attacked,
    BonusSlotTaken,
    EmperorRolled,
    MoveRevealed,
    Recovered,
    SkillAdvanced,
)
from engine.charioteer.moves import RevealedMove
from engine.charioteer.render import reveal_text
from engine.charioteer.render.common import say
from engine.charioteer.view import SeatView
from engine.core import Event

GOLDEN = Path(__file__).parent / "golden"
NAMES = {"A": "Ana", "B": "Bea", "C": "Carla", "D": "Dora", "E": "Eva", "F": "Fede"}


def view() -> SeatView:
    position = json.loads((GOLDEN / "midrace.position.json").read_text(encoding="utf-8"))
    position.pop("moves", None)
    return Race.from_position(position).view(None)


def told(events: list[Event], locale: str, names: dict[str, str] = NAMES) -> str:
    """The story's lines after its title."""
    return reveal_text(events, view(), names=names, locale=locale).split("\n", 1)[1]


@pytest.mark.parametrize(
    ("locale", "colour", "words"),
    [
        ("es", Colour.RED, "habilidad roja"),
        ("es", Colour.BLACK, "habilidad negra"),
        ("es", Colour.YELLOW, "habilidad amarilla"),
        ("it", Colour.BLACK, "abilità in nero"),
        ("it", Colour.RED, "abilità in rosso"),
        ("en", Colour.GREEN, "green skill"),
    ],
)
def test_a_skill_agrees_with_its_colour(locale: str, colour: Colour, words: str) -> None:
    story = told([SkillAdvanced("A", colour, 1, False, 0, 3, 4)], locale)
    assert story == f"Ana: {words} 3 → 4."
    bonus = told([BonusSlotTaken("A", colour, 5)], locale)
    assert words in bonus


def test_a_skill_is_never_glued_to_a_name_with_an_apostrophe() -> None:
    story = told([SkillAdvanced("A", Colour.GREEN, 1, False, 0, 3, 4)], "en", {"A": "Red (you)"})
    assert story == "Red \\(you\\): green skill 3 → 4."
    assert "'s" not in told([BonusSlotTaken("A", Colour.GREEN, 3)], "en", {"A": "Red (you)"})


@pytest.mark.parametrize(
    ("locale", "one", "several"),
    [
        ("en", "Bea already has full attack boxes", "Bea and Carla already have full attack boxes"),
        (
            "es",
            "Bea ya tiene las casillas de ataque llenas",
            "Bea y Carla ya tienen las casillas de ataque llenas",
        ),
        (
            "it",
            "Bea ha già le caselle attacco piene",
            "Bea e Carla hanno già le caselle attacco piene",
        ),
    ],
)
def test_full_attack_boxes_take_a_verb_in_the_right_number(
    locale: str, one: str, several: str
) -> None:
    alone = told([Attacked("A", "minor", 1, (("B", 0),), ())], locale)
    assert one in alone
    both = told([Attacked("A", "minor", 1, (("B", 0), ("C", 0)), ())], locale)
    assert several in both


@pytest.mark.parametrize(
    ("locale", "one", "several"),
    [
        ("en", "Dora has a shield", "Dora and Eva have a shield"),
        ("es", "Dora tiene escudo", "Dora y Eva tienen escudo"),
        ("it", "Dora ha lo scudo", "Dora ed Eva hanno lo scudo"),
    ],
)
def test_shielded_rivals_take_a_verb_in_the_right_number(
    locale: str, one: str, several: str
) -> None:
    alone = told([Attacked("A", "major", 2, (("B", 2),), ("D",))], locale)
    assert one in alone
    both = told([Attacked("A", "major", 2, (("B", 2),), ("D", "E"))], locale)
    assert several in both


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [
        ("en", "Ana makes a reset move with G2 R5 and Y4."),
        ("es", "Ana hace un movimiento de reinicio con G2 R5 y Y4."),
        ("it", "Ana fa una mossa di ripristino con G2 R5 e Y4."),
    ],
)
def test_a_reset_is_told_as_a_reset_move(locale: str, sentence: str) -> None:
    move = RevealedMove(None, (Card.parse("G2 R5"), Card.parse("Y4")))
    assert told([MoveRevealed("A", move)], locale) == sentence


@pytest.mark.parametrize(
    ("locale", "why"),
    [
        ("en", "(2 learning icons)"),
        ("es", "(2 iconos de aprendizaje)"),
        ("it", "(2 icone di apprendimento)"),
    ],
)
def test_learning_counts_its_icons(locale: str, why: str) -> None:
    assert told([SkillAdvanced("A", Colour.RED, 3, False, 2, 3, 6)], locale).endswith(why + ".")


@pytest.mark.parametrize(
    ("locale", "one", "two"),
    [
        ("en", "Ana removes 1 damage cube (2 left).", "removes 2 damage cubes"),
        ("es", "Ana retira 1 cubo de daño (le quedan 2).", "retira 2 cubos de daño"),
        ("it", "Ana toglie 1 cubo danno (ne restano 2).", "toglie 2 cubi danno"),
    ],
)
def test_a_recovery_removes_damage_cubes(locale: str, one: str, two: str) -> None:
    assert told([Recovered("A", 1, 1, 2)], locale) == one
    assert say(locale, "preview.recovery", count=2) == two


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [
        ("en", "The emperor shows “Disrupt” for turn 5."),
        ("es", "El emperador muestra «Interrupción» para el turno 5."),
        ("it", "L'imperatore mostra «Disorganizzare» per il turno 5."),
    ],
)
def test_the_emperor_shows_a_die_face_by_its_name(locale: str, sentence: str) -> None:
    assert told([EmperorRolled(EmperorFace.DISRUPT, 5)], locale) == sentence


@pytest.mark.parametrize(
    ("locale", "numbers", "ahead"),
    [
        (
            "en",
            "Spaces are counted from the finish line.",
            "On one space, the upper chariot is ahead.",
        ),
        (
            "es",
            "Las casillas se cuentan desde la meta.",
            "En una misma casilla, la cuadriga de más arriba va delante.",
        ),
        (
            "it",
            "Gli spazi si contano dal traguardo.",
            "Nello stesso spazio, il carro più in alto è davanti.",
        ),
    ],
)
def test_the_picture_legend_says_how_spaces_are_counted(
    locale: str, numbers: str, ahead: str
) -> None:
    assert say(locale, "image.legend.numbers") == numbers
    assert say(locale, "image.legend.ahead") == ahead


HEADINGS = {
    "en": {"lap": "lap", "damage": "dmg", "attack": "atk", "tokens": "tok"},
    "es": {"lap": "vta.", "damage": "daño", "attack": "atq", "tokens": "fich."},
    "it": {"lap": "giro", "damage": "danni", "attack": "att", "tokens": "gett."},
}
"""Words, or the abbreviations a reader knows: the RAE's "vta." for vuelta, "fich." and
"gett." cut before a vowel, the "atk", "atq" and "att" of every video game's stats."""


@pytest.mark.parametrize("locale", sorted(HEADINGS))
def test_board_columns_are_words_or_abbreviations_a_reader_knows(locale: str) -> None:
    shown = {heading: say(locale, f"board.col.{heading}") for heading in HEADINGS[locale]}
    assert shown == HEADINGS[locale]
