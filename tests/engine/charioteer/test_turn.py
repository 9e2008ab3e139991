"""A turn's mechanics (spec §3, §5–§8): move order, the end of the turn (damage, refill,
reshuffle, crowd, emperor, disrupt), fan tokens, the cube limit, passing, whips and the
end of the race."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.charioteer import Race
from engine.charioteer.events import (
    AttackBoxesEmptied,
    Attacked,
    CrowdAdvanced,
    DeckReshuffled,
    Disrupted,
    DistanceComputed,
    EmperorRolled,
    Entered,
    FanBagRefilled,
    FanTokenDrawn,
    FanTokenReceived,
    LapCompleted,
    MoveOrder,
    RaceEnded,
    Recovered,
    Whipped,
)
from engine.charioteer.track import lap_index
from engine.core import JSON, GameOver
from tests.engine.charioteer.builders import (
    BACK_STRAIGHT,
    CURVE_1_FIRST,
    HOME_STRAIGHT,
    STAY,
    chariot,
    move,
    play,
    position,
    reset,
)


def all_cards(state: dict[str, JSON]) -> Counter[str]:
    """Every card of a position: hands, crowd, deck and discard pile."""
    cards: Counter[str] = Counter(state["crowd"] + state["deck"] + state.get("discard", []))
    for item in state["chariots"]:
        cards.update(item["hand"])
    return cards


# --------------------------------------------------------------------------- move order (§3.4)


def test_chariots_move_in_race_order_leader_first() -> None:
    """§3.4, §2: race order sorts by position, then lane (inside first)."""
    start = position(
        chariot("A", 10, hand=["G6"]),
        chariot("B", 30, 1, hand=["G6"]),
        chariot("C", 30, 0, hand=["G6"]),
        chariot("D", 5, hand=["G6"]),
    )
    turn = play(start, dict.fromkeys("ABCD", STAY))
    assert turn.one(MoveOrder) == MoveOrder(("C", "B", "A", "D"), False)


def test_turn_1_moves_in_seat_order_from_the_first_seat() -> None:
    """§3.4, §10 ``first_seat``: on turn 1 the first player moves first, the others follow
    in seat order."""
    start = position(
        *(chariot(seat, 0, lane, hand=["G6"]) for lane, seat in enumerate("ABCD")),
        turn=1,
        first_seat="C",
    )
    turn = play(start, dict.fromkeys("ABCD", STAY))
    assert turn.one(MoveOrder) == MoveOrder(("C", "D", "A", "B"), True)


def test_the_leader_moves_first_and_a_follower_enters_its_new_space() -> None:
    """§3.4: each chariot finishes its move before the next one moves, so the follower
    meets the leader where the leader stopped."""
    start = position(
        chariot("Leader", BACK_STRAIGHT + 2, hand=["G2", "G2"]),
        chariot("Follower", BACK_STRAIGHT, hand=["G6", "G6 R1"]),
    )
    turn = play(start, {"Leader": move("G2", 0, 1), "Follower": move("G6", 0, 1)})
    assert turn.spot("Leader") == (BACK_STRAIGHT + 6, 0)
    assert turn.spot("Follower") == (BACK_STRAIGHT + 7, 0)
    assert turn.passed("Follower") == [("Leader", BACK_STRAIGHT + 6, 1, "lane")]


# --------------------------------------------------------------------------- end of turn (§3.5)


def test_attack_boxes_empty_into_the_damage_box_at_the_end_of_the_turn() -> None:
    """§3.5, §6: cubes in the attack boxes don't slow this turn's move; at the end of the
    turn they move to the damage box."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G2", "G2"], damage=1, attack=2),
        chariot("B", 0, hand=["G6"]),
    )
    turn = play(start, {"A": move("G2", 0, 1), "B": STAY})
    assert turn.spot("A") == (BACK_STRAIGHT + 4 - 1, 0)
    assert (turn.chariot("A")["damage"], turn.chariot("A")["attack"]) == (3, 0)


