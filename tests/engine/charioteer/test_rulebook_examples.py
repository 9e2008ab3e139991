"""Every worked example of the rule text (`charioteer-en.txt`), rebuilt as a position and
resolved through the engine: distances, passing, whips, cornering, attacks, the skills
track, recovery, wild, discard tokens, reset, shield, the first turn and the finish."""

from __future__ import annotations

import pytest

from engine.charioteer import Colour, Race
from engine.charioteer.events import (
    AttackBoxesEmptied,
    Attacked,
    BonusSlotTaken,
    DamageTaken,
    DistanceComputed,
    Entered,
    FanTokenDrawn,
    MoveOrder,
    RaceEnded,
    Recovered,
    ResetMade,
    SkillAdvanced,
    Whipped,
)
from engine.charioteer.track import is_outer
from engine.core import IllegalAction
from tests.engine.charioteer.builders import (
    BACK_STRAIGHT,
    CURVE_1_FIRST,
    STAY,
    box,
    chariot,
    move,
    play,
    position,
    reset,
    skills,
)

# --------------------------------------------------------------------------- distance


def test_elaines_move_is_13() -> None:
    """§4 distance, rulebook "Calculating movement": six matching red-5 symbols + 5 = 11,
    a red +3 token, red skill in the +1 zone, two cubes in the damage box: 13. The cube in
    her attack boxes does not count against the move."""
    start = position(
        chariot(
            "Elaine",
            BACK_STRAIGHT,
            hand=["G2 R5x2", "R5x2 Y4", "R5x2 B2", "G6 Y0"],
            tokens=["red:+3"],
            damage=2,
            attack=1,
            skill=skills(red=5),
        ),
        chariot("David", 0, hand=["G2"]),
    )
    turn = play(start, {"Elaine": move("R5", 0, 1, 2, token=0), "David": STAY})

    assert turn.one(DistanceComputed, seat="Elaine") == DistanceComputed(
        "Elaine", symbols=6, number=5, token=3, skill=1, damage=2, distance=13
    )
    assert turn.spot("Elaine") == (BACK_STRAIGHT + 13, 0)
    # the attack-box cube joins the damage box only at the end of the turn
    assert turn.one(DamageTaken, seat="Elaine").cubes == 1
    assert turn.chariot("Elaine")["damage"] == 3


def test_a_set_of_three_4s_moves_7() -> None:
    """§4 distance: 3 matching symbols + the symbol's number 4 = 7."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G4", "G4 R1", "G4 Y2"]),
        chariot("B", 0, hand=["G2"]),
    )
    turn = play(start, {"A": move("G4", 0, 1, 2), "B": STAY})
    assert turn.one(DistanceComputed, seat="A").distance == 7
    assert turn.spot("A") == (BACK_STRAIGHT + 7, 0)


def test_a_set_of_six_2s_moves_8() -> None:
    """§4 distance: 6 matching symbols (three cards showing G2 twice) + 2 = 8."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G2x2", "G2x2 B1", "G2x2 R3"]),
        chariot("B", 0, hand=["G4"]),
    )
    turn = play(start, {"A": move("G2", 0, 1, 2), "B": STAY})
    assert turn.one(DistanceComputed, seat="A").distance == 8
    assert turn.spot("A") == (BACK_STRAIGHT + 8, 0)


# --------------------------------------------------------------------------- cards and tokens


