"""Cartographers as a :class:`~engine.core.Ruleset` (spec §2): set-up, the simultaneous
turn, ambushes, season ends, reshuffles and final scoring.

Actions (each with a ``seat`` and JSON ``data``, see ``docs/cartographers-engine.md``):

- ``place``: in a draw turn, the seat's drawing of the explore card on its own map
  (``data`` is a placement, :mod:`engine.cartographers.placement`). It may be changed by
  placing again until the last seat places; the last one resolves the turn.
- ``monster``: in neighbour-ambush mode, when an ambush is revealed, the seat's drawing
  of the monster on the neighbour's map it holds (``data`` is a placement; ``terrain``
  may be left out). The last one resolves the ambush.
- ``withdraw``: the seat's drawing of this turn (or ambush) taken back before the turn
  resolves (the host withdraws it when the seat changes hands, so its new player never
  sees it); the seat owes a drawing again (``data`` is empty).

After a turn resolves the engine checks the season, scores it and reshuffles at its end,
and reveals cards until players owe a drawing again: ruins mark the next explore card,
ambushes are drawn by the solo scan in auto mode. Every shuffle and pick is a chance
outcome recorded with the action that caused it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.cartographers.components import (
    AMBUSH_BY_ID,
    AMBUSH_CARDS,
    COIN_TRACK,
    EDICTS,
    EXPLORE_CARDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SCORING_DECKS,
    SEASONS,
    CardKind,
    Side,
    Terrain,
    card,
    scoring_deck,
)
from engine.cartographers.events import (
    AmbushIgnored,
    CardRevealed,
    CoinsGained,
    GameEnded,
    MonsterPlaced,
    PlacementChosen,
    PlacementCommitted,
    PlacementWithdrawn,
    SeasonEnded,
    SeasonScored,
    ShapeDrawn,
    TurnStarted,
)
from engine.cartographers.geometry import label
from engine.cartographers.messages import refuse
from engine.cartographers.notation import read_position, write_position
from engine.cartographers.placement import (
    Drawing,
    analyse,
    legal_drawings,
    needs_a_drawing,
    read_placement,
    solo_ambush,
)
from engine.cartographers.scoring import score
from engine.cartographers.sheet import MapSheet
from engine.cartographers.state import (
    AmbushMode,
    GameState,
    Phase,
    Player,
    SeasonScore,
    TableOptions,
    rank,
)
from engine.core import (
    JSON,
    Action,
    Chance,
    Event,
    GameOver,
    IllegalAction,
    MalformedAction,
    MalformedPosition,
    SeededRules,
    Transition,
    with_commit,
    without_commit,
)

PLACE = "place"
MONSTER = "monster"
WITHDRAW = "withdraw"
ACTION_KINDS = (PLACE, MONSTER, WITHDRAW)
CONFIG_KEYS = frozenset({"seats", "side", "ambush"})


def seat_names(count: int) -> tuple[str, ...]:
    """Seats are named "1", "2", … in clockwise order around the table."""
    return tuple(str(number) for number in range(1, count + 1))


def table_config(seats: int = 1, side: str = "A", ambush: str = "auto") -> dict[str, JSON]:
    return {"seats": seats, "side": side, "ambush": ambush}


def read_config(config: Mapping[str, JSON]) -> tuple[tuple[str, ...], TableOptions]:
    """Seats and options from a set-up configuration.

    Raises:
        MalformedPosition: a number of seats, side or ambush mode the game does not have.
    """
    unknown = sorted(set(config) - CONFIG_KEYS)
    if unknown:
        raise refuse(MalformedPosition, "config_unknown", keys=", ".join(unknown))
    seats = config.get("seats", 1)
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise refuse(MalformedPosition, "config_seats", low=MIN_PLAYERS, high=MAX_PLAYERS)
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise refuse(MalformedPosition, "config_seats", low=MIN_PLAYERS, high=MAX_PLAYERS)
    side_name = config.get("side", "A")
    try:
        side = Side(side_name)
    except ValueError:
        raise refuse(MalformedPosition, "config_side", given=str(side_name)) from None
    mode_name = config.get("ambush", "auto")
    try:
        mode = AmbushMode(mode_name)
    except ValueError:
        raise refuse(MalformedPosition, "config_ambush", given=str(mode_name)) from None
    if mode is AmbushMode.NEIGHBOUR and seats < 2:
        raise refuse(MalformedPosition, "config_neighbour_solo")
    return seat_names(seats), TableOptions(side, mode)


@dataclasses.dataclass
class _Table:
    """A working copy of a state while one action is applied (never escapes apply)."""

    state: GameState
    chance: Chance
    events: list[Event]

    def replace(self, **changes: Any) -> None:
        self.state = dataclasses.replace(self.state, **changes)

    def set_player(self, player: Player) -> None:
        self.replace(
            players=tuple(player if p.seat == player.seat else p for p in self.state.players)
        )


class CartographersRules(SeededRules[GameState]):
    """The rules of Cartographers (pure; see :class:`~engine.core.Ruleset`)."""

    id: ClassVar[str] = "cartographers"
    version: ClassVar[int] = 1

    def setup(self, config: Mapping[str, JSON], seed: int, chance: Chance) -> GameState:
        """Draw one scoring card per deck and lay them under edicts A–D in random order,
        shuffle the ambush deck, shuffle its top card into the explore deck, and reveal
        the first card (spec §2 set-up)."""
        seats, options = read_config(config)
        picks = []
        for deck in SCORING_DECKS:
            cards = scoring_deck(deck)
            picks.append(cards[chance.roll(f"{deck.value} scoring card", len(cards))].id)
        order = chance.shuffle("edicts", len(picks))
        edicts = (picks[order[0]], picks[order[1]], picks[order[2]], picks[order[3]])
        ambush_order = chance.shuffle("ambush deck", len(AMBUSH_CARDS))
        ambushes = tuple(AMBUSH_CARDS[index].id for index in ambush_order)
        explore = [*(c.id for c in EXPLORE_CARDS), ambushes[0]]
        deck_order = chance.shuffle("explore deck", len(explore))
        blank = MapSheet.blank(options.side)
        # a placeholder turn until the first reveal sets the card in play
        waiting = GameState(
            options=options,
            seed=seed,
            draws=0,
            turn=0,
            season=0,
            edicts=edicts,
            deck=tuple(explore[index] for index in deck_order),
            ambush_deck=ambushes[1:],
            column=(),
            ambushes_out=(),
            phase=Phase.DRAW,
            card=EXPLORE_CARDS[-1].id,
            ruins=False,
            players=tuple(Player(seat, blank) for seat in seats),
        )
        table = _Table(waiting, chance, [])
        _play_on(table, check_season=False)
        return dataclasses.replace(table.state, draws=chance.next_index)

    def apply(self, state: GameState, action: Action, chance: Chance) -> Transition[GameState]:
        """Apply one seat's drawing (the last one resolves the turn) or its withdrawal.

        Raises:
            MalformedAction: an unknown action or seat, an unreadable placement.
            IllegalAction: the drawing breaks a rule (the reason says which); a withdrawal
                of a seat that has no drawing this turn.
            GameOver: the game has ended.
        """
        if action.kind not in ACTION_KINDS:
            raise refuse(
                MalformedAction, "unknown_action", kinds=", ".join(ACTION_KINDS), given=action.kind
            )
        seat = action.seat
        if seat is None or seat not in state.seats:
            raise refuse(MalformedAction, "unknown_seat", given=str(seat))
        if state.is_over:
            raise refuse(GameOver, "game_over", seat=seat)
        if action.kind == WITHDRAW:
            return _withdraw(state, seat)
        if action.kind == PLACE and state.phase is not Phase.DRAW:
            raise refuse(IllegalAction, "not_drawing_phase", seat=seat)
        if action.kind == MONSTER and state.phase is not Phase.AMBUSH:
            raise refuse(IllegalAction, "not_ambush_phase", seat=seat)
        drawing = analyse_action(state, seat, action.data)
        changed = state.commit_of(seat) is not None
        commits = with_commit(state.commits, state.seats, seat, drawing)
        committed = dataclasses.replace(state, commits=commits)
        waiting = committed.waiting_for
        events: list[Event] = [
            PlacementChosen(seat, state.target_of(seat), drawing),
            PlacementCommitted(seat, changed, waiting),
        ]
        if waiting:
            return Transition(committed, tuple(events))
        table = _Table(committed, chance, events)
        _resolve_turn(table)
        _play_on(table, check_season=True)
        final = dataclasses.replace(table.state, draws=chance.next_index)
        return Transition(final, tuple(table.events))

    def from_position(self, position: Mapping[str, JSON]) -> GameState:
        return read_position(position)

    def to_position(self, state: GameState) -> dict[str, JSON]:
        return write_position(state)


RULESET = CartographersRules()


def _withdraw(state: GameState, seat: str) -> Transition[GameState]:
    """Take back ``seat``'s unrevealed drawing of this turn."""
    if state.commit_of(seat) is None:
        raise refuse(IllegalAction, "nothing_to_withdraw", seat=seat)
    withdrawn = dataclasses.replace(state, commits=without_commit(state.commits, seat))
    return Transition(withdrawn, (PlacementWithdrawn(seat, withdrawn.waiting_for),))


