"""The strategic level's judgement in clear-cut positions, where the longest move (what
greedy plays) is not the right one."""

from __future__ import annotations

import dataclasses

import pytest

from engine.charioteer import Colour, RaceState, view
from engine.charioteer.ai import GreedyPolicy, StrategicPolicy
from engine.charioteer.ai.evaluation import advance, advanced_skill, best_symbol_totals
from engine.charioteer.ai.strategic import longest_move
from engine.charioteer.components import Card, Symbol, TokenKind, deck
from engine.charioteer.rules import Play, analyse_hand, iter_hand_moves, recovered
from engine.charioteer.state import Chariot, RaceOptions, Skill
from engine.core import Rng
from tests.engine.charioteer.test_ai import position

CROWD = ["G2 Y2 B1", "R5 Y4 B1", "whip"]


def strategic_play(state: RaceState, seed: int = 1) -> Play:
    seat_view = view(state, "A")
    return seat_view.analyse(StrategicPolicy().choose(seat_view, Rng(seed, 2)))


def greedy_play(state: RaceState) -> Play:
    seat_view = view(state, "A")
    return seat_view.analyse(GreedyPolicy().choose(seat_view, Rng(0)))


def test_corners_with_black_where_the_curve_doubles_its_worth() -> None:
    """Entering the first curve, a black move of 8 covers 15 spaces; green 10 covers 10."""
    state = position(
        turn=5,
        crowd=CROWD,
        a={
            "position": 6,
            "hand": ["G6x2 R3x2", "G6x2 R5x2", "B2x2 Y0x2", "B2x2 G4", "B2x2 R1", "R1 Y2 B1"],
            "tokens": [],
        },
        b={"position": 4},
    )
    assert greedy_play(state).colour is Colour.GREEN
    assert strategic_play(state).colour is Colour.BLACK


def test_uses_the_emperor_to_push_a_skill_into_the_bonus_box() -> None:
    """Red at level 9 reaches the box with the emperor's extra step: worth 3 spaces now."""
    skills = {"green": 3, "red": 9, "yellow": 1, "black": 0}
    hand = ["R3x2 G2", "R3x2 Y2", "G6x2 B1", "G6x2 Y0", "Y0 B1x2", "B0 Y4"]

    def state(emperor: str) -> RaceState:
        a = {"position": 25, "skills": skills, "hand": hand, "tokens": []}
        return position(turn=4, emperor=emperor, crowd=CROWD, a=a, b={"position": 27})

    assert greedy_play(state("red")).colour is Colour.GREEN
    assert strategic_play(state("red")).colour is Colour.RED
    assert strategic_play(state("yellow")).colour is Colour.GREEN


def test_attacks_when_it_costs_little_distance() -> None:
    state = position(
        turn=5,
        crowd=CROWD,
        a={
            "position": 25,
            "hand": ["R5x2 G2", "R5 Y2x2", "R5 B0x2", "G6x2 B1", "G6x2 Y0", "Y0 B1x2"],
            "tokens": [],
        },
        b={"position": 27},
    )
    assert greedy_play(state).attack_cubes == 0
    assert strategic_play(state).attack_cubes == 1


def test_shields_against_cubes_waiting_in_its_attack_boxes() -> None:
    state = position(turn=5, a={"position": 25, "attack": 3}, b={"position": 27})
    assert not greedy_play(state).shield
    play = strategic_play(state)
    assert play.shield or play.is_reset


def test_resets_when_damage_would_cost_more_than_a_turn() -> None:
    state = position(
        turn=4,
        a={
            "position": 25,
            "damage": 9,
            "hand": ["G6x2 R3x2", "G6 R5x2", "G4x2 B2", "R1x2 B1x2", "G2 B0", "R3 B0"],
            "tokens": ["+3"],
        },
        b={"position": 30},
    )
    assert not greedy_play(state).is_reset
    assert strategic_play(state).is_reset


def test_keeps_its_distance_tokens_on_a_straight_early_in_the_race() -> None:
    state = position(turn=5, a={"position": 25}, b={"position": 27})
    greedy_token = greedy_play(state).token
    assert greedy_token is not None and greedy_token.kind is TokenKind.PLUS5
    token = strategic_play(state).token
    assert token is None or not token.kind.distance_bonus