def test_a_plus_3_token_turns_a_7_move_into_10() -> None:
    """§5 +3/+5, rulebook "+3 or +5": a move of 7 played with a +3 token moves 10."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G4", "G4 R1", "G4 Y2"], tokens=["+3"]),
        chariot("B", 0, hand=["G6"]),
    )
    turn = play(start, {"A": move("G4", 0, 1, 2, token=0), "B": STAY})
    assert turn.one(DistanceComputed, seat="A").distance == 10


def test_davids_shield_card_is_part_of_a_red_1_move_but_not_a_black_1_move() -> None:
    """§4 icons, rulebook "Icons on cards" (David): the shield on a red-1 card is part of
    his red-1 move; matching black-1 instead, that card cannot be played."""
    hand = ["R1 B1", "R1 B1 recovery", "R1 Y2 shield"]
    start = position(
        chariot("David", BACK_STRAIGHT, hand=hand, attack=1),
        chariot("Eliot", 0, hand=["G6"]),
    )
    turn = play(start, {"David": move("R1", 0, 1, 2), "Eliot": STAY})
    assert turn.one(AttackBoxesEmptied, seat="David").reason == "shield"
    with pytest.raises(IllegalAction, match="card 2 \\(R1 Y2 shield\\) does not show B1"):
        Race.from_position(start).commit("David", move("B1", 0, 1, 2))


def test_a_black_token_fits_a_black_move_and_a_white_shield_token_fits_any_move() -> None:
    """§4 tokens, rulebook "Icons on tokens": a black token joins a black-1 move (not a red
    one); a colourless shield token joins a move of any colour."""
    start = position(
        chariot(
            "A",
            BACK_STRAIGHT,
            hand=["R1 B1", "R1 B1", "G2 Y2", "G2 Y2"],
            tokens=["black:+3", "shield"],
        ),
        chariot("B", 0, hand=["G6"]),
    )
    race = Race.from_position(start)
    race.commit("A", move("B1", 0, 1, token=0))
    with pytest.raises(IllegalAction, match="needs a black move, not red"):
        race.commit("A", move("R1", 0, 1, token=0))
    for symbol, cards in (("R1", (0, 1)), ("B1", (0, 1)), ("G2", (2, 3)), ("Y2", (2, 3))):
        race.commit("A", move(symbol, *cards, token=1))


def test_whip_cards_join_a_move_of_any_colour() -> None:
    """§4, rulebook whip note: whip cards show no symbol and may join any move."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G2 R1 Y0", "G2 R1 Y0 B0", "whip"]),
        chariot("B", 0, hand=["G6"]),
    )
    race = Race.from_position(start)
    for symbol in ("G2", "R1", "Y0"):
        race.commit("A", move(symbol, 0, 1, 2))


def test_davids_seven_symbols_with_the_crowd_card_earn_a_fan_token() -> None:
    """§5 Rewards, rulebook "Gaining a fan token" (David): five matching symbols on his
    three cards and two on the crowd card are seven: he draws a fan token."""
    start = position(
        chariot("David", BACK_STRAIGHT, hand=["R3x2 G2", "R3x2 Y4", "R3 B1"]),
        chariot("Eliot", 0, hand=["G6"]),
        crowd=["R3x2 B2", "Y0 B0", "Y0 B0"],
        fan_bag=["yellow:wild", "red:+5"],
    )
    turn = play(start, {"David": move("R3", 0, 1, 2, crowd=True), "Eliot": STAY})
    assert turn.one(FanTokenDrawn, seat="David") == FanTokenDrawn("David", 7, True)
    assert turn.chariot("David")["tokens"] == ["yellow:wild"]


# --------------------------------------------------------------------------- passing


def test_david_passes_two_rivals_in_one_space() -> None:
    """§7 passing, rulebook example: distance 5. David enters an empty space, enters the
    rivals' space outside green, spends a point to pass green, one to pass yellow, and
    enters one more space."""
    rivals = BACK_STRAIGHT + 2
    start = position(
        chariot("Yellow", rivals, 0, hand=["G6"]),
        chariot("Green", rivals, 1, hand=["G6"]),
        chariot("David", BACK_STRAIGHT, hand=["G2", "G2 R1", "G2 Y4"]),
    )
    turn = play(start, {"Yellow": STAY, "Green": STAY, "David": move("G2", 0, 1, 2)})

    assert turn.one(DistanceComputed, seat="David").distance == 5
    assert [(e.position, e.lane) for e in turn.of(Entered, seat="David")] == [
        (BACK_STRAIGHT + 1, 0),
        (rivals, 2),
        (rivals + 1, 0),
    ]
    assert turn.passed("David") == [("Green", rivals, 1, "lane"), ("Yellow", rivals, 1, "lane")]
    assert turn.spot("David") == (rivals + 1, 0)
    assert turn.spot("Yellow") == (rivals, 0)
    assert turn.spot("Green") == (rivals, 1)


