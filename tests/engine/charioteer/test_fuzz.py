"""Random play over many seeded races: the invariants that must hold at every step.

At the start and after every accepted commit (a random one the rules happen to accept
included): the position round-trips through JSON, an illegal action raises and
changes nothing, cards (147) and fan tokens (60) are conserved, no attack box area holds
more than 3 cubes, no chariot goes backwards, every race ends, and a seat's playable
symbols are those of its listed legal moves. ``replay(record)``
equals the live state at the end of every race, and at every step of the first races.

``CIRCUS_LONG=1`` plays thousands of races instead of a few hundred.
"""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest

from engine.charioteer import Move, Race, RaceState, Symbol, read_position, write_position
from engine.charioteer.components import ATTACK_BOXES, deck, fan_tokens
from engine.core import EngineError, Rng, replay

LONG = os.environ.get("CIRCUS_LONG") == "1"
RACES = 3000 if LONG else 80
STEP_REPLAY_RACES = 40 if LONG else 4
MAX_TURNS = 400
STANDARD_CARDS = Counter(deck())
STANDARD_FAN_TOKENS = Counter(token.public() for token in fan_tokens())


def assert_conserved(state: RaceState) -> None:
    cards = [*state.deck, *state.discard, *state.crowd]
    fans = [*state.fan_bag, *state.fan_discard]
    for chariot in state.chariots:
        cards.extend(chariot.hand)
        fans.extend(token for token in chariot.tokens if token.fan)
        player_tokens = [token for token in chariot.tokens if not token.fan]
        assert len(player_tokens) == len(set(player_tokens)) <= 5
    assert Counter(cards) == STANDARD_CARDS, "cards appeared or vanished"
    assert Counter(token.public() for token in fans) == STANDARD_FAN_TOKENS, "fan tokens leaked"


def assert_round_trips(state: RaceState) -> None:
    text = json.dumps(write_position(state))
    again = read_position(json.loads(text))
    assert again == state
    assert json.dumps(write_position(again)) == text


def random_illegal_move(rng: Rng, hand_size: int) -> Move:
    """A move drawn from a space much larger than the legal one; most are illegal."""
    symbols = [
        Symbol.parse(text)
        for text in ("G2", "G4", "G6", "R1", "R3", "R5", "Y0", "Y2", "Y4", "B0", "B1", "B2")
    ]
    cards = tuple(rng.below(hand_size + 2) for _ in range(1 + rng.below(4)))
    if rng.below(5) == 0:
        return Move.reset(cards, rng.below(8) if rng.below(2) else None, (rng.below(hand_size),))
    return Move(
        cards,
        symbols[rng.below(len(symbols))],
        crowd=bool(rng.below(2)),
        token=rng.below(8) if rng.below(2) else None,
        wild=rng.below(hand_size) if rng.below(4) == 0 else None,
    )


def check_step(race: Race, positions: dict[str, int], *, replay_every_step: bool) -> None:
    """The invariants after one accepted commit."""
    state = race.state
    assert_round_trips(state)
    assert_conserved(state)
    for chariot in state.chariots:
        assert 0 <= chariot.attack <= ATTACK_BOXES
        assert chariot.position >= positions[chariot.seat], "a chariot went backwards"
        positions[chariot.seat] = chariot.position
    if replay_every_step:
        assert replay(race.record) == state


def play_random_race(seed: int, *, replay_every_step: bool) -> Race:
    rng = Rng(seed, 1)
    race = Race.new(seats=2 + seed % 5, seed=seed, laps=1 + seed % 3)
    positions = {seat: 0 for seat in race.seats}
    assert_round_trips(race.state)
    assert_conserved(race.state)
    while not race.is_over:
        assert race.turn <= MAX_TURNS, "the race does not end"
        turn = race.turn
        for seat in race.waiting_for:
            before, actions = race.state, len(race.record.actions)
            try:
                race.commit(seat, random_illegal_move(rng, len(race.state.chariot(seat).hand)))
            except EngineError:
                assert race.state == before and len(race.record.actions) == actions
            else:
                check_step(race, positions, replay_every_step=replay_every_step)
            if race.turn != turn or race.is_over:
                break  # the random move was legal and the last one: the turn resolved
            moves = race.legal_moves(seat)
            assert moves, f"seat {seat} has no legal move"
            listed = {move.symbol for move in moves if move.symbol is not None}
            assert set(race.view(seat).playable_symbols()) == listed
            race.commit(seat, moves[rng.below(len(moves))])
            check_step(race, positions, replay_every_step=replay_every_step)
    assert replay(race.record) == race.state
    return race


@pytest.mark.parametrize("chunk", range(4))
def test_random_races_keep_every_invariant(chunk: int) -> None:
    for seed in range(chunk, RACES, 4):
        race = play_random_race(seed, replay_every_step=seed < STEP_REPLAY_RACES)
        assert race.result is not None
        assert sorted(race.result.ranking) == sorted(race.seats)
        finish = race.state.options.finish
        winner = race.state.chariot(race.result.winner)
        assert winner.position >= finish
