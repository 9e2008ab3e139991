"""``python -m bot local``: options refused in one line, databases that cannot be used,
one Ctrl-C, a kept race resuming, typed moves previewed and confirmed, the move list,
rules, quitting, and the end of a race."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import os
import pty
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import PLAYER_ID, main
from bot.games.charioteer.console import ranked_moves
from bot.service import TableService
from engine.carcassonne import PLACE, legal_placements
from engine.cartographers import Expedition
from engine.cartographers.terminal import typed
from engine.charioteer import Move, Race
from engine.charioteer.render import move_distance, preview_text
from engine.charioteer.render.common import say
from engine.charioteer.view import SeatView
from engine.core import Action
from tests.engine.cartographers.helpers import options_for

ROOT = Path(__file__).resolve().parents[2]


def local(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "bot", "local", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=environment,
        timeout=120,
        check=False,
    )


def run_local(argv: list[str], lines: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, io.StringIO("".join(line + "\n" for line in lines)), out, err)
    return code, out.getvalue(), err.getvalue()


def test_quit_with_one_seat_prints_one_clear_line_and_exits_2() -> None:
    done = local("--seats", "1", stdin="quit\n")
    assert done.returncode == 2
    assert done.stderr.strip() == "python -m bot local: A race has 2 to 6 seats."
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("options", "sentence"),
    [
        (["--seats", "7"], "A race has 2 to 6 seats."),
        (["--laps", "0"], "A race has 1 to 9 laps."),
        (["--laps", "10"], "A race has 1 to 9 laps."),
        (["--seed", "99999999999999999999999"], "A seed is a whole number from 0 to"),
        (["--seed", "-1"], "A seed is a whole number from 0 to"),
        (["--seats", "٣"], "is not a whole number"),
        (["--level", "godlike"], "invalid choice"),
    ],
)
def test_wrong_options_are_one_line_and_status_2(options: list[str], sentence: str) -> None:
    code, out, err = run_local(options, ["quit", "y"])
    assert code == 2 and out == ""
    assert sentence in err and len(err.strip().splitlines()) == 1


def test_a_file_that_is_not_a_database_is_refused_without_hanging(tmp_path: Path) -> None:
    junk = tmp_path / "notes.db"
    junk.write_text("shopping list\n" * 200, encoding="utf-8")
    done = local("--database", str(junk), stdin="quit\ny\n")
    assert done.returncode == 2
    assert "is not a database" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_folder_as_database_is_refused(tmp_path: Path) -> None:
    done = local("--database", str(tmp_path), stdin="quit\ny\n")
    assert done.returncode == 2
    assert "is a folder" in done.stderr and "Traceback" not in done.stderr


def read_until_prompt(process: subprocess.Popen[bytes], prompt: bytes) -> bytes:
    assert process.stdout is not None
    seen = b""
    while not seen.endswith(prompt):
        byte = process.stdout.read(1)
        assert byte, seen.decode("utf-8", "replace")
        seen += byte
    return seen


@pytest.mark.parametrize("game", ["charioteer", "cartographers"])
def test_one_ctrl_c_stops_cleanly(game: str, tmp_path: Path) -> None:
    database = tmp_path / "kept.db"
    extra = ["--database", str(database)] if game == "charioteer" else []
    command = [sys.executable, "-m", "bot", "local", "--game", game, "--seats", "2"]
    process = subprocess.Popen(
        [*command, "--level", "random", "--seed", "3", *extra],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    prompt = b"Your move: " if game == "charioteer" else b"Your drawing: "
    read_until_prompt(process, prompt)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err == b""
    assert b"Stopped" in out
    if game == "charioteer":
        again = local("--database", str(database), stdin="quit\ny\n")
        assert "Race #1 goes on from turn 1" in again.stdout
        assert again.returncode == 0


def test_a_kept_race_resumes_instead_of_starting_another(database: str) -> None:
    """In a SQLite file or a PostgreSQL database; a database's user (and password) is
    never printed."""
    options = ["--seats", "2", "--level", "random", "--seed", "5", "--database", database]
    code, out, _ = run_local(options, ["reset 1", "y", "quit", "y"])
    assert code == 0 and "kept in" in out
    assert "postgres@" not in out
    code, out, _ = run_local(options, ["quit", "y"])
    assert "Race #1 goes on from turn 2" in out
    assert "Seed" not in out


def test_a_typed_move_is_previewed_and_played_only_once_confirmed() -> None:
    options = ["--seats", "2", "--level", "random", "--seed", "5"]
    code, out, _ = run_local(options, ["reset 1", "n", "quit", "y"])
    assert code == 0
    assert "reset 1: reset" in out and "Not played" in out
    assert "Red (you) plays" not in out
    code, out, _ = run_local(options, ["reset 1", "", "quit", "y"])
    assert code == 0
    assert "Red (you) makes a reset move with" in out


def test_contradictions_are_refused_before_any_preview() -> None:
    options = ["--seats", "2", "--level", "random", "--seed", "5"]
    _, out, _ = run_local(options, ["G4 R5 3 6 7", "reset 1 crowd", "quit", "y"])
    assert "You named two symbols, G4 and R5" in out
    assert "A reset move cannot use the crowd card." in out
    assert "Play it?" not in out


def test_quit_asks_and_no_plays_on() -> None:
    options = ["--seats", "2", "--level", "random", "--seed", "5"]
    code, out, _ = run_local(options, ["quit", "n", "help", "quit", "y"])
    assert code == 0
    assert "Playing on." in out and "Race abandoned." in out
    assert "`quit`" not in out and "quit stops" in out


def test_rules_and_the_seed_are_shown() -> None:
    _, out, _ = run_local(["--seats", "2", "--seed", "8"], ["rules", "quit", "y"])
    assert "Seed 8 (--seed 8 deals this race again)." in out
    assert "Charioteer in one card" in out and "**" not in out


def test_one_name_per_chariot_everywhere() -> None:
    _, out, _ = run_local(["--seats", "3", "--level", "random", "--seed", "2"], ["reset 1", ""])
    assert "Red (you)" in out and "Blue AI" in out and "Green AI" in out
    assert "seat A" not in out and "AI 1" not in out and "\\(" not in out


def test_a_race_to_the_end_shows_the_final_board_and_the_podium() -> None:
    options = ["--seats", "2", "--laps", "1", "--level", "greedy", "--seed", "4"]
    code, out, _ = run_local(options, ["reset 1", ""] * 200)
    assert code == 0
    tail = out[out.rindex("Your move:") :]
    assert "# chariot" in tail
    assert "1. Blue AI" in tail and "2. Red (you)" in tail


def test_cartographers_seeds_are_random_unless_given_and_printed() -> None:
    seeds = set()
    for _ in range(3):
        _, out, _ = run_local(["--game", "cartographers"], ["quit", "y"])
        seeds.add(out.split("Seed ", 1)[1].split(".", 1)[0])
    assert len(seeds) > 1
    _, out, _ = run_local(["--game", "cartographers", "--seed", "12"], ["quit", "y"])
    assert "Seed 12 (--seed 12 deals this game again)." in out


def test_moves_are_ranked_by_real_distance_and_none_spends_a_token_for_nothing() -> None:
    race = Race.new(seats=3, seed=3)
    view = race.view("A")
    ranked = ranked_moves(view)
    distances = [move_distance(view, view.analyse(move)) for move in ranked]
    assert distances == sorted(distances, reverse=True)
    for move in ranked:
        play = view.analyse(move)
        if move.token is not None and view.tokens[move.token].kind.value == "whip":
            assert view.turn != 1
        if play.shield and move.token is not None:
            assert view.tokens[move.token].kind.value != "recovery" or view.me.damage


@pytest.mark.parametrize(
    ("game", "question", "bye"),
    [
        ("charioteer", "Stop and abandon this race?", "Race abandoned."),
        ("cartographers", "Stop and abandon this game?", "Game abandoned."),
        ("carcassonne", "Stop and abandon this game?", "Game abandoned."),
    ],
)
def test_the_end_of_input_asks_before_stopping(game: str, question: str, bye: str) -> None:
    """Ctrl-D (or the end of a script) is a quit: it asks, and stops when nothing answers."""
    code, out, _ = run_local(["--game", game, "--seed", "5"], ["help"])
    assert code == 0
    assert out.index("help") < out.index(question) < out.index(bye)


def test_ctrl_d_on_a_terminal_asks_and_no_plays_on() -> None:
    """On a real terminal Ctrl-D is not the end: the question is asked, and "n" goes on."""
    main_end, side = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "local", "--seats", "2", "--seed", "5"],
        stdin=side,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    os.close(side)
    try:
        read_until_prompt(process, b"Your move: ")
        os.write(main_end, b"\x04")
        read_until_prompt(process, b"[y/n] ")
        os.write(main_end, b"n\n")
        seen = read_until_prompt(process, b"Your move: ")
        assert b"Playing on." in seen
        os.write(main_end, b"quit\ny\n")
        out, err = process.communicate(timeout=60)
    finally:
        os.close(main_end)
    assert process.returncode == 0 and err == b""
    assert b"Race abandoned." in out


def test_a_token_is_named_as_players_see_it() -> None:
    options = ["--seats", "3", "--level", "random", "--seed", "4"]
    _, out, _ = run_local(options, ["moves", "G6 5 crowd t2", "n", "quit", "y"])
    assert "token 2 (+5)" in out
    assert ":+" not in out and "green:" not in out
    _, out, _ = run_local([*options, "--locale", "it"], ["mosse", "esci", "s"])
    assert "gettone 2 (+5)" in out
    assert "(whip)" not in out and "(shield)" not in out and "(recovery)" not in out


def test_the_move_list_has_no_move_that_only_adds_what_does_nothing() -> None:
    """No listed move is another legal move plus a card, the crowd card or a token that
    changes nothing it does (a whip on turn 1, a token for no distance)."""
    for seed in (3, 4, 9):
        race = Race.new(seats=3, seed=seed)
        view = race.view("A")
        legal = set(view.legal_moves(discards=False))
        for move in ranked_moves(view):
            if move.symbol is None:
                continue  # a reset's cards are the ones it clears, not an extra
            for smaller in lighter_moves(move):
                if smaller in legal:
                    assert effects(view, smaller) != effects(view, move), (move, smaller)


def lighter_moves(move: Move) -> list[Move]:
    """The move less one of its cards, its crowd card or its token."""
    lighter = [
        dataclasses.replace(move, cards=tuple(c for c in move.cards if c != card))
        for card in move.cards
        if len(move.cards) > 1 and card != move.wild
    ]
    if move.crowd:
        lighter.append(dataclasses.replace(move, crowd=False))
    if move.token is not None:
        lighter.append(dataclasses.replace(move, token=None, wild=None))
    return lighter


def effects(view: SeatView, move: Move) -> str:
    """What a move does, as its preview says it, less what has no effect (a whip on turn 1)."""
    idle = say("en", "preview.separator") + say("en", "preview.whip_turn1")
    return preview_text(view, move).replace(idle, "")


def test_the_hand_is_coloured_on_a_terminal_and_keyed_in_plain_text() -> None:
    options = ["--seats", "2", "--level", "random", "--seed", "5"]
    _, out, _ = run_local(options, ["hand", "quit", "y"])
    assert "\x1b[" not in out
    assert "G green" in out and "R red" in out and "Y yellow" in out and "B black" in out
    terminal = Screen()
    main(options, io.StringIO("hand\nquit\ny\n"), terminal, io.StringIO())
    shown = terminal.getvalue()
    assert "\x1b[31mR" in shown
    assert "\x1b[0m" in shown


class Screen(io.StringIO):
    """Output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


