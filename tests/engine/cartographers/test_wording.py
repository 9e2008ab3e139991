"""Cartographers' sentences as a native reader reads them: a season in the middle of a
sentence is a common noun ("Fin de la primavera", "en primavera e invierno"), several
winners take a plural verb and are listed with "and", a score below zero has a minus
sign, no loss of zero reads "−0", a map belongs to a player, and the rift lands are
named for their rift."""

from __future__ import annotations

import io

import pytest

from engine.cartographers import Expedition
from engine.cartographers.messages import name, text, winners_text
from engine.cartographers.terminal import play, rules_lines
from engine.cartographers.text import render_table
from tests.engine.cartographers.test_terminal import scripted_lines


@pytest.mark.parametrize(
    ("lang", "season", "heading"),
    [
        ("en", "spring", "End of spring"),
        ("es", "spring", "Fin de la primavera"),
        ("es", "summer", "Fin del verano"),
        ("it", "spring", "Fine della primavera"),
        ("it", "summer", "Fine dell'estate"),
    ],
)
def test_a_season_ends_with_its_article(lang: str, season: str, heading: str) -> None:
    assert text("picture.season_end", {"season_end": season}, lang) == heading
    assert text("play.season_end", {"season_end": season}, lang) == heading + "."


@pytest.mark.parametrize(
    ("lang", "seasons"),
    [
        ("en", "Scored in spring and winter."),
        ("es", "Puntúa en primavera e invierno."),
        ("it", "Si conta in primavera e inverno."),
    ],
)
def test_an_edict_is_scored_in_seasons_joined_by_and(lang: str, seasons: str) -> None:
    view = Expedition.new(seats=1, seed=4, side="A").view("1")
    edict_a = rules_lines(view, lang)[1]
    assert edict_a.endswith(seasons)


@pytest.mark.parametrize(
    ("lang", "one", "several"),
    [
        ("en", "Winner: Ana.", "Winners: Ana and Isabel."),
        ("es", "Gana: Ana.", "Ganan: Ana e Isabel."),
        ("it", "Vince: Ana.", "Vincono: Ana ed Elena."),
    ],
)
def test_several_winners_take_a_plural_verb(lang: str, one: str, several: str) -> None:
    assert winners_text(["Ana"], lang) == one
    other = "Elena" if lang == "it" else "Isabel"
    assert winners_text(["Ana", other], lang) == several
    assert winners_text(["Ana", "Bea", "Ciro"], lang).count(",") == 1


def test_a_score_below_zero_has_a_minus_sign() -> None:
    params = {"total": 3, "solo": 60, "rating": -57, "title": "inept_assistant"}
    said = text("text.solo_result", params, "en")
    assert said == "Score 3 − solo values 60 = −57: Inept Assistant."


def test_a_map_is_named_for_its_player() -> None:
    view = Expedition.new(seats=1, seed=4, side="A").view("1")
    assert "Map of player 1 · coins 0 · stars 0" in render_table(view, lang="en")
    assert "Mapa del jugador 1" in render_table(view, lang="es")
    assert "Mappa del giocatore 1" in render_table(view, lang="it")


def test_a_season_with_no_monster_loss_says_zero_not_minus_zero() -> None:
    out = io.StringIO()
    play(scripted_lines(11, "A")[5:], out, seed=11, side="A", lang="es")
    said = out.getvalue()
    assert "−0" not in said and "-0" not in said
    assert said.count("Fin de la primavera.") == 1
    assert "  monstruos: 0" in said


def test_the_rift_lands_are_named_for_their_rift() -> None:
    assert name("card", "rift_lands", "es") == "Tierras Agrietadas"