def test_spends_its_tokens_to_finish_first() -> None:
    hand = ["G6x2 R3x2", "G6 R5x2", "R1x2 B1x2", "Y0x2 B0x2", "G2 Y0x2", "R3 Y2x2"]
    state = position(
        turn=20, a={"position": 176, "hand": hand, "tokens": ["+5"]}, b={"position": 150}
    )
    play = strategic_play(state)
    assert play.token is not None and play.token.kind is TokenKind.PLUS5


def test_whips_when_a_rival_is_out_of_reach_ahead() -> None:
    hand = ["G6x2 R3x2", "G6 R5x2", "R1x2 B1x2", "Y0x2 B0x2", "whip", "G2 B0"]
    state = position(turn=8, a={"position": 50, "hand": hand, "tokens": []}, b={"position": 70})
    assert greedy_play(state).whips == 0
    assert strategic_play(state).whips == 1


@pytest.mark.parametrize("seed", range(3))
def test_its_choice_does_not_hang_on_one_sample(seed: int) -> None:
    """Clear choices survive other samples of the hidden cards."""
    state = position(turn=5, a={"position": 25, "attack": 3}, b={"position": 27})
    play = strategic_play(state, seed)
    assert play.shield or play.is_reset


def test_advance_skips_outer_spaces_only_for_black_moves() -> None:
    finish = 189
    assert advance(20, 5, False, finish) == 25
    # positions 6–22 are the first curve: outer spaces at 7, 9, …, 21
    assert advance(6, 8, True, finish) == 22
    assert advance(6, 8, False, finish) == 14
    # past the final finish line every move skips outer spaces (193 is one)
    assert advance(finish, 4, False, finish) == 194


def test_advanced_skill_takes_the_lowest_free_bonus_slot() -> None:
    skills = [Skill(11, 3), Skill(9), Skill(2), Skill(0)]
    assert advanced_skill(skills, 1, 2) == Skill(11, 5)
    assert advanced_skill(skills, 1, 1) == Skill(10)
    assert advanced_skill(skills, 0, 2) == Skill(11, 3)


def test_best_symbol_totals_counts_three_cards_and_the_crowd() -> None:
    hand = [Card.parse(text) for text in ["R5x2 G2", "R5 Y2x2", "R5x2 B0", "R5 B1", "G2 B1"]]
    totals = best_symbol_totals(hand, Card.parse("R5 Y4 B1"))
    assert totals[Symbol(Colour.RED, 5)] == 2 + 2 + 1 + 1
    assert totals[Symbol(Colour.GREEN, 2)] == 2
    assert totals[Symbol(Colour.BLACK, 1)] == 3
    assert Symbol(Colour.YELLOW, 2) not in totals


@pytest.mark.parametrize("crowd_counts", [True, False])
def test_rivals_longest_move_is_legal_and_longest(crowd_counts: bool) -> None:
    """The rivals' model in sampled races: as long as any token-free move of the hand."""
    options = RaceOptions(crowd_counts_toward_minimum=crowd_counts)
    cards = deck()
    base = position().chariot("A")
    for seed in range(60):
        rng = Rng(seed)
        hand = tuple(cards[rng.below(len(cards))] for _ in range(2 + rng.below(7)))
        crowd = (cards[rng.below(len(cards))],)
        chariot = dataclasses.replace(base, hand=hand, damage=rng.below(6), tokens=())
        move = longest_move(chariot, crowd[0], crowd_counts)
        distances = [
            distance_of(chariot, analyse_hand("A", hand, (), crowd, options, legal))
            for legal in iter_hand_moves(hand, (), crowd, options, discards=False)
            if not legal.is_reset
        ]
        if move is None:
            assert not distances
            continue
        play = analyse_hand("A", hand, (), crowd, options, move)
        assert distance_of(chariot, play) == max(distances)


def distance_of(chariot: Chariot, play: Play) -> int:
    assert play.colour is not None
    damage = chariot.damage - recovered(chariot.damage, play.recoveries)
    return max(0, play.card_distance + chariot.skill(play.colour).bonus - damage)