# --------------------------------------------------------------------------- whip


def test_emilys_whip_stops_in_davids_space_without_passing() -> None:
    """§5 Whip, rulebook example: Emily ends her regular move 2 spaces behind David without
    having passed anyone; her whip moves her 2 spaces, into David's space, outside him,
    and stops there."""
    david = BACK_STRAIGHT + 6
    start = position(
        chariot("David", david, hand=["G6"]),
        chariot("Emily", BACK_STRAIGHT, hand=["G2", "G2 R1"], tokens=["whip"]),
    )
    turn = play(start, {"David": STAY, "Emily": move("G2", 0, 1, token=0)})

    assert turn.one(DistanceComputed, seat="Emily").distance == 4
    assert turn.one(Whipped, seat="Emily") == Whipped("Emily", 1, 2, "blocked")
    assert [e.position for e in turn.of(Entered, seat="Emily", whip=True)] == [
        david - 1,
        david,
    ]
    assert turn.spot("Emily") == (david, 1)
    assert turn.spot("David") == (david, 0)
    assert turn.passed("Emily") == []


# --------------------------------------------------------------------------- cornering


def test_alecs_cornering_move_skips_outer_spaces_and_passes_chariots_on_them_free() -> None:
    """§5 Black, §7, rulebook example (Alec): a cornering move enters only the regular
    spaces of a curve; a chariot standing on a skipped outer space is passed at no cost."""
    eliot = CURVE_1_FIRST + 3  # an outer space
    assert is_outer(eliot)
    start = position(
        chariot("Eliot", eliot, hand=["G6"]),
        chariot("Alec", CURVE_1_FIRST, hand=["B1", "B1 G2", "B1 R3"]),
    )
    turn = play(start, {"Eliot": STAY, "Alec": move("B1", 0, 1, 2)})

    assert turn.one(DistanceComputed, seat="Alec").distance == 4
    assert turn.entered("Alec") == [CURVE_1_FIRST + 2 * step for step in range(1, 5)]
    assert not any(event.outer for event in turn.of(Entered, seat="Alec"))
    assert turn.passed("Alec") == [("Eliot", eliot, 0, "outer")]
    assert turn.spot("Alec") == (CURVE_1_FIRST + 8, 0)


def test_emilys_cornering_move_from_an_outer_space_and_eliots_green_move() -> None:
    """§5 Black, §7, rulebook example: Emily starts on an outer space and makes a 5-space
    cornering move entering only regular spaces; Eliot's 8-space green move enters every
    regular and outer space on the way."""
    emily = CURVE_1_FIRST + 1
    assert is_outer(emily)
    start = position(
        chariot("Emily", emily, hand=["B2", "B2 G4", "B2 R3"]),
        chariot("Eliot", CURVE_1_FIRST, hand=["G6", "G6 R1"]),
    )
    turn = play(start, {"Emily": move("B2", 0, 1, 2), "Eliot": move("G6", 0, 1)})

    assert turn.one(DistanceComputed, seat="Emily").distance == 5
    assert turn.entered("Emily") == [8, 10, 12, 14, 16]
    assert not any(is_outer(space) for space in turn.entered("Emily"))

    assert turn.one(DistanceComputed, seat="Eliot").distance == 8
    assert turn.entered("Eliot") == list(range(CURVE_1_FIRST + 1, CURVE_1_FIRST + 9))
    assert [e.outer for e in turn.of(Entered, seat="Eliot")] == [True, False] * 4


# --------------------------------------------------------------------------- attack and shield


