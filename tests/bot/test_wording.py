"""The host's sentences as a native reader reads them, in English, Spanish and Italian:
Carcassonne's story with its articles and its plurals ("1 dado", "3 losetas"), the
rules card's one extra die, a tournament round that is not a game turn, the terminal's
yes in the reader's language, a drawing confirmed without saying "drawing" twice, and
every sentence that had a wrong word."""

from __future__ import annotations

import pytest

from bot.games.carcassonne.story import final_scoring, ranking_lines, turn_story
from bot.games.charioteer.drafts import DraftError, parse_move_text
from bot.text import catalogue, t
from engine.carcassonne import FeatureRef, Kind, Size, Table
from engine.carcassonne.events import (
    BattleLost,
    BattleStarted,
    FeatureScored,
    MeepleDeployed,
)
from engine.carcassonne.render import summary

NAMES = {"red": "alice", "green": "bob", "black": "AI 1"}
ROUTE = FeatureRef(0, 0, 1)
PLANET = FeatureRef(0, 0, None)


def start() -> Table:
    return Table.new(seats=3, seed=5)


@pytest.mark.parametrize(
    ("locale", "attack", "deployed", "battle"),
    [
        (
            "en",
            "bob (green) attacked the planet with a small meeple!",
            "alice (red) deployed a large meeple on the trade route (east–west).",
            "⚔️ Battle for the trade route (east–west)",
        ),
        (
            "es",
            "¡bob (verde) atacó el planeta con un meeple pequeño!",
            "alice (rojo) colocó un meeple grande en la ruta comercial (este–oeste).",
            "⚔️ Batalla por la ruta comercial (este–oeste)",
        ),
        (
            "it",
            "bob (verde) ha attaccato il pianeta con un meeple piccolo!",
            "alice (rosso) ha piazzato un meeple grande sulla rotta commerciale (est–ovest).",
            "⚔️ Battaglia per la rotta commerciale (est–ovest)",
        ),
    ],
)
def test_carcassonne_names_a_feature_with_its_article(
    locale: str, attack: str, deployed: str, battle: str
) -> None:
    seat_view = start().view()
    events = [
        MeepleDeployed("green", Size.SMALL, PLANET, Kind.PLANET, True),
        MeepleDeployed("red", Size.LARGE, ROUTE, Kind.ROUTE, False),
        BattleStarted(ROUTE, Kind.ROUTE, (("red", 1), ("black", 2))),
    ]
    lines = turn_story(events, seat_view, NAMES, locale)[1:]
    assert lines[0] == attack
    assert lines[1] == deployed
    assert lines[2].startswith(battle)


@pytest.mark.parametrize(
    ("locale", "sides", "lost", "scored"),
    [
        (
            "en",
            "alice (red) with 1 die, AI 1 (black) with 2 dice.",
            "  AI 1 (black) loses, takes their meeples home and scores 1 point.",
            "✅ Trade route completed: alice (red) scores 5 (1 tile, 2 symbols).",
        ),
        (
            "es",
            "alice (rojo) con 1 dado, AI 1 (negro) con 2 dados.",
            "  AI 1 (negro) pierde, se lleva sus meeples a casa y puntúa 1 punto.",
            "✅ Ruta comercial completada: alice (rojo) puntúa 5 (1 loseta, 2 símbolos).",
        ),
        (
            "it",
            "alice (rosso) con 1 dado, AI 1 (nero) con 2 dadi.",
            "  AI 1 (nero) perde, riporta a casa i suoi meeple e segna 1 punto.",
            "✅ Rotta commerciale completata: alice (rosso) segna 5 (1 tessera, 2 simboli).",
        ),
    ],
)
def test_carcassonne_counts_in_words_not_with_brackets(
    locale: str, sides: str, lost: str, scored: str
) -> None:
    seat_view = start().view()
    events = [
        BattleStarted(ROUTE, Kind.ROUTE, (("red", 1), ("black", 2))),
        BattleLost(ROUTE, "black", 1),
        FeatureScored(ROUTE, Kind.ROUTE, "red", 5, 1, 2, True, False, ("red",)),
    ]
    lines = turn_story(events, seat_view, NAMES, locale)
    assert lines[0].endswith(sides)
    assert lines[1] == lost
    assert lines[2] == scored
    end = FeatureScored(ROUTE, Kind.ASTEROID, "green", 2, 1, 1, False, True, ("green",))
    assert "(s)" not in final_scoring([end], seat_view, NAMES, locale)[0]
    assert "/" not in final_scoring([end], seat_view, NAMES, locale)[0]


