"""Tournament pairing, pure and deterministic: Swiss tables for multiplayer games, seeded
heats, and a single-elimination bracket for two-player games.

Swiss tables (:func:`swiss_round`): every active player is seated exactly once or given a
bye; tables are as large as allowed and balanced within one seat; byes go to the players
who have had the fewest, the lowest in the standings first; and the tables bring together
players of similar standing while seating as few pairs of former table-mates together as
possible. That last aim is met exactly by a depth-first search over the standings order
(the first players are tried first, so the first arrangement found is the one closest to
the standings), pruned by the repeats so far and bounded in steps: a field of up to twelve
tables always gets the fewest repeats there can be; a larger field is searched twelve
tables at a time, best first, then improved by swapping players between tables while a swap removes
a repeat.

Inputs are player ids and plain numbers; the same inputs give the same round on any
machine (no set is iterated unsorted, no clock, no randomness).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

SEARCH_STEPS = 20_000
TABLES_PER_SEARCH = 12
"""A large field is searched a slice of the standings at a time (12 tables' worth of
players, best first); swaps between any two tables come after."""


@dataclass(frozen=True)
class Round:
    tables: tuple[tuple[str, ...], ...]
    """Each table's players, in standings order; tables in the order of their best player."""
    byes: tuple[str, ...] = ()


