"""Pairing properties (Hypothesis): every active player seated exactly once or given a bye,
tables balanced within one, byes rotating, and no avoidable repeat of table-mates (checked
against every possible arrangement of small fields); seeded heats and brackets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.community.pairing import (
    bracket_order,
    first_elimination_round,
    next_elimination_round,
    pair_key,
    repeats_in,
    snake_heats,
    swiss_round,
    table_sizes,
)


def partitions(players: Sequence[str], sizes: Sequence[int]) -> Iterator[list[tuple[str, ...]]]:
    """Every way to seat ``players`` at tables of ``sizes`` (any order of tables)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for mates in combinations(rest, size - 1):
            others = [p for p in rest if p not in mates]
            for tail in partitions(others, left):
                yield [(first, *mates), *tail]


fields = st.integers(min_value=0, max_value=10).flatmap(
    lambda n: st.tuples(
        st.just([f"p{i:02}" for i in range(n)]),
        st.dictionaries(
            st.tuples(st.integers(0, max(0, n - 1)), st.integers(0, max(0, n - 1))),
            st.integers(1, 2),
            max_size=30,
        ),
        st.dictionaries(st.integers(0, max(0, n - 1)), st.integers(0, 2), max_size=n),
        st.integers(2, 5),
        st.integers(2, 3),
    )
)


def unpack(field):  # type: ignore[no-untyped-def]
    players, raw_met, raw_byes, most, least = field
    least = min(least, most)
    met = {
        pair_key(players[a], players[b]): count
        for (a, b), count in raw_met.items()
        if a != b and a < len(players) and b < len(players)
    }
    byes = {players[i]: count for i, count in raw_byes.items() if i < len(players)}
    return players, met, byes, most, least


@settings(max_examples=150, deadline=None)
@given(fields)
def test_every_active_player_is_seated_once_or_has_a_bye(field) -> None:  # type: ignore[no-untyped-def]
    players, met, byes, most, least = unpack(field)
    pairing = swiss_round(players, most=most, least=least, met=met, byes_had=byes)
    seated = [p for table in pairing.tables for p in table] + list(pairing.byes)
    assert sorted(seated) == sorted(players)
    sizes = [len(table) for table in pairing.tables]
    assert all(least <= size <= most for size in sizes)
    assert not sizes or max(sizes) - min(sizes) <= 1
    # as few byes as a balanced split allows, and as few tables as possible
    for fewer in range(len(pairing.byes)):
        assert table_sizes(len(players) - fewer, most, least) is None
    if sizes:
        assert len(sizes) == -(-len(seated[: -len(pairing.byes) or None]) // most)


@settings(max_examples=150, deadline=None)
@given(fields)
def test_byes_go_to_those_who_had_the_fewest(field) -> None:  # type: ignore[no-untyped-def]
    players, met, byes, most, least = unpack(field)
    pairing = swiss_round(players, most=most, least=least, met=met, byes_had=byes)
    if pairing.byes:
        given_to = max(byes.get(p, 0) for p in pairing.byes)
        seated = [p for table in pairing.tables for p in table]
        assert all(byes.get(p, 0) >= given_to for p in seated)


@settings(max_examples=120, deadline=None)
@given(fields)
def test_no_avoidable_repeat_of_table_mates(field) -> None:  # type: ignore[no-untyped-def]
    players, met, byes, most, least = unpack(field)
    pairing = swiss_round(players, most=most, least=least, met=met, byes_had=byes)
    seated = [p for table in pairing.tables for p in table]
    sizes = [len(table) for table in pairing.tables]
    fewest = min(
        (repeats_in(tables, met) for tables in partitions(sorted(seated), sizes)), default=0
    )
    assert repeats_in(pairing.tables, met) == fewest


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 40), st.integers(3, 4))
def test_rounds_in_a_row_rotate_byes_and_rarely_repeat(count: int, most: int) -> None:
    players = [f"p{i:02}" for i in range(count)]
    met: Counter[tuple[str, str]] = Counter()
    byes: Counter[str] = Counter()
    for _ in range(3):
        pairing = swiss_round(players, most=most, least=3, met=met, byes_had=byes)
        for player in pairing.byes:
            byes[player] += 1
        for table in pairing.tables:
            for a, b in combinations(table, 2):
                met[pair_key(a, b)] += 1
        assert max(byes.values(), default=0) - min(byes[p] for p in players) <= 1
    if count >= 16:
        assert max(met.values()) == 1


def test_the_same_inputs_give_the_same_round() -> None:
    players = [f"p{i:03}" for i in range(60)]
    met = {pair_key(players[i], players[i + 1]): 1 for i in range(59)}
    first = swiss_round(players, most=4, least=3, met=met, byes_had={})
    assert first == swiss_round(players, most=4, least=3, met=met, byes_had={})
    assert repeats_in(first.tables, met) == 0
    # similar standings: the leaders share the first table when they have not met
    fresh = swiss_round(players, most=4, least=3, met={}, byes_had={})
    assert fresh.tables[0] == ("p000", "p001", "p002", "p003")


def test_a_field_too_small_for_a_table_gets_byes() -> None:
    pairing = swiss_round(["a", "b"], most=4, least=3, met={}, byes_had={"a": 1})
    assert pairing.tables == () and pairing.byes == ("a", "b")
    assert swiss_round(["a", "b", "c"], most=2, least=2, met={}, byes_had={}).byes == ("c",)


def test_snake_heats_share_out_the_seeds() -> None:
    seeds = [f"s{i}" for i in range(1, 10)]
    heats = snake_heats(seeds, most=4, least=3)
    assert heats.tables == (("s1", "s6", "s7"), ("s2", "s5", "s8"), ("s3", "s4", "s9"))
    assert heats.byes == ()
    assert snake_heats(seeds[:5], most=4, least=3).byes == ("s5",)


def test_brackets_keep_the_top_seeds_apart() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    first = first_elimination_round(["a", "b", "c", "d", "e", "f"])
    assert first.tables == (("d", "e"), ("c", "f"))
    assert first.byes == ("a", "b")
    assert next_elimination_round(["a", "d", "b", "c"]).tables == (("a", "d"), ("b", "c"))
    assert next_elimination_round(["a", "d", "b"]).byes == ("b",)
