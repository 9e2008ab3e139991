"""Text renderers: names, widths, the catalogue, the hidden-information rules and the
story's message limit."""

import json
import re
from pathlib import Path

import pytest

from engine.charioteer import Move, Race, Symbol
from engine.charioteer.components import LETTER_COLOURS, Colour
from engine.charioteer.events import (
    CardsDrawn,
    FanTokenReceived,
    MoveOrder,
    MoveRevealed,
    Passed,
    RaceEnded,
)
from engine.charioteer.moves import RevealedMove
from engine.charioteer.render import SEAT_COLOURS, board_text, hand_text, preview_text, reveal_text
from engine.charioteer.render.common import (
    CHARIOT_RGB,
    catalogue,
    chariot_mark,
    clean_name,
    display_names,
    display_width,
    join_list,
    truncate,
    utf16_length,
)
from engine.charioteer.state import SEAT_NAMES
from engine.core import Event, public_events

GOLDEN = Path(__file__).parent / "golden"


def midrace() -> Race:
    position = json.loads((GOLDEN / "midrace.position.json").read_text(encoding="utf-8"))
    return Race.from_position(position)


# --------------------------------------------------------------------------- names and widths


def test_every_seat_has_a_colour_with_a_name_a_mark_and_an_rgb_value() -> None:
    assert set(SEAT_COLOURS) == set(SEAT_NAMES)
    assert set(CHARIOT_RGB) == set(SEAT_COLOURS.values())
    for locale in catalogue().locales:
        marks = [catalogue().text(locale, f"chariot.{colour}.mark") for colour in CHARIOT_RGB]
        assert len(set(marks)) == len(marks), f"{locale}: two chariots share a mark"
        assert all(len(mark) == 1 for mark in marks)


def test_names_are_cleaned_of_backticks_and_line_breaks() -> None:
    assert clean_name("```evil\n```  name\t") == "'''evil ''' name"


def test_wide_characters_count_two_columns() -> None:
    assert display_width("abc") == 3
    assert display_width("龍😀") == 4
    assert display_width("e\u0301") == 1


def test_truncation_respects_columns_and_marks_the_cut() -> None:
    assert truncate("Bartholomew the Great", 12) == "Bartholomew…"
    assert truncate("😀😀😀😀😀😀😀", 12) == "😀😀😀😀😀…"
    assert display_width(truncate("😀😀😀😀😀😀😀", 12)) <= 12
    assert truncate("short", 12) == "short"


def test_missing_names_fall_back_to_colour_and_twins_are_told_apart() -> None:
    names = display_names(["A", "B", "C"], {"A": "Sam", "B": "Sam"}, "en")
    assert names == {"A": "Sam (Red)", "B": "Sam (Blue)", "C": "Green"}


def test_lists_read_naturally() -> None:
    assert join_list(["Red"], "en") == "Red"
    assert join_list(["Red", "Blue"], "en") == "Red and Blue"
    assert join_list(["Red", "Blue", "Green", "White"], "en") == "Red, Blue, Green and White"


# --------------------------------------------------------------------------- board


def test_the_board_is_a_code_block_within_the_limits() -> None:
    text = board_text(midrace().view())
    lines = text.splitlines()
    assert lines[0] == "```" and lines[-1] == "```"
    assert text.count("```") == 2
    assert utf16_length(text) <= 2000
    assert max(display_width(line) for line in lines) <= 60


def test_a_backtick_in_a_name_cannot_close_the_code_block() -> None:
    text = board_text(midrace().view(), names={"A": "```", "B": "x```y"})
    assert text.count("```") == 2


def test_every_chariot_appears_on_the_track_and_in_the_table() -> None:
    text = board_text(midrace().view())
    track, table = text.split("\n\n")
    for mark in "rbgypw":
        assert track.count(mark) >= 1
        assert sum(line.split()[1] == mark for line in table.splitlines()[1:-1]) == 1


def test_no_chariot_mark_reads_as_a_symbol_colour() -> None:
    """The blue chariot and the black symbol were both "B" on the text board."""
    marks = {chariot_mark(seat, "en") for seat in SEAT_NAMES}
    assert len(marks) == len(SEAT_NAMES)
    assert not marks & set(LETTER_COLOURS)


