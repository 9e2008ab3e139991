"""Every illegal move of spec §4 (and the discard and reset rules of §3.2 and §5) is
refused with an error that names the seat and the problem, and leaves the race exactly
as it was; the command line of spec §11 reports them with exit status 2."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.charioteer import Move, Race, Symbol, analyse, legal_moves
from engine.charioteer.cli import resolve_file
from engine.charioteer.components import SYMBOLS
from engine.charioteer.race import WITHDRAW
from engine.core import Action, EngineError, IllegalAction, MalformedAction
from tests.engine.charioteer.builders import BACK_STRAIGHT, chariot, move, position, reset

POSITIONS = Path(__file__).parent / "positions"
ROOT = Path(__file__).resolve().parents[3]

HAND = [
    "G2 R5x2",  # 0
    "R5 Y4",  # 1
    "R5 B2",  # 2
    "G6 Y0",  # 3: no red-5
    "whip",  # 4
    "R5 shield",  # 5
    "G4",  # 6
    "B1",  # 7
]
TOKENS = ["discard2", "red:+3", "green:+5", "red:wild", "red:discard3", "shield"]


def table() -> Race:
    """Seat A holds HAND and TOKENS; the crowd card (G2 B1) shows no red-5."""
    return Race.from_position(
        position(
            chariot("A", BACK_STRAIGHT, hand=HAND, tokens=TOKENS),
            chariot("B", 0, hand=["G2", "G2 Y0"]),
            crowd=["G2 B1", "Y0 B0", "Y0 B0"],
        )
    )


ILLEGAL = [
    pytest.param(
        move("R5", 0, 0), IllegalAction, "card 0 (G2 R5x2) is used twice", id="same card twice"
    ),
    pytest.param(
        move("R5", 0, 1, token=0, discard={"token": 0, "cards": []}),
        IllegalAction,
        "token 0 is used twice",
        id="move token is the discard token",
    ),
    pytest.param(move("R5", 0, 8), MalformedAction, "there is no card 8", id="card not in hand"),
    pytest.param(
        move("R5", 0, 1, token=9), MalformedAction, "there is no token 9", id="token not held"
    ),
    pytest.param(
        move("R5", 0, 1, crowd=True),
        IllegalAction,
        "the crowd card (G2 B1) does not show R5",
        id="crowd card lacks the symbol",
    ),
    pytest.param(
        move("R5", 0, 1, token=2),
        IllegalAction,
        "the green:+5 token needs a green move, not red",
        id="token colour mismatch",
    ),
    pytest.param(
        move("R5", 0, 1, token=0),
        IllegalAction,
        "a discard2 token cannot be the move token",
        id="discard token as move token",
    ),
    pytest.param(
        move("R5", 0, 3),
        IllegalAction,
        "card 3 (G6 Y0) does not show R5",
        id="card does not match",
    ),
    pytest.param(
        move("R5", 0, 4),
        IllegalAction,
        "at least 2 cards showing R5; this one has 1",
        id="fewer than two matching cards",
    ),
    pytest.param(
        move("R5", 0, 1, 2, 5),
        IllegalAction,
        "a move plays 1 to 3 cards from your hand",
        id="four hand cards",
    ),
    pytest.param(
        move("R5", 0, 1, 2, 4),
        IllegalAction,
        "a move plays 1 to 3 cards from your hand",
        id="three cards and a whip card",
    ),
    pytest.param(
        move("R5", 0, 3, wild=3),
        IllegalAction,
        "naming a wild card needs a wild token",
        id="wild without a wild token",
    ),
    pytest.param(
        move("R5", 0, 3, token=1, wild=3),
        IllegalAction,
        "naming a wild card needs a wild token",
        id="wild with a +3 token",
    ),
    pytest.param(
        move("R5", 0, 3, token=3),
        IllegalAction,
        "say which of your cards the wild token transforms",
        id="wild token without its card",
    ),
    pytest.param(
        move("R5", 0, 1, token=3, wild=3),
        IllegalAction,
        "the wild card (3) must be one of the cards you play",
        id="wild card not in the move",
    ),
    pytest.param(
        move("R5", 0, 1, discard={"token": 0, "cards": [3, 6, 7]}),
        IllegalAction,
        "a discard2 token discards at most 2 cards",
        id="discarding over the limit",
    ),
    pytest.param(
        move("R5", 0, 1, discard={"token": 0, "cards": [1]}),
        IllegalAction,
        "card 1 cannot be both played and discarded",
        id="card played and discarded",
    ),
    pytest.param(
        move("R5", 0, 1, discard={"token": 0, "cards": [3, 3]}),
        IllegalAction,
        "card 3 (G6 Y0) is used twice",
        id="same card discarded twice",
    ),
    pytest.param(
        move("R5", 0, 1, discard={"token": 1, "cards": [3]}),
        IllegalAction,
        "token 1 (red:+3) is not a discard token",
        id="discard with a +3 token",
    ),
    pytest.param(
        move("R5", 0, 1, discard={"cards": [3]}),
        IllegalAction,
        "discarding cards needs a discard token",
        id="discard cards without a discard token",
    ),
    pytest.param(
        reset(3, token=5), MalformedAction, "a reset move takes no token", id="reset with token"
    ),
    pytest.param(
        reset(3, crowd=True), MalformedAction, "a reset move takes no crowd", id="reset with crowd"
    ),
    pytest.param(
        reset(3, discard={"token": 4, "cards": [6]}),
        IllegalAction,
        "the red:discard3 token needs a red move",
        id="coloured discard token with a reset",
    ),
    pytest.param(move("R7", 0, 1), MalformedAction, "'R7' is not a symbol", id="no such symbol"),
    pytest.param(reset(), IllegalAction, "a move plays 1 to 3 cards", id="reset of no card"),
    pytest.param(
        reset(0, 1, 2, 3), IllegalAction, "a move plays 1 to 3 cards", id="reset of four cards"
    ),
]


@pytest.mark.parametrize(("data", "error", "reason"), ILLEGAL)
def test_an_illegal_move_is_refused_naming_seat_and_problem(
    data: dict[str, object], error: type[EngineError], reason: str
) -> None:
    """§4: each illegal move raises its own error type, whose text names the seat and the
    specific problem; the race (state and record) is unchanged."""
    race = table()
    before, actions = race.state, len(race.record.actions)
    with pytest.raises(error) as raised:
        race.commit("A", data)
    assert type(raised.value) is error
    assert raised.value.seat == "A"
    assert str(raised.value).startswith("seat A: ")
    assert reason in str(raised.value)
    assert race.state == before
    assert len(race.record.actions) == actions


def test_a_move_for_a_seat_not_in_the_race_is_refused() -> None:
    """A commit must come from a seat of the race."""
    race = table()
    before = race.state
    with pytest.raises(MalformedAction, match="there is no seat Z in this race"):
        race.commit("Z", move("R5", 0, 1))
    assert race.state == before


def test_a_refused_change_keeps_the_move_already_committed() -> None:
    """§3.2: a seat may change its commit; an illegal change is refused and the earlier
    move stands."""
    race = table()
    race.commit("A", move("R5", 0, 1))
    committed = race.state
    with pytest.raises(IllegalAction):
        race.commit("A", move("R5", 0, 3))
    assert race.state == committed
    assert race.view("A").my_move == Move((0, 1), Symbol.parse("R5"))


def test_a_seat_may_change_its_move_until_the_last_seat_commits() -> None:
    """§3.2: committing again replaces the earlier choice; the turn waits for B."""
    race = table()
    race.commit("A", move("R5", 0, 1))
    (event,) = race.commit("A", move("R5", 0, 2, 5))
    expected = {"type": "committed", "seat": "A", "changed": True, "waiting_for": ["B"]}
    assert event.to_json() == expected
    assert race.view("A").my_move == Move((0, 2, 5), Symbol.parse("R5"))
    assert race.turn == 2


def test_a_withdrawn_move_is_gone_and_the_seat_owes_a_move_again() -> None:
    """A seat's unrevealed move can be taken back (the host does so when the seat changes
    hands): the seat owes a move again, nobody learns what the move was, and the turn
    resolves only once every seat has committed again."""
    race = table()
    turn = race.turn
    race.commit("A", move("R5", 0, 1))
    (event,) = race.game.act(Action(WITHDRAW, "A"))
    assert event.to_json() == {"type": "withdrawn", "seat": "A", "waiting_for": ["A", "B"]}
    assert race.view("A").my_move is None and race.waiting_for == ("A", "B")
    race.commit("B", reset(0))
    assert race.turn == turn
    race.commit("A", move("R5", 0, 2))
    assert race.turn == turn + 1


def test_a_withdrawal_without_a_move_is_refused_and_changes_nothing() -> None:
    race = table()
    before = race.state
    with pytest.raises(IllegalAction, match="no move to withdraw"):
        race.game.act(Action(WITHDRAW, "A"))
    with pytest.raises(MalformedAction, match="no seat Z"):
        race.game.act(Action(WITHDRAW, "Z"))
    assert race.state == before


def test_the_engine_lists_exactly_the_moves_it_accepts() -> None:
    """§4: ``legal_moves`` (discard tokens aside) is every move ``analyse`` accepts, found
    by trying every symbol, card set, crowd, token and wild card; identical cards and
    tokens count as one choice."""
    state = table().state
    hand, tokens = state.chariot("A").hand, state.chariot("A").tokens

    def face(move: Move) -> tuple[object, ...]:
        return (
            move.symbol,
            sorted(str(hand[index]) for index in move.cards),
            move.crowd,
            None if move.token is None else tokens[move.token].label,
            None if move.wild is None else str(hand[move.wild]),
        )

    accepted = set()
    sets = [c for n in (1, 2, 3) for c in itertools.combinations(range(len(hand)), n)]
    for cards in sets:
        candidates = [Move.reset(cards)]
        for symbol in SYMBOLS:
            for crowd in (False, True):
                for token in (None, *range(len(tokens))):
                    for wild in (None, *cards):
                        candidates.append(Move(cards, symbol, crowd, token, wild))
        for candidate in candidates:
            try:
                analyse(state, "A", candidate)
            except EngineError:
                continue
            accepted.add(repr(face(candidate)))
    listed = {repr(face(move)) for move in legal_moves(state, "A", discards=False)}
    assert listed == accepted
    assert len(listed) > 100


def test_a_move_object_discarding_without_a_discard_token_is_refused() -> None:
    """§5 Discard tokens: discarding cards needs a discard token, also when the move is
    given as a :class:`Move` (``analyse`` refuses it; ``commit`` must too)."""
    race = table()
    with pytest.raises(IllegalAction, match="discarding cards needs a discard token"):
        race.commit("A", Move((0, 1), Symbol.parse("R5"), discard_cards=(3,)))


# --------------------------------------------------------------------------- command line (§11)


def run_cli(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.charioteer", "resolve", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_the_command_line_resolves_a_legal_turn() -> None:
    """§11: ``resolve FILE.json`` prints one object: position, events and result."""
    done = run_cli(POSITIONS / "cli-legal-turn.json")
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert set(printed) == {"position", "events", "result"}
    assert printed["result"] is None
    assert printed["position"]["turn"] == 6
    distance = {"symbols": 2, "number": 5, "token": 3, "skill": 0, "damage": 0, "distance": 10}
    assert {"type": "distance", "seat": "A", **distance} in printed["events"]


def test_the_command_line_reports_an_illegal_move_with_status_2() -> None:
    """§11: an illegal move exits 2 and prints only ``{"error": ...}`` naming the seat and
    the problem."""
    done = run_cli(POSITIONS / "cli-illegal-turn.json")
    assert done.returncode == 2
    printed = json.loads(done.stdout)
    assert list(printed) == ["error"]
    assert printed["error"].startswith("seat B: ")
    assert "card 1 (G6 Y0) does not show R5" in printed["error"]
    assert done.stdout.strip().count("\n") == 0


def test_resolve_reports_the_result_of_a_final_turn() -> None:
    """§11: ``result`` is ``{"winner", "ranking"}`` once the race has ended."""
    document = position(
        chariot("A", 150, hand=["G2", "G2"]),
        chariot("B", 186, hand=["G2", "G2"]),
        moves={"A": move("G2", 0, 1), "B": move("G2", 0, 1)},
    )
    resolved = resolve_file(document)
    assert resolved["result"] == {"winner": "B", "ranking": ["B", "A"]}
    assert resolved["position"]["result"] == {"winner": "B", "ranking": ["B", "A"], "turns": 2}


def test_the_command_line_reports_an_unreadable_file_with_status_2(tmp_path: Path) -> None:
    """§11: malformed input exits 2 with ``{"error": ...}``."""
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    done = run_cli(broken)
    assert done.returncode == 2
    assert list(json.loads(done.stdout)) == ["error"]