def test_eliots_major_attack_with_the_crowd_card_spares_shielded_alec() -> None:
    """§5 Red, rulebook examples: three red cards from hand plus the crowd card make a
    major attack, two cubes to every rival; Alec played a shield and takes none."""
    start = position(
        chariot("Eliot", BACK_STRAIGHT, hand=["R3", "R3 G2", "R3 Y0"]),
        chariot("Alec", 54, hand=["G2", "G2 R1"], tokens=["shield"]),
        chariot("David", 0, hand=["G2", "G2 Y4"]),
        chariot("Emily", 40, hand=["G2", "G2 B1"]),
        crowd=["R3 B1", "Y0 B0", "Y0 B0"],
    )
    turn = play(
        start,
        {
            "Eliot": move("R3", 0, 1, 2, crowd=True),
            "Alec": move("G2", 0, 1, token=0),
            "David": move("G2", 0, 1),
            "Emily": move("G2", 0, 1),
        },
    )
    assert turn.one(Attacked, seat="Eliot") == Attacked(
        "Eliot", "major", 2, (("David", 2), ("Emily", 2)), ("Alec",)
    )
    assert turn.one(AttackBoxesEmptied, seat="Alec").reason == "shield"
    damage = [turn.chariot(seat)["damage"] for seat in ("Eliot", "Alec", "David", "Emily")]
    assert damage == [0, 0, 2, 2]
    assert turn.chariot("Alec")["tokens"] == []  # he discards the shield at the end of the turn


def test_a_shield_empties_attack_boxes_filled_by_the_emperors_disrupt() -> None:
    """§5 Shield, §3.3: at reveal the shield empties the attack boxes (here the 3 disrupt
    cubes of a 2-player race, placed before the turn) and no cube arrives this turn."""
    start = position(
        chariot("Alec", BACK_STRAIGHT, hand=["G2 shield", "G2"], damage=1, attack=3),
        chariot("Eliot", 0, hand=["R1", "R1 G2", "R1 Y0"], attack=3),
        emperor="disrupt",
    )
    turn = play(start, {"Alec": move("G2", 0, 1), "Eliot": move("R1", 0, 1, 2)})

    assert turn.one(AttackBoxesEmptied, seat="Alec") == AttackBoxesEmptied("Alec", "shield", 3)
    assert turn.one(Attacked, seat="Eliot").shielded == ("Alec",)
    assert turn.of(DamageTaken, seat="Alec") == []
    assert (turn.chariot("Alec")["damage"], turn.chariot("Alec")["attack"]) == (1, 0)
    assert turn.chariot("Eliot")["damage"] == 3


# --------------------------------------------------------------------------- skills track


def test_alecs_skills_track_bonuses() -> None:
    """§1 skills track, §4 distance, rulebook example (Alec): a marker on a start space
    gives 0, in the "+1" zone +1, in the bonus box its slot (+3)."""
    alec = skills(green=4, red=2, yellow=10, black=box(3))
    cases = {"R1": 0, "G2": 1, "Y2": 1, "B1": 3}
    for symbol, bonus in cases.items():
        start = position(
            chariot("Alec", BACK_STRAIGHT, hand=[symbol, symbol], skill=alec),
            chariot("Eliot", 0, hand=["G6"]),
        )
        turn = play(start, {"Alec": move(symbol, 0, 1), "Eliot": STAY})
        computed = turn.one(DistanceComputed, seat="Alec")
        assert computed.skill == bonus, symbol
        assert computed.distance == 2 + int(symbol[1]) + bonus, symbol