# --------------------------------------------------------------------------- Cartographers


def first_drawing(seed: int, seats: int = 1, locale: str = "en") -> str:
    """A legal first drawing of the seeded game, as typed."""
    expedition = Expedition.new(seats=seats, seed=seed)
    return typed(options_for(expedition.state, "1")[0], locale)


def test_a_drawing_is_previewed_and_drawn_only_once_confirmed() -> None:
    drawing = first_drawing(4)
    options = ["--game", "cartographers", "--seed", "4"]
    code, out, _ = run_local(options, [drawing, "n", drawing, "", "quit", "y"])
    assert code == 0
    assert out.count("Draw it? [Enter/y, n]") == 2
    assert "Not drawn; type another drawing." in out
    assert out.count(f"Drawn: {drawing} (cells ") == 1
    preview = out[out.index(f"{drawing}: cells ") : out.index("Draw it?")]
    assert " * " in preview or preview.count("*") >= 1
    assert "Greenbough" in preview or "stars" in preview


@pytest.mark.parametrize(
    ("options", "sentence"),
    [
        (["--game", "cartographers", "--level", "random"], "--seats 1 has none: you play alone"),
        (["--game", "cartographers", "--laps", "2"], "This game has no --laps option."),
        (["--side", "B"], "This game has no --side option."),
        (["--game", "cartographers", "--seats", "13"], "This game takes 1 to 12 players."),
    ],
)
def test_an_option_the_game_does_not_use_is_refused(options: list[str], sentence: str) -> None:
    code, out, err = run_local(options, ["quit", "y"])
    assert code == 2 and out == ""
    assert sentence in err and len(err.strip().splitlines()) == 1


