"""How the ``strategic`` level judges a race: each chariot's standing, in spaces.

A chariot's standing is its position plus what its display and holdings will be worth
over the turns left (spec §1, §4–§6): skill markers on their way to the bonus box (the
box pays +3…+9 on every later move of that colour, spec §1), damage that costs a point a
turn until it is recovered (§6), cubes waiting in the attack boxes, tokens kept for when
they matter, and — for the seat itself — the longest move its kept cards make with the
next crowd card. Every number of that judgement is a field of :class:`Weights`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from engine.charioteer.components import (
    ATTACK_BOXES,
    BONUS_SLOTS,
    COLOURS,
    MIN_MATCHING_CARDS,
    SKILL_BOX_LEVEL,
    SKILL_START_LEVELS,
    WHIP_SPACES,
    Card,
    Colour,
    Symbol,
    Token,
    TokenKind,
)
from engine.charioteer.rules import Play, recovered
from engine.charioteer.state import Chariot, RaceOptions, RaceState, Skill
from engine.charioteer.track import next_space
from engine.charioteer.view import SeatView


@dataclass(frozen=True)
class Weights:
    """The strategic level's search and judgement; worths are in spaces of the track."""

    samples: int = 6
    """Plausible races each shortlisted move is resolved in."""
    shortlist: int = 12
    """Moves kept after the first look (:meth:`Evaluator.quick_score`)."""
    speed: float = 8.5
    """Spaces a chariot covers per turn, to estimate the turns left."""
    damage_horizon: float = 5.0
    """Turns a damage cube is expected to cost before it is recovered."""
    attack_box: float = 0.8
    """Weight of a cube in the attack boxes (a shield may still stop it)."""
    skill_share: float = 0.35
    """Share of its remaining moves a chariot makes in a colour still on the track."""
    box_share: float = 0.45
    """Share of its remaining moves a chariot makes in a colour in the bonus box."""
    steps_per_move: float = 4 / 3
    """Skill steps a move earns on average (the emperor favours its colour 1 time in 3)."""
    hand: float = 0.6
    """Weight of the next turn's best move with the cards kept and the next crowd card."""
    token_keep: float = 1.1
    """A kept +3/+5 token is worth this many times its bonus while turns remain."""
    token_turns: float = 3.0
    """Below this many turns left, kept tokens lose their worth (they must be used)."""
    whip_token: float = 3.0
    """A kept whip token, in spaces."""
    shield_token: float = 1.5
    """A kept shield token, in damage cubes."""
    recovery_token: float = 1.0
    """A kept recovery token, in damage cubes."""
    other_token: float = 1.5
    """A kept wild, learning or discard token, and a fan token still to draw, in spaces."""
    rival_max: float = 0.7
    """How much the leading rival counts against the average rival."""
    win: float = 40.0
    """Worth of winning, once the race is decided."""


DEFAULT_WEIGHTS = Weights()


@functools.lru_cache(maxsize=65536)
def advance(position: int, distance: int, regular_only: bool, finish: int) -> int:
    """Where ``distance`` points take a chariot on an empty track (spec §7)."""
    for _ in range(distance):
        position, _ = next_space(position, regular_only or position >= finish)
    return position


