"""What one seat may see of a race (spec §9), and what a spectator sees.

:func:`view` is the only way a player, a renderer or an AI seat looks at a race: it shows
the seat's own hand, tokens and chosen move, everyone's public data, and never another
seat's hand, tokens or unrevealed move, the draw pile's order, the fan bag's order, the
next emperor face or the seed.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from engine.charioteer.components import SYMBOLS, Card, EmperorFace, Symbol, Token
from engine.charioteer.moves import Move, RevealedMove
from engine.charioteer.rules import Play, analyse_hand, iter_hand_moves
from engine.charioteer.state import RaceOptions, RaceState, Result, Skill
from engine.core import JSON, to_jsonable


@dataclass(frozen=True)
class PublicChariot:
    """A chariot as everyone sees it: track, display, how many cards and tokens it holds."""

    seat: str
    position: int
    lane: int
    laps: int
    damage: int
    attack: int
    skills: tuple[Skill, Skill, Skill, Skill]
    hand_size: int
    token_count: int
    committed: bool
    last_move: RevealedMove | None

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "position": self.position,
            "lane": self.lane,
            "laps": self.laps,
            "damage": self.damage,
            "attack": self.attack,
            "skills": [skill.to_json() for skill in self.skills],
            "hand_size": self.hand_size,
            "token_count": self.token_count,
            "committed": self.committed,
            "last_move": None if self.last_move is None else self.last_move.to_json(),
        }


@dataclass(frozen=True)
class SeatView:
    """A race as ``seat`` sees it (``seat`` is ``None`` for a spectator: no secrets)."""

    seat: str | None
    turn: int
    emperor: EmperorFace
    crowd: tuple[Card, ...]
    options: RaceOptions
    chariots: tuple[PublicChariot, ...]
    race_order: tuple[str, ...]
    deck_size: int
    discard: tuple[Card, ...]
    fan_bag_size: int
    fan_discard: tuple[Token, ...]
    first_seat: str | None
    waiting_for: tuple[str, ...]
    result: Result | None
    hand: tuple[Card, ...] = ()
    tokens: tuple[Token, ...] = ()
    my_move: Move | None = None

    def chariot(self, seat: str) -> PublicChariot:
        for chariot in self.chariots:
            if chariot.seat == seat:
                return chariot
        raise KeyError(seat)

    @property
    def me(self) -> PublicChariot:
        assert self.seat is not None, "a spectator has no chariot"
        return self.chariot(self.seat)

    def legal_moves(self, *, discards: bool = True) -> list[Move]:
        """Every distinct legal move of the viewing seat."""
        if self.seat is None or self.result is not None:
            return []
        return list(
            iter_hand_moves(self.hand, self.tokens, self.crowd, self.options, discards=discards)
        )

    def playable_symbols(self) -> list[Symbol]:
        """The symbols (in symbol order) that some legal move of the viewing seat can take,
        without discard tokens."""
        if self.seat is None or self.result is not None:
            return []
        return list(playable_symbols_of(self.hand, self.tokens, self.crowd, self.options))

    def analyse(self, move: Move) -> Play:
        """Check the viewing seat's move and say what it does (raises if illegal)."""
        assert self.seat is not None, "a spectator has no moves"
        return analyse_hand(self.seat, self.hand, self.tokens, self.crowd, self.options, move)

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "seat": self.seat,
            "turn": self.turn,
            "emperor": self.emperor.value,
            "crowd": [str(card) for card in self.crowd],
            "options": self.options.to_json(),
            "chariots": [chariot.to_json() for chariot in self.chariots],
            "race_order": list(self.race_order),
            "deck_size": self.deck_size,
            "discard": [str(card) for card in self.discard],
            "fan_bag_size": self.fan_bag_size,
            "fan_discard": [token.label for token in self.fan_discard],
            "first_seat": self.first_seat,
            "waiting_for": list(self.waiting_for),
            "result": to_jsonable(self.result),
        }
        if self.seat is not None:
            out["hand"] = [str(card) for card in self.hand]
            out["tokens"] = [token.label for token in self.tokens]
            out["my_move"] = None if self.my_move is None else self.my_move.to_json()
        return out


def view(state: RaceState, seat: str | None = None) -> SeatView:
    """The race as ``seat`` may see it; ``None`` gives the public (spectator) view."""
    if seat is not None and seat not in state.seats:
        raise KeyError(f"no seat {seat} in this race")
    committed = {committed for committed, _ in state.commits}
    chariots = tuple(
        PublicChariot(
            seat=chariot.seat,
            position=chariot.position,
            lane=chariot.lane,
            laps=chariot.laps,
            damage=chariot.damage,
            attack=chariot.attack,
            skills=chariot.skills,
            hand_size=len(chariot.hand),
            token_count=len(chariot.tokens),
            committed=chariot.seat in committed,
            last_move=chariot.last_move,
        )
        for chariot in state.chariots
    )
    own = state.chariot(seat) if seat is not None else None
    return SeatView(
        seat=seat,
        turn=state.turn,
        emperor=state.emperor,
        crowd=state.crowd,
        options=state.options,
        chariots=chariots,
        race_order=state.race_order(),
        deck_size=len(state.deck),
        discard=state.discard,
        fan_bag_size=len(state.fan_bag),
        fan_discard=tuple(token.public() for token in state.fan_discard),
        first_seat=state.first_seat,
        waiting_for=state.waiting_for,
        result=state.result,
        hand=own.hand if own is not None else (),
        tokens=tuple(token.public() for token in own.tokens) if own is not None else (),
        my_move=state.commit_of(seat) if seat is not None else None,
    )


@functools.lru_cache(maxsize=1024)
def playable_symbols_of(
    hand: tuple[Card, ...], tokens: tuple[Token, ...], crowd: tuple[Card, ...], options: RaceOptions
) -> tuple[Symbol, ...]:
    """The symbols some legal move takes with this hand, these tokens (discards aside) and
    this crowd at a table of these options; each stops at its first legal move. Kept: a
    seat's panel asks again at every choice of a turn, and the answer never changes."""
    playable = []
    for symbol in SYMBOLS:
        moves = iter_hand_moves(
            hand, tokens, crowd, options, discards=False, symbols=(symbol,), resets=False
        )
        if next(moves, None) is not None:
            playable.append(symbol)
    return tuple(playable)
