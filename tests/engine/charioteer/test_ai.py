"""AI seats: every level returns a legal move from what its seat may see, deterministically."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.charioteer import Move, Race, RaceState, read_position, view
from engine.charioteer.ai import LEVELS, GreedyPolicy, policy_for
from engine.charioteer.ai.base import move_distance
from engine.charioteer.components import Card, Token
from engine.charioteer.rules import analyse
from engine.core import GameOver, IllegalAction, MalformedAction, Rng
from engine.simulation import game_seed

SKILLS = {"green": 3, "red": 2, "yellow": 1, "black": 0}


def race_positions(seats: int, races: int, seed: int, every: int = 1) -> Iterator[RaceState]:
    """States at the start of turns of races played by a mix of random and greedy seats."""
    chooser = [policy_for("greedy"), policy_for("random")]
    for index in range(races):
        race = Race.new(seats=seats, seed=game_seed(seed, index))
        while not race.is_over:
            if race.turn % every == 0:
                yield race.state
            for number, seat in enumerate(race.seats):
                policy = chooser[(number + index) % 2]
                rng = Rng(seed, race.turn * 8 + number)
                race.commit(seat, policy.choose(race.view(seat), rng))


def position(**changes: Any) -> RaceState:
    """A hand-made two-seat position; ``changes`` replace keys of the notation, and
    ``a``/``b`` update chariot A's and B's entries."""
    chariots = [
        {
            "seat": "A",
            "position": 40,
            "lane": 0,
            "skills": SKILLS,
            "hand": ["G6x2 R3x2", "G6 R5x2", "G4x2 Y2", "R1x2 B1x2", "Y0x2 B0x2", "whip"],
            "tokens": ["+3", "+5", "whip", "shield", "recovery"],
        },
        {
            "seat": "B",
            "position": 44,
            "lane": 0,
            "skills": SKILLS,
            "hand": ["G2x2 R3x2", "G2x2 Y4x2", "G2x2 B1x2", "G2x2 B2x2"],
            "tokens": ["+3"],
        },
    ]
    chariots[0].update(changes.pop("a", {}))
    chariots[1].update(changes.pop("b", {}))
    notation: dict[str, Any] = {
        "turn": 6,
        "emperor": "green",
        "crowd": ["G6 R1 Y0", "R5 Y4 B1", "whip"],
        "chariots": chariots,
        "seed": 3,
    }
    notation.update(changes)
    return read_position(notation)


EDGE_CASES: dict[str, RaceState] = {
    "ordinary": position(),
    "huge damage": position(a={"damage": 40, "attack": 3}),
    "one card": position(a={"hand": ["G6x2 R3x2"], "tokens": []}),
    "only whips": position(a={"hand": ["whip", "whip", "whip"], "tokens": []}),
    "no tokens": position(a={"tokens": []}),
    "turn one": position(
        turn=1,
        first_seat="B",
        a={"position": 0, "lane": 0},
        b={"position": 0, "lane": 1},
    ),
    "about to finish": position(a={"position": 180}, b={"position": 186}),
    "no crowd card": position(crowd=[]),
    "fan tokens": position(
        a={
            "tokens": [
                "green:wild",
                "red:learning",
                "discard3",
                "black:+5",
                "fan:shield",
                "discard2",
                "yellow:+3",
            ]
        }
    ),
    "empty draw pile": position(deck=[], discard=[]),
    "crowd not counted toward two cards": position(
        options={"crowd_counts_toward_minimum": False, "laps": 1},
        crowd=["G6 R5x2 Y0", "R5 Y4 B1", "whip"],
        a={"hand": ["G6x2 R3x2", "R5 Y2x2", "Y0x2 B0x2", "B1 G2", "whip"]},
        b={"hand": ["G6x2 B1", "R5x2 Y4", "G2 Y2 B1"]},
    ),
    "rival without cards": position(b={"hand": [], "tokens": []}),
    "everything in the bonus box": position(
        a={
            "skills": {
                "green": {"bonus": 3},
                "red": {"bonus": 5},
                "yellow": {"bonus": 7},
                "black": {"bonus": 9},
            }
        }
    ),
}


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("case", sorted(EDGE_CASES))
def test_every_level_moves_legally_in_odd_positions(level: str, case: str) -> None:
    state = EDGE_CASES[case]
    for stream in range(3):
        move = policy_for(level).choose(view(state, "A"), Rng(11, stream))
        analyse(state, "A", move)


@pytest.mark.parametrize("seats", [2, 6])
def test_every_level_moves_legally_through_real_races(seats: int) -> None:
    checked = 0
    for state in race_positions(seats, races=2, seed=seats, every=3):
        for number, seat in enumerate(state.seats[:2]):
            for level in LEVELS:
                move = policy_for(level).choose(view(state, seat), Rng(5, number))
                analyse(state, seat, move)
                checked += 1
    assert checked > 50


def test_greedy_takes_a_move_of_maximum_distance() -> None:
    greedy = GreedyPolicy()
    for number, state in enumerate(race_positions(3, races=2, seed=9)):
        seat = state.seats[number % 3]
        seat_view = view(state, seat)
        move = greedy.choose(seat_view, Rng(1, number))
        longest = max(
            move_distance(seat_view, seat_view.analyse(legal))
            for legal in seat_view.legal_moves(discards=True)
        )
        assert move_distance(seat_view, seat_view.analyse(move)) == longest


def test_greedy_prefers_the_move_spending_least_among_equals() -> None:
    state = position(a={"hand": ["G6x2 R3x2", "G6x2 Y4x2", "whip"], "tokens": []})
    move = GreedyPolicy().choose(view(state, "A"), Rng(0))
    assert move == Move((0, 1), state.crowd[0].symbols[0][0], crowd=True)


def hide_differently(state: RaceState, seed: int) -> RaceState:
    """The same race for seat A with every card A cannot see dealt anew, the fan bag
    reordered, rivals' tokens swapped and another seed and next emperor face."""
    shuffler = random.Random(seed)
    rivals = [chariot for chariot in state.chariots if chariot.seat != "A"]
    hidden = [card for chariot in rivals for card in chariot.hand] + list(state.deck)
    shuffler.shuffle(hidden)
    chariots = []
    for chariot in state.chariots:
        if chariot.seat != "A":
            size = len(chariot.hand)
            hand, hidden = tuple(hidden[:size]), hidden[size:]
            kinds = ["red:wild", "whip", "shield", "+3", "discard2"]
            tokens = tuple(Token.parse(kinds[i % 5]) for i in range(len(chariot.tokens)))
            chariot = dataclasses.replace(chariot, hand=hand, tokens=tokens)
        chariots.append(chariot)
    bag = list(state.fan_bag)
    shuffler.shuffle(bag)
    return dataclasses.replace(
        state,
        chariots=tuple(chariots),
        deck=tuple(hidden),
        fan_bag=tuple(bag),
        seed=state.seed + 1,
        next_emperor=None,
    )