# --------------------------------------------------------------------------- legality


def analyse_action(state: GameState, seat: str, data: Mapping[str, JSON]) -> Drawing:
    """Read and check ``seat``'s placement for the turn in play (own map, or in an ambush
    phase the neighbour's). Raises like :meth:`CartographersRules.apply`."""
    target = state.player(state.target_of(seat))
    if not needs_a_drawing(target.sheet):
        raise refuse(IllegalAction, "nothing_to_draw", seat=seat)
    offer = state.offer()
    if state.phase is Phase.AMBUSH and isinstance(data, Mapping) and "terrain" not in data:
        data = {**data, "terrain": Terrain.MONSTER.value}
    placement = read_placement(data, offer, seat=seat)
    return analyse(target.sheet, offer, placement, seat=seat)


def legal_placements(
    state: GameState, seat: str, terrain: Terrain | str, shape: int | None
) -> list[Drawing]:
    """Every legal drawing ``seat`` can make now with ``terrain`` and the card's shape
    number ``shape`` (0-based; ``None`` for the 1×1 fallback, offered only when no shape
    of the card fits), one per distinct set of cells. Empty when the game is over, the
    terrain or shape is not on the card, or the seat's target map is full."""
    if state.is_over or seat not in state.seats:
        return []
    try:
        wanted = Terrain(terrain)
    except ValueError:
        return []
    target = state.player(state.target_of(seat)).sheet
    return legal_drawings(target, state.offer(), wanted, shape)