def test_emilys_yellow_marker_takes_the_plus_5_slot() -> None:
    """§5 Rewards, rulebook example (Emily): her green marker already holds the +3 slot, so
    her yellow marker, reaching the bonus box, takes +5."""
    start = position(
        chariot(
            "Emily", BACK_STRAIGHT, hand=["Y2", "Y2 G4"], skill=skills(green=box(3), yellow=10)
        ),
        chariot("David", 0, hand=["G6"]),
    )
    turn = play(start, {"Emily": move("Y2", 0, 1), "David": STAY})
    assert turn.one(SkillAdvanced, seat="Emily").level == 11
    assert turn.one(BonusSlotTaken, seat="Emily") == BonusSlotTaken("Emily", Colour.YELLOW, 5)
    assert turn.chariot("Emily")["skills"] == skills(green=box(3), yellow=box(5))


def test_markers_in_the_bonus_box_never_move() -> None:
    """§5 Rewards, rulebook example (Emily): once in the bonus box, her yellow and green
    markers do not advance, even on a move the emperor favours."""
    emily = skills(green=box(3), yellow=box(5))
    for symbol in ("Y2", "G4"):
        start = position(
            chariot("Emily", BACK_STRAIGHT, hand=[symbol, symbol], skill=emily),
            chariot("David", 0, hand=["G6"]),
            emperor="all",
        )
        turn = play(start, {"Emily": move(symbol, 0, 1), "David": STAY})
        assert turn.of(SkillAdvanced, seat="Emily") == []
        assert turn.chariot("Emily")["skills"] == emily


# --------------------------------------------------------------------------- recovery


def test_recovery_rounds_in_the_players_favour() -> None:
    """§5 Yellow, rulebook example: five cubes in the damage box, a recovery removes three,
    before the distance is computed."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["Y2", "Y2 G4"], damage=5),
        chariot("B", 0, hand=["G6"]),
    )
    turn = play(start, {"A": move("Y2", 0, 1), "B": STAY})
    assert turn.one(Recovered, seat="A") == Recovered("A", 1, 3, 2)
    assert turn.one(DistanceComputed, seat="A").damage == 2
    assert turn.one(DistanceComputed, seat="A").distance == 2 + 2 - 2
    assert turn.chariot("A")["damage"] == 2


def test_a_yellow_move_with_a_recovery_icon_clears_the_damage_box() -> None:
    """§5 Yellow and recovery icons: a yellow move plus a recovery card is two
    recoveries, which remove every cube."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["Y2 recovery", "Y2 G4"], damage=5),
        chariot("B", 0, hand=["G6"]),
    )
    turn = play(start, {"A": move("Y2", 0, 1), "B": STAY})
    assert turn.one(Recovered, seat="A") == Recovered("A", 2, 5, 0)
    assert turn.one(DistanceComputed, seat="A").distance == 2 + 2
    assert turn.chariot("A")["damage"] == 0


def test_a_recovery_card_and_a_recovery_token_clear_the_damage_box() -> None:
    """§5 recovery icons: a recovery card and a recovery token on a green move are two
    recoveries, which remove every cube."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G2 recovery", "G2"], tokens=["recovery"], damage=5),
        chariot("B", 0, hand=["G6"]),
    )
    turn = play(start, {"A": move("G2", 0, 1, token=0), "B": STAY})
    assert turn.one(Recovered, seat="A") == Recovered("A", 2, 5, 0)
    assert turn.chariot("A")["damage"] == 0


# --------------------------------------------------------------------------- wild


def test_davids_wild_token_turns_his_shield_card_into_two_red_3s() -> None:
    """§4 Wild, rulebook example (David): two red-3 cards and a card without red-3 but with
    a shield; the red wild token turns that card into two red-3s and the shield is lost,
    so David is not protected from Eliot's attack that turn. The converted card counts as
    a matching card: David's three red cards are a minor attack of his own."""
    start = position(
        chariot("Eliot", BACK_STRAIGHT + 5, hand=["R1", "R1 G2", "R1 Y0"]),
        chariot("David", BACK_STRAIGHT, hand=["R3", "R3 G2", "B1 shield"], tokens=["red:wild"]),
    )
    turn = play(
        start, {"Eliot": move("R1", 0, 1, 2), "David": move("R3", 0, 1, 2, token=0, wild=2)}
    )
    assert turn.one(DistanceComputed, seat="David").symbols == 4
    assert turn.one(DistanceComputed, seat="David").distance == 4 + 3
    assert turn.of(AttackBoxesEmptied, seat="David") == []
    assert turn.one(Attacked, seat="Eliot").hits == (("David", 1),)
    assert turn.one(Attacked, seat="David").size == "minor"
    assert turn.chariot("David")["damage"] == 1
    assert turn.chariot("David")["tokens"] == []


