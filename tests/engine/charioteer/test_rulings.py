"""The spec's **[ruling]** items and the skills-track level convention (spec §1, §4, §5):
the crowd card toward the two-card minimum, what a minor and a major attack count,
several whips, and how skill levels, the emperor and learning move a marker."""

from __future__ import annotations

import pytest

from engine.charioteer import Colour, Race
from engine.charioteer.components import SKILLS_CARDS, skills_from_card
from engine.charioteer.events import Attacked, BonusSlotTaken, SkillAdvanced, Whipped
from engine.core import JSON, IllegalAction, MalformedPosition
from tests.engine.charioteer.builders import (
    BACK_STRAIGHT,
    STAY,
    box,
    chariot,
    move,
    play,
    position,
    skills,
)

# --------------------------------------------------------------------------- two matching cards


def crowd_pair(**options: JSON) -> dict[str, JSON]:
    """A seat holding one red-5 card while the crowd card shows red-5."""
    return position(
        chariot("A", BACK_STRAIGHT, hand=["R5 G2", "G6"]),
        chariot("B", 0, hand=["G6"]),
        crowd=["R5x2 B1", "Y0 B0", "Y0 B0"],
        options=options,
    )


def test_one_hand_card_and_the_crowd_card_make_a_legal_move() -> None:
    """§4 [ruling]: the crowd card counts toward the two matching cards, so one hand card
    plus the crowd card is a move: 3 red-5 symbols + 5 = 8."""
    turn = play(crowd_pair(), {"A": move("R5", 0, crowd=True), "B": STAY})
    assert turn.spot("A") == (BACK_STRAIGHT + 8, 0)


def test_without_the_crowd_ruling_one_hand_card_is_not_enough() -> None:
    """§4 [ruling], option ``crowd_counts_toward_minimum=false``: two matching cards must
    come from the hand."""
    race = Race.from_position(crowd_pair(crowd_counts_toward_minimum=False))
    with pytest.raises(IllegalAction, match="at least 2 cards showing R5 from your hand"):
        race.commit("A", move("R5", 0, crowd=True))


def test_one_hand_card_alone_is_never_a_move() -> None:
    """§4: at least two matching cards; one card without the crowd is not a move."""
    race = Race.from_position(crowd_pair())
    with pytest.raises(IllegalAction, match="at least 2 cards showing R5; this one has 1"):
        race.commit("A", move("R5", 0))


# --------------------------------------------------------------------------- attack size


ATTACKS = [
    # (hand, move kwargs, tokens, expected size or None)
    pytest.param(["R1", "R1 G2", "whip"], {"crowd": True}, [], "minor", id="2 red + whip + crowd"),
    pytest.param(["R1", "R1 G2", "R1 Y0"], {"crowd": True}, [], "major", id="3 red + crowd"),
    pytest.param(["R1", "R1 G2", "R1 Y0"], {"token": 0}, ["whip"], "minor", id="3 red + whip"),
    pytest.param(["R1", "R1 G2", "whip"], {}, [], None, id="2 red + whip: no attack"),
    pytest.param(["R1", "R1 G2"], {"crowd": True}, [], "minor", id="2 red + crowd"),
]


@pytest.mark.parametrize(("hand", "extra", "tokens", "size"), ATTACKS)
def test_attack_size_counts_cards_with_the_crowd_and_without_whips(
    hand: list[str], extra: dict[str, object], tokens: list[str], size: str | None
) -> None:
    """§5 Red [ruling]: a minor attack needs 3 matching red cards, a major one 4; the crowd
    card counts, whip cards and whip tokens do not."""
    start = position(
        chariot("A", BACK_STRAIGHT + 10, hand=hand, tokens=tokens),
        chariot("B", 0, hand=["G6", "G6"]),
        crowd=["R1 B2", "Y0 B0", "Y0 B0"],
    )
    moves = {"A": move("R1", *range(len(hand)), **extra), "B": move("G6", 0, 1)}
    turn = play(start, moves)
    attacks = turn.of(Attacked, seat="A")
    if size is None:
        assert attacks == []
        assert turn.chariot("B")["damage"] == 0
    else:
        assert [attack.size for attack in attacks] == [size]
        assert turn.chariot("B")["damage"] == {"minor": 1, "major": 2}[size]


def test_without_the_crowd_attack_ruling_the_crowd_card_does_not_count() -> None:
    """§5 Red, option ``crowd_counts_for_attack=false``: 3 red hand cards + the crowd card
    are a minor attack, not a major one."""
    start = position(
        chariot("A", BACK_STRAIGHT + 10, hand=["R1", "R1 G2", "R1 Y0"]),
        chariot("B", 0, hand=["G6", "G6"]),
        crowd=["R1 B2", "Y0 B0", "Y0 B0"],
        options={"crowd_counts_for_attack": False},
    )
    turn = play(start, {"A": move("R1", 0, 1, 2, crowd=True), "B": move("G6", 0, 1)})
    assert turn.one(Attacked, seat="A").size == "minor"
    assert turn.chariot("B")["damage"] == 1


# --------------------------------------------------------------------------- several whips


def two_whips(**options: JSON) -> dict[str, JSON]:
    """A chariot behind a far rival, with a whip card and a whip token on a 4-space move."""
    return position(
        chariot("Rival", BACK_STRAIGHT + 25, hand=["G6"]),
        chariot("A", BACK_STRAIGHT, hand=["G2", "G2 R1", "whip"], tokens=["whip"]),
        options=options,
    )


