"""``python -m bot local`` at 80 columns: whole sessions of every game in English, Spanish
and Italian (help, rules, the game's own commands, refusals, moves to the end) print no
line wider than 80 columns and none of Discord's markup (bold, code, timestamps)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable

import pytest

from bot.console import columns, fit_line, fitted, main
from bot.text import catalogue as host_catalogue
from engine.cartographers import Expedition
from engine.cartographers.messages import catalogue as cartographers_catalogue
from engine.cartographers.terminal import typed
from engine.i18n import display_width
from tests.engine.cartographers.helpers import options_for

LOCALES = ("en", "es", "it")
MARKUP = re.compile(r"\*\*|`|<t:\d+(?::[a-zA-Z])?>|\|\||~~")
"""Discord's bold, code, timestamps, spoilers and strike-through."""


class Typed(io.StringIO):
    """Lines typed at a terminal, which shows each after its prompt, as a terminal does."""

    def __init__(self, lines: Iterable[str], screen: io.StringIO) -> None:
        super().__init__("".join(line + "\n" for line in lines))
        self.screen = screen

    def readline(self, size: int | None = -1) -> str:
        line = super().readline(-1 if size is None else size)
        self.screen.write(line)
        return line


def session(argv: list[str], lines: Iterable[str]) -> str:
    """What the screen shows: the game's output with the typed lines after its prompts."""
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, Typed(lines, out), out, err)
    assert code == 0 and err.getvalue() == ""
    return out.getvalue()


def too_wide(output: str) -> list[str]:
    return [line for line in output.splitlines() if display_width(line) > 80]


RACE_LINES = ["help", "rules", "moves", "hand", "board", "R9 1 2", "G2 1", "nonsense 7"]
"""The commands, a move refused by the rules, one unreadable, one that is no move."""


def cartographers_lines(locale: str) -> list[str]:
    expedition = Expedition.new(seats=2, seed=4, side="A")
    commands = ("help", "legal", "map", "rules")
    lines = [cartographers_catalogue().text(locale, f"play.command.{c}") for c in commands]
    lines += ["lava 1 A1", "forest 9 Z9"]
    while not expedition.is_over:
        choices = options_for(expedition.state, "1")
        drawing = choices[len(choices) // 2]
        lines += [typed(drawing, locale), ""]
        expedition.place("1", drawing.placement)
        if not expedition.is_over:
            other = options_for(expedition.state, "2")
            expedition.place("2", other[0].placement)
    return lines


@pytest.mark.parametrize("locale", LOCALES)
def test_a_race_fits_80_columns_without_markup(locale: str) -> None:
    options = ["--locale", locale, "--seats", "4", "--laps", "1", "--level", "greedy"]
    out = session([*options, "--seed", "4"], [*RACE_LINES, *["reset 1", ""] * 200])
    assert too_wide(out) == [] and not MARKUP.search(out), MARKUP.findall(out)[:5]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_cartographers_game_fits_80_columns_without_markup(locale: str) -> None:
    options = ["--game", "cartographers", "--locale", locale, "--seats", "2", "--seed", "4"]
    out = session([*options, "--level", "random"], cartographers_lines(locale))
    assert too_wide(out) == [] and not MARKUP.search(out), MARKUP.findall(out)[:5]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_carcassonne_game_fits_80_columns_without_markup(locale: str) -> None:
    words = host_catalogue()
    back, large = (words.text(locale, f"console.word.{w}") for w in ("back", "large"))
    lines = ["help", "rules", "map", "9z", "1", back, "1", f"1 {large}", "", *["1", "0", ""] * 40]
    options = ["--game", "carcassonne", "--locale", locale, "--seats", "3", "--seed", "4"]
    out = session([*options, "--level", "greedy"], lines)
    assert too_wide(out) == [] and not MARKUP.search(out), MARKUP.findall(out)[:5]


def test_a_long_line_breaks_at_spaces_and_goes_on_indented() -> None:
    line = "Blue AI plays " + "G4×2 Y2×2, " * 8 + "distance 15."
    pieces = fit_line(line)
    assert len(pieces) > 1 and all(display_width(piece) <= 80 for piece in pieces)
    assert pieces[0].startswith("Blue AI plays ") and all(p.startswith("  G") for p in pieces[1:])
    assert " ".join(piece.strip() for piece in pieces) == line


def test_a_list_entry_goes_on_under_its_text_and_keeps_its_columns() -> None:
    entry = "  1  route, north–east: you claim a trade route of 2 tiles, still open (worth 4)"
    assert display_width(entry) == 80
    assert fit_line(entry + " now") == [entry, " " * 5 + "now"]
    aligned = "  R3 1 5 t2              " + "R3 ×2 → 5, +5 token = 10 · red skill +1 " * 2
    first, second = fit_line(aligned.rstrip())
    assert first.startswith("  R3 1 5 t2              R3 ×2") and second.startswith("    ")


def test_what_cannot_break_stays_whole_and_a_question_keeps_its_last_space() -> None:
    assert fit_line("x" * 90) == ["x" * 90]
    question = "Stop and abandon this race? It is not kept (use --database to keep races). [y/n] "
    assert fitted(question, 80) == question
    assert fitted(question, 70).endswith(" to keep\n  races). [y/n] ")


def test_colours_and_discord_markup_take_no_columns() -> None:
    assert columns("\x1b[31mR5\x1b[0m") == 2
    assert fitted("**Turn 3** — type `reset 1` by <t:1767225600:R>") == (
        "Turn 3 — type reset 1 by 2026-01-01 00:00 UTC"
    )
