"""Random play: seeded games of 1 to 6 players on both sides and in both ambush modes.

At the start and after every action (a random placement the rules accept included): the
position round-trips through JSON; replaying the recorded action on the replayed state
gives the live state; no filled cell ever changes; the events alone rebuild every map;
season scores, coins and monster losses equal a recount from the map; the 1×1 fallback is
offered exactly when no shape fits; a random placement the engine accepts is one of the
listed legal placements and one it refuses changes nothing; views never show the deck or
another seat's choice; events serialise and private ones go to the acting seat only. The
whole record replays at the end.

A short loop runs by default; ``CIRCUS_LONG=1`` plays thousands of games.
"""

from __future__ import annotations

import json
import os

from engine.cartographers import Expedition, Terrain, read_position, write_position
from engine.cartographers.components import COIN_TRACK, DRAWABLE
from engine.cartographers.events import MonsterPlaced, SeasonScored, ShapeDrawn
from engine.cartographers.geometry import SIZE, label, parse_label
from engine.cartographers.rules import RULESET, legal_placements
from engine.cartographers.scoring import score
from engine.cartographers.sheet import MapSheet
from engine.cartographers.state import GameState
from engine.core import Action, Chance, EngineError, Event, Rng, replay
from tests.engine.cartographers.helpers import action_kind, options_for

LONG = os.environ.get("CIRCUS_LONG") == "1"
GAMES = 2000 if LONG else 24


def monster_losses(sheet: MapSheet) -> int:
    """Empty cells orthogonally next to a monster, counted by brute force."""
    lost = 0
    for row in range(SIZE):
        for col in range(SIZE):
            if sheet.is_filled(row * SIZE + col):
                continue
            around = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
            if any(
                0 <= r < SIZE and 0 <= c < SIZE and sheet.terrain(r * SIZE + c) is Terrain.MONSTER
                for r, c in around
            ):
                lost += 1
    return lost


def surrounded(sheet: MapSheet) -> int:
    count = 0
    for index in sheet.mountains:
        row, col = divmod(index, SIZE)
        around = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
        if all(sheet.is_filled(r * SIZE + c) for r, c in around if 0 <= r < SIZE and 0 <= c < SIZE):
            count += 1
    return count


class Ledger:
    """What the events say happened, kept apart from the engine's own state."""

    def __init__(self, state: GameState) -> None:
        self.sheets = {p.seat: p.sheet for p in state.players}
        self.coin_shapes = dict.fromkeys(state.seats, 0)

    def follow(self, before: GameState, events: tuple[Event, ...]) -> None:
        for event in events:
            if isinstance(event, ShapeDrawn):
                self.sheets[event.map] = self.sheets[event.map].draw(
                    event.drawing.cells, event.drawing.terrain
                )
                self.coin_shapes[event.map] += int(event.drawing.coin)
            elif isinstance(event, MonsterPlaced):
                cells = [parse_label(name) or 0 for name in event.cells]
                self.sheets[event.map] = self.sheets[event.map].draw(cells, Terrain.MONSTER)
            elif isinstance(event, SeasonScored):
                sheet = self.sheets[event.seat]
                first, second = event.edicts
                points = (score(first, sheet).points, score(second, sheet).points)
                assert event.score.edicts == points
                assert event.score.monsters == monster_losses(sheet)
                assert event.score.coins == self.coins(event.seat)

    def coins(self, seat: str) -> int:
        return min(COIN_TRACK, self.coin_shapes[seat] + surrounded(self.sheets[seat]))


def check_no_overwrite(before: GameState, after: GameState) -> None:
    for old, new in zip(before.players, after.players, strict=True):
        for index in range(SIZE * SIZE):
            assert old.sheet.is_ruins(index) == new.sheet.is_ruins(index)
            if old.sheet.is_filled(index):
                assert new.sheet.code(index) == old.sheet.code(index), label(index)