class Evaluator:
    """A chariot's standing in a race, in spaces: its position plus what its display and
    holdings will be worth over the turns left."""

    def __init__(self, weights: Weights, seat: str) -> None:
        self.weights = weights
        self.seat = seat

    def score(self, state: RaceState) -> float:
        """The seat's standing minus its rivals' (mostly the leading rival's)."""
        weights = self.weights
        finish = state.options.finish
        if state.result is not None:
            me = state.chariot(self.seat)
            best_rival = max((c.position, -c.lane) for c in state.chariots if c.seat != self.seat)
            margin = me.position - best_rival[0]
            won = state.result.winner == self.seat
            return (weights.win if won else -weights.win) + margin
        leader = max(chariot.position for chariot in state.chariots)
        turns_left = max(0.0, (finish - leader) / weights.speed)
        mine = 0.0
        rivals: list[float] = []
        for chariot in state.chariots:
            standing = self.standing(chariot, turns_left)
            if chariot.seat == self.seat:
                mine = standing + self.tokens_worth(chariot.tokens, turns_left)
                mine += self.hand_worth(
                    chariot.hand,
                    state.crowd[0] if state.crowd else None,
                    chariot.skills,
                    chariot.damage,
                    chariot.position,
                    state.options,
                )
            else:
                rivals.append(standing)
        against = weights.rival_max * max(rivals) + (1 - weights.rival_max) * (
            sum(rivals) / len(rivals)
        )
        return mine - against

    def standing(self, chariot: Chariot, turns_left: float) -> float:
        weights = self.weights
        cube = min(turns_left, weights.damage_horizon)
        value = chariot.position - 0.01 * chariot.lane
        value -= cube * (chariot.damage + weights.attack_box * chariot.attack)
        free = [slot for slot in BONUS_SLOTS if slot not in {s.slot for s in chariot.skills}]
        next_slot = free[0] if free else 0
        for skill in chariot.skills:
            value += self.skill_worth(skill, next_slot, turns_left)
        return value

    def skill_worth(self, skill: Skill, next_slot: int, turns_left: float) -> float:
        weights = self.weights
        if skill.slot is not None:
            return skill.slot * weights.box_share * turns_left
        uses = weights.skill_share * turns_left
        to_plus_one = max(0, SKILL_START_LEVELS - skill.level) / weights.steps_per_move
        to_box = (SKILL_BOX_LEVEL - skill.level) / weights.steps_per_move
        return max(0.0, uses - to_plus_one) + max(0, next_slot - 1) * max(0.0, uses - to_box)

    def tokens_worth(self, tokens: Sequence[Token], turns_left: float) -> float:
        return sum(self.token_worth(token, turns_left) for token in tokens)

    def token_worth(self, token: Token, turns_left: float) -> float:
        weights = self.weights
        fade = min(1.0, turns_left / weights.token_turns)
        cube = min(turns_left, weights.damage_horizon)
        kind = token.kind
        coloured = 0.7 if token.colour is not None else 1.0
        if kind.distance_bonus:
            return fade * coloured * weights.token_keep * kind.distance_bonus
        if kind is TokenKind.WHIP:
            return fade * weights.whip_token
        if kind is TokenKind.SHIELD:
            return fade * weights.shield_token * cube
        if kind is TokenKind.RECOVERY:
            return fade * weights.recovery_token * cube
        return fade * coloured * weights.other_token

    def hand_worth(
        self,
        hand: Sequence[Card],
        crowd_card: Card | None,
        skills: Sequence[Skill],
        damage: int,
        position: int,
        options: RaceOptions,
    ) -> float:
        """The next turn's longest move, in spaces, from ``hand`` with ``crowd_card`` (black
        moves counted through the curves), times the hand weight."""
        weights = self.weights
        if not weights.hand:
            return 0.0
        finish = options.finish
        best = 0
        totals = best_symbol_totals(hand, crowd_card, options.crowd_counts_toward_minimum)
        for symbol, total in totals.items():
            colour = symbol.colour
            bonus = skills[COLOURS.index(colour)].bonus
            distance = max(0, total + symbol.number + bonus - damage)
            end = advance(position, distance, colour is Colour.BLACK, finish)
            best = max(best, end - position)
        return weights.hand * best

    def quick_score(self, view: SeatView, play: Play) -> float:
        """A first look at a move without resolving the turn: the seat's standing after
        it on a track where rivals stand still, plus the damage its attack deals."""
        weights = self.weights
        me = view.me
        finish = view.options.finish
        leader = max(chariot.position for chariot in view.chariots)
        turns_left = max(0.0, (finish - leader) / weights.speed - 1)
        cube = min(turns_left, weights.damage_horizon)
        tokens = [
            token
            for index, token in enumerate(view.tokens)
            if index not in (play.move.token, play.move.discard_token)
        ]
        hand = [
            card
            for index, card in enumerate(view.hand)
            if index not in play.move.cards and index not in play.move.discard_cards
        ]
        skills = list(me.skills)
        position = me.position
        if play.colour is None:
            damage = 0
        else:
            colour = play.colour
            index = COLOURS.index(colour)
            damage = me.damage - recovered(me.damage, play.recoveries)
            distance = max(0, play.card_distance + skills[index].bonus - damage)
            position = advance(position, distance, colour is Colour.BLACK, finish)
            if play.whips and view.turn > 1:
                position += self._whip_spaces(view, me.position, position, play.whips)
            damage += 0 if play.shield else me.attack
            skills[index] = advanced_skill(
                skills, index, 1 + view.emperor.favours(colour) + play.learning
            )
        free = [slot for slot in BONUS_SLOTS if slot not in {s.slot for s in skills}]
        next_slot = free[0] if free else 0
        value = position - cube * damage
        value += sum(self.skill_worth(skill, next_slot, turns_left) for skill in skills)
        value += self.tokens_worth(tokens, turns_left)
        if play.earns_fan_token:
            value += weights.other_token
        crowd_card = view.crowd[1] if len(view.crowd) > 1 else None
        value += self.hand_worth(hand, crowd_card, skills, damage, position, view.options)
        if play.attack_cubes:
            rivals = [chariot for chariot in view.chariots if chariot.seat != me.seat]
            hits = sum(min(play.attack_cubes, ATTACK_BOXES - rival.attack) for rival in rivals)
            value += cube * hits / len(rivals)
        return value

    def _whip_spaces(self, view: SeatView, start: int, end: int, whips: int) -> int:
        """Spaces a whip may add after a move from ``start`` to ``end``: none when
        leading or having passed a rival, else up to the nearest rival ahead."""
        me = view.me
        ahead = []
        for rival in view.chariots:
            if rival.seat == me.seat:
                continue
            moves_first = (rival.position, -rival.lane) > (me.position, -me.lane)
            where = rival.position + (round(self.weights.speed) if moves_first else 0)
            if start < rival.position <= end and not moves_first:
                return 0
            if where >= end:
                ahead.append(where - end)
        if not ahead:
            return 0
        return min(min(ahead), WHIP_SPACES * whips)