def test_outer_spaces_look_different_from_regular_ones() -> None:
    track = board_text(Race.new(seats=2).view()).split("\n\n")[0]
    assert len(re.findall(r"(?<!\w)o(?!\w)", track)) == 16  # the 16 outer spaces
    assert track.count("·") == 46  # the 46 regular spaces


# --------------------------------------------------------------------------- hand and preview


def test_hand_numbers_start_at_one_and_map_to_indices() -> None:
    view = midrace().view("A")
    lines = hand_text(view).splitlines()
    assert lines[1] == "1) R5×2 Y4"
    assert lines[8] == "8) G4 R1 Y2"
    assert "3) red wild" in lines


def test_a_spectator_has_no_hand() -> None:
    with pytest.raises(ValueError):
        hand_text(midrace().view())


def test_the_hand_shows_the_chosen_move() -> None:
    race = midrace()
    move = Move((0, 1), Symbol.parse("R5"))
    race.commit("A", move)
    view = race.view("A")
    assert hand_text(view).splitlines()[-1] == "Your move: " + preview_text(view, move)


def test_preview_of_an_illegal_move_gives_the_engines_reason() -> None:
    """The engine's refusal, as players read it: cards numbered from 1, as in the panel."""
    text = preview_text(midrace().view("A"), Move((6, 1), Symbol.parse("B0")))
    assert text == "Card 2 (R5 B2) doesn't show B0."


def test_preview_distance_matches_the_resolved_distance() -> None:
    race = midrace()
    move = Move((0, 1, 2), Symbol.parse("R5"), crowd=True, token=0)
    preview = preview_text(race.view("A"), move)
    for seat in race.seats:
        events = race.commit(seat, move if seat == "A" else Move.reset((0,)))
    moved = [event for event in events if isinstance(event, MoveRevealed) and event.seat == "A"]
    assert moved
    distance = race.view().chariot("A").last_move
    assert distance is not None and distance.distance == 13
    assert "= 13" in preview


# --------------------------------------------------------------------------- story


def test_private_events_never_reach_the_story() -> None:
    race = midrace()
    whip = RevealedMove(None, ())
    secret_card = next(iter(race.state.chariot("A").hand))
    events: list[Event] = [
        MoveRevealed("A", whip),
        CardsDrawn("A", (secret_card,)),
        FanTokenReceived("A", race.state.chariot("D").tokens[-2]),
    ]
    assert reveal_text(events, race.view()) == reveal_text(public_events(events), race.view())


def test_a_long_turn_is_cut_gracefully_and_keeps_the_race_end() -> None:
    race = midrace()
    seats = race.seats
    events: list[Event] = [MoveOrder(seats, False)]
    for seat in seats:
        for lap in range(3):
            for position in range(3, 65):
                rival = seats[(seats.index(seat) + 1 + position) % len(seats)]
                events.append(Passed(seat, rival, position + 62 * lap, 1, "lane"))
    events.append(RaceEnded("D", ("D", "A", "B", "C", "E", "F"), 23))
    names = {seat: f"Charioteer {seat}" * 2 for seat in seats}
    text = reveal_text(events, race.view(), names=names)
    assert utf16_length(text) <= 2000
    assert "…" in text
    assert text.endswith("Podium: 1. Charioteer DCha…, 2. Charioteer ACha…, 3. Charioteer BCha….")


def test_the_story_names_the_section_of_each_pass() -> None:
    race = midrace()
    events: list[Event] = [
        MoveOrder(("A",), False),
        Passed("A", "B", 73, 1, "lane"),
        Passed("A", "C", 96, 1, "lane"),
    ]
    text = reveal_text(events, race.view())
    assert "Red passes Blue on the first curve, then Green on the back straight." in text


# --------------------------------------------------------------------------- catalogue


def test_every_colour_and_section_has_a_name() -> None:
    messages = catalogue()
    for colour in Colour:
        assert messages.text("en", f"colour.{colour.value}")
        assert messages.text("en", f"colour.{colour.value}.letter")


def test_templates_of_other_locales_use_the_english_placeholders() -> None:
    messages = catalogue()
    for locale in messages.locales:
        for key in messages.ids(locale):
            assert key in messages.ids("en"), f"{locale}: {key} is not an English message"
            assert messages.placeholders(locale, key) == messages.placeholders("en", key), key
