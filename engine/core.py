"""What every game engine shares: errors, actions, events (those of secret simultaneous
choices among them), chance, rulesets, records and replay, the readers of a position's
plain values, and the live table a game's callers hold.

A game is a :class:`Ruleset`: static rules that set a game up and apply one action at a
time. Engines are pure: no discord, asyncio, database, clock or global random. The only
randomness is a :class:`Chance` handed to the ruleset; every outcome it produces is written
into the action that needed it, so :func:`replay` of a :class:`GameRecord` never re-rolls
and a game reads back the same on any machine and any Python version.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

JSON = Any
"""A value made of dicts, lists, str, int, float, bool and None."""

MASK64 = (1 << 64) - 1
MAX_SEED = (1 << 63) - 1
"""Seeds are 0 to 2^63 − 1: what a SQLite integer holds, so a stored game keeps its seed."""


# --------------------------------------------------------------------------- errors


class EngineError(ValueError):
    """Base of every error an engine raises; ``reason`` is a sentence a player can read.

    An engine with a message catalogue may also give the ``message`` id the reason was
    rendered from and its ``params`` (JSON values), so a front end can say the same thing
    in another language.
    """

    def __init__(
        self,
        reason: str,
        *,
        seat: str | None = None,
        message: str | None = None,
        params: Mapping[str, JSON] | None = None,
    ) -> None:
        self.reason = reason
        self.seat = seat
        self.message = message
        self.params: dict[str, JSON] = dict(params) if params is not None else {}
        super().__init__(f"seat {seat}: {reason}" if seat is not None else reason)

    def to_json(self) -> dict[str, JSON]:
        """The error as the command lines print it (with its message id when it has one)."""
        out: dict[str, JSON] = {"error": str(self)}
        if self.message is not None:
            out["message"] = self.message
            out["params"] = dict(self.params)
        return out


class MalformedAction(EngineError):
    """The action cannot be understood: wrong shape, unknown seat, index out of range."""


class IllegalAction(EngineError):
    """The action is understood but the rules forbid it."""


class GameOver(IllegalAction):
    """The game has ended; no action is accepted any more."""


class MalformedPosition(EngineError):
    """A position, record or configuration cannot be read."""


class ReplayMismatch(EngineError):
    """A record does not replay: its chance outcomes do not fit what the rules asked for."""


# --------------------------------------------------------------------------- chance


def check_seed(value: Any) -> int:
    """A seed as every game accepts it (0 to :data:`MAX_SEED`), or a MalformedPosition."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise MalformedPosition(f"seed must be a whole number from 0 to {MAX_SEED}, not {value!r}")
    return value


def _splitmix64(x: int) -> tuple[int, int]:
    """One SplitMix64 step: (next state, output)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


class Rng:
    """A tiny seeded generator (SplitMix64) whose outputs never change across Pythons.

    ``Rng(seed, stream)`` gives independent streams for the same seed, so the i-th chance
    outcome of a game depends only on the game's seed and i.
    """

    def __init__(self, seed: int, stream: int = 0) -> None:
        state, _ = _splitmix64(seed & MASK64)
        state, mixed = _splitmix64(state ^ ((stream * 0xD1B54A32D192ED03) & MASK64))
        self._state = mixed

    def next64(self) -> int:
        self._state, out = _splitmix64(self._state)
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def permutation(self, n: int) -> list[int]:
        """A uniform permutation of ``range(n)`` (Fisher–Yates)."""
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order


class Chance:
    """The one source of randomness an engine may use while applying an action.

    Live, it draws from the game's seed (outcome *i* from stream *i*); scripted, it hands
    back the outcomes a record holds, checking that each fits what is asked. Either way
    ``outcomes`` lists what was used, to be stored with the action.
    """

    def __init__(
        self, seed: int, first: int, script: Sequence[Mapping[str, JSON]] | None = None
    ) -> None:
        self._seed = seed
        self._next = first
        self._script = list(script) if script is not None else None
        self.outcomes: list[dict[str, JSON]] = []

    @classmethod
    def live(cls, seed: int, first: int) -> Chance:
        return cls(seed, first)

    @classmethod
    def scripted(cls, outcomes: Sequence[Mapping[str, JSON]], first: int = 0) -> Chance:
        return cls(0, first, outcomes)

    @property
    def used(self) -> int:
        return len(self.outcomes)

    @property
    def next_index(self) -> int:
        """Index of the next outcome in the game's whole history of chance."""
        return self._next

    def _scripted(self, what: str, kind: str) -> dict[str, JSON]:
        assert self._script is not None
        position = len(self.outcomes)
        if position >= len(self._script):
            raise ReplayMismatch(f"the record has no outcome for the {what} {kind}")
        outcome = dict(self._script[position])
        if outcome.get("what") != what or kind not in outcome:
            raise ReplayMismatch(
                f"the record holds {outcome} where the rules ask for the {what} {kind}"
            )
        return outcome

    def shuffle(self, what: str, n: int) -> list[int]:
        """A permutation of ``range(n)``: the new order of ``n`` items being shuffled."""
        if self._script is None:
            order = Rng(self._seed, self._next).permutation(n)
            outcome: dict[str, JSON] = {"what": what, "shuffle": order}
        else:
            outcome = self._scripted(what, "shuffle")
            order = outcome["shuffle"]
            if not isinstance(order, list) or sorted(order) != list(range(n)):
                raise ReplayMismatch(f"the recorded {what} shuffle is not a permutation of {n}")
        self.outcomes.append(outcome)
        self._next += 1
        return list(order)

    def roll(self, what: str, sides: int) -> int:
        """A uniform result in ``range(sides)``: a die roll or a random pick."""
        if self._script is None:
            result = Rng(self._seed, self._next).below(sides)
            outcome: dict[str, JSON] = {"what": what, "roll": result}
        else:
            outcome = self._scripted(what, "roll")
            result = outcome["roll"]
            if not isinstance(result, int) or not 0 <= result < sides:
                raise ReplayMismatch(
                    f"the recorded {what} roll {result!r} is not in 0..{sides - 1}"
                )
        self.outcomes.append(outcome)
        self._next += 1
        return result

    def finish(self) -> None:
        """Check, in a replay, that the action used every outcome recorded for it."""
        if self._script is not None and len(self.outcomes) != len(self._script):
            raise ReplayMismatch(
                f"the record holds {len(self._script)} chance outcomes, the rules used "
                f"{len(self.outcomes)}"
            )


