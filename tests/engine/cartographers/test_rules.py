"""The turn cycle: set-up, simultaneous commits, refusals that change nothing, season ends,
final scoring and ties, tables of 1, 2, 6 and 12 players, views and the JSON forms."""

from __future__ import annotations

import json
import random

import pytest

from engine.cartographers import Expedition, read_position, view, write_position
from engine.cartographers.components import (
    EXPLORE_BY_ID,
    SCORING_BY_ID,
    SCORING_DECKS,
    ScoringDeck,
)
from engine.cartographers.events import GameEnded, PlacementChosen, SeasonScored, ShapeDrawn
from engine.cartographers.geometry import label
from engine.cartographers.rules import RULESET, read_config
from engine.cartographers.sheet import MapSheet
from engine.cartographers.state import Phase, Player, SeasonScore, rank
from engine.core import (
    Action,
    EngineError,
    GameOver,
    GameRecord,
    IllegalAction,
    MalformedAction,
    MalformedPosition,
    Rng,
    events_for,
    public_events,
    replay,
    ruleset_for,
)
from tests.engine.cartographers.helpers import options_for, play_randomly, table


def test_the_ruleset_is_registered_under_its_id() -> None:
    assert ruleset_for("cartographers") is RULESET


def test_setup_deals_one_scoring_card_per_deck_and_shuffles_one_ambush_in() -> None:
    for seed in range(12):
        expedition = Expedition.new(seats=2, seed=seed)
        state = expedition.state
        decks = sorted(SCORING_BY_ID[edict].deck.value for edict in state.edicts)
        assert decks == sorted(deck.value for deck in SCORING_DECKS)
        cards = [*state.deck, *state.column, *state.ambushes_out]
        assert sorted(c for c in cards if c in EXPLORE_BY_ID) == sorted(EXPLORE_BY_ID)
        assert len(cards) == 14 and len(state.ambush_deck) == 3
        assert state.phase is Phase.DRAW and state.turn == 1
        assert state.time_used == sum(EXPLORE_BY_ID[c].time for c in state.column)
    placements = {Expedition.new(seed=seed).state.edicts[0] for seed in range(40)}
    # the placement deck is not always under edict D: the four are laid out at random
    assert len({SCORING_BY_ID[c].deck for c in placements}) > 1
    assert ScoringDeck.PLACEMENT in {SCORING_BY_ID[c].deck for c in placements}


@pytest.mark.parametrize(
    "config",
    [
        {"seats": 0},
        {"seats": 101},
        {"seats": "2"},
        {"side": "C"},
        {"ambush": "sometimes"},
        {"seats": 1, "ambush": "neighbour"},
        {"players": 2},
    ],
)
def test_bad_configurations_are_refused(config: dict[str, object]) -> None:
    with pytest.raises(MalformedPosition):
        read_config(config)


def test_the_last_commit_resolves_and_commits_may_change_until_then() -> None:
    expedition = table(
        seats=2,
        card="great_river",
        column=["great_river"],
        deck=["hamlet", "farmland", "orchard", "homestead", "marshlands"],
    )
    first = expedition.place("1", {"terrain": "water", "shape": 0, "at": "A1"})
    assert [e.type for e in first] == ["placement_chosen", "committed"]
    assert public_events(first)[0].to_json() == {
        "type": "committed",
        "seat": "1",
        "changed": False,
        "waiting_for": ["2"],
    }
    assert events_for(first, "2") == public_events(first)
    assert isinstance(events_for(first, "1")[0], PlacementChosen)
    changed = expedition.place("1", {"terrain": "water", "shape": 0, "at": "A11"})
    assert changed[-1].to_json()["changed"] is True
    assert expedition.state.player("1").sheet.code(0) == "."
    resolved = expedition.place("2", {"terrain": "water", "shape": 1, "at": "A5"})
    drawn = {
        e.map: {label(i) for i in e.drawing.cells} for e in resolved if isinstance(e, ShapeDrawn)
    }
    assert drawn == {"1": {"A11", "B11", "C11"}, "2": {"C5", "B6", "C6", "A7", "B7"}}
    assert expedition.state.card == "hamlet" and expedition.state.commits == ()
    assert expedition.state.player("1").coins == 1 and expedition.state.player("2").coins == 0