def table_sizes(players: int, most: int, least: int) -> list[int] | None:
    """Sizes for ``players`` at as few tables as possible, each within ``least``..``most``
    and within one of each other, larger first; None when no such split exists."""
    if players == 0:
        return []
    tables = -(-players // most)
    small, extra = divmod(players, tables)
    if small < least:
        return None
    return [small + 1] * extra + [small] * (tables - extra)


def bye_count(players: int, most: int, least: int) -> int:
    """The fewest players to leave out so that the rest split into balanced tables."""
    for byes in range(players + 1):
        if table_sizes(players - byes, most, least) is not None:
            return byes
    return players


def choose_byes(order: Sequence[str], count: int, byes_had: Mapping[str, int]) -> tuple[str, ...]:
    """``count`` byes for the players who have had the fewest, lowest in ``order`` (the
    standings, best first) first."""
    position = {player: index for index, player in enumerate(order)}
    ranked = sorted(order, key=lambda p: (byes_had.get(p, 0), -position[p]))
    return tuple(sorted(ranked[:count], key=position.__getitem__))


def pair_key(first: str, second: str) -> tuple[str, str]:
    return (first, second) if first < second else (second, first)


def repeats_in(tables: Sequence[Sequence[str]], met: Mapping[tuple[str, str], int]) -> int:
    """How many pairs of former table-mates these tables seat together again."""
    return sum(
        1 for table in tables for a, b in combinations(table, 2) if met.get(pair_key(a, b), 0)
    )


class _Search:
    def __init__(
        self, order: Sequence[str], sizes: Sequence[int], met: Mapping[tuple[str, str], int]
    ) -> None:
        self.order = list(order)
        self.met = {pair for pair, count in met.items() if count}
        self.partners: dict[str, set[str]] = {player: set() for player in self.order}
        for a, b in sorted(self.met):
            if a in self.partners and b in self.partners:
                self.partners[a].add(b)
                self.partners[b].add(a)
        self.sizes = sorted(sizes, reverse=True)
        self.steps_left = SEARCH_STEPS
        self.used = [False] * len(self.order)
        self.best: list[tuple[str, ...]] | None = None
        self.best_repeats = 0
        self.tables: list[tuple[str, ...]] = []

    def run(self) -> list[tuple[str, ...]]:
        self._tables(0, dict(_counts(self.sizes)))
        assert self.best is not None
        return self.best

    def _first_free(self) -> int:
        return next(index for index, used in enumerate(self.used) if not used)

    def _tables(self, repeats: int, sizes_left: dict[int, int]) -> None:
        if self.best is not None and (repeats >= self.best_repeats or self.steps_left <= 0):
            return
        if not any(sizes_left.values()):
            self.best, self.best_repeats = list(self.tables), repeats
            return
        anchor = self._first_free()
        self.used[anchor] = True
        for size in sorted((s for s, n in sizes_left.items() if n), reverse=True):
            sizes_left[size] -= 1
            self._members([anchor], size, anchor + 1, repeats, sizes_left)
            sizes_left[size] += 1
            if self.best is not None and self.best_repeats == 0:
                break
        self.used[anchor] = False

    def _candidates(self, table: list[int], start: int) -> Iterator[tuple[int, int]]:
        """Free players after ``start`` as (index, repeats they add): none added first, each
        group in standings order."""
        later: list[tuple[int, int]] = []
        members = [self.order[i] for i in table]
        for index in range(start, len(self.order)):
            if self.used[index]:
                continue
            partners = self.partners[self.order[index]]
            added = sum(member in partners for member in members)
            if added == 0:
                yield index, 0
            else:
                later.append((added, index))
        for added, index in sorted(later):
            yield index, added

    def _members(
        self, table: list[int], size: int, start: int, repeats: int, sizes_left: dict[int, int]
    ) -> None:
        self.steps_left -= 1
        if self.best is not None and (repeats >= self.best_repeats or self.steps_left <= 0):
            return
        if len(table) == size:
            self.tables.append(tuple(self.order[i] for i in table))
            self._tables(repeats, sizes_left)
            self.tables.pop()
            return
        for index, added in self._candidates(table, start):
            self.used[index] = True
            table.append(index)
            # members are chosen in increasing index order: each set of players is tried once
            self._members(table, size, index + 1, repeats + added, sizes_left)
            table.pop()
            self.used[index] = False
            if self.best is not None and (self.best_repeats <= repeats or self.steps_left <= 0):
                return


def _fewer_repeats(
    tables: list[tuple[str, ...]], met: Mapping[tuple[str, str], int]
) -> list[tuple[str, ...]]:
    """Swap players between a table with a repeat and another table while a swap lowers
    the repeats (when the bounded search left some in a large field); each table's players
    stay in standings order."""
    rank = {p: i for i, p in enumerate(p for table in tables for p in table)}
    current = [list(table) for table in tables]

    def clashes(player: str, table: Sequence[str]) -> int:
        return sum(1 for other in table if other != player and met.get(pair_key(player, other), 0))

    improved = True
    while improved:
        improved = False
        for i, table in enumerate(current):
            if not any(clashes(player, table) for player in table):
                continue
            for j, other in enumerate(current):
                if i == j:
                    continue
                for a in list(table):
                    for b in list(other):
                        rest_i = [p for p in table if p != a]
                        rest_j = [p for p in other if p != b]
                        gain = (clashes(a, rest_i) + clashes(b, rest_j)) - (
                            clashes(b, rest_i) + clashes(a, rest_j)
                        )
                        if gain > 0:
                            table[table.index(a)] = b
                            other[other.index(b)] = a
                            improved = True
                            break
                    if improved:
                        break
                if improved:
                    break
            if improved:
                break
    ordered = [tuple(sorted(table, key=rank.__getitem__)) for table in current]
    return sorted(ordered, key=lambda table: rank[table[0]])


def _counts(values: Sequence[int]) -> list[tuple[int, int]]:
    return [(value, values.count(value)) for value in sorted(set(values), reverse=True)]


def swiss_round(
    order: Sequence[str],
    *,
    most: int,
    least: int,
    met: Mapping[tuple[str, str], int],
    byes_had: Mapping[str, int],
) -> Round:
    """A Swiss round for the active players in ``order`` (the standings, best first):
    tables of ``least``..``most`` seats balanced within one, the fewest byes possible given
    to those who had the fewest, and the fewest repeated table-mates (``met`` counts how
    often each pair sat together) among arrangements close to the standings."""
    byes = choose_byes(order, bye_count(len(order), most, least), byes_had)
    seated = [player for player in order if player not in byes]
    sizes = table_sizes(len(seated), most, least)
    assert sizes is not None
    tables: list[tuple[str, ...]] = []
    for start in range(0, len(sizes), TABLES_PER_SEARCH):
        chunk = sizes[start : start + TABLES_PER_SEARCH]
        first = sum(sizes[:start])
        tables.extend(_Search(seated[first : first + sum(chunk)], chunk, met).run())
    return Round(tuple(_fewer_repeats(tables, met)), byes)


def snake_heats(seeds: Sequence[str], *, most: int, least: int) -> Round:
    """Heats seeded by rating (``seeds``, best first) dealt like cards in a snake (1 2 3 3
    2 1 …) so each heat gets a fair share of strong players; players left over when no
    balanced split exists get byes (the lowest seeds)."""
    byes = tuple(seeds[len(seeds) - bye_count(len(seeds), most, least) :])
    seated = list(seeds[: len(seeds) - len(byes)])
    sizes = table_sizes(len(seated), most, least) or []
    tables: list[list[str]] = [[] for _ in sizes]
    lap = list(range(len(sizes))) + list(reversed(range(len(sizes))))
    slots = (table for _ in range(len(seated)) for table in lap)
    for player in seated:
        table = next(t for t in slots if len(tables[t]) < sizes[t])
        tables[table].append(player)
    return Round(tuple(tuple(table) for table in tables), byes)


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1 best) in bracket order for a bracket of ``size`` (a power of two):
    1 meets ``size`` first, and the top two seeds can only meet in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def first_elimination_round(seeds: Sequence[str]) -> Round:
    """The first round of a single-elimination bracket: players seeded best first, the
    bracket filled to a power of two with byes for the top seeds."""
    size = 1
    while size < len(seeds):
        size *= 2
    slots = [seeds[seed - 1] if seed <= len(seeds) else None for seed in bracket_order(size)]
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for first, second in zip(slots[::2], slots[1::2], strict=True):
        if first is not None and second is not None:
            tables.append((first, second))
        else:
            byes.extend(player for player in (first, second) if player is not None)
    return Round(tuple(tables), tuple(byes))


def next_elimination_round(advancing: Sequence[str]) -> Round:
    """A later round: the players still in, in bracket order, meet in neighbouring pairs
    (an odd one out, possible only after a drop-out, gets a bye)."""
    pairs = [tuple(advancing[i : i + 2]) for i in range(0, len(advancing) - 1, 2)]
    byes = (advancing[-1],) if len(advancing) % 2 else ()
    return Round(tuple(pairs), byes)


__all__ = [
    "Round",
    "bracket_order",
    "bye_count",
    "choose_byes",
    "first_elimination_round",
    "next_elimination_round",
    "pair_key",
    "repeats_in",
    "snake_heats",
    "swiss_round",
    "table_sizes",
]