# --------------------------------------------------------------------------- actions & events


@dataclass(frozen=True)
class Action:
    """One thing that happened to a game: a seat's decision, or the set-up.

    ``data`` is the JSON form of the decision (each game documents its own); ``chance``
    holds the outcomes the engine drew while applying it, filled in when it was accepted.
    """

    kind: str
    seat: str | None = None
    data: Mapping[str, JSON] = field(default_factory=dict)
    chance: tuple[Mapping[str, JSON], ...] = ()

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.data:
            out["data"] = to_jsonable(self.data)
        if self.chance:
            out["chance"] = [dict(outcome) for outcome in self.chance]
        return out

    @classmethod
    def from_json(cls, obj: JSON) -> Action:
        if not isinstance(obj, dict) or not isinstance(obj.get("kind"), str):
            raise MalformedPosition("an action needs a 'kind'")
        unknown = set(obj) - {"kind", "seat", "data", "chance"}
        if unknown:
            raise MalformedPosition(f"unknown action keys: {', '.join(sorted(unknown))}")
        seat = obj.get("seat")
        data = obj.get("data", {})
        chance = obj.get("chance", [])
        if seat is not None and not isinstance(seat, str):
            raise MalformedPosition("an action's seat must be a string")
        if not isinstance(data, dict) or not isinstance(chance, list):
            raise MalformedPosition("an action's data must be an object and chance a list")
        if not all(isinstance(outcome, dict) for outcome in chance):
            raise MalformedPosition("every chance outcome must be an object")
        return cls(obj["kind"], seat, data, tuple(chance))

    def with_chance(self, outcomes: Sequence[Mapping[str, JSON]]) -> Action:
        return dataclasses.replace(self, chance=tuple(dict(outcome) for outcome in outcomes))


@dataclass(frozen=True)
class Event:
    """Base of every event a game emits; subclasses are frozen dataclasses with a ``type``.

    An event is public unless ``private`` is set, in which case only the seat named by its
    ``seat`` field may see it.
    """

    type: ClassVar[str] = "event"
    private: ClassVar[bool] = False

    @property
    def audience(self) -> str | None:
        """``None`` for a public event, else the one seat allowed to see it."""
        if not self.private:
            return None
        seat = getattr(self, "seat", None)
        assert isinstance(seat, str), f"private event {self.type} names no seat"
        return seat

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"type": self.type}
        for item in dataclasses.fields(self):
            out[item.name] = to_jsonable(getattr(self, item.name))
        if self.private:
            out["private"] = True
        return out


@dataclass(frozen=True)
class SeatCommitted(Event):
    """In a game of secret simultaneous choices, a seat has made (``changed``: replaced)
    its choice for the turn; what it chose stays secret. ``waiting_for`` is who still owes
    one, in seat order: the last seat's commit resolves the turn."""

    type: ClassVar[str] = "committed"
    seat: str
    changed: bool
    waiting_for: tuple[str, ...]