def test_cartographers_plays_against_ai_maps_and_keeps_the_game(database: str) -> None:
    options = ["--game", "cartographers", "--seats", "3", "--level", "random", "--seed", "4"]
    kept = [*options, "--database", database]
    code, out, _ = run_local(kept, [first_drawing(4, seats=3), "", "quit", "y"])
    assert code == 0
    assert "against 2 AI maps (Random)" in out
    assert "Map 2 AI drew " in out and "Map 3 AI drew " in out
    assert "kept in" in out
    code, out, _ = run_local(kept, ["quit", "y"])
    assert "Game #1 goes on from turn 2" in out


# --------------------------------------------------------------------------- Carcassonne

CARCASSONNE = ["--game", "carcassonne", "--seats", "3", "--level", "greedy", "--seed", "4"]
TILE_ID = re.compile(r"\bSW\d\d\b")
COORDINATES = re.compile(r"\(-?\d+, -?\d+\)")


def test_a_whole_carcassonne_game_in_a_process_fits_80_columns() -> None:
    """Spot 1, no meeple, confirmed, turn after turn to the end: the final map, the
    scoring and the ranking, with no tile id and no bare coordinates anywhere."""
    done = local(*CARCASSONNE, stdin="help\nrules\nmap\n" + "1\n0\n\n" * 40)
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout
    assert "Carcassonne: Star Wars" in out and "Seed 4 (--seed 4 deals this game again)." in out
    assert "Map: · space" in out and "in one card" in out
    ranking = [line for line in out.splitlines() if re.match(r"\d\. .* — \d+ points?$", line)]
    assert len(ranking) == 3 and any("Red (you)" in line for line in ranking)
    assert "The stack is empty: what is still held scores." in out
    drawn = [line for line in out.splitlines() if line.startswith(" ") or DRAWN.search(line)]
    assert len(drawn) > 500
    assert all(len(line) <= 80 for line in drawn), max(drawn, key=len)
    assert not TILE_ID.search(out) and not COORDINATES.search(out)