# --------------------------------------------------------------------------- turn flow


def _draw_on(
    table: _Table, map_seat: str, cells: tuple[int, ...], terrain: Terrain, coin: bool
) -> None:
    """Draw on a map; award the coin shape's coin and a coin per newly surrounded
    mountain."""
    player = table.state.player(map_seat)
    before = player.sheet.enclosed_mountains()
    sheet = player.sheet.draw(cells, terrain)
    surrounded = tuple(sorted(sheet.enclosed_mountains() - before))
    gained = int(coin) + len(surrounded)
    coins = min(COIN_TRACK, player.coins + gained)
    table.set_player(dataclasses.replace(player, sheet=sheet, coins=coins))
    if gained:
        table.events.append(
            CoinsGained(map_seat, int(coin), tuple(label(i) for i in surrounded), coins)
        )


def _resolve_turn(table: _Table) -> None:
    """Every committed drawing lands; the ruins mark is spent after an explore card."""
    state = table.state
    assert state.card is not None
    for seat, drawing in state.commits:
        target = state.target_of(seat)
        table.events.append(ShapeDrawn(seat, target, state.card, drawing))
        _draw_on(table, target, drawing.cells, drawing.terrain, drawing.coin)
    changes: dict[str, Any] = {"commits": ()}
    if state.phase is Phase.DRAW:
        changes["ruins"] = False
    table.replace(**changes)