def test_hands_refill_to_8_from_the_top_of_the_deck() -> None:
    """§3.5: played cards leave the hand; the hand refills to 8 from ``deck`` (top first);
    then the crowd slides and slot 3 takes the next card."""
    deck = ["G6x2", "R5x2", "Y4x2", "B2x2", "G4x2", "R3x2"]
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G2", "G2 R1", "R1", "Y0", "B1", "G4", "R3", "Y2"]),
        chariot("B", 0, hand=["G6", "G6", "G6", "G6", "G6", "G6", "G6"]),
        crowd=["R3 B1", "G4 Y4", "R1 Y2"],
        deck=deck,
    )
    turn = play(start, {"A": move("G2", 0, 1), "B": reset(0, 1)})
    assert turn.chariot("A")["hand"] == ["R1", "Y0", "B1", "G4", "R3", "Y2", "G6x2", "R5x2"]
    assert turn.chariot("B")["hand"] == ["G6"] * 5 + ["Y4x2", "B2x2", "G4x2"]
    assert turn.after["crowd"] == ["G4 Y4", "R1 Y2", "R3x2"]
    assert turn.after["deck"] == []
    assert turn.one(CrowdAdvanced).discarded is not None
    assert str(turn.one(CrowdAdvanced).discarded) == "R3 B1"
    assert Counter(turn.after["discard"]) == Counter(["G2", "G2 R1", "G6", "G6", "R3 B1"])
    assert all_cards(turn.after) == all_cards(start)


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out() -> None:
    """§1, §3.5: when the draw pile is empty the discard pile becomes the new deck; no card
    is lost or made."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G2", "G2 R1", "R1", "Y0", "B1", "G4", "R3", "Y2"]),
        chariot("B", 0, hand=["G6"] * 8),
        crowd=["R3 B1", "G4 Y4", "R1 Y2"],
        deck=["G6x2"],
        discard=["Y4x2", "B2x2", "G4x2", "R3x2"],
    )
    turn = play(start, {"A": move("G2", 0, 1), "B": reset(0)})
    reshuffled = turn.one(DeckReshuffled)
    assert reshuffled.cards == 4 + 2 + 1  # old discards, A's two cards, B's card
    hand_a = turn.chariot("A")["hand"]
    assert hand_a[:7] == ["R1", "Y0", "B1", "G4", "R3", "Y2", "G6x2"]
    assert hand_a[7] in {"Y4x2", "B2x2", "G4x2", "R3x2", "G2", "G2 R1", "G6"}
    assert len(turn.chariot("B")["hand"]) == 8
    assert all_cards(turn.after) == all_cards(start)


@pytest.mark.parametrize("face", ["green", "red", "yellow", "black", "all"])
def test_the_next_emperor_face_comes_from_next_emperor(face: str) -> None:
    """§3.5, §10 ``next_emperor``: the face rolled for the next turn."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G2", "G2"]),
        chariot("B", 0, hand=["G6"]),
        next_emperor=face,
    )
    turn = play(start, {"A": move("G2", 0, 1), "B": STAY})
    assert turn.one(EmperorRolled).face == face
    assert turn.after["emperor"] == face
    assert turn.after["turn"] == 3
    assert "next_emperor" not in turn.after
    assert all(item["attack"] == 0 for item in turn.after["chariots"])


