"""``python -m bot local --locale es|it``: a whole game of each kind in Spanish and in
Italian, with no English word left in what the terminal prints (but for a short list of
proper nouns and typed keywords), and an unknown language refused in one line.

The host's own sentences (``bot/locales``) are checked in a language once that catalogue
has it; until then they are recognised by their English templates and set aside, so the
check still covers every word the engines write."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from bot.console import main, plain
from bot.text import catalogue as host_catalogue
from engine.carcassonne.messages import catalogue as carcassonne_catalogue
from engine.cartographers import Expedition
from engine.cartographers.messages import catalogue as cartographers_catalogue
from engine.cartographers.terminal import typed
from engine.charioteer.render.common import catalogue as charioteer_catalogue
from engine.i18n import Catalogue, Template
from tests.engine.cartographers.helpers import options_for

ALLOWED = frozenset(
    {
        # proper nouns
        "cartographers",
        "charioteer",
        # words of the typed forms: moves (``R5 1 2 crowd t1``, ``reset 3``), placements
        "crowd",
        "reset",
        "single",
    }
)
"""English words a Spanish or Italian terminal may still print."""

ROOT = Path(__file__).resolve().parents[2]
WORD = re.compile(r"[^\W\d_]{3,}")
FIELD = re.compile(r"\{[^{}]*\}")


def run_local(argv: list[str], lines: Iterable[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, io.StringIO("".join(line + "\n" for line in lines)), out, err)
    return code, out.getvalue(), err.getvalue()


def local(*args: str, stdin: Iterable[str]) -> subprocess.CompletedProcess[str]:
    """``python -m bot local`` in a process of its own, the lines typed on its input."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "local", *args],
        input="".join(line + "\n" for line in stdin),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        timeout=120,
        check=False,
    )


def forms(template: Template) -> list[str]:
    return [template] if isinstance(template, str) else list(template.values())


def words_of(catalogue: Catalogue, locale: str) -> set[str]:
    found: set[str] = set()
    for key in catalogue.ids(locale):
        for form in forms(catalogue.template(locale, key)):
            found.update(word.lower() for word in WORD.findall(FIELD.sub(" ", form)))
    return found


def english_left(output: str, locale: str) -> set[str]:
    """The English words of the output: words of an English template that no template of
    ``locale`` uses either."""
    catalogues = [
        charioteer_catalogue(),
        cartographers_catalogue(),
        carcassonne_catalogue(),
        host_catalogue(),
    ]
    host_speaks = locale in host_catalogue().locales
    if not host_speaks:
        output = without_host_english(output)
    english = set().union(*(words_of(c, "en") for c in catalogues))
    spoken = set().union(*(words_of(c, locale) for c in catalogues if locale in c.locales))
    suspects = english - spoken - ALLOWED
    return {word for word in WORD.findall(output) if word.lower() in suspects}


def without_host_english(output: str) -> str:
    """The output with every sentence of the host's English catalogue taken out."""
    patterns = []
    for key in host_catalogue().ids("en"):
        for form in forms(host_catalogue().template("en", key)):
            parts = FIELD.split(form)
            literal = "".join(parts)
            if len(WORD.findall(literal)) == 0:
                continue
            patterns.append((len(literal), ".*?".join(re.escape(plain(p)) for p in parts)))
    for _, pattern in sorted(patterns, reverse=True):
        output = re.sub(pattern, " ", output)
    return output