@dataclass(frozen=True)
class SeatWithdrawn(Event):
    """A seat's choice for the turn was taken back unrevealed (its seat changed hands): the
    seat owes one again."""

    type: ClassVar[str] = "withdrawn"
    seat: str
    waiting_for: tuple[str, ...]


ChoiceT = TypeVar("ChoiceT")


def commit_of(commits: Sequence[tuple[str, ChoiceT]], seat: str) -> ChoiceT | None:
    """``seat``'s secret choice of the turn, if it has made one."""
    for committed, choice in commits:
        if committed == seat:
            return choice
    return None


def with_commit(
    commits: Sequence[tuple[str, ChoiceT]], seats: Sequence[str], seat: str, choice: ChoiceT
) -> tuple[tuple[str, ChoiceT], ...]:
    """The turn's choices with ``seat``'s made or replaced, in seat order."""
    chosen = dict(commits)
    chosen[seat] = choice
    return tuple((name, chosen[name]) for name in seats if name in chosen)


def without_commit(
    commits: Sequence[tuple[str, ChoiceT]], seat: str
) -> tuple[tuple[str, ChoiceT], ...]:
    """The turn's choices with ``seat``'s taken back."""
    return tuple(commit for commit in commits if commit[0] != seat)


def public_events(events: Iterable[Event]) -> list[Event]:
    """The events anyone may see."""
    return [event for event in events if event.audience is None]


def events_for(events: Iterable[Event], seat: str) -> list[Event]:
    """The events one seat may see: the public ones and its own private ones."""
    return [event for event in events if event.audience in (None, seat)]


def to_jsonable(value: Any) -> JSON:
    """Turn engine values into JSON: objects with ``to_json``, dataclasses, enums, tuples."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, str):
        return value
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(to_jsonable(key)): to_jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        items = [to_jsonable(item) for item in value]
        if isinstance(value, frozenset | set):
            items.sort(key=repr)
        return items
    raise TypeError(f"cannot turn {type(value).__name__} into JSON")


# --------------------------------------------------------------------------- rulesets


StateT = TypeVar("StateT")


@dataclass(frozen=True)
class Transition(Generic[StateT]):
    """What applying one action produced: the next state and what happened, in order."""

    state: StateT
    events: tuple[Event, ...]


class Ruleset(Protocol[StateT]):
    """The static rules of one game. Every method is pure."""

    id: ClassVar[str]
    version: ClassVar[int]

    def setup(self, config: Mapping[str, JSON], seed: int, chance: Chance) -> StateT:
        """A new game from its configuration; ``chance`` deals, shuffles and rolls."""
        ...

    def apply(self, state: StateT, action: Action, chance: Chance) -> Transition[StateT]:
        """Apply one action, or raise :class:`EngineError` leaving ``state`` untouched."""
        ...

    def chance_index(self, state: StateT) -> int:
        """How many chance outcomes the game has used so far (the next live stream)."""
        ...

    def seed_of(self, state: StateT) -> int:
        """The seed a state draws its live chance from."""
        ...

    def from_position(self, position: Mapping[str, JSON]) -> StateT:
        """A state from the game's JSON position notation."""
        ...

    def to_position(self, state: StateT) -> dict[str, JSON]:
        """The game's JSON position notation of a state (round-trips exactly)."""
        ...


class SeededState(Protocol):
    """A state that keeps its game's seed and counts the chance outcomes drawn so far."""

    @property
    def seed(self) -> int: ...

    @property
    def draws(self) -> int: ...


SeededStateT = TypeVar("SeededStateT", bound=SeededState)


class SeededRules(Generic[SeededStateT]):
    """What a :class:`Ruleset` whose states keep ``seed`` and ``draws`` answers alike:
    live chance goes on from the state's own seed and count of draws."""

    def chance_index(self, state: SeededStateT) -> int:
        return state.draws

    def seed_of(self, state: SeededStateT) -> int:
        return state.seed


RULESET_MODULES: dict[str, str] = {
    "charioteer": "engine.charioteer",
    "cartographers": "engine.cartographers",
    "carcassonne": "engine.carcassonne",
}
"""Where each ruleset id lives; the module exposes ``RULESET``."""


def ruleset_for(ruleset_id: str) -> Ruleset[Any]:
    """The ruleset with this id."""
    module_name = RULESET_MODULES.get(ruleset_id)
    if module_name is None:
        raise MalformedPosition(f"unknown game '{ruleset_id}'")
    ruleset: Ruleset[Any] = importlib.import_module(module_name).RULESET
    return ruleset


