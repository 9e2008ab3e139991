"""Charioteer as a :class:`~engine.core.Ruleset`, and the race lifecycle the bot uses.

Actions (spec §3): ``commit`` — a seat's move for this turn (``data`` is the move's JSON,
spec §10), changeable until the last seat commits; the last commit resolves the turn.
``withdraw`` — a seat's move taken back before the reveal (the host withdraws it when the
seat changes hands, so its new player never sees it); the seat owes a move again. The
set-up (shuffles, skills cards, first player, first emperor roll) draws its chance
outcomes into the record like every other action.

:class:`Race` wraps it for callers: ``Race.new(seats=4, seed=7)``, ``race.commit(seat,
move)``, ``race.view(seat)``, ``race.legal_moves(seat)``, ``race.result``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.charioteer.components import (
    COLOURS,
    EMPEROR_FACES,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SKILLS_CARDS,
    deck,
    fan_tokens,
    player_tokens,
    skills_from_card,
)
from engine.charioteer.events import EmperorRolled, MoveCommitted, MoveWithdrawn
from engine.charioteer.moves import Move
from engine.charioteer.notation import read_position, write_position
from engine.charioteer.resolve import apply_disrupt, resolve_turn
from engine.charioteer.rules import analyse, legal_moves
from engine.charioteer.state import SEAT_NAMES, Chariot, RaceOptions, RaceState, Result, Skill
from engine.charioteer.view import SeatView, view
from engine.core import (
    JSON,
    Action,
    Chance,
    Event,
    Game,
    GameOver,
    IllegalAction,
    LiveTable,
    MalformedAction,
    MalformedPosition,
    SeededRules,
    Transition,
    with_commit,
    without_commit,
)

COMMIT = "commit"
WITHDRAW = "withdraw"


def race_config(seats: int = 4, **options: Any) -> dict[str, JSON]:
    """A set-up configuration: the number of seats and any :class:`RaceOptions`."""
    config: dict[str, JSON] = {"seats": seats}
    config.update(RaceOptions(**options).to_json())
    return config


def _read_config(config: Mapping[str, JSON]) -> tuple[tuple[str, ...], RaceOptions]:
    seats = config.get("seats", 4)
    if (
        isinstance(seats, bool)
        or not isinstance(seats, int)
        or not MIN_PLAYERS <= seats <= MAX_PLAYERS
    ):
        raise MalformedPosition(f"a race has {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    options = RaceOptions.from_json({key: value for key, value in config.items() if key != "seats"})
    return SEAT_NAMES[:seats], options


class CharioteerRules(SeededRules[RaceState]):
    """The rules of Charioteer (pure; see :class:`~engine.core.Ruleset`)."""

    id: ClassVar[str] = "charioteer"
    version: ClassVar[int] = 1

    def setup(self, config: Mapping[str, JSON], seed: int, chance: Chance) -> RaceState:
        """Shuffle, deal 8 cards each and the 3 crowd cards, draw skills cards, pick the
        first player and roll the emperor die (spec §1, §3.1; first-turn rules)."""
        seats, options = _read_config(config)
        standard = deck()
        cards = [standard[index] for index in chance.shuffle("deck", len(standard))]
        bag_tokens = fan_tokens()
        bag = [bag_tokens[index] for index in chance.shuffle("fan bag", len(bag_tokens))]
        skills_cards = [
            SKILLS_CARDS[index] for index in chance.shuffle("skills cards", len(SKILLS_CARDS))
        ]
        first_seat = seats[chance.roll("first seat", len(seats))]
        emperor = EMPEROR_FACES[chance.roll("emperor", len(EMPEROR_FACES))]
        chariots: list[Chariot] = []
        for lane, seat in enumerate(seats):
            hand, cards = cards[:HAND_SIZE], cards[HAND_SIZE:]
            levels = skills_from_card(skills_cards[lane])
            skills = tuple(Skill(levels[colour]) for colour in COLOURS)
            chariots.append(
                Chariot(
                    seat=seat,
                    position=0,
                    lane=lane,
                    damage=0,
                    attack=0,
                    skills=(skills[0], skills[1], skills[2], skills[3]),
                    hand=tuple(hand),
                    tokens=player_tokens(),
                )
            )
        crowd, cards = cards[:3], cards[3:]
        state = RaceState(
            options=options,
            seed=seed,
            draws=chance.next_index,
            turn=1,
            emperor=emperor,
            next_emperor=None,
            crowd=tuple(crowd),
            deck=tuple(cards),
            discard=(),
            fan_bag=tuple(bag),
            fan_discard=(),
            chariots=tuple(chariots),
            first_seat=first_seat,
        )
        events: list[Event] = [EmperorRolled(emperor, 1)]
        return _with_chariots(state, apply_disrupt(state, chariots, emperor, events))

    def apply(self, state: RaceState, action: Action, chance: Chance) -> Transition[RaceState]:
        """Apply a seat's commit (the last one resolves the turn) or withdrawal.

        Raises:
            MalformedAction: not a commit or withdrawal, unknown seat, unreadable move.
            IllegalAction: the move breaks a rule (the reason says which); a withdrawal
                of a seat that has no move this turn.
            GameOver: the race has ended.
        """
        if action.kind not in (COMMIT, WITHDRAW):
            raise MalformedAction(
                f"unknown action '{action.kind}' (a race takes '{COMMIT}' or '{WITHDRAW}')"
            )
        seat = action.seat
        if seat is None or seat not in state.seats:
            raise MalformedAction(f"there is no seat {seat} in this race")
        if action.kind == WITHDRAW:
            return _withdraw(state, seat)
        move = Move.from_json(action.data, seat=seat)
        analyse(state, seat, move)
        changed = state.commit_of(seat) is not None
        committed = _replace(state, commits=with_commit(state.commits, state.seats, seat, move))
        waiting = committed.waiting_for
        events: list[Event] = [MoveCommitted(seat, changed, waiting)]
        if waiting:
            return Transition(committed, tuple(events))
        plays = {name: analyse(committed, name, chosen) for name, chosen in committed.commits}
        resolved, turn_events = resolve_turn(committed, plays, chance)
        return Transition(resolved, (*events, *turn_events))

    def from_position(self, position: Mapping[str, JSON]) -> RaceState:
        return read_position(position)

    def to_position(self, state: RaceState) -> dict[str, JSON]:
        return write_position(state)


def _withdraw(state: RaceState, seat: str) -> Transition[RaceState]:
    """Take back ``seat``'s unrevealed move of this turn."""
    if state.result is not None:
        raise GameOver("the race is over", seat=seat)
    if state.commit_of(seat) is None:
        raise IllegalAction("there is no move to withdraw this turn", seat=seat)
    withdrawn = _replace(state, commits=without_commit(state.commits, seat))
    return Transition(withdrawn, (MoveWithdrawn(seat, withdrawn.waiting_for),))