def check_fallback_rule(state: GameState, seat: str) -> None:
    offer = state.offer()
    shaped = any(
        legal_placements(state, seat, terrain, shape)
        for terrain in offer.terrains
        for shape in range(len(offer.shapes))
    )
    singles = [
        drawing
        for terrain in offer.fallback_terrains
        for drawing in legal_placements(state, seat, terrain, None)
    ]
    assert bool(singles) != shaped


def try_random_placement(state: GameState, seat: str, rng: Rng) -> None:
    """A random (usually illegal) placement: refused without change, or a listed one."""
    before = write_position(state)
    offer = state.offer()
    data = {
        "terrain": DRAWABLE[rng.below(len(DRAWABLE))].value,
        "shape": rng.below(len(offer.shapes)),
        "rotation": 90 * rng.below(4),
        "flip": bool(rng.below(2)),
        "at": label(rng.below(SIZE * SIZE)),
    }
    action = Action(action_kind(state), seat, data)
    try:
        transition = RULESET.apply(state, action, Chance.live(state.seed, state.draws))
    except EngineError:
        assert write_position(state) == before
        return
    assert read_position(json.loads(json.dumps(write_position(transition.state)))) == (
        transition.state
    )
    drawing = transition.state.commit_of(seat) or next(
        e.drawing for e in transition.events if isinstance(e, ShapeDrawn) and e.seat == seat
    )
    listed = legal_placements(state, seat, drawing.terrain, drawing.placement.shape)
    assert drawing.cells in {d.cells for d in listed}


def check_views(state: GameState, expedition: Expedition) -> None:
    for seat in (*state.seats, None):
        shown = expedition.view(seat).to_json()
        assert "deck" not in shown and "seed" not in shown and "commits" not in shown
        if seat is not None:
            own = state.commit_of(seat)
            mine = shown["my_drawing"]
            assert (mine is None) == (own is None)
            if own is not None:
                assert mine == own.to_json()


def play_one(seed: int) -> int:
    seats = 1 + seed % 6
    side = "AB"[seed // 6 % 2]
    ambush = "neighbour" if seats > 1 and seed // 12 % 2 else "auto"
    expedition = Expedition.new(seats=seats, seed=seed, side=side, ambush=ambush)
    rng = Rng(seed, 4242)
    replayed = replay(expedition.record)
    assert read_position(json.loads(json.dumps(write_position(replayed)))) == replayed
    ledger = Ledger(expedition.state)
    steps = 0
    while not expedition.is_over:
        state = expedition.state
        seat = state.waiting_for[rng.below(len(state.waiting_for))]
        check_fallback_rule(state, seat)
        if rng.below(4) == 0:
            try_random_placement(state, seat, rng)
        choices = options_for(state, seat)
        drawing = choices[rng.below(len(choices))]
        events = expedition.act(action_kind(state), seat, drawing.placement)
        after = expedition.state
        for event in events:
            json.dumps(event.to_json())
            assert event.audience in (None, seat)
        check_no_overwrite(state, after)
        ledger.follow(state, events)
        assert ledger.sheets == {p.seat: p.sheet for p in after.players}
        assert all(p.coins == ledger.coins(p.seat) for p in after.players)
        assert read_position(json.loads(json.dumps(write_position(after)))) == after
        recorded = expedition.record.actions[-1]
        chance = Chance.scripted(recorded.chance, RULESET.chance_index(replayed))
        replayed = RULESET.apply(replayed, recorded, chance).state
        chance.finish()
        assert replayed == after
        check_views(after, expedition)
        steps += 1
    result = expedition.result
    assert result is not None
    totals = {p.seat: sum(s.total for s in p.seasons) for p in expedition.state.players}
    assert max(totals.values()) == totals[result.winners[0]]
    assert replay(expedition.record) == expedition.state
    return steps


def test_random_games_keep_every_invariant() -> None:
    steps = sum(play_one(seed) for seed in range(GAMES))
    assert steps > GAMES * 15