def cartographers_lines(seed: int, locale: str) -> list[str]:
    """A whole solo game typed in ``locale``, each drawing confirmed with Enter, found by
    playing it alongside."""
    expedition = Expedition.new(seats=1, seed=seed, side="A")
    commands = ("help", "legal", "map", "rules")
    lines = [cartographers_catalogue().text(locale, f"play.command.{c}") for c in commands]
    lines.append("lava 1 A1")
    while not expedition.is_over:
        choices = options_for(expedition.state, "1")
        drawing = choices[len(choices) // 3]
        lines.extend([typed(drawing, locale), ""])
        expedition.place("1", drawing.placement)
    return lines


@pytest.mark.parametrize(("locale", "spoken"), [("es", "Tu mano"), ("it", "La tua mano")])
def test_a_whole_race_speaks_the_language(locale: str, spoken: str) -> None:
    options = ["--locale", locale, "--seats", "2", "--laps", "1", "--level", "greedy"]
    typed_lines = ["help", "rules", "moves", "hand", "board", "R9 1 2", "G2 1"]
    code, out, err = run_local([*options, "--seed", "4"], [*typed_lines, *["reset 1", ""] * 200])
    assert code == 0 and err == ""
    assert spoken in out
    assert charioteer_catalogue().text(locale, "board.col.chariot") in out
    assert english_left(out, locale) == set()


@pytest.mark.parametrize(("locale", "spoken"), [("es", "Primavera"), ("it", "Inverno")])
def test_a_whole_solo_map_speaks_the_language(locale: str, spoken: str) -> None:
    lines = cartographers_lines(4, locale)
    options = ["--game", "cartographers", "--locale", locale, "--seed", "4"]
    code, out, err = run_local(options, lines)
    assert code == 0 and err == ""
    assert spoken in out
    assert (
        cartographers_catalogue().text(locale, "play.drawn", placement=lines[5], cells="")[:8]
        in out
    )
    assert english_left(out, locale) == set()


@pytest.mark.parametrize("game", ["charioteer", "cartographers"])
def test_the_check_finds_the_english_of_an_english_game(game: str) -> None:
    _, out, _ = run_local(["--game", game, "--seed", "4"], ["help", "quit", "y"])
    assert len(english_left(out, "es")) > 5
    assert english_left(out, "en") == set()


@pytest.mark.parametrize("game", ["charioteer", "cartographers"])
def test_an_unknown_locale_is_one_line_naming_the_languages(game: str) -> None:
    code, out, err = run_local(["--game", game, "--locale", "fr"], ["quit", "y"])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "'fr'" in err and "en, es, it" in err


@pytest.mark.parametrize(
    ("locale", "words", "yes"),
    [
        ("es", ["ayuda", "reglas", "movimientos", "mano", "tablero"], "sí"),
        ("it", ["aiuto", "regole", "mosse", "mano", "tabellone"], "sì"),
    ],
)
def test_a_race_is_typed_in_the_language_in_a_process(
    locale: str, words: list[str], yes: str
) -> None:
    """The commands said in Spanish or Italian are understood, "sí" and "sì" are yes, and
    the terminal answers in that language."""
    quit_word = host_catalogue().text(locale, "console.word.quit")
    done = local(
        "--locale",
        locale,
        "--seats",
        "2",
        "--seed",
        "5",
        stdin=[*words, "reset 1", yes, quit_word, yes],
    )
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout
    unknown = host_catalogue().text(locale, "draft.unknown_word", word="§").split("§")[0]
    assert unknown not in out
    assert host_catalogue().text(locale, "console.moves_header", count=2)[:12] in out
    assert charioteer_catalogue().text(locale, "board.col.chariot") in out
    you = host_catalogue().text(
        locale, "console.name_you", colour=charioteer_catalogue().text(locale, "chariot.red")
    )
    played = charioteer_catalogue().text(locale, "reveal.reset", name=you, cards="§")
    assert played.split("§")[0] in out
    assert host_catalogue().text(locale, "console.bye") in out
    assert english_left(out, locale) == set()


@pytest.mark.parametrize(
    ("locale", "words", "yes"),
    [
        ("es", ["ayuda", "reglas", "mapa"], "sí"),
        ("it", ["aiuto", "regole", "mappa"], "sì"),
    ],
)
def test_a_whole_carcassonne_game_speaks_the_language_in_a_process(
    locale: str, words: list[str], yes: str
) -> None:
    """Commands in the language, a placement taken back and one played with "sí"/"sì",
    then spot 1 and no meeple to the end: not an English word left."""
    back = host_catalogue().text(locale, "console.word.back")
    large = host_catalogue().text(locale, "console.word.large")
    typed = [*words, "9z", "1", back, "1", f"1 {large}", yes, *["1", "0", ""] * 40]
    options = ["--game", "carcassonne", "--seats", "3", "--level", "greedy", "--seed", "4"]
    done = local("--locale", locale, *options, stdin=typed)
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout
    taken_back = host_catalogue().text(locale, "console.carc.taken_back")
    assert taken_back in out
    ranking = host_catalogue().text(locale, "console.carc.ranking", place=1, name="§", count=99)
    assert re.search(re.escape(ranking.split("§")[1]).replace("99", r"\d+"), out)
    assert carcassonne_catalogue().text(locale, "size.large") in out
    assert english_left(out, locale) == set()


@pytest.mark.parametrize(("locale", "yes"), [("es", "sí"), ("it", "sì")])
def test_a_drawing_is_typed_and_confirmed_in_the_language_in_a_process(
    locale: str, yes: str
) -> None:
    """Against an AI map: the commands, a drawing in the language's words previewed and
    confirmed with "sí"/"sì", then stopped with the language's quit word."""
    expedition = Expedition.new(seats=2, seed=4)
    drawing = typed(options_for(expedition.state, "1")[0], locale)
    words = [cartographers_catalogue().text(locale, f"play.command.{c}") for c in ("help", "legal")]
    quit_word = host_catalogue().text(locale, "console.word.quit")
    options = ["--game", "cartographers", "--seats", "2", "--level", "random", "--seed", "4"]
    done = local("--locale", locale, *options, stdin=[*words, drawing, yes, quit_word, yes])
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout
    drawn = cartographers_catalogue().text(locale, "play.drawn", placement=drawing, cells="§")
    assert drawn.split("§")[0] in out
    assert host_catalogue().text(locale, "console.carto.confirm") in out
    assert host_catalogue().text(locale, "console.game.bye") in out
    assert english_left(out, locale) == set()


@pytest.mark.parametrize(
    ("locale", "reset", "crowd"), [("es", "reinicio", "plebe"), ("it", "ripristino", "folla")]
)
def test_a_move_is_typed_with_the_language_s_keywords(locale: str, reset: str, crowd: str) -> None:
    """``reinicio 1`` is a reset in Spanish (the English ``reset 1`` too), the crowd card
    is ``plebe``; the move is echoed, and the moves listed, in the language's words."""
    options = ["--locale", locale, "--seats", "2", "--seed", "5"]
    quit_word = host_catalogue().text(locale, "console.word.quit")
    code, out, _ = run_local(options, ["moves", f"{reset} 1", "", quit_word, "s"])
    assert code == 0
    unknown = host_catalogue().text(locale, "draft.unknown_word", word="§").split("§")[0]
    assert unknown not in out
    assert f"{reset} 1: " in out
    you = host_catalogue().text(
        locale, "console.name_you", colour=charioteer_catalogue().text(locale, "chariot.red")
    )
    assert (
        charioteer_catalogue().text(locale, "reveal.reset", name=you, cards="§").split("§")[0]
        in out
    )
    assert f" {crowd} " in out and " crowd " not in out
    code, out, _ = run_local(options, ["reset 1", "", quit_word, "s"])
    assert code == 0 and f"{reset} 1: " in out