# --------------------------------------------------------------------------- notation


def typed_number(text: str, digits: int = 6) -> int | None:
    """The whole number ``text`` writes in ASCII digits (at most ``digits`` of them), or
    None: what a player types or a control carries is read this way, so a ``²`` or an
    endless number is refused in words, never a ValueError."""
    if not 0 < len(text) <= digits or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def read_int(value: JSON, what: str, low: int = 0) -> int:
    """A whole number of a position, ``low`` or more, or a MalformedPosition naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise MalformedPosition(f"{what} must be a whole number ≥ {low}, not {value!r}")
    return value


def read_list(value: JSON, what: str) -> list[JSON]:
    """A list of a position, or a MalformedPosition naming ``what``."""
    if not isinstance(value, list):
        raise MalformedPosition(f"{what} must be a list")
    return value


def check_position_keys(obj: JSON, keys: frozenset[str], required: Sequence[str]) -> None:
    """Check that a position is an object holding nothing but ``keys`` and every one of
    ``required``; else a MalformedPosition saying which keys are unknown or missing."""
    if not isinstance(obj, Mapping):
        raise MalformedPosition("a position must be a JSON object")
    unknown = set(obj) - keys
    if unknown:
        raise MalformedPosition(f"unknown position keys: {', '.join(sorted(unknown))}")
    missing = [key for key in required if key not in obj]
    if missing:
        raise MalformedPosition(f"a position needs {', '.join(missing)}")


# --------------------------------------------------------------------------- records


RECORD_KEYS = frozenset({"ruleset", "version", "config", "seed", "setup", "start", "actions"})


@dataclass
class GameRecord:
    """Everything needed to rebuild a game: ruleset id and version, configuration, seed,
    the set-up's chance outcomes (or a ``start`` position) and the log of actions."""

    ruleset: str
    version: int
    config: dict[str, JSON]
    seed: int
    setup: list[dict[str, JSON]] = field(default_factory=list)
    start: dict[str, JSON] | None = None
    actions: list[Action] = field(default_factory=list)

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "ruleset": self.ruleset,
            "version": self.version,
            "config": to_jsonable(self.config),
            "seed": self.seed,
        }
        if self.start is not None:
            out["start"] = self.start
        else:
            out["setup"] = [dict(outcome) for outcome in self.setup]
        out["actions"] = [action.to_json() for action in self.actions]
        return out

    @classmethod
    def from_json(cls, obj: JSON) -> GameRecord:
        if not isinstance(obj, dict):
            raise MalformedPosition("a game record must be a JSON object")
        unknown = set(obj) - RECORD_KEYS
        if unknown:
            raise MalformedPosition(f"unknown record keys: {', '.join(sorted(unknown))}")
        try:
            ruleset, version, config, seed = (
                obj["ruleset"],
                obj["version"],
                obj["config"],
                obj["seed"],
            )
        except KeyError as missing:
            raise MalformedPosition(f"a game record needs {missing}") from None
        if not (isinstance(ruleset, str) and isinstance(version, int) and isinstance(seed, int)):
            raise MalformedPosition("ruleset must be a string, version and seed integers")
        if not isinstance(config, dict):
            raise MalformedPosition("config must be an object")
        start = obj.get("start")
        setup = obj.get("setup", [])
        actions = obj.get("actions", [])
        if start is not None and not isinstance(start, dict):
            raise MalformedPosition("start must be a position object")
        if not isinstance(setup, list) or not isinstance(actions, list):
            raise MalformedPosition("setup and actions must be lists")
        return cls(
            ruleset,
            version,
            dict(config),
            seed,
            [dict(outcome) for outcome in setup],
            start,
            [Action.from_json(action) for action in actions],
        )


def replay_steps(record: GameRecord) -> Iterator[tuple[Action, Transition[Any]]]:
    """Every action of a record with the transition it caused (state after, events), using
    only the recorded chance outcomes; the first step's state comes from the set-up."""
    ruleset = ruleset_for(record.ruleset)
    yield from steps_from(ruleset, _start_state(ruleset, record), record.actions)


def steps_from(
    ruleset: Ruleset[Any], state: Any, actions: Iterable[Action]
) -> Iterator[tuple[Action, Transition[Any]]]:
    """Recorded ``actions`` played on from ``state`` (a record's state after its earlier
    actions), each with the transition it caused, using only the recorded chance outcomes."""
    for action in actions:
        chance = Chance.scripted(action.chance, ruleset.chance_index(state))
        transition = ruleset.apply(state, action, chance)
        chance.finish()
        state = transition.state
        yield action, transition