def advanced_skill(skills: Sequence[Skill], index: int, steps: int) -> Skill:
    """A skill marker after ``steps`` steps (spec §5): into the lowest free bonus slot on
    reaching the box; a marker in the box stays."""
    skill = skills[index]
    if skill.in_box:
        return skill
    level = skill.level + steps
    if level < SKILL_BOX_LEVEL:
        return Skill(level)
    taken = {marker.slot for marker in skills}
    free = [slot for slot in BONUS_SLOTS if slot not in taken]
    return Skill(SKILL_BOX_LEVEL, free[0]) if free else Skill(SKILL_BOX_LEVEL - 1)


def best_symbol_totals(
    hand: Sequence[Card], crowd_card: Card | None, crowd_counts: bool = True
) -> dict[Symbol, int]:
    """For every symbol a move could show: its matching symbols from the best 3 cards of
    ``hand`` and the crowd card. A move needs two matching cards, the crowd card among
    them when ``crowd_counts`` (spec §4)."""
    counts: dict[Symbol, list[int]] = {}
    for card in hand:
        for symbol, count in card.symbols:
            counts.setdefault(symbol, []).append(count)
    if crowd_card is not None:
        for symbol, _ in crowd_card.symbols:
            counts.setdefault(symbol, [])
    totals: dict[Symbol, int] = {}
    for symbol, found in counts.items():
        extra = crowd_card.count(symbol) if crowd_card is not None else 0
        if len(found) + (crowd_counts and extra > 0) < MIN_MATCHING_CARDS:
            continue
        found.sort(reverse=True)
        totals[symbol] = sum(found[:3]) + extra
    return totals