@pytest.mark.parametrize(("players", "cubes"), [(2, 3), (3, 2), (4, 1), (5, 0), (6, 0)])
def test_a_disrupt_face_shows_as_cubes_in_every_attack_box_after_the_turn(
    players: int, cubes: int
) -> None:
    """§1, §3.1, §11: the disrupt face rolled for the next turn puts cubes in every
    chariot's attack boxes by player count (2→3, 3→2, 4→1, 5–6→0), visible in the
    position after the turn; a shield or reset this turn does not stop them."""
    seats = "ABCDEF"[:players]
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G2", "G2"], tokens=["shield"]),
        *(chariot(seat, 3 + index, hand=["G6"]) for index, seat in enumerate(seats[1:])),
        next_emperor="disrupt",
    )
    moves = {seat: STAY for seat in seats[1:]} | {"A": move("G2", 0, 1, token=0)}
    turn = play(start, moves)
    assert [item["attack"] for item in turn.after["chariots"]] == [cubes] * players
    assert [item["damage"] for item in turn.after["chariots"]] == [0] * players
    assert len(turn.of(Disrupted)) == (1 if cubes else 0)


def test_the_emperor_can_be_told_not_to_disrupt() -> None:
    """Option ``emperor_disrupts=false``: the disrupt face adds no cube."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G2", "G2"]),
        chariot("B", 0, hand=["G6"]),
        next_emperor="disrupt",
        options={"emperor_disrupts": False},
    )
    turn = play(start, {"A": move("G2", 0, 1), "B": STAY})
    assert [item["attack"] for item in turn.after["chariots"]] == [0, 0]


# ----------------------------------------------------------------------- distance, icons (§4–§5)


def test_distance_never_drops_below_zero() -> None:
    """§4: damage can cut the distance to 0, not below; the chariot stays put."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G2", "G2"], damage=9),
        chariot("B", 0, hand=["G6"]),
    )
    turn = play(start, {"A": move("G2", 0, 1), "B": STAY})
    assert turn.one(DistanceComputed, seat="A").distance == 0
    assert turn.entered("A") == []
    assert turn.spot("A") == (BACK_STRAIGHT, 0)


def test_the_crowd_cards_icons_are_part_of_the_move() -> None:
    """§4 icons: the crowd card in the move brings its icon: a shield protects, a recovery
    recovers."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G2", "G2 R1"], attack=2),
        chariot("B", 0, hand=["G6"]),
        crowd=["G2 Y4 shield", "Y0 B0", "Y0 B0"],
    )
    turn = play(start, {"A": move("G2", 0, 1, crowd=True), "B": STAY})
    assert turn.one(AttackBoxesEmptied, seat="A") == AttackBoxesEmptied("A", "shield", 2)

    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G2", "G2 R1"], damage=4),
        chariot("B", 0, hand=["G6"]),
        crowd=["G2 Y4 recovery", "Y0 B0", "Y0 B0"],
    )
    turn = play(start, {"A": move("G2", 0, 1, crowd=True), "B": STAY})
    assert turn.one(Recovered, seat="A") == Recovered("A", 1, 2, 2)


EIGHT = ["G2", "R5", "Y4", "B1", "G6", "R1", "Y0", "B2"]


def test_a_reset_may_use_a_white_discard_token() -> None:
    """§3.2, §5: a reset plays 1–3 cards of any kind and may add a discard token; played
    and discarded cards go to the discard pile and the hand is refilled to 8."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=EIGHT, tokens=["discard3"], damage=3),
        chariot("B", 0, hand=["G6"] * 8),
        deck=["G6x2"] * 10,
    )
    turn = play(start, {"A": reset(0, 1, discard={"token": 0, "cards": [5, 6, 7]}), "B": STAY})
    a = turn.chariot("A")
    assert (a["position"], a["damage"], a["tokens"]) == (BACK_STRAIGHT, 0, [])
    assert a["hand"] == ["Y4", "B1", "G6"] + ["G6x2"] * 5
    assert Counter(turn.after["discard"]) == Counter(["G2", "R5", "R1", "Y0", "B2", "G6", "Y0 B0"])


# --------------------------------------------------------------------------- fan tokens (§5)


