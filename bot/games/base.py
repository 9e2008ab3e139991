"""What the host needs to know of a game: the adapter every hosted game implements.

The table service (:mod:`bot.service`) runs lobbies, seats, stored actions, time limits,
AI seats and the outbox for any game through a :class:`GameHost`; it never imports a game
package. Each game's adapter lives in ``bot/games/<game>/`` beside its Discord panel.

Two shapes of play are hosted:

* **simultaneous** turns (Charioteer, Cartographers): every seat owes a move, moves stay
  secret and changeable until the last one arrives, which resolves the turn;
* **turn-based** play (Carcassonne: Star Wars): one active seat owes a move at a time and
  every other seat watches.

Either way the engine says who owes a move now (:meth:`GameHost.waiting_for`); the shape
only changes how the front ends word it.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.core import JSON, Action, EngineError, Event, Rng, Ruleset


class ServiceError(Exception):
    """Something a user asked for cannot be done; ``key`` names the message to show."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class Shape(enum.Enum):
    SIMULTANEOUS = "simultaneous"
    TURN_BASED = "turn-based"


REVEAL, BOARD, PODIUM = "reveal", "board", "podium"
"""Announcement kinds every game uses: what a resolved step did, the position now owing
moves, and the final ranking. A game may add its own kinds (a season's scores, say)."""
REPLAY = "replay"
"""The announcement the service adds after a finished game's podium, for every game: the
animated replay of the whole game, attached to the podium post once drawn."""


@dataclass(frozen=True)
class Standing:
    """A finished game's placings: ``places[seat]`` is 1 for the winner(s); tied seats
    share a place. ``turns`` is how long the game lasted, in the game's own turns.
    ``teams[seat]`` names the seat's team in a team game (team-mates share a place and are
    rated as one team); empty when every seat plays for itself."""

    places: Mapping[str, int]
    turns: int
    teams: Mapping[str, str] = field(default_factory=dict)

    @property
    def ranking(self) -> tuple[str, ...]:
        return tuple(sorted(self.places, key=lambda seat: (self.places[seat], seat)))

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(seat for seat in self.ranking if self.places[seat] == 1)


def standing_from_groups(groups: Sequence[Sequence[str]], turns: int) -> Standing:
    """Placings from groups of tied seats, best group first (1, 1, 3 for a tie on top)."""
    places: dict[str, int] = {}
    place = 1
    for group in groups:
        for seat in group:
            places[seat] = place
        place += len(group)
    return Standing(places, turns)