@pytest.mark.parametrize("level", LEVELS)
def test_levels_never_read_what_their_seat_cannot_see(level: str) -> None:
    policy = policy_for(level)
    differed = 0
    for number, state in enumerate(race_positions(3, races=1, seed=4, every=4)):
        other = hide_differently(state, number)
        differed += other.deck != state.deck
        assert view(other, "A") == view(state, "A")
        assert policy.choose(view(other, "A"), Rng(8, number)) == policy.choose(
            view(state, "A"), Rng(8, number)
        )
    assert differed > 0


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_and_seed_give_the_same_move(level: str) -> None:
    state = EDGE_CASES["ordinary"]
    policy = policy_for(level)
    first = policy.choose(view(state, "A"), Rng(21, 4))
    random.seed(99)
    random.random()
    assert policy_for(level).choose(view(state, "A"), Rng(21, 4)) == first


def test_random_level_varies_with_the_seed() -> None:
    state = EDGE_CASES["ordinary"]
    moves = {policy_for("random").choose(view(state, "A"), Rng(seed)) for seed in range(10)}
    assert len(moves) > 1


def test_no_move_when_the_race_is_over_or_the_hand_is_empty() -> None:
    over = read_position(
        {
            **_notation(position()),
            "result": {"winner": "B", "ranking": ["B", "A"], "turns": 5},
        }
    )
    empty = position(a={"hand": [], "tokens": []})
    for level in LEVELS:
        with pytest.raises(GameOver):
            policy_for(level).choose(view(over, "A"), Rng(0))
        with pytest.raises(IllegalAction):
            policy_for(level).choose(view(empty, "A"), Rng(0))
        with pytest.raises(IllegalAction):
            policy_for(level).choose(view(position()), Rng(0))


def test_unknown_level_is_refused() -> None:
    with pytest.raises(MalformedAction, match="unknown AI level 'genius'"):
        policy_for("genius")


def _notation(state: RaceState) -> dict[str, Any]:
    from engine.charioteer import write_position

    return write_position(state)


def _card(text: str) -> Card:
    return Card.parse(text)