DRAWN = re.compile("[▒─│┌┐└┘]")
"""What the map, the tiles and the lists are drawn with (prose is the terminal's to wrap)."""


def test_a_placement_is_previewed_and_taken_back_until_the_turn_is_confirmed() -> None:
    lines = ["2b", "back", "1", "1", "n", "1", "0", "", "quit", "y"]
    code, out, _ = run_local(CARCASSONNE, lines)
    assert code == 0
    assert "Spot 2, turned b:" in out and "Taken back: your tile is in your hand again." in out
    assert "Where does a meeple go?" in out and "Not played; place your tile again." in out
    assert out.count("Red (you) placed a tile:") == 1
    assert "Red (you): no meeple this turn." in out
    assert out.index("Not played") < out.index("Red (you) placed a tile:")


@pytest.mark.parametrize(
    ("typed", "answer"),
    [
        ("99", "“99” is not a spot: type a spot from 1 to"),
        ("banana", "“banana” is not a spot"),
        ("1z", "“1z” is not a spot"),
        ("2c", "Turned c, the tile does not fit on spot 2: there it fits turned"),
    ],
)
def test_a_wrong_spot_is_one_line(typed: str, answer: str) -> None:
    code, out, err = run_local(CARCASSONNE, [typed, "quit", "y"])
    assert code == 0 and err == ""
    [said] = [line for line in out.splitlines() if answer in line]
    assert said.endswith(".") and "Traceback" not in out