def _play_on(table: _Table, *, check_season: bool) -> None:
    """Check the season's time, then reveal cards until someone owes a drawing (or the
    game ends). A turn nobody can draw in (every map full) resolves by itself."""
    while True:
        state = table.state
        if check_season and (state.time_used >= state.season_card.threshold or not state.deck):
            _end_season(table)
            if table.state.is_over:
                return
        check_season = True
        if not _reveal(table):
            continue
        if table.state.waiting_for:
            return
        _resolve_turn(table)


def _reveal(table: _Table) -> bool:
    """Reveal until a card needs drawing: ``True`` with the turn set up, ``False`` if
    the deck ran out first (the season then ends)."""
    while table.state.deck:
        state = table.state
        top, deck = state.deck[0], state.deck[1:]
        found = card(top)
        column = state.column if found.kind is CardKind.AMBUSH else (*state.column, top)
        table.replace(deck=deck, column=column)
        table.events.append(CardRevealed(top, state.season_card.id, table.state.time_used))
        if found.kind is CardKind.RUINS:
            table.replace(ruins=True)
            continue
        if found.kind is CardKind.AMBUSH:
            table.replace(ambushes_out=(*state.ambushes_out, top))
            if state.options.ambush is AmbushMode.AUTO:
                _auto_ambush(table, top)
                continue
            table.replace(phase=Phase.AMBUSH, card=top, turn=state.turn + 1)
        else:
            table.replace(phase=Phase.DRAW, card=top, turn=state.turn + 1)
        current = table.state
        assert current.card is not None
        table.events.append(
            TurnStarted(
                current.turn, current.phase.value, current.card, current.ruins, current.waiting_for
            )
        )
        return True
    return False


def _auto_ambush(table: _Table, card_id: str) -> None:
    """The solo scan draws the monster on every map (solo and auto-ambush tables)."""
    ambush = AMBUSH_BY_ID[card_id]
    for seat in table.state.seats:
        cells = solo_ambush(table.state.player(seat).sheet, ambush)
        if cells is None:
            table.events.append(AmbushIgnored(seat, card_id))
            continue
        table.events.append(MonsterPlaced(seat, card_id, tuple(label(i) for i in cells)))
        _draw_on(table, seat, cells, Terrain.MONSTER, False)


def _end_season(table: _Table) -> None:
    """Score the season's two edicts, coins and monsters; after winter rank the table,
    otherwise reshuffle every explore card with the ambushes not yet revealed and the
    next ambush card."""
    state = table.state
    season = state.season_card
    first, second = (state.edicts[EDICTS.index(letter)] for letter in season.edicts)
    players = []
    for player in state.players:
        season_score = SeasonScore(
            season.id,
            (score(first, player.sheet).points, score(second, player.sheet).points),
            player.coins,
            len(player.sheet.monster_threat()),
        )
        scored = dataclasses.replace(player, seasons=(*player.seasons, season_score))
        players.append(scored)
        table.events.append(SeasonScored(player.seat, (first, second), season_score, scored.stars))
    table.replace(players=tuple(players), commits=(), ruins=False)
    if state.season == len(SEASONS) - 1:
        result = rank(table.state.players, state.edicts)
        table.replace(phase=Phase.OVER, card=None, result=result)
        table.events.append(GameEnded(result))
        return
    waiting = [c for c in state.deck if c in AMBUSH_BY_ID]
    added = list(state.ambush_deck[:1])
    cards = [*(c.id for c in EXPLORE_CARDS), *waiting, *added]
    order = table.chance.shuffle("explore deck", len(cards))
    table.replace(
        season=state.season + 1,
        deck=tuple(cards[index] for index in order),
        ambush_deck=state.ambush_deck[1:],
        column=(),
    )
    table.events.append(
        SeasonEnded(season.id, SEASONS[state.season + 1].id, len(cards), len(waiting) + len(added))
    )