def _start_state(ruleset: Ruleset[Any], record: GameRecord) -> Any:
    if record.version != ruleset.version:
        raise MalformedPosition(
            f"this record is {record.ruleset} v{record.version}; the engine plays "
            f"v{ruleset.version}"
        )
    if record.start is not None:
        return ruleset.from_position(record.start)
    chance = Chance.scripted(record.setup)
    state = ruleset.setup(record.config, record.seed, chance)
    chance.finish()
    return state


def replay(record: GameRecord, *, upto: int | None = None) -> Any:
    """Rebuild the state a record describes, using only its recorded chance outcomes.

    Raises:
        MalformedPosition: unknown game, a version this engine does not play.
        ReplayMismatch: the outcomes do not fit what the rules ask for.
        EngineError: an action in the log is not legal (the record is corrupt).
    """
    ruleset = ruleset_for(record.ruleset)
    state = _start_state(ruleset, record)
    actions = record.actions if upto is None else record.actions[:upto]
    for action in actions:
        chance = Chance.scripted(action.chance, ruleset.chance_index(state))
        state = ruleset.apply(state, action, chance).state
        chance.finish()
    return state


class Game(Generic[StateT]):
    """A live game: its state and its record, advanced together one accepted action at a
    time. A refused action raises and changes neither."""

    def __init__(self, ruleset: Ruleset[StateT], state: StateT, record: GameRecord) -> None:
        self.ruleset = ruleset
        self.state = state
        self.record = record

    @classmethod
    def new(cls, ruleset: Ruleset[StateT], config: Mapping[str, JSON], seed: int) -> Game[StateT]:
        chance = Chance.live(check_seed(seed), 0)
        state = ruleset.setup(config, seed, chance)
        record = GameRecord(ruleset.id, ruleset.version, dict(config), seed, chance.outcomes)
        return cls(ruleset, state, record)

    @classmethod
    def from_position(cls, ruleset: Ruleset[StateT], position: Mapping[str, JSON]) -> Game[StateT]:
        state = ruleset.from_position(position)
        start = ruleset.to_position(state)
        seed = ruleset.seed_of(state)
        record = GameRecord(ruleset.id, ruleset.version, {}, seed, start=start)
        return cls(ruleset, state, record)

    @classmethod
    def from_record(cls, record: GameRecord) -> Game[Any]:
        return cls(ruleset_for(record.ruleset), replay(record), record)

    def act(self, action: Action) -> tuple[Event, ...]:
        """Apply an action with live chance; on success log it and return its events."""
        recorded, transition = advance(self.ruleset, self.state, action)
        self.record.actions.append(recorded)
        self.state = transition.state
        return transition.events


def advance(
    ruleset: Ruleset[StateT], state: StateT, action: Action
) -> tuple[Action, Transition[StateT]]:
    """Apply an action to a state with live chance: the action as a record keeps it (with
    the chance outcomes it drew) and the transition. Raises :class:`EngineError`, and
    changes nothing, if the action is refused."""
    chance = Chance.live(ruleset.seed_of(state), ruleset.chance_index(state))
    transition = ruleset.apply(state, action, chance)
    return action.with_chance(chance.outcomes), transition


# --------------------------------------------------------------------------- live tables


class TableState(Protocol):
    """What a :class:`LiveTable` reads of its game's state."""

    @property
    def seats(self) -> tuple[str, ...]: ...

    @property
    def is_over(self) -> bool: ...


TableStateT = TypeVar("TableStateT", bound=TableState)


class LiveTable(Generic[TableStateT]):
    """A live game as its callers hold it (the command line, the AI runs, the bot): the
    :class:`Game` it wraps, read back from a position or a record, its seats and its
    position notation. Each game's table (``Race``, ``Expedition``, ``Table``) names its
    :attr:`ruleset` and adds how a new one is set up, its actions, its view and result."""

    ruleset: ClassVar[Ruleset[Any]]

    def __init__(self, game: Game[TableStateT]) -> None:
        self.game = game

    @classmethod
    def from_position(cls, position: Mapping[str, JSON]) -> Self:
        return cls(Game.from_position(cls.ruleset, position))

    @classmethod
    def from_record(cls, record: GameRecord) -> Self:
        game: Game[TableStateT] = Game.from_record(record)
        return cls(game)

    @property
    def state(self) -> TableStateT:
        return self.game.state

    @property
    def record(self) -> GameRecord:
        return self.game.record

    @property
    def seats(self) -> tuple[str, ...]:
        return self.state.seats

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def position(self) -> dict[str, JSON]:
        """The game's position notation of the table now."""
        return self.game.ruleset.to_position(self.state)