def test_several_whips_add_5_spaces_each() -> None:
    """§5 Whip [ruling, from the Spanish text "Un jugador puede utilizar el beneficio de
    varios látigos en el mismo turno"]: a whip card and a whip token give up to 10."""
    turn = play(two_whips(), {"Rival": STAY, "A": move("G2", 0, 1, 2, token=0)})
    assert turn.one(Whipped, seat="A") == Whipped("A", 2, 10, "spent")
    assert turn.spot("A") == (BACK_STRAIGHT + 4 + 10, 0)


def test_with_whips_not_stacking_several_whips_give_5() -> None:
    """§5 Whip, option ``whips_stack=false``: several whips give 5 spaces in all."""
    turn = play(two_whips(whips_stack=False), {"Rival": STAY, "A": move("G2", 0, 1, 2, token=0)})
    assert turn.one(Whipped, seat="A") == Whipped("A", 2, 5, "spent")
    assert turn.spot("A") == (BACK_STRAIGHT + 4 + 5, 0)


# --------------------------------------------------------------------------- skills track levels


def test_a_skills_card_puts_its_colours_at_levels_3_2_1_0() -> None:
    """§1: a skills card listing colours top to bottom puts them at levels 3, 2, 1, 0
    (rulebook example: David's card, green highest, black lowest)."""
    davids_card = (Colour.GREEN, Colour.RED, Colour.YELLOW, Colour.BLACK)
    assert skills_from_card(davids_card) == {
        Colour.GREEN: 3,
        Colour.RED: 2,
        Colour.YELLOW: 1,
        Colour.BLACK: 0,
    }
    assert len(SKILLS_CARDS) == 24 and len(set(SKILLS_CARDS)) == 24


def test_a_new_race_starts_every_marker_on_a_start_space_from_a_skills_card() -> None:
    """§1: every chariot starts with its four markers on levels 0–3, one per level."""
    race = Race.new(seats=6, seed=11)
    for item in race.position()["chariots"]:
        assert sorted(item["skills"].values()) == [0, 1, 2, 3]


def test_level_11_is_written_as_a_bonus_slot_and_not_as_a_number() -> None:
    """§1: level 11 means "in the bonus box" and carries its slot value; a bare 11 is not a
    level of the track."""
    good = position(chariot("A", 0, 0, skill=skills(black=box(3))), chariot("B", 0, 1), turn=3)
    assert Race.from_position(good).state.chariot("A").skills[3].level == 11
    bad = position(chariot("A", 0, 0, skill=skills(black=11)), chariot("B", 0, 1), turn=3)
    with pytest.raises(MalformedPosition, match="skill level is 0 to 10"):
        Race.from_position(bad)


def steps_for(
    symbol: str, *, emperor: str, level: int = 4, tokens: tuple[str, ...] = ()
) -> SkillAdvanced:
    colour = {"G": "green", "R": "red", "Y": "yellow", "B": "black"}[symbol[0]]
    start = position(
        chariot(
            "A",
            BACK_STRAIGHT,
            hand=[symbol, symbol],
            tokens=list(tokens),
            skill=skills(**{colour: level}),
        ),
        chariot("B", 0, hand=["G6"]),
        emperor=emperor,
    )
    extra = {"token": 0} if tokens else {}
    return play(start, {"A": move(symbol, 0, 1, **extra), "B": STAY}).one(SkillAdvanced, seat="A")


@pytest.mark.parametrize(
    ("emperor", "steps"),
    [("red", 2), ("all", 2), ("green", 1), ("yellow", 1), ("black", 1), ("disrupt", 1)],
)
def test_a_red_move_steps_once_plus_once_if_the_emperor_asks_for_red_or_all(
    emperor: str, steps: int
) -> None:
    """§5 Rewards: +1 step for the move's colour, +1 more if the emperor shows that colour
    or *all*; *disrupt* and the other colours give no extra step."""
    advanced = steps_for("R1", emperor=emperor)
    assert (advanced.steps, advanced.start, advanced.level) == (steps, 4, 4 + steps)
    assert advanced.emperor == (steps == 2)


def test_a_learning_token_adds_a_step_on_top_of_the_emperor() -> None:
    """§5 Learning: one extra step, in addition to the emperor's."""
    advanced = steps_for("R1", emperor="red", tokens=("red:learning",))
    assert (advanced.steps, advanced.learning, advanced.level) == (3, 1, 7)


def test_steps_beyond_level_11_stop_in_the_bonus_box() -> None:
    """§1, §5: a marker reaching level 11 enters the bonus box, however many steps it had."""
    start = position(
        chariot(
            "A",
            BACK_STRAIGHT,
            hand=["R1", "R1"],
            tokens=["red:learning"],
            skill=skills(red=9),
        ),
        chariot("B", 0, hand=["G6"]),
        emperor="all",
    )
    turn = play(start, {"A": move("R1", 0, 1, token=0), "B": STAY})
    assert turn.one(BonusSlotTaken, seat="A").slot == 3
    assert turn.chariot("A")["skills"]["red"] == box(3)


@pytest.mark.parametrize(
    ("held", "slot"),
    [
        ({"green": box(3), "yellow": box(5)}, 7),
        ({"yellow": box(5)}, 3),
        ({"green": box(3), "yellow": box(7), "black": box(9)}, 5),
    ],
)
def test_a_marker_reaching_the_box_takes_the_lowest_free_slot(
    held: dict[str, object], slot: int
) -> None:
    """§5 Rewards: one marker per slot; a new arrival takes the lowest slot still free."""
    start = position(
        chariot("A", BACK_STRAIGHT, hand=["R1", "R1"], skill=skills(red=10, **held)),
        chariot("B", 0, hand=["G6"]),
    )
    turn = play(start, {"A": move("R1", 0, 1), "B": STAY})
    assert turn.one(BonusSlotTaken, seat="A").slot == slot