@pytest.mark.parametrize("typed", ["7", "1 huge", "x"])
def test_a_wrong_meeple_is_one_line_and_asked_again(typed: str) -> None:
    code, out, _ = run_local(CARCASSONNE, ["1", typed, "0", "", "quit", "y"])
    assert code == 0
    assert out.count("is not a choice: type a number from 0 to") == 1
    assert "Red (you) placed a tile:" in out


def test_the_large_meeple_is_chosen_by_word_in_the_player_s_language() -> None:
    code, out, _ = run_local([*CARCASSONNE, "--locale", "es"], ["1", "1 grande", "s", "salir", "s"])
    assert code == 0
    assert "Rojo (tú) puso un meeple grande" in out


def test_a_kept_carcassonne_game_goes_on_where_it_stopped(database: str) -> None:
    kept = [*CARCASSONNE, "--database", database]
    code, out, _ = run_local(kept, ["1", "0", "", "quit", "y"])
    assert code == 0 and "kept in" in out
    code, out, _ = run_local(kept, ["quit", "y"])
    assert "Game #1 goes on from turn 4" in out
    assert "Your tile:" in out


async def test_a_game_stopped_between_placement_and_meeple_asks_for_the_meeple(
    database: str,
) -> None:
    """A tile placed and stored, its meeple not yet (the process stopped between the two):
    the game goes on at the meeple, and the placement cannot be taken back."""
    kept = [*CARCASSONNE, "--database", database]
    code, _, _ = await asyncio.to_thread(run_local, kept, ["quit", "y"])
    assert code == 0
    service = await TableService.create(database)
    try:
        _, seat_view = await service.view_for(1, PLAYER_ID)
        placement = legal_placements(seat_view.as_state())[0]
        await service.submit(1, PLAYER_ID, Action(PLACE, None, placement.to_json()), seat_view.turn)
    finally:
        await service.close()
    code, out, _ = await asyncio.to_thread(run_local, kept, ["back", "0", "", "quit", "y"])
    assert code == 0
    assert "Where does a meeple go?" in out
    assert "Your tile was placed before the game stopped: only its meeple is left." in out
    assert "Red (you): no meeple this turn." in out
    assert "Green AI placed a tile:" in out


