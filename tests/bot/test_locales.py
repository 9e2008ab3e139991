"""Every catalogue speaks every language it has in full: the same message ids, the same
placeholders and plural forms as English; every command name Discord will see is valid
and every string fits Discord's limits in every language, rendered with long realistic
parameters."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from bot.community.server import LANGUAGES
from bot.games import GAMES, host_for
from bot.text import catalogue, t
from engine.i18n import Catalogue

ROOT = Path(__file__).resolve().parents[2]
PLAYER_LANGUAGES = ("en", "es", "it")
DISCORD_LOCALES = ("es-ES", "es-419", "it")
"""discord.Locale.spanish, latin_american_spanish and italian."""


def packages_with_catalogues() -> list[str]:
    """Every package with a ``locales/en.json`` (the bot's and the engines')."""
    found = []
    for english in sorted((ROOT / "bot").rglob("locales/en.json")) + sorted(
        (ROOT / "engine").rglob("locales/en.json")
    ):
        folder = english.parent.parent.relative_to(ROOT)
        found.append(".".join(folder.parts))
    return found


CATALOGUES = packages_with_catalogues()


def test_the_catalogues_are_found() -> None:
    assert "bot" in CATALOGUES
    assert len(CATALOGUES) >= 2


def test_the_bot_speaks_english_spanish_and_italian() -> None:
    assert set(PLAYER_LANGUAGES) <= set(catalogue().locales)
    assert set(LANGUAGES) == set(PLAYER_LANGUAGES)


@pytest.mark.parametrize("package", CATALOGUES)
def test_every_language_has_the_same_ids_placeholders_and_forms(package: str) -> None:
    messages = Catalogue.from_package(package)
    english = messages.ids("en")
    for locale in messages.locales:
        assert sorted(messages.ids(locale) ^ english) == [], (package, locale)
        for key in english:
            assert messages.placeholders(locale, key) == messages.placeholders("en", key), (
                package,
                locale,
                key,
            )
            ours, theirs = messages.template(locale, key), messages.template("en", key)
            assert isinstance(ours, str) == isinstance(theirs, str), (package, locale, key)
            if not isinstance(ours, str) and not isinstance(theirs, str):
                assert set(ours) == set(theirs), (package, locale, key)


def test_spanish_and_italian_are_translated_not_copied() -> None:
    """Apart from names, codes and formats, no sentence is left in English."""
    for locale in ("es", "it"):
        same = [
            key
            for key in catalogue().ids("en")
            if catalogue().template(locale, key) == catalogue().template("en", key)
            and any(word.isalpha() and len(word) > 3 for word in words(key))
        ]
        allowed = {k for k in same if k.startswith(("game.", "language.", "opt.", "cmd."))}
        assert sorted(set(same) - allowed - SAME_IN_EVERY_LANGUAGE) == [], locale


def words(key: str) -> list[str]:
    """The English words of a message, placeholders left out."""
    template = catalogue().template("en", key)
    texts = [template] if isinstance(template, str) else list(template.values())
    return re.sub(r"\{[^}]*\}", " ", " ".join(texts)).split()


SAME_IN_EVERY_LANGUAGE = {
    "modal.placeholder",
    "carc.thread",
    "carto.thread",
    "tournament.round",
    "web.round",
}
"""Move syntax, threads named after their game, and the tournament round Italian calls a
"round" (its "turno" is a game's turn)."""


def valid_command_name(name: str) -> bool:
    """``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lower case."""
    return (
        1 <= len(name) <= 32
        and name == name.lower()
        and all(
            c in "-_"
            or unicodedata.category(c)[0] in "LN"
            or "\u0900" <= c <= "\u097f"
            or "\u0e00" <= c <= "\u0e7f"
            for c in name
        )
    )


def command_name_keys() -> list[str]:
    """Message ids that are command, group or option names (the rest of ``cmd.`` are
    descriptions)."""
    english = catalogue().ids("en")
    return sorted(
        key
        for key in english
        if key.startswith("opt.")
        or (key.startswith("cmd.") and valid_command_name(t("en", key)) and " " not in t("en", key))
    )


def test_command_and_option_names_are_valid_in_every_language() -> None:
    keys = command_name_keys()
    assert len(keys) > 40
    for locale in PLAYER_LANGUAGES:
        for key in keys:
            assert valid_command_name(t(locale, key)), (locale, key, t(locale, key))


CHOICE_KEYS = (
    "limit.",
    "timeout.",
    "tournament.format.",
    "language.",
    "game.charioteer",
    "game.cartographers",
    "game.carcassonne",
)


def test_descriptions_and_choices_fit_in_100_characters() -> None:
    names = set(command_name_keys())
    for locale in PLAYER_LANGUAGES:
        for key in catalogue().ids("en"):
            if (key.startswith("cmd.") and key not in names) or key.startswith(CHOICE_KEYS):
                assert 1 <= len(t(locale, key)) <= 100, (locale, key)


# Realistic long parameters: 32-character display names, snowflake mentions, six-digit
# numbers, Discord timestamps, the engines' longest reasons.
NAME = "Maximiliano de la Fuente-Ortega_"
MENTION = "<@123456789012345678>"
LONG: dict[str, Any] = {
    "name": NAME,
    "host": MENTION,
    "member": MENTION,
    "by": MENTION,
    "people": " ".join([MENTION] * 6),
    "players": " ".join([MENTION] * 12),
    "deadline": "<t:1767225600:R>",
    "reason": "x" * 300,
    "permissions": "send_messages, embed_links, attach_files, create_public_threads, "
    "send_messages_in_threads, read_message_history",
    "channels": ", ".join(["<#123456789012345678>"] * 10),
    "role": "<@&123456789012345678>",
    "link": "https://discord.com/channels/123456789012345678/123456789012345678/123456789012345678",
    "move": "R5 1 2 3 crowd t1 w3 d7 d8",
    "games": "x" * 600,
    "results": ", ".join(["#6 of 6 (-12.5)"] * 5),
    "languages": "English, Español, Italiano",
    "file": "/home/someone/games/charioteer-races-of-the-week.db",
    "cells": ", ".join(["K11"] * 10),
    "edicts": "x" * 120,
    "title": "x" * 60,
    "tile": "X" * 60,
    "feature": "x" * 60,
    "kind": "x" * 20,
    "unit": NAME,
    "units": ", ".join([NAME] * 5),
    "sides": ", ".join([f"{NAME} with 3 dice"] * 5),
    "rolls": ", ".join([f"{NAME} 6 6 6"] * 5),
    "scores": ", ".join([f"{NAME} 123"] * 5),
    "supplies": ", ".join([f"{NAME} 4+1"] * 5),
    "choice": "x" * 90,
    "token": "x" * 40,
    "card": "x" * 40,
    "season": "x" * 12,
    "terrain": "x" * 12,
    "shape": "x" * 12,
    "turned": ", turned 270°",
    "flipped": ", flipped",
    "at": "(-12, -12)",
    "preview": "x" * 300,
    "items": "x" * 80,
    "you": "x" * 12,
    "colour": "x" * 12,
    "level": "strategic",
    "limit": "12 hours",
    "timeout": "the AI plays the turn",
    "ambush": "each player on a neighbour's map",
    "variant": "x" * 80,
    "game": "Carcassonne: Star Wars",
    "format": "heats and a final",
    "language": "Italiano",
    "given": "x" * 100,
    "word": "x" * 40,
    "symbol": "Y6",
    "first": "x" * 20,
    "second": "x" * 20,
    "edict": "x" * 20,
    "stars": "-123",
    "change": "+12.5",
    "mu": "25.0",
    "sigma": "8.3",
    "ordinal": "0.0",
    "average": "3.5",
    "seat": "F",
    "side": "B",
    "hours": "336",
    "person": MENTION,
    "voter": MENTION,
    "since": "<t:1767225600:R>",
    "until": "<t:1767225600:R>",
    "reserve": "36 h",
    "increment": "12 h",
}


def long_params(locale: str, key: str) -> dict[str, Any]:
    return {name: LONG.get(name, 123456) for name in catalogue().placeholders(locale, key)} | {
        "count": 123456
    }


BUTTONS = [
    "lobby.join",
    "lobby.leave",
    "lobby.start",
    "lobby.remove_ai",
    "board.choose",
    "board.status",
    "panel.type",
    "panel.clear",
    "panel.confirm",
    "panel.crowd_on",
    "panel.crowd_off",
    "carto.draw",
    "carto.rotate",
    "carto.flip",
    "carto.type",
    "carto.suggest",
    "carc.play",
    "carc.rotate",
    "carc.more_spots",
    "carc.place",
]
SELECT_OPTIONS = [
    "ai.random",
    "ai.greedy",
    "ai.strategic",
    "ai.random.about",
    "ai.greedy.about",
    "ai.strategic.about",
    "panel.card_option",
    "panel.symbol_option",
    "panel.reset_option",
    "panel.no_token",
    "panel.token_option",
    "panel.wild_option",
    "carc.spot",
    "carc.deploy_nothing",
    "carc.deploy_choice",
    "carc.attack_target",
    "carc.size.small",
    "carc.size.large",
]
SELECT_PLACEHOLDERS = [
    "lobby.add_ai",
    "panel.pick_cards",
    "panel.pick_symbol",
    "panel.pick_token",
    "panel.pick_discards",
    "carto.pick_terrain",
    "carto.pick_shape",
    "carto.pick_row",
    "carto.pick_col",
    "carc.pick_spot",
    "carc.pick_where",
    "carc.pick_size",
]
MODAL_TITLES = ["modal.title", "carto.modal.title"]
TEXT_INPUT_LABELS = ["modal.label", "carto.modal.label"]
TEXT_INPUT_PLACEHOLDERS = ["modal.placeholder", "carto.modal.placeholder"]
THREAD_NAMES = ["thread.name", "carto.thread", "carc.thread"]
KINDS: dict[str, tuple[list[str], int]] = {
    "button label": (BUTTONS, 80),
    "select option": (SELECT_OPTIONS, 100),
    "select placeholder": (SELECT_PLACEHOLDERS, 150),
    "modal title": (MODAL_TITLES, 45),
    "text input label": (TEXT_INPUT_LABELS, 45),
    "text input placeholder": (TEXT_INPUT_PLACEHOLDERS, 100),
    "thread name": (THREAD_NAMES, 100),
}
SHORT = {"card": "x" * 20, "token": "x" * 30, "choice": "x" * 50, "at": "(-12, -12)"}
"""Parameters of select options as the panels fill them (a card's or token's text, a
deploy target), at their longest."""


def longest(keys: list[str], locale: str, params: dict[str, Any]) -> tuple[int, str]:
    rendered = []
    for key in keys:
        values = long_params(locale, key) | {
            name: value
            for name, value in params.items()
            if name in catalogue().placeholders(locale, key)
        }
        rendered.append((len(t(locale, key, **values)), key))
    return max(rendered)


@pytest.mark.parametrize("locale", PLAYER_LANGUAGES)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_components_fit_discords_limits(kind: str, locale: str) -> None:
    keys, limit = KINDS[kind]
    assert set(keys) <= catalogue().ids("en")
    length, key = longest(keys, locale, SHORT | {"number": 25, "limit": 3})
    assert length <= limit, (kind, locale, key, length)


MESSAGE_LIMIT = 2000


@pytest.mark.parametrize("locale", PLAYER_LANGUAGES)
def test_every_message_fits_with_long_parameters(locale: str) -> None:
    """Each sentence alone, with the longest parameters it can get, fits a message; the
    composed posts (boards, panels) are checked by the fake Discord in the end-to-end
    games."""
    keys = sorted(catalogue().ids("en"))
    length, key = longest(keys, locale, {})
    assert length <= MESSAGE_LIMIT, (locale, key, length)


def test_help_with_every_game_fits_a_message() -> None:
    games = ("charioteer", "cartographers", "carcassonne")
    for locale in PLAYER_LANGUAGES:
        text = t(locale, "help.text", games="\n".join(t(locale, f"help.game.{g}") for g in games))
        assert len(text) <= MESSAGE_LIMIT, locale


@pytest.mark.parametrize("locale", PLAYER_LANGUAGES)
def test_help_gives_each_game_the_number_of_players_its_lobby_takes(locale: str) -> None:
    for game in GAMES:
        host = host_for(game)
        assert f"({host.min_seats}–{host.max_seats} " in t(locale, f"help.game.{game}"), game


SHOWN = {"label", "placeholder", "title", "description", "content", "name"}
"""Keyword arguments whose text a player reads (a component's, a modal's, a message's)."""
CONSTRUCTORS = {
    "Button",
    "Select",
    "SelectOption",
    "TextInput",
    "Modal",
    "send",
    "send_message",
    "edit",
    "edit_message",
    "create_thread",
}


def literal_texts(path: Path) -> list[str]:
    """String literals with letters passed as shown text to Discord's constructors."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name not in CONSTRUCTORS:
            continue
        for keyword in node.keywords:
            value = keyword.value
            if (
                keyword.arg in SHOWN
                and isinstance(value, (ast.Constant, ast.JoinedStr))
                and re.search(r"[A-Za-z]{2}", ast.unparse(value))
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(value)}")
    return found


def test_no_shown_text_is_written_in_the_code() -> None:
    """Labels, titles, placeholders and messages come from the catalogue, so every
    language gets them."""
    paths = [*(ROOT / "cogs").rglob("*.py"), *(ROOT / "bot").rglob("*.py")]
    found = [text for path in paths for text in literal_texts(path)]
    assert found == []


def test_engine_refusals_are_told_by_their_game_in_the_players_language() -> None:
    from bot.games.carcassonne import HOST as CARCASSONNE
    from bot.games.cartographers import HOST as CARTOGRAPHERS
    from bot.games.charioteer import HOST as CHARIOTEER
    from bot.service import RuleError
    from engine.cartographers.messages import text
    from engine.cartographers.placement import MalformedAction
    from engine.charioteer.render import rule_text
    from engine.core import EngineError

    race = EngineError(
        "card 3 twice", message="rule.card_twice", params={"number": 3, "card": "R5"}
    )
    for locale in PLAYER_LANGUAGES:
        said = RuleError(race, CHARIOTEER).reason_in(locale)
        assert said == rule_text(race, locale) != race.reason
    maps = MalformedAction("bad", message="bad_number", params={"field": "row"})
    for locale in PLAYER_LANGUAGES:
        said = RuleError(maps, CARTOGRAPHERS).reason_in(locale)
        assert said == text("bad_number", {"field": "row"}, locale) != maps.reason
    plain = EngineError("no message id")
    assert RuleError(plain, CARCASSONNE).reason_in("es") == RuleError(plain).reason_in("es")
    assert RuleError(plain).reason_in("it") == "no message id"