def test_carcassonne_has_no_bracketed_plural_anywhere() -> None:
    for locale in ("en", "es", "it"):
        for key in catalogue().ids("en"):
            template = catalogue().template(locale, key)
            for form in [template] if isinstance(template, str) else template.values():
                assert "(s)" not in form and "/e " not in form and "/i " not in form, key


@pytest.mark.parametrize("locale", ["en", "es", "it"])
def test_the_carcassonne_summary_counts_in_words(locale: str) -> None:
    said = summary(start().view(), locale)
    assert "(s)" not in said and "/i" not in said and "/e" not in said


def test_a_single_point_in_the_ranking_is_singular() -> None:
    import dataclasses

    seat_view = dataclasses.replace(start().view(), scores=(1, 0, 0))
    assert ranking_lines(seat_view, NAMES, "en")[0] == "1. alice (red) — 1 point"
    assert ranking_lines(seat_view, NAMES, "es")[0] == "1. alice (rojo) — 1 punto"


@pytest.mark.parametrize(
    ("locale", "one_more"),
    [
        ("en", "one more if any symbol of their faction is in it"),
        ("es", "uno más si en ella hay algún símbolo de su facción"),
        ("it", "uno in più se lì c'è almeno un simbolo della sua fazione"),
    ],
)
def test_the_rules_card_gives_one_extra_die_for_any_faction_symbol(
    locale: str, one_more: str
) -> None:
    card = t(locale, "carc.rules")
    assert one_more in card
    assert "por cada símbolo" not in card and "per ogni simbolo della" not in card


@pytest.mark.parametrize(
    ("locale", "nothing"),
    [
        ("en", "No meeple this turn"),
        ("es", "Ningún meeple este turno"),
        ("it", "Nessun meeple in questo turno"),
    ],
)
def test_deploying_nothing_reads_as_no_meeple_this_turn(locale: str, nothing: str) -> None:
    assert t(locale, "carc.deploy_nothing") == nothing


def test_a_drawing_is_confirmed_without_saying_drawing_twice() -> None:
    for locale in ("en", "es", "it"):
        drawing = t(locale, "carto.drawing", terrain="x", shape="2", turned="", flipped="", at="C4")
        for key in ("carto.accepted", "carto.changed", "carto.resolved"):
            said = t(locale, key, move=drawing).lower()
            word = {"en": "drawing", "es": "dibujo", "it": "disegno"}[locale]
            assert said.count(word) == 1, (locale, key, said)


@pytest.mark.parametrize("locale", ["en", "es", "it"])
def test_a_single_token_is_not_numbered_from_1_to_1(locale: str) -> None:
    with pytest.raises(DraftError) as error:
        parse_move_text("R5 1 2 t2", hand_size=8, token_count=1)
    said = t(locale, error.value.key, **error.value.params)
    assert "1 to 1" not in said and "del 1 al 1" not in said and "da 1 a 1" not in said


@pytest.mark.parametrize(
    ("locale", "key", "wrong", "right"),
    [
        ("es", "tournament.cancelled_too_few", "demasiados pocos", "muy pocos jugadores"),
        ("es", "cmd.tournament.signup_hours", "solo dentro", "automáticamente"),
        ("it", "cmd.tournament.signup_hours", "da solo", "automaticamente"),
        ("it", "cmd.cartographers.about", "conquista gli editti", "fai punti con gli editti"),
        ("it", "console.confirm", "/y,", "[Invio/s, n]"),
        ("es", "console.confirm", "/y,", "[Intro/s, n]"),
        ("it", "tournament.round", "turno", "round"),
        ("it", "tournament.standings_title", "turno", "round"),
        ("es", "carto.pick_shape", "Figura", "Forma"),
        ("es", "carto.type", "casilla", "espacio"),
        ("it", "carto.flip", "Capovolgi", "Ribalta"),
        ("it", "error.bad_timeout_policy", "resettare", "mossa di ripristino"),
        ("it", "draft.no_discard_token", "gettone scartare", "gettone di scarto"),
    ],
)
def test_a_wrong_word_is_gone(locale: str, key: str, wrong: str, right: str) -> None:
    params = {name: "1" for name in catalogue().placeholders(locale, key)}
    said = t(locale, key, **params | {"count": 3})
    assert wrong not in said
    assert right in said


def test_a_tournament_joined_by_one_player_says_one_player() -> None:
    assert "1 player so far" in t("en", "tournament.joined", name="Cup", count=1)
    assert "1 jugador hasta ahora" in t("es", "tournament.joined", name="Copa", count=1)
    assert "1 giocatore finora" in t("it", "tournament.joined", name="Coppa", count=1)