class GameHost(ABC):
    """One hosted game. Subclasses set the class attributes and implement the methods;
    states, views and moves are the engine's own objects, opaque to the host."""

    id: ClassVar[str]
    """The engine ruleset's id, stored with every table."""
    ruleset: ClassVar[Ruleset[Any]]
    shape: ClassVar[Shape]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    default_seats: ClassVar[int]
    ai_levels: ClassVar[tuple[str, ...]]
    """Weakest first; the last is the default for AI seats and timeouts."""
    timeout_policies: ClassVar[tuple[str, ...]] = ("ai",)
    """What a seat whose time ran out plays: ``ai`` (its AI move) or a game's own policy."""
    option_names: ClassVar[tuple[str, ...]] = ()
    """The names of the lobby options :meth:`check_options` takes (none: no options)."""
    demo_options: ClassVar[Mapping[str, JSON]] = {}
    """The lobby options of a short game, for the demo (``python -m bot demo``)."""

    # ------------------------------------------------------------------ lobby

    def check_options(self, options: Mapping[str, JSON], seats: int) -> dict[str, JSON]:
        """The lobby options for a table of ``seats``, checked and completed with their
        defaults; raises :class:`ServiceError` (``error.bad_options``) when the engine
        refuses them."""
        return dict(options)

    @abstractmethod
    def seat_names(self, count: int, options: Mapping[str, JSON]) -> tuple[str, ...]:
        """The engine's names for ``count`` seats, in seating (and turn) order."""

    @abstractmethod
    def config(self, seats: int, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """The engine's set-up configuration for a table of ``seats``."""

    # ------------------------------------------------------------------ play

    @abstractmethod
    def waiting_for(self, state: Any) -> tuple[str, ...]:
        """Seats that owe a move now (one in turn-based play)."""

    @abstractmethod
    def stage(self, state: Any) -> int:
        """A number that grows with every resolved step: a move made for an older stage is
        stale (a panel left open over a resolution)."""

    @abstractmethod
    def standing(self, state: Any) -> Standing | None:
        """The final placings once the game is over, else None."""

    @abstractmethod
    def announcements(
        self, before: Any, after: Any, events: Sequence[Event]
    ) -> tuple[tuple[str, int], ...]:
        """What an accepted action makes public, as ``(kind, stage)`` rows for the outbox
        (empty when the action only recorded a secret choice)."""

    @abstractmethod
    def view(self, state: Any, seat: str | None) -> Any:
        """What ``seat`` may see (None: a spectator's view)."""

    @abstractmethod
    def action(self, seat: str, move: Any) -> Action:
        """The engine action for ``seat`` playing ``move`` (a front end's move object or
        an :class:`~engine.core.Action`)."""

    def repeats(self, state: Any, action: Action) -> bool:
        """Whether ``action`` is the choice its seat already made (a double click)."""
        return False

    def has_chosen(self, state: Any, seat: str) -> bool:
        """Whether ``seat`` already made a (still changeable) choice this stage."""
        return False

    def withdraw_action(self, state: Any, seat: str) -> Action | None:
        """The action taking back ``seat``'s secret, unrevealed choice of this stage, when
        it has made one (played as the seat changes hands); None when there is nothing
        to take back (turn-based play has no secret choice)."""
        return None

    # ------------------------------------------------------------------ AI and time limits

    @abstractmethod
    def ai_action(self, level: str, seat_view: Any, rng: Rng) -> Action:
        """The AI seat's action from its own view only."""

    @abstractmethod
    def fallback_action(self, seat_view: Any) -> Action:
        """A legal action that always exists: played when an AI fails."""

    def timeout_action(self, policy: str, seat_view: Any, rng: Rng) -> Action | None:
        """The action for a seat whose time ran out under a game-specific ``policy``;
        None means: play the AI move."""
        return None

    def rule_text(self, error: EngineError, locale: str | None) -> str:
        """An engine refusal in the player's language (the engine's English reason when
        its catalogue does not name it)."""
        return error.reason


class Broadcast(ABC):
    """What people outside a game's table see of it (the server's web page, its replays,
    the animated replay at the podium): which steps of the record are public, a public
    view as a picture, and a step's story. Everything it is given is public: a view for no
    seat (:meth:`GameHost.view` with None) and a step's public events."""

    def shows_step(self, host: GameHost, before: Any, after: Any, events: Sequence[Event]) -> bool:
        """Whether the action that turned ``before`` into ``after`` is a public step: by
        default one that announces something (in simultaneous play, a resolved turn; the
        secret commits before it are no step)."""
        return bool(host.announcements(before, after, events))

    @abstractmethod
    def picture(self, view: Any, names: Mapping[str, str], lang: str) -> bytes:
        """The public position as a PNG picture (run in the picture workers: module-level
        data only)."""

    @abstractmethod
    def story(
        self, events: Sequence[Event], view: Any, names: Mapping[str, str], locale: str | None
    ) -> list[str]:
        """What a step did, one line per thing, from its public events (``view``: after
        the step)."""

    def summary(self, view: Any, names: Mapping[str, str], locale: str | None) -> list[str]:
        """Where the position stands, in words, for what its picture does not show (the
        scores, the card in play); none by default."""
        return []

    def frame(self, view: Any, names: Mapping[str, str], lang: str) -> bytes:
        """One frame of the animated replay (PNG); by default the step's picture."""
        return self.picture(view, names, lang)


__all__ = [
    "BOARD",
    "PODIUM",
    "REPLAY",
    "REVEAL",
    "Broadcast",
    "GameHost",
    "ServiceError",
    "Shape",
    "Standing",
    "standing_from_groups",
]
