"""The interface every AI level implements, and what the levels share: the moves a seat
may make and a move's distance as the rules compute it (spec §4)."""

from __future__ import annotations

from typing import Protocol

from engine.charioteer.components import COLOURS
from engine.charioteer.moves import Move
from engine.charioteer.rules import Play, recovered
from engine.charioteer.view import SeatView
from engine.core import GameOver, IllegalAction, Rng


class Policy(Protocol):
    """A way of choosing a seat's move from what that seat may see."""

    name: str

    def choose(self, view: SeatView, rng: Rng) -> Move:
        """A legal move for ``view.seat``.

        Raises:
            GameOver: the race has ended.
            IllegalAction: the seat holds no card, so no move is possible.
        """
        ...


def check_can_move(view: SeatView) -> str:
    """The viewing seat, once it is sure the seat has a move to make.

    Raises:
        GameOver: the race has ended.
        IllegalAction: a spectator's view, or a seat without a card in hand.
    """
    if view.result is not None:
        raise GameOver("the race is over", seat=view.seat)
    if view.seat is None:
        raise IllegalAction("a spectator has no move to make")
    if not view.hand:
        raise IllegalAction("there is no card in hand to play", seat=view.seat)
    return view.seat


def legal_moves(view: SeatView, *, discards: bool) -> list[Move]:
    """Every distinct legal move of the viewing seat (never empty: a seat holding a card
    may always reset)."""
    check_can_move(view)
    return view.legal_moves(discards=discards)


def move_distance(view: SeatView, play: Play) -> int:
    """The distance the rules give ``play`` (spec §4): card distance plus skill bonus
    minus the damage left after the move's recoveries, never below 0. A reset moves 0."""
    if play.colour is None:
        return 0
    me = view.me
    damage = me.damage - recovered(me.damage, play.recoveries)
    bonus = me.skills[COLOURS.index(play.colour)].bonus
    return max(0, play.card_distance + bonus - damage)