def test_a_withdrawn_drawing_is_gone_and_the_seat_owes_one_again() -> None:
    """A seat's unrevealed drawing can be taken back (the host does so when the seat changes
    hands): the seat owes a drawing again and the turn waits for it."""
    expedition = table(
        seats=2, card="great_river", column=["great_river"], deck=["hamlet", "farmland"]
    )
    expedition.place("1", {"terrain": "water", "shape": 0, "at": "A1"})
    (event,) = expedition.game.act(Action("withdraw", "1"))
    assert event.to_json() == {"type": "withdrawn", "seat": "1", "waiting_for": ["1", "2"]}
    assert expedition.state.commit_of("1") is None
    expedition.place("2", {"terrain": "water", "shape": 1, "at": "A5"})
    assert expedition.state.card == "great_river"
    expedition.place("1", {"terrain": "water", "shape": 0, "at": "A11"})
    assert expedition.state.card == "hamlet"
    with pytest.raises(IllegalAction) as refused:
        expedition.game.act(Action("withdraw", "1"))
    assert refused.value.message == "nothing_to_withdraw"


def test_refused_actions_change_nothing() -> None:
    expedition = table(seats=2, card="great_river", column=["great_river"], deck=["hamlet"] * 1)
    before = expedition.state
    record = len(expedition.record.actions)
    bad = [
        Action("draw", "1", {"terrain": "water", "at": "A1"}),
        Action("place", "9", {"terrain": "water", "at": "A1"}),
        Action("place", None, {"terrain": "water", "at": "A1"}),
        Action("monster", "1", {"shape": 0, "at": "A1"}),
        Action("place", "1", {"terrain": "water", "at": "D2"}),
        Action("place", "1", {"terrain": "water", "fallback": True, "at": "A1"}),
        Action("place", "1", {"terrain": "forest", "at": "A1"}),
    ]
    for action in bad:
        with pytest.raises(EngineError) as caught:
            expedition.game.act(action)
        assert isinstance(caught.value, MalformedAction | IllegalAction)
        assert caught.value.message is not None
        assert expedition.state is before
    assert len(expedition.record.actions) == record


def test_seasons_score_two_edicts_coins_and_monsters() -> None:
    board = [
        "TTT........",
        "X..M.R.....",
        ".R......MR.",
        "...........",
        "...........",
        ".....M.....",
        "...........",
        "...........",
        ".RM......R.",
        ".....R.M...",
        "...........",
    ]
    expedition = table(
        maps=[board],
        coins=[3],
        edicts=["sentinel_wood", "greenbough", "cauldrons", "borderlands"],
        card="great_river",
        column=["hinterland_stream", "orchard", "treetop_village", "farmland", "great_river"],
        deck=["hamlet", "gnoll_raid"],
        ambush_deck=["goblin_attack"],
    )
    events = expedition.place("1", {"terrain": "water", "shape": 0, "at": "E5"})
    scored = [e for e in events if isinstance(e, SeasonScored)]
    assert len(scored) == 1
    # spring scores edicts A and B: sentinel wood 3 (A1–C1), greenbough row 1 + columns
    # A–C = 4; 4 coins (3 + the river's); monster A2 threatens A3 and B2: −2
    assert scored[0].score == SeasonScore("spring", (3, 4), 4, 2)
    assert scored[0].stars == 9
    assert expedition.state.season_card.id == "summer"


def test_ranking_breaks_ties_by_monster_losses_then_shares() -> None:
    sheet = MapSheet("." * 121)

    def player(seat: str, total: int, monsters: int) -> Player:
        return Player(seat, sheet, 0, (SeasonScore("spring", (total + monsters, 0), 0, monsters),))

    result = rank(
        (player("1", 30, 4), player("2", 31, 9), player("3", 31, 2), player("4", 31, 2)),
        ("greenbough", "canal_lake", "wildholds", "borderlands"),
    )
    assert result.ranking == ("3", "4", "2", "1")
    assert result.winners == ("3", "4")
    assert result.solo is None
    alone = rank((player("1", 70, 3),), ("greenbough", "canal_lake", "wildholds", "borderlands"))
    # solo values 22 + 24 + 16 + 24 = 86: 70 − 86 = −16 → Dimwitted Doodler (≥ −20)
    assert alone.solo is not None
    assert (alone.solo.rating, alone.solo.title) == (-16, "dimwitted_doodler")