@pytest.mark.parametrize(
    ("hand", "more", "symbols"),
    [
        pytest.param(["R5x2 G2", "R5x2 Y4", "R5x2 B2"], {}, 6, id="six in hand"),
        pytest.param(["R5x2 G2", "R5x2 Y4"], {"crowd": True}, 6, id="crowd counts"),
        pytest.param(["R5x2 G2", "R5x2 Y4", "G6"], {"token": 0, "wild": 2}, 6, id="wild counts"),
        pytest.param(["R5x2 G2", "R5 Y4", "R5x2 B1"], {}, 5, id="five is not enough"),
    ],
)
def test_six_matching_symbols_draw_the_top_fan_token(
    hand: list[str], more: dict[str, JSON], symbols: int
) -> None:
    """§5 Rewards: a move of ≥ 6 matching symbols (crowd card and wild card included)
    draws the top token of ``fan_bag``; its face is told to its owner only."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=hand, tokens=["red:wild"]),
        chariot("B", 0, hand=["G6"]),
        crowd=["R5x2 B1", "Y0 B0", "Y0 B0"],
        fan_bag=["black:+5", "green:learning"],
    )
    turn = play(start, {"A": move("R5", 0, 1, *([2] if len(hand) > 2 else []), **more), "B": STAY})
    if symbols < 6:
        assert turn.of(FanTokenDrawn) == []
        assert turn.after["fan_bag"] == ["black:+5", "green:learning"]
        return
    drawn = turn.one(FanTokenDrawn)
    assert drawn == FanTokenDrawn("A", 6, True)
    assert drawn.audience is None and "token" not in drawn.to_json()
    received = turn.one(FanTokenReceived)
    assert received.audience == "A"
    assert str(received.token) == "black:+5"
    assert turn.chariot("A")["tokens"][-1] == "black:+5"
    assert turn.after["fan_bag"] == ["green:learning"]


def test_the_empty_fan_bag_refills_from_discarded_fan_tokens_only() -> None:
    """§5, rulebook "Reshuffle": an empty bag is refilled from discarded fan tokens; a fan
    token played goes to the fan discard, a player token never returns."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["R5x2 G2", "R5x2 Y4", "R5x2 B2"]),
        chariot("B", 0, hand=["G2", "G2"], tokens=["shield", "fan:whip"]),
        chariot("C", 3, hand=["G2", "G2"], tokens=["fan:shield"]),
        fan_bag=[],
        fan_discard=["yellow:learning"],
    )
    moves = {
        "A": move("R5", 0, 1, 2),
        "B": move("G2", 0, 1, token=0),
        "C": move("G2", 0, 1, token=0),
    }
    turn = play(start, moves)
    assert turn.one(FanBagRefilled).tokens == 1
    assert str(turn.one(FanTokenReceived).token) == "yellow:learning"
    assert turn.after["fan_bag"] == []
    assert turn.after["fan_discard"] == ["shield"]  # C's fan shield; B's player shield is gone
    assert turn.chariot("B")["tokens"] == ["fan:whip"]


