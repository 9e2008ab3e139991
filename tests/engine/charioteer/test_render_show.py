"""The ``show`` command: a position file rendered as the board, a hand and an image."""

import io
import json
from pathlib import Path

from engine.charioteer import Race
from engine.charioteer.cli import main
from engine.charioteer.render import board_text, hand_text

GOLDEN = Path(__file__).parent / "golden"


def midrace() -> Race:
    position = json.loads((GOLDEN / "midrace.position.json").read_text(encoding="utf-8"))
    return Race.from_position(position)


def test_show_prints_the_board_and_a_hand_and_writes_the_image(tmp_path: Path) -> None:
    out = io.StringIO()
    png = tmp_path / "board.png"
    position = str(GOLDEN / "midrace.position.json")
    assert main(["show", position, "--seat", "A", "--png", str(png)], out) == 0
    text = out.getvalue()
    assert text.startswith(board_text(midrace().view()))
    assert hand_text(midrace().view("A")) in text
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_show_reads_a_resolve_file_and_refuses_an_unknown_seat() -> None:
    position = str(GOLDEN / "turn.position.json")
    out = io.StringIO()
    assert main(["show", position], out) == 0
    out = io.StringIO()
    assert main(["show", position, "--seat", "Q"], out) == 2
    assert json.loads(out.getvalue()) == {"error": "seat Q: there is no seat Q in this race"}