@pytest.mark.parametrize(("seats", "seed"), [(1, 1), (2, 2), (6, 3), (12, 4)])
def test_tables_of_one_to_twelve_play_to_the_end(seats: int, seed: int) -> None:
    for ambush in ("auto", "neighbour") if seats > 1 else ("auto",):
        expedition = Expedition.new(seats=seats, seed=seed, side="B", ambush=ambush)
        play_randomly(expedition, Rng(seed, 77))
        result = expedition.result
        assert result is not None and sorted(result.ranking) == sorted(expedition.seats)
        assert all(len(p.seasons) == 4 for p in expedition.state.players)
        assert (result.solo is not None) == (seats == 1)
        assert replay(expedition.record) == expedition.state
        with pytest.raises(GameOver):
            expedition.place("1", {"terrain": "forest", "at": "A1"})


def test_a_finished_game_reports_its_end_once() -> None:
    expedition = Expedition.new(seats=2, seed=8)
    ended = []
    rng = Rng(8, 1)
    while not expedition.is_over:
        state = expedition.state
        seat = state.waiting_for[0]
        choice = options_for(state, seat)[rng.below(len(options_for(state, seat)))]
        kind = "place" if state.phase is Phase.DRAW else "monster"
        ended += [
            e for e in expedition.act(kind, seat, choice.placement) if isinstance(e, GameEnded)
        ]
    assert len(ended) == 1 and ended[0].result == expedition.result


def test_views_show_every_map_but_not_the_deck_or_other_seats_choices() -> None:
    expedition = table(seats=3, card="orchard", column=["orchard"], deck=["hamlet", "farmland"])
    expedition.place("2", {"terrain": "forest", "at": "H9"})
    public = expedition.view(None).to_json()
    mine = expedition.view("2").to_json()
    theirs = expedition.view("1").to_json()
    for shown in (public, mine, theirs):
        text = json.dumps(shown)
        assert "hamlet" not in text and "farmland" not in text  # the deck's order
        assert "seed" not in shown and "deck" not in shown
        assert shown["deck_size"] == 2
    assert mine["my_drawing"]["at"] == "H9"
    assert theirs["my_drawing"] is None and "H9" not in json.dumps(theirs)
    assert [p["committed"] for p in public["players"]] == [False, True, False]


def test_positions_and_records_round_trip_through_json() -> None:
    expedition = Expedition.new(seats=3, seed=21, side="B", ambush="neighbour")
    rng = Rng(21, 5)
    for _ in range(25):
        state = expedition.state
        seat = state.waiting_for[0]
        choices = options_for(state, seat)
        kind = "place" if state.phase is Phase.DRAW else "monster"
        expedition.act(kind, seat, choices[rng.below(len(choices))].placement)
        text = json.dumps(write_position(expedition.state))
        assert read_position(json.loads(text)) == expedition.state
        record = GameRecord.from_json(json.loads(json.dumps(expedition.record.to_json())))
        assert replay(record) == expedition.state


@pytest.mark.parametrize(
    "change",
    [
        {"season": "monsoon"},
        {"edicts": ["greenbough", "greenbough", "wildholds", "cauldrons"]},
        {"phase": "ambush"},
        {"deck": ["joker"]},
        {"commits": {"7": {"terrain": "forest", "at": "A1"}}},
        {"commits": {"1": {"terrain": "forest", "at": "D2"}}},
        {"colour": "blue"},
    ],
)
def test_malformed_positions_are_refused(change: dict[str, object]) -> None:
    position = write_position(Expedition.new(seats=2, seed=3).state)
    position.update(change)
    with pytest.raises(MalformedPosition):
        read_position(position)


def test_determinism_ignores_the_global_random_module() -> None:
    def run() -> dict[str, object]:
        expedition = Expedition.new(seats=2, seed=99)
        rng = Rng(99, 3)
        while not expedition.is_over:
            random.seed(rng.below(1000))
            random.random()
            state = expedition.state
            seat = state.waiting_for[0]
            choices = options_for(state, seat)
            expedition.place(seat, choices[rng.below(len(choices))].placement)
        return write_position(expedition.state)

    assert run() == run()


def test_the_view_of_a_seat_names_the_map_it_draws_on() -> None:
    expedition = Expedition.new(seats=2, seed=5)
    assert view(expedition.state, "2").target == "2"
    with pytest.raises(KeyError):
        view(expedition.state, "3")