def test_no_fan_token_when_the_bag_and_its_discards_are_empty() -> None:
    """§5: with no fan token left anywhere, a six-symbol move draws nothing."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["R5x2 G2", "R5x2 Y4", "R5x2 B2"]),
        chariot("B", 0, hand=["G2", "G2"], tokens=["shield"]),
        fan_bag=[],
    )
    turn = play(start, {"A": move("R5", 0, 1, 2), "B": move("G2", 0, 1, token=0)})
    assert turn.one(FanTokenDrawn).drawn is False
    assert turn.of(FanTokenReceived) == []
    assert turn.chariot("A")["tokens"] == []
    assert (turn.after["fan_bag"], turn.after["fan_discard"]) == ([], [])


# --------------------------------------------------------------------------- damage (§6)


def test_at_most_three_new_cubes_arrive_in_a_turn() -> None:
    """§6: two major attacks (2 + 2) on a chariot give it only 3 cubes; excess ignored."""
    start = position(
        chariot("A", BACK_STRAIGHT + 10, hand=["R3", "R3 G2", "R3 Y0"]),
        chariot("B", BACK_STRAIGHT + 5, hand=["R3 B1", "R3 G4", "R3 Y2"]),
        chariot("C", BACK_STRAIGHT, hand=["G2", "G2"]),
        crowd=["R3 B2", "Y0 B0", "Y0 B0"],
    )
    moves = {"A": move("R3", 0, 1, 2, crowd=True), "B": move("R3", 0, 1, 2, crowd=True)}
    turn = play(start, moves | {"C": move("G2", 0, 1)})
    assert turn.one(Attacked, seat="A").hits == (("B", 2), ("C", 2))
    assert turn.one(Attacked, seat="B").hits == (("A", 2), ("C", 1))
    assert turn.chariot("C")["damage"] == 3


def test_disrupt_cubes_count_toward_the_three_attack_boxes() -> None:
    """§3.1, §6: two disrupt cubes already in the boxes leave room for one more."""
    start = position(
        chariot("A", BACK_STRAIGHT + 10, hand=["R3", "R3 G2", "R3 Y0"], attack=2),
        chariot("B", BACK_STRAIGHT, hand=["G2", "G2"], attack=2),
        crowd=["R3 B2", "Y0 B0", "Y0 B0"],
    )
    turn = play(start, {"A": move("R3", 0, 1, 2, crowd=True), "B": move("G2", 0, 1)})
    assert turn.one(Attacked, seat="A").hits == (("B", 1),)
    assert turn.chariot("B")["damage"] == 3


# --------------------------------------------------------------------------- movement (§7)


@pytest.mark.parametrize(("distance", "spot"), [(1, (30, 0)), (2, (31, 0))])
def test_a_chariot_behind_a_rival_in_its_own_space_must_pass_it_first(
    distance: int, spot: tuple[int, int]
) -> None:
    """§7: a chariot starting outside a rival spends a point to pass it before it may
    leave the space."""
    hand = ["B0", "B0 G2"] if distance == 2 else ["B0", "Y0 B0"]
    symbol = "B0"
    start = position(
        chariot("A", 30, 0, hand=["G6"]),
        chariot("B", 30, 1, hand=hand, damage=2 - distance),
    )
    turn = play(start, {"A": STAY, "B": move(symbol, 0, 1)})
    assert turn.passed("B") == [("A", 30, 1, "lane")]
    assert turn.spot("B") == spot
    assert turn.chariot("A")["position"] == 30


def test_lapping_a_chariot_means_passing_it_in_its_space() -> None:
    """§2, §7, rulebook "Passing another chariot": a space is a space of the track (its
    lap index), whatever lap its chariots are on. The leader, one lap ahead, enters the
    backmarker's space (lap index 28) outside it and spends its last point passing it."""
    assert lap_index(BACK_STRAIGHT + 7) == lap_index(BACK_STRAIGHT + 7 + 62)
    start = position(
        chariot("Back", BACK_STRAIGHT + 7, hand=["G6"]),
        chariot("Leader", BACK_STRAIGHT + 7 + 60, hand=["B0", "B0 G2", "B0 Y2"]),
    )
    turn = play(start, {"Back": STAY, "Leader": move("B0", 0, 1, 2)})
    assert turn.one(DistanceComputed, seat="Leader").distance == 3
    assert turn.chariot("Leader")["position"] == BACK_STRAIGHT + 7 + 62
    assert [rival for rival, *_ in turn.passed("Leader")] == ["Back"]


