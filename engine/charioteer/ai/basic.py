"""The two simple levels: ``random`` (any legal move) and ``greedy`` (the longest move).

Greedy is the "dummy hand" of the designer's notes: it takes the move of greatest distance
as the rules compute it (spec §4: cards, token, skill bonus, damage after recovery) and
looks no further; whips, cornering and attacks count only as far as that distance does.
Among equally long moves it spends the fewest tokens, then the fewest cards.
"""

from __future__ import annotations

from engine.charioteer.ai.base import legal_moves, move_distance
from engine.charioteer.moves import Move
from engine.charioteer.view import SeatView
from engine.core import Rng


class RandomPolicy:
    """Any legal move, uniformly (discard tokens included)."""

    name = "random"

    def choose(self, view: SeatView, rng: Rng) -> Move:
        moves = legal_moves(view, discards=True)
        return moves[rng.below(len(moves))]


class GreedyPolicy:
    """The longest move of the turn; ties go to the move spending least."""

    name = "greedy"

    def choose(self, view: SeatView, rng: Rng) -> Move:
        best: Move | None = None
        best_key: tuple[int, int, int, int] | None = None
        for move in legal_moves(view, discards=False):
            play = view.analyse(move)
            spent = (move.token is not None) + (move.discard_token is not None)
            key = (move_distance(view, play), -move.is_reset, -spent, -len(move.cards))
            if best_key is None or key > best_key:
                best, best_key = move, key
        assert best is not None
        return best