@pytest.mark.parametrize("game", ["charioteer", "cartographers", "carcassonne"])
def test_the_same_seed_and_lines_play_the_same_game(game: str) -> None:
    lines = ["help", *["1", "0", ""] * 3, *["reset 1", ""] * 3, "quit", "y"]
    options = ["--game", game, "--seats", "3", "--level", "random", "--seed", "11"]
    first, second = run_local(options, lines), run_local(options, lines)
    assert first == second and first[0] == 0


@pytest.mark.parametrize("game", ["charioteer", "cartographers", "carcassonne"])
def test_a_reader_that_stops_reading_ends_the_game_quietly(game: str) -> None:
    """``python -m bot local … | head -1``: once the reader has gone, the game stops
    without a traceback (the moves played so far are on disk already)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "local", "--game", game, "--seats", "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert process.stdout is not None and process.stdin is not None
    assert process.stdout.readline()
    process.stdout.close()
    _, errors = process.communicate(b"help\nrules\nhelp\nquit\ny\n", timeout=120)
    assert b"Traceback" not in errors and b"BrokenPipe" not in errors, errors.decode()


TWO_SPOTS = ["--game", "carcassonne", "--seats", "2", "--level", "greedy", "--seed", "5"]
"""A game whose first tile fits on two spots, turned b or c on each, with one place for
a meeple after spot 1."""


def test_the_prompts_give_examples_that_exist() -> None:
    """Two spots: the example is no spot 3; one place for a meeple: no meeple 2."""
    code, out, _ = run_local(TWO_SPOTS, ["1", "0", "", "quit", "y"])
    assert code == 0
    assert "3b" not in out and "“2 large”" not in out
    assert "Your tile goes on (spot and turn, such as 2c): " in out
    assert "“1 large”" in out


def test_large_alone_puts_the_large_meeple_on_the_one_place_there_is() -> None:
    code, out, _ = run_local(TWO_SPOTS, ["1", "large", "", "quit", "y"])
    assert code == 0
    assert "Red (you) put a large meeple — " in out and "Red (you): no meeple" not in out


def test_large_alone_with_several_places_asks_which() -> None:
    """Seed 3's first tile, on spot 1, has three places for a meeple."""
    options = ["--game", "carcassonne", "--seats", "3", "--level", "greedy", "--seed", "3"]
    code, out, _ = run_local(options, ["1", "large", "0", "", "quit", "y"])
    assert code == 0
    [said] = [line for line in out.splitlines() if "large meeple" in line and "number" in line]
    assert "“1 large”" in said or "“3 large”" in said
    assert "Red (you): no meeple this turn." in out


def test_an_answer_that_is_neither_yes_nor_no_asks_again() -> None:
    code, out, _ = run_local(TWO_SPOTS, ["1", "0", "maybe", "", "quit", "y"])
    assert code == 0
    assert out.count("Answer y (or Enter) for yes, n for no.") == 1
    assert "Not played" not in out and out.count("Red (you) placed a tile:") == 1
    code, out, _ = run_local(TWO_SPOTS, ["1", "0", "back", "quit", "y"])
    assert "Not played; place your tile again." in out and "placed a tile" not in out


def test_one_range_of_laps_everywhere() -> None:
    """The engine's, the terminal's, the lobby's option and every language's words for it."""
    from bot.games.charioteer import MAX_LAPS
    from bot.text import catalogue
    from cogs.games.charioteer.front import CharioteerFront
    from engine.charioteer.state import MAX_LAPS as ENGINE_MAX_LAPS

    assert MAX_LAPS == ENGINE_MAX_LAPS == 9
    laps = CharioteerFront.new._params["laps"]
    assert (laps.min_value, laps.max_value) == (1, MAX_LAPS)
    for locale in catalogue().locales:
        assert "1–9" in catalogue().text(locale, "cmd.new.laps")
        assert "9" in catalogue().text(locale, "console.option.laps")
    code, out, _ = run_local(["--laps", "9", "--seats", "2", "--seed", "3"], ["quit", "y"])
    assert code == 0 and "9 laps" in out