# --------------------------------------------------------------------------- discard token


def test_elaine_plays_a_discard_token_beside_a_recovery_token() -> None:
    """§5 Discard tokens, rulebook example (Elaine): a recovery token on her two-card move
    and a discard token on a separate stack; both take effect, the discarded cards go to
    the discard pile and her hand is refilled to 8."""
    hand = ["G4 Y2", "G4", "R5", "B1", "G6", "R1", "Y0", "B2"]
    deck = ["G6x2", "R5x2", "Y4x2", "B2x2", "G2x2", "R1x2"]
    start = position(
        chariot(
            "Elaine",
            BACK_STRAIGHT,
            hand=hand,
            tokens=["recovery", "discard2"],
            damage=3,
        ),
        chariot("David", 0, hand=["G2"] * 8),
        crowd=["Y0 B0", "G2 R1", "R3 B1"],
        deck=deck,
    )
    elaine_move = move("G4", 0, 1, token=0, discard={"token": 1, "cards": [2, 3]})
    turn = play(start, {"Elaine": elaine_move, "David": STAY})

    assert turn.one(Recovered, seat="Elaine") == Recovered("Elaine", 1, 2, 1)
    elaine = turn.chariot("Elaine")
    assert elaine["tokens"] == []
    assert elaine["hand"] == ["G6", "R1", "Y0", "B2", "G6x2", "R5x2", "Y4x2", "B2x2"]
    assert sorted(turn.after["discard"]) == sorted(["G4 Y2", "G4", "R5", "B1", "G2", "Y0 B0"])
    assert turn.chariot("David")["hand"] == ["G2"] * 7 + ["G2x2"]
    assert turn.after["crowd"] == ["G2 R1", "R3 B1", "R1x2"]


# --------------------------------------------------------------------------- reset


def test_a_reset_move_stops_clears_damage_and_earns_nothing() -> None:
    """§5 Reset: the chariot doesn't move; its damage box and attack boxes are emptied; no
    cube arrives this turn (not even from a major attack); no skill step, no fan token —
    even though its cards show six red-5s."""
    start = position(
        chariot("Attacker", BACK_STRAIGHT + 4, hand=["R3", "R3 G2", "R3 Y0"]),
        chariot(
            "Resetter",
            BACK_STRAIGHT,
            hand=["R5x2 G2", "R5x2 Y4", "R5x2 B2"],
            damage=4,
            attack=2,
            skill=skills(red=5),
        ),
        crowd=["R3 B1", "Y0 B0", "Y0 B0"],
        emperor="all",
    )
    turn = play(start, {"Attacker": move("R3", 0, 1, 2, crowd=True), "Resetter": reset(0, 1, 2)})
    assert turn.one(AttackBoxesEmptied, seat="Resetter") == AttackBoxesEmptied(
        "Resetter", "reset", 2
    )
    assert turn.one(ResetMade, seat="Resetter").damage_removed == 4
    assert turn.one(Attacked, seat="Attacker").shielded == ("Resetter",)
    assert turn.of(SkillAdvanced, seat="Resetter") == []
    assert turn.of(FanTokenDrawn, seat="Resetter") == []
    assert turn.of(Entered, seat="Resetter") == []
    resetter = turn.chariot("Resetter")
    assert (resetter["position"], resetter["damage"], resetter["attack"]) == (BACK_STRAIGHT, 0, 0)
    assert resetter["skills"] == skills(red=5)
    assert resetter["tokens"] == []


# --------------------------------------------------------------------------- first turn