def _replace(state: RaceState, **changes: Any) -> RaceState:
    return dataclasses.replace(state, **changes)


def _with_chariots(state: RaceState, chariots: list[Chariot]) -> RaceState:
    return _replace(state, chariots=tuple(chariots))


RULESET = CharioteerRules()


class Race(LiveTable[RaceState]):
    """A live race: state and record advanced together (see :class:`~engine.core.LiveTable`)."""

    ruleset = RULESET

    @classmethod
    def new(cls, seats: int = 4, seed: int = 0, **options: Any) -> Race:
        """A new race of 2–6 seats (named A, B, C…) with :class:`RaceOptions`."""
        return cls(Game.new(RULESET, race_config(seats, **options), seed))

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def waiting_for(self) -> tuple[str, ...]:
        return self.state.waiting_for

    @property
    def result(self) -> Result | None:
        return self.state.result

    def commit(self, seat: str, move: Move | Mapping[str, JSON]) -> tuple[Event, ...]:
        """Choose (or change) ``seat``'s move; the last seat's commit resolves the turn.
        Raises an :class:`~engine.core.EngineError` and changes nothing if refused."""
        if not isinstance(move, (Move, Mapping)):
            raise MalformedAction("a move must be a JSON object", seat=seat)
        data = move.to_json() if isinstance(move, Move) else dict(move)
        return self.game.act(Action(COMMIT, seat, data))

    def view(self, seat: str | None = None) -> SeatView:
        return view(self.state, seat)

    def legal_moves(self, seat: str, *, discards: bool = True) -> list[Move]:
        return legal_moves(self.state, seat, discards=discards)