def test_the_whip_does_nothing_for_the_leader() -> None:
    """§5 Whip: no effect for a chariot leading the race when the whip applies."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["G2", "G2"], tokens=["whip"]),
        chariot("B", 0, hand=["G6"]),
    )
    turn = play(start, {"A": move("G2", 0, 1, token=0), "B": STAY})
    assert turn.one(Whipped, seat="A") == Whipped("A", 1, 0, "leading")
    assert turn.spot("A") == (BACK_STRAIGHT + 4, 0)


def test_the_whip_does_nothing_after_passing_a_chariot() -> None:
    """§5 Whip: no effect for a chariot that passed another chariot during this move."""
    start = position(
        chariot("Far", BACK_STRAIGHT + 12, hand=["G6"]),
        chariot("Near", BACK_STRAIGHT + 2, hand=["G6"]),
        chariot("A", BACK_STRAIGHT, hand=["G2", "G2"], tokens=["whip"]),
    )
    turn = play(start, {"Far": STAY, "Near": STAY, "A": move("G2", 0, 1, token=0)})
    assert turn.passed("A") == [("Near", BACK_STRAIGHT + 2, 1, "lane")]
    assert turn.one(Whipped, seat="A") == Whipped("A", 1, 0, "passed")
    assert turn.spot("A") == (BACK_STRAIGHT + 3, 0)


def test_a_cornering_whip_skips_outer_spaces_and_stops_before_passing_on_one() -> None:
    """§5 Black and Whip, rulebook whip rule 3: the whip of a black move also skips outer
    spaces, but stops before a step that would pass a chariot standing on one."""
    rival = CURVE_1_FIRST + 9  # outer
    start = position(
        chariot("Rival", rival, hand=["G6"]),
        chariot("A", CURVE_1_FIRST, hand=["B0", "B0"], tokens=["whip"]),
    )
    turn = play(start, {"Rival": STAY, "A": move("B0", 0, 1, token=0)})
    assert turn.entered("A") == [8, 10, 12, 14]
    assert [e.position for e in turn.of(Entered, seat="A", whip=True)] == [12, 14]
    assert turn.one(Whipped, seat="A") == Whipped("A", 1, 2, "blocked")
    assert turn.passed("A") == []


# --------------------------------------------------------------------------- end of race (§8)


def test_past_the_final_line_every_colour_skips_outer_spaces() -> None:
    """§8: once across the final finish line, a green move skips the curve's outer
    spaces like a cornering move."""
    start = position(
        chariot("A", 188, hand=["G4", "G4"]),
        chariot("B", 100, hand=["G6"]),
    )
    turn = play(start, {"A": move("G4", 0, 1), "B": STAY})
    assert turn.entered("A") == [189, 190, 191, 192, 194, 196]
    assert not any(event.outer for event in turn.of(Entered, seat="A"))


def test_the_race_ends_after_every_chariot_has_moved() -> None:
    """§8: the first chariot over the final line ends the race, but every chariot still
    finishes this turn's movement; the ranking is the race order at the end."""
    start = position(
        chariot("A", 187, hand=["G2", "G2"]),
        chariot("B", HOME_STRAIGHT, hand=["G6", "G6"]),
        chariot("C", 100, hand=["G4", "G4"]),
    )
    turn = play(start, {"A": move("G2", 0, 1), "B": move("G6", 0, 1), "C": move("G4", 0, 1)})
    assert turn.one(LapCompleted, seat="A") == LapCompleted("A", 3, True)
    assert turn.chariot("B")["position"] == HOME_STRAIGHT + 8
    assert turn.chariot("C")["position"] == 106
    assert turn.one(RaceEnded) == RaceEnded("A", ("A", "C", "B"), 2)
    assert turn.after["result"] == {"winner": "A", "ranking": ["A", "C", "B"], "turns": 2}


def test_a_finished_race_takes_no_more_moves() -> None:
    """§8: once the race has a result no commit is accepted."""
    start = position(chariot("A", 187, hand=["G2", "G2"]), chariot("B", 0, hand=["G6", "G6"]))
    race = play(start, {"A": move("G2", 0, 1), "B": move("G6", 0, 1)}).race
    assert race.is_over and race.waiting_for == ()
    before = race.state
    with pytest.raises(GameOver, match="the race is over"):
        race.commit("A", move("G4", 0, 1))
    assert race.state == before