def test_first_turn_passing_is_free_and_whips_do_nothing() -> None:
    """§7, §5 Whip, rulebook "First turn": moving in seat order from the first player, C
    passes B and A at the Start for free; A's whip does nothing on turn 1; B passes A and
    C on the way, again for free."""
    start = position(
        chariot("A", 0, 0, hand=["B0", "B0 Y2"], tokens=["whip"]),
        chariot("B", 0, 1, hand=["G4", "G4 R1"]),
        chariot("C", 0, 2, hand=["G2", "G2 Y0"]),
        turn=1,
        first_seat="C",
        emperor="green",
    )
    moves = {"A": move("B0", 0, 1, token=0), "B": move("G4", 0, 1), "C": move("G2", 0, 1)}
    turn = play(start, moves)

    assert turn.one(MoveOrder).order == ("C", "A", "B")
    assert turn.passed("C") == [("B", 0, 0, "lane"), ("A", 0, 0, "lane")]
    assert turn.spot("C") == (4, 0)
    assert turn.one(Whipped, seat="A") == Whipped("A", 1, 0, "turn 1")
    assert turn.spot("A") == (2, 0)
    assert turn.passed("B") == [("A", 2, 0, "lane"), ("C", 4, 0, "lane")]
    assert turn.spot("B") == (6, 0)


# --------------------------------------------------------------------------- the finish


def test_two_chariots_past_the_line_in_one_space_the_inner_one_wins() -> None:
    """§8, rulebook "Last turn": A crosses the final line first; B arrives in the same
    space with no point left and stands outside; the inner chariot, A, wins. The ranking
    is the race order."""
    start = position(
        chariot("A", 187, hand=["B1", "B1 G2"]),
        chariot("B", 186, hand=["G2", "G2 Y4"]),
        chariot("C", 150, hand=["G2", "G2 R3"]),
    )
    turn = play(start, {"A": move("B1", 0, 1), "B": move("G2", 0, 1), "C": move("G2", 0, 1)})
    assert turn.spot("A") == (190, 0)
    assert turn.spot("B") == (190, 1)
    assert turn.race.result is not None
    assert turn.race.result.to_json() == {"winner": "A", "ranking": ["A", "B", "C"]}
    assert turn.one(RaceEnded).winner == "A"


def test_passing_with_the_last_point_past_the_line_wins_the_space() -> None:
    """§8: B enters A's space past the line with a point left, passes A and wins."""
    start = position(
        chariot("A", 187, hand=["B1", "B1 G2"]),
        chariot("B", 185, hand=["G2", "G2 Y4", "G2 R1"], skill=skills(green=4)),
        chariot("C", 150, hand=["G2", "G2 R3"]),
    )
    turn = play(start, {"A": move("B1", 0, 1), "B": move("G2", 0, 1, 2), "C": move("G2", 0, 1)})
    assert turn.one(DistanceComputed, seat="B").distance == 6
    assert turn.passed("B") == [("A", 190, 1, "lane")]
    assert turn.spot("B") == (190, 0)
    assert turn.race.result is not None
    assert turn.race.result.to_json() == {"winner": "B", "ranking": ["B", "A", "C"]}


def test_the_chariot_furthest_past_the_line_wins() -> None:
    """§8: two chariots cross the final line; the one furthest beyond it wins, even though
    it started behind."""
    start = position(
        chariot("A", 188, hand=["B0", "B0 G2"]),
        chariot("B", 184, hand=["G6x2", "G6 R3"]),
        chariot("C", 150, hand=["G2", "G2 R3"]),
    )
    turn = play(start, {"A": move("B0", 0, 1), "B": move("G6", 0, 1), "C": move("G2", 0, 1)})
    assert turn.spot("A") == (190, 0)
    assert turn.spot("B") == (192, 0)
    assert turn.race.result is not None
    assert turn.race.result.to_json() == {"winner": "B", "ranking": ["B", "A", "C"]}
