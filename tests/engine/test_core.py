"""The shared engine machinery: seeded chance, scripted replay and records."""

import random

import pytest

from engine.core import (
    Action,
    Chance,
    GameRecord,
    IllegalAction,
    ReplayMismatch,
    Rng,
    _splitmix64,
)


def test_splitmix64_matches_its_reference_vectors() -> None:
    """The published SplitMix64 outputs for seed 1234567: our chance is the standard one."""
    state, outputs = 1234567, []
    for _ in range(5):
        state, out = _splitmix64(state)
        outputs.append(out)
    assert outputs == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_rng_streams_are_independent_and_repeatable() -> None:
    assert Rng(0, 0).permutation(10) == Rng(0, 0).permutation(10)
    assert Rng(0, 0).permutation(10) != Rng(0, 1).permutation(10)
    assert Rng(1, 0).permutation(10) != Rng(0, 0).permutation(10)
    assert sorted(Rng(3).permutation(147)) == list(range(147))


def test_rng_ignores_the_global_random_module() -> None:
    first = Rng(42, 3).permutation(20)
    random.seed(1)
    random.random()
    assert Rng(42, 3).permutation(20) == first


def test_rng_below_is_roughly_uniform() -> None:
    rng = Rng(9)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert min(counts) > 850 and max(counts) < 1150


def test_live_chance_records_what_a_script_replays() -> None:
    live = Chance.live(5, 10)
    order = live.shuffle("deck", 8)
    face = live.roll("emperor", 6)
    assert live.next_index == 12
    scripted = Chance.scripted(live.outcomes, 10)
    assert scripted.shuffle("deck", 8) == order
    assert scripted.roll("emperor", 6) == face
    scripted.finish()
    assert scripted.next_index == 12


def test_scripted_chance_refuses_outcomes_that_do_not_fit() -> None:
    live = Chance.live(5, 0)
    live.roll("emperor", 6)
    with pytest.raises(ReplayMismatch):
        Chance.scripted(live.outcomes).shuffle("deck", 6)
    with pytest.raises(ReplayMismatch):
        Chance.scripted([{"what": "emperor", "roll": 9}]).roll("emperor", 6)
    with pytest.raises(ReplayMismatch):
        Chance.scripted([]).roll("emperor", 6)
    unused = Chance.scripted(live.outcomes)
    with pytest.raises(ReplayMismatch):
        unused.finish()


def test_record_round_trips_through_json() -> None:
    record = GameRecord(
        "charioteer",
        1,
        {"seats": 3},
        11,
        [{"what": "deck", "shuffle": [1, 0]}],
        None,
        [Action("commit", "A", {"cards": [0]}, ({"what": "emperor", "roll": 2},))],
    )
    assert GameRecord.from_json(record.to_json()) == record


def test_engine_errors_may_carry_a_message_id_for_translation() -> None:
    plain = IllegalAction("No.", seat="A")
    assert plain.to_json() == {"error": "seat A: No."}
    assert plain.message is None and plain.params == {}
    coded = IllegalAction(
        "Cell C4 is taken.", seat="2", message="cell_taken", params={"cell": "C4"}
    )
    assert coded.reason == "Cell C4 is taken."
    assert coded.to_json() == {
        "error": "seat 2: Cell C4 is taken.",
        "message": "cell_taken",
        "params": {"cell": "C4"},
    }