def test_on_turn_1_a_chariot_arriving_with_no_point_left_stays_outside() -> None:
    """§7 Turn 1, as the engine documents it: passing is free but happens only while the
    chariot has points left; one arriving with its last point stands outside."""
    start = position(
        chariot("A", 0, 0, hand=["G2", "G2"]),
        chariot("B", 0, 1, hand=["G2", "G2"]),
        turn=1,
        first_seat="A",
    )
    turn = play(start, {"A": move("G2", 0, 1), "B": move("G2", 0, 1)})
    assert (turn.spot("A"), turn.spot("B")) == ((4, 0), (4, 1))
    assert turn.passed("B") == []


def test_a_disrupt_face_rolled_at_set_up_fills_the_attack_boxes_before_turn_1() -> None:
    """§3.1: the emperor die is rolled before turn 1 too; on *disrupt* every chariot starts
    with the cubes (3 players → 2), on any other face with none."""
    faces = set()
    for seed in range(100):
        race = Race.new(seats=3, seed=seed)
        face = race.state.emperor.value
        faces.add(face)
        cubes = 2 if face == "disrupt" else 0
        assert [item["attack"] for item in race.position()["chariots"]] == [cubes] * 3, seed
    assert faces == {"green", "red", "yellow", "black", "all", "disrupt"}


def test_the_final_turn_ends_like_every_turn_then_checks_the_race_end() -> None:
    """§3.5 [ruling] and §11: the end of turn runs in full — cubes reach the damage box,
    played cards the discard pile, hands refill to 8, the crowd slides — then the race end
    is checked, and a finished race rolls no emperor die."""
    start = position(
        chariot("A", 187, hand=["G2", "G2", "Y0"]),
        chariot("B", 100, hand=["G6", "G6"], attack=1),
        crowd=["R3 B1", "G4 Y4", "R1 Y2"],
        deck=["G6x2", "R5x2", "Y4x2", "B2x2"] + ["G4x2 B2"] * 20,
    )
    turn = play(start, {"A": move("G2", 0, 1), "B": move("G6", 0, 1)})
    assert turn.race.is_over
    assert turn.chariot("B")["damage"] == 1
    assert turn.chariot("A")["hand"][:3] == ["Y0", "G6x2", "R5x2"]
    assert len(turn.chariot("A")["hand"]) == 8
    assert turn.after["crowd"][:2] == ["G4 Y4", "R1 Y2"]
    assert len(turn.of(EmperorRolled)) == 0 and len(turn.of(CrowdAdvanced)) == 1
    assert turn.after["emperor"] == start["emperor"]
    assert turn.after["result"]["turns"] == start["turn"]
    assert turn.after["turn"] == start["turn"] + 1
    assert turn.events[-1].type == "race_end"


def test_a_finished_race_gets_no_disrupt_cubes_from_a_next_face() -> None:
    """§3.5 [ruling]: the race end comes before the next turn's set-up, so even a given
    *disrupt* next face puts no cubes in a finished race's attack boxes."""
    start = position(
        chariot("A", 187, hand=["G2", "G2", "Y0"]),
        chariot("B", 100, hand=["G6", "G6"]),
        deck=["G4x2 B2"] * 24,
    )
    start["next_emperor"] = "disrupt"
    turn = play(start, {"A": move("G2", 0, 1), "B": move("G6", 0, 1)})
    assert turn.race.is_over
    assert [item["attack"] for item in turn.after["chariots"]] == [0, 0]
    assert "next_emperor" not in turn.after or turn.after["next_emperor"] is None
    running = play(
        {**start, "chariots": [chariot("A", 10, hand=["G2", "G2"]), start["chariots"][1]]},
        {"A": move("G2", 0, 1), "B": move("G6", 0, 1)},
    )
    assert not running.race.is_over
    assert all(item["attack"] > 0 for item in running.after["chariots"])
