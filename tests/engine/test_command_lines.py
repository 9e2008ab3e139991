"""Every engine command line refuses bad input with one ``{"error": …}`` line and exit
status 2 — never a traceback — and Hypothesis fuzzes each one over raw bytes and over
structurally valid JSON (mutated real positions). ``CIRCUS_LONG=1`` runs many more cases."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cartographers.cli import main as cartographers_main
from engine.charioteer.cli import main as charioteer_main
from engine.jsonio import MAX_DEPTH, parse_json

LONG = os.environ.get("CIRCUS_LONG") == "1"
EXAMPLES = 3000 if LONG else 40

Main = Callable[[Sequence[str] | None, Any], int]


def run(main: Main, argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, out)
    return code, out.getvalue()


def one_object(text: str) -> dict[str, Any]:
    lines = text.strip("\n")
    document = json.loads(lines)
    assert isinstance(document, dict)
    return document


def refused(main: Main, argv: list[str]) -> str:
    code, text = run(main, argv)
    assert code == 2, text
    assert text.count("\n") == 1, text
    document = json.loads(text)
    assert list(document) == ["error"]
    reason = document["error"]
    assert isinstance(reason, str)
    return reason


@pytest.fixture()
def race_file(tmp_path: Path) -> Path:
    code, text = run(charioteer_main, ["new", "--seats", "3", "--seed", "5", "--compact"])
    assert code == 0
    path = tmp_path / "race.json"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture()
def map_file(tmp_path: Path) -> Path:
    code, text = run(cartographers_main, ["new", "--seats", "2", "--seed", "4", "--compact"])
    assert code == 0
    path = tmp_path / "table.json"
    path.write_text(text, encoding="utf-8")
    return path


def edited(path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    out = path.with_name("edited.json")
    out.write_text(json.dumps(document), encoding="utf-8")
    return out


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("main", [charioteer_main, cartographers_main])
def test_a_png_into_a_missing_folder_or_onto_a_folder_is_refused(
    main: Main, race_file: Path, map_file: Path, tmp_path: Path
) -> None:
    source = race_file if main is charioteer_main else map_file
    missing = tmp_path / "no" / "such" / "board.png"
    assert "cannot write" in refused(main, ["show", str(source), "--png", str(missing)])
    assert "cannot write" in refused(main, ["show", str(source), "--png", str(tmp_path)])


@pytest.mark.parametrize("main", [charioteer_main, cartographers_main])
@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"turn": ' + b"9" * 5000 + b"}", "too large"),
        (b'{"turn": ' + b"9" * 40 + b"}", "too large"),
        (b"[" * 100_000 + b"]" * 100_000, "nests deeper"),
        (b"[" * (MAX_DEPTH + 2) + b"]" * (MAX_DEPTH + 2), "nests deeper"),
        (b'{"turn": NaN}', "NaN"),
        (b'{"seat": "\\ud800"}', "not valid Unicode"),
        (b"", "not JSON"),
    ],
)
def test_unreadable_files_are_refused_with_the_reason(
    main: Main, content: bytes, reason: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    command = "resolve" if main is charioteer_main else "score"
    assert reason in refused(main, [command, str(path)])


def test_a_lone_surrogate_in_a_seat_name_is_refused_not_echoed(race_file: Path) -> None:
    path = race_file.with_name("surrogate.json")
    text = race_file.read_text(encoding="utf-8").replace('"seat": "A"', '"seat": "\\udc80"', 1)
    path.write_text(text, encoding="utf-8")
    assert "not valid Unicode" in refused(charioteer_main, ["show", str(path)])


@pytest.mark.parametrize("move", [None, [], 3, "R5", True])
def test_a_move_that_is_not_an_object_is_refused(race_file: Path, move: Any) -> None:
    path = edited(race_file, lambda d: d.update(moves={"A": move}))
    reason = refused(charioteer_main, ["resolve", str(path)])
    assert "A" in reason


@pytest.mark.parametrize("symbol", ["R²", "G٥", "R５", "B-1"])
def test_a_symbol_with_a_non_ascii_digit_is_an_error_not_a_number(
    race_file: Path, symbol: str
) -> None:
    path = edited(race_file, lambda d: d.update(moves={"A": {"symbol": symbol, "cards": [0, 1]}}))
    refused(charioteer_main, ["resolve", str(path)])


@pytest.mark.parametrize("cards", ["R5", 3, {"a": 1}, [None]])
def test_a_last_move_discard_of_the_wrong_type_is_refused(race_file: Path, cards: Any) -> None:
    def change(document: dict[str, Any]) -> None:
        document["chariots"][0]["last_move"] = {
            "symbol": "R5",
            "cards": ["R5", "R5"],
            "discard": {"cards": cards},
        }

    refused(charioteer_main, ["show", str(edited(race_file, change))])


def test_a_seat_the_board_cannot_paint_is_refused_by_show(race_file: Path) -> None:
    def rename(document: dict[str, Any]) -> None:
        document["chariots"][1]["seat"] = "Z"
        document.pop("first_seat", None)

    assert "Z" in refused(charioteer_main, ["show", str(edited(race_file, rename))])


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.update(chariots=[]), "2 to 6 chariots"),
        (lambda d: d.update(turn=10**300), "too large"),
        (lambda d: d.update(turn=5000), "beyond any race"),
        (lambda d: d.update(deck=["G2"] * 1_000_000), "cards"),
        (lambda d: d["chariots"][0].update(position=500, lane=0), "past the finish"),
        (lambda d: d["chariots"][0].update(position=190, lane=0), "no result"),
        (lambda d: d["chariots"][0].update(damage=-1), "damage"),
        (lambda d: d.update(seed=-1), "seed"),
    ],
)
def test_positions_that_cannot_happen_are_refused_with_the_real_reason(
    race_file: Path, change: Callable[[dict[str, Any]], None], reason: str
) -> None:
    assert reason in refused(charioteer_main, ["show", str(edited(race_file, change))])


def test_negative_coins_on_a_map_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_text(json.dumps({"map": [". " * 11] * 11, "coins": -1}), encoding="utf-8")
    assert "coins" in refused(cartographers_main, ["score", str(path)])


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        (["--shape", "abc", "--terrain", "farm"], "not a whole number"),
        (["--terrain", "lava"], "not a terrain"),
        (["--seat", "9", "--terrain", "farm"], "no seat 9"),
        (["--terrain", "farm", "--shape", "7"], "not from 0"),
        (["--terrain", "farm", "--shape", "٥"], "not a whole number"),
    ],
)
def test_legal_refuses_options_that_name_nothing(
    map_file: Path, options: list[str], reason: str
) -> None:
    assert reason in refused(cartographers_main, ["legal", str(map_file), *options])


@pytest.mark.parametrize("main", [charioteer_main, cartographers_main])
@pytest.mark.parametrize("seed", ["-1", "99999999999999999999999", "x", "٣"])
def test_new_refuses_a_seed_that_show_would_refuse(main: Main, seed: str) -> None:
    assert "seed" in refused(main, ["new", "--seed", seed])


@pytest.mark.parametrize("main", [charioteer_main, cartographers_main])
def test_the_largest_seed_is_accepted_everywhere(main: Main, tmp_path: Path) -> None:
    code, text = run(main, ["new", "--seed", str(2**63 - 1), "--compact"])
    assert code == 0
    path = tmp_path / "big.json"
    path.write_text(text, encoding="utf-8")
    code, _ = run(main, ["show", str(path)])
    assert code == 0


def test_an_unknown_option_is_a_json_refusal_not_usage_on_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert "--bogus" in refused(charioteer_main, ["new", "--bogus"])
    assert capsys.readouterr().err == ""


# --------------------------------------------------------------------------- fuzzing


def json_values() -> st.SearchStrategy[Any]:
    leaves = (
        st.none()
        | st.booleans()
        | st.integers(min_value=-(2**70), max_value=2**70)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=8)
        | st.sampled_from(["A", "B", "R5", "G2 Y4", "whip", "farm", "C4", "shield", "red:+3"])
    )
    return st.recursive(
        leaves,
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.text(max_size=6), children, max_size=4)
        ),
        max_leaves=12,
    )


def mutate(document: Any, path: list[int], value: Any) -> Any:
    """Replace one value deep inside ``document`` (chosen by ``path``) with ``value``."""
    if not path or not isinstance(document, (dict, list)) or not document:
        return value
    keys = list(document) if isinstance(document, dict) else list(range(len(document)))
    key = keys[path[0] % len(keys)]
    copy: Any = dict(document) if isinstance(document, dict) else list(document)
    copy[key] = mutate(document[key], path[1:], value)
    return copy


def seed_documents() -> dict[str, Any]:
    race = json.loads(run(charioteer_main, ["new", "--seats", "3", "--compact"])[1])
    race_with_moves = {**race, "moves": {"A": {"symbol": "R5", "cards": [0, 1]}}}
    table = json.loads(run(cartographers_main, ["new", "--seats", "2", "--compact"])[1])
    return {"race": race_with_moves, "table": table}


SEEDS = seed_documents()
COMMANDS: list[tuple[str, Main, list[str], str]] = [
    ("charioteer resolve", charioteer_main, ["resolve"], "race"),
    ("charioteer show", charioteer_main, ["show", "--seat", "A"], "race"),
    ("cartographers score", cartographers_main, ["score"], "table"),
    ("cartographers show", cartographers_main, ["show"], "table"),
    ("cartographers legal", cartographers_main, ["legal", "--terrain", "forest"], "table"),
]


def check_answer(main: Main, argv: list[str], path: Path, capsys: Any) -> None:
    command, *options = argv
    code, text = run(main, [command, str(path), *options])
    assert code in (0, 2), text
    assert capsys.readouterr().err == ""
    if code == 2 or command != "show":
        one_object(text)


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.parametrize(("name", "main", "argv", "seed"), COMMANDS, ids=[c[0] for c in COMMANDS])
@FUZZ
@given(data=st.binary(max_size=200))
def test_fuzz_bytes(
    name: str,
    main: Main,
    argv: list[str],
    seed: str,
    data: bytes,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "fuzz.json"
    path.write_bytes(data)
    check_answer(main, argv, path, capsys)


@pytest.mark.parametrize(("name", "main", "argv", "seed"), COMMANDS, ids=[c[0] for c in COMMANDS])
@FUZZ
@given(path_choice=st.lists(st.integers(0, 50), max_size=4), value=json_values())
def test_fuzz_valid_json(
    name: str,
    main: Main,
    argv: list[str],
    seed: str,
    path_choice: list[int],
    value: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    document = mutate(SEEDS[seed], path_choice, value)
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    check_answer(main, argv, path, capsys)


def test_parse_json_reads_a_byte_order_mark() -> None:
    assert parse_json(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}


@pytest.mark.parametrize("main", [charioteer_main, cartographers_main])
def test_show_refuses_an_unknown_locale_naming_the_languages(main: Main, tmp_path: Path) -> None:
    code, text = run(main, ["new", "--seed", "5", "--compact"])
    assert code == 0
    path = tmp_path / "position.json"
    path.write_text(text, encoding="utf-8")
    reason = refused(main, ["show", str(path), "--locale", "fr"])
    assert "'fr'" in reason
    assert "en, es, it" in reason


@pytest.mark.parametrize(
    ("locale", "word"), [("es", "Emperador"), ("es-ES", "Emperador"), ("it", "Imperatore")]
)
def test_show_speaks_the_locale_asked(race_file: Path, locale: str, word: str) -> None:
    code, text = run(charioteer_main, ["show", str(race_file), "--locale", locale])
    assert code == 0
    assert word in text
    assert "Emperor" not in text


def test_cartographers_show_speaks_the_locale_asked(tmp_path: Path) -> None:
    code, text = run(cartographers_main, ["new", "--seed", "5", "--compact"])
    path = tmp_path / "table.json"
    path.write_text(text, encoding="utf-8")
    code, text = run(cartographers_main, ["show", str(path), "--locale", "es"])
    assert code == 0
    assert "Primavera · turno 1" in text
    assert "Spring" not in text
