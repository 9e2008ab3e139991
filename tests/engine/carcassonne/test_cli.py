"""The command line: new, apply (refusals exit 2 with only an error), show, score,
simulate."""

from __future__ import annotations

import io
import json
from pathlib import Path

from engine.carcassonne import Table
from engine.carcassonne.cli import main
from engine.core import JSON


def run(*argv: str) -> tuple[int, JSON]:
    out = io.StringIO()
    status = main(list(argv), out)
    text = out.getvalue()
    try:
        return status, json.loads(text)
    except json.JSONDecodeError:
        return status, text


def new_position(tmp_path: Path) -> dict[str, JSON]:
    status, position = run("new", "--seats", "3", "--seed", "5")
    assert status == 0 and isinstance(position, dict)
    return position


def test_new_apply_and_the_next_position(tmp_path: Path) -> None:
    position = new_position(tmp_path)
    assert position["seats"] == ["red", "green", "black"] and position["phase"] == "place"
    placement = Table.from_position(position).legal_placements()[0]
    path = tmp_path / "turn.json"
    path.write_text(
        json.dumps({**position, "action": {"kind": "place", "data": placement.to_json()}})
    )
    status, out = run("apply", str(path))
    assert status == 0 and isinstance(out, dict)
    assert out["position"]["phase"] == "deploy"
    assert [event["type"] for event in out["events"]] == ["tile_placed"]
    assert out["result"] is None


def test_a_refused_action_exits_2_with_only_an_error(tmp_path: Path) -> None:
    position = new_position(tmp_path)
    path = tmp_path / "bad.json"
    action = {"kind": "place", "seat": "red", "data": {"x": 9, "y": 9, "rotation": 0}}
    path.write_text(json.dumps({**position, "action": action}))
    status, out = run("apply", str(path))
    assert status == 2 and isinstance(out, dict) and set(out) == {"error", "message", "params"}
    assert out["message"] == "rule.does_not_fit" and "does not fit on 9,9" in out["error"]
    path.write_text("{not json")
    status, out = run("apply", str(path))
    assert status == 2 and "not JSON" in out["error"]  # type: ignore[index]
    status, out = run("apply", str(tmp_path / "missing.json"))
    assert status == 2 and "cannot read" in out["error"]  # type: ignore[index]
    path.write_text(json.dumps({**position, "action": {"kind": "deploy", "seat": "green"}}))
    status, out = run("apply", str(path))
    assert status == 2 and "red's turn" in out["error"]  # type: ignore[index]


def test_show_prints_the_summary_and_writes_the_picture(tmp_path: Path) -> None:
    position = new_position(tmp_path)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(position))
    png = tmp_path / "board.png"
    status, text = run("show", str(path), "--png", str(png))
    assert status == 0 and "tile set: reconstruction" in str(text)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_score_lists_what_held_features_would_give(tmp_path: Path) -> None:
    position = new_position(tmp_path)
    position["meeples"] = [{"seat": "green", "size": "large", "x": 0, "y": 0, "feature": 1}]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(position))
    status, out = run("score", str(path))
    assert status == 0 and isinstance(out, dict)
    assert out["features"] == [
        {
            "x": 0,
            "y": 0,
            "feature": 1,
            "kind": "route",
            "unit": "green",
            "points": 1,
            "tiles": 1,
            "symbols": 0,
        }
    ]
    assert out["scores_if_ended_now"] == {"red": 0, "green": 1, "black": 0}


def test_simulate_plays_and_refuses_unknown_levels() -> None:
    status, out = run("simulate", "--seats", "random,random", "--games", "2", "--seed", "3")
    assert status == 0 and isinstance(out, dict) and out["games"] == 2
    assert sum(entry["wins"] for entry in out["entries"]) == 2
    status, out = run("simulate", "--seats", "random,clever", "--games", "2")
    assert status == 2 and "unknown AI level" in out["error"]  # type: ignore[index]


def test_show_speaks_the_locale_asked_and_refuses_an_unknown_one(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(new_position(tmp_path)))
    status, text = run("show", str(path), "--locale", "it")
    assert status == 0 and "set di tessere: reconstruction" in str(text)
    assert "Turno 1: rosso" in str(text) and "tiles left" not in str(text)
    status, out = run("show", str(path), "--locale", "de")
    assert status == 2 and isinstance(out, dict)
    assert "'de'" in str(out["error"]) and "en, es, it" in str(out["error"])


def test_a_refusal_can_be_told_in_another_language(tmp_path: Path) -> None:
    from engine.carcassonne.messages import reason
    from engine.core import IllegalAction

    table = Table.from_position(new_position(tmp_path))
    try:
        table.place("green", {"x": 1, "y": 0, "rotation": 0})
    except IllegalAction as error:
        assert error.reason == "it is red's turn"
        assert reason(error, "es") == "es el turno de rojo"
    else:
        raise AssertionError("a seat out of turn was not refused")
