"""The command line: new, score, show, legal."""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image

from engine.cartographers import Expedition, MapSheet, Side, read_position
from engine.cartographers.cli import main
from engine.core import Rng
from tests.engine.cartographers.helpers import play_randomly, rows


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_new_prints_a_position_that_reads_back() -> None:
    code, text = run("new", "--seats", "2", "--side", "B", "--seed", "4")
    assert code == 0
    state = read_position(json.loads(text))
    assert state.seats == ("1", "2") and state.options.side.value == "B" and state.seed == 4


def test_score_gives_every_card_with_its_cells(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_text(json.dumps({"map": rows("T T T", "V V . M", "W F")}))
    code, text = run("score", str(path))
    assert code == 0
    scores = {item["card"]: item for item in json.loads(text)["scores"]}
    assert len(scores) == 16
    assert scores["sentinel_wood"] == {
        "card": "sentinel_wood",
        "points": 3,
        "cells": ["A1", "B1", "C1"],
    }
    assert scores["canal_lake"]["points"] == 2 and scores["canal_lake"]["cells"] == ["A3", "B3"]


def test_show_prints_the_map_and_writes_a_png(tmp_path: Path) -> None:
    _, position = run("new", "--seats", "3", "--seed", "1")
    path = tmp_path / "table.json"
    path.write_text(position)
    png = tmp_path / "map.png"
    code, text = run("show", str(path), "--seat", "2", "--png", str(png))
    assert code == 0 and "Map of player 2" in text and " A B C D E F G H I J K" in text
    assert Image.open(png).format == "PNG"


def test_legal_counts_the_placements_of_a_position(tmp_path: Path) -> None:
    _, position = run("new", "--seed", "1")
    document = json.loads(position)
    document.update(card="fishing_village", column=["fishing_village"], ruins=False)
    # side A as printed (the set-up may already have revealed an ambush)
    document["players"][0]["map"] = list(MapSheet.blank(Side.A).rows())
    path = tmp_path / "table.json"
    path.write_text(json.dumps(document))
    code, text = run("legal", str(path), "--terrain", "water", "--shape", "0")
    assert code == 0 and json.loads(text)["count"] == 144


def test_input_errors_exit_2_with_a_json_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    code, text = run("score", str(path))
    assert code == 2 and "error" in json.loads(text)
    path.write_text(json.dumps({"map": ["..."]}))
    code, text = run("show", str(path))
    assert code == 2 and "11 rows" in json.loads(text)["error"]


def test_score_and_show_read_a_game_record(tmp_path: Path) -> None:
    expedition = Expedition.new(seats=2, seed=6)
    play_randomly(expedition, Rng(6, 6))
    path = tmp_path / "record.json"
    path.write_text(json.dumps(expedition.record.to_json()))
    code, text = run("score", str(path))
    players = json.loads(text)["players"]
    assert code == 0 and [p["seat"] for p in players] == ["1", "2"]
    code, text = run("show", str(path), "--seat", "2")
    assert code == 0 and "Winner" in text and "Winter:" in text
