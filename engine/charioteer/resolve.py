"""Turn resolution (spec §3, §5–§8): reveal, move every chariot in order, whips, attacks,
rewards, then the end of the turn and the check for the race's end.

:func:`resolve_turn` works on a mutable copy of the race and returns a new
:class:`RaceState` with the events, in the order things happened.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from engine.charioteer.components import (
    ATTACK_BOXES,
    BONUS_SLOTS,
    COLOURS,
    DISRUPT_CUBES,
    EMPEROR_FACES,
    HAND_SIZE,
    MAJOR_ATTACK_CUBES,
    SKILL_BOX_LEVEL,
    WHIP_SPACES,
    Card,
    Colour,
    EmperorFace,
    Token,
)
from engine.charioteer.events import (
    AttackBoxesEmptied,
    Attacked,
    BonusSlotTaken,
    CardsDrawn,
    CrowdAdvanced,
    DamageTaken,
    DeckReshuffled,
    Disrupted,
    DistanceComputed,
    EmperorRolled,
    Entered,
    FanBagRefilled,
    FanTokenDrawn,
    FanTokenReceived,
    HandRefilled,
    LapCompleted,
    MoveFinished,
    MoveOrder,
    MoveRevealed,
    Passed,
    RaceEnded,
    Recovered,
    ResetMade,
    SkillAdvanced,
    Whipped,
)
from engine.charioteer.rules import Play, recovered
from engine.charioteer.state import Chariot, RaceState, Result, Skill, race_order
from engine.charioteer.track import is_outer, lap_index, laps_completed, next_space
from engine.core import Chance, Event


@dataclass
class _Display:
    """One chariot's changing values during the turn."""

    chariot: Chariot
    damage: int
    attack: int
    skills: list[Skill]
    hand: list[Card]
    tokens: list[Token]


@dataclass
class _Turn:
    """The race while a turn resolves: mutable, thrown away once the new state is built."""

    state: RaceState
    chance: Chance
    events: list[Event] = field(default_factory=list)
    positions: dict[str, int] = field(default_factory=dict)
    spaces: dict[int, list[str]] = field(default_factory=dict)
    """Chariots on each track space (by lap index, whatever their lap), inside first."""
    displays: dict[str, _Display] = field(default_factory=dict)
    deck: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    fan_bag: list[Token] = field(default_factory=list)
    fan_discard: list[Token] = field(default_factory=list)
    crowd: list[Card] = field(default_factory=list)

    def __post_init__(self) -> None:
        state = self.state
        for chariot in sorted(state.chariots, key=lambda c: (lap_index(c.position), c.lane)):
            self.spaces.setdefault(lap_index(chariot.position), []).append(chariot.seat)
            self.positions[chariot.seat] = chariot.position
            self.displays[chariot.seat] = _Display(
                chariot,
                chariot.damage,
                chariot.attack,
                list(chariot.skills),
                list(chariot.hand),
                list(chariot.tokens),
            )
        self.deck = list(state.deck)
        self.discard = list(state.discard)
        self.fan_bag = list(state.fan_bag)
        self.fan_discard = list(state.fan_discard)
        self.crowd = list(state.crowd)

    # ------------------------------------------------------------------ the track

    def lane(self, seat: str) -> int:
        return self.row(seat).index(seat)

    def row(self, seat: str) -> list[str]:
        """The chariots on the seat's track space, inside first."""
        return self.spaces[lap_index(self.positions[seat])]

    def leader(self) -> str:
        return min(self.positions, key=lambda seat: (-self.positions[seat], self.lane(seat)))

    def step(self, seat: str, regular_only: bool, passed: list[str], whip: bool) -> None:
        """Leave the current space (the chariot is innermost) for the next one."""
        position = self.positions[seat]
        target, skipped = next_space(position, regular_only)
        for outer in skipped:
            for rival in self.spaces.get(lap_index(outer), []):
                passed.append(rival)
                self.events.append(Passed(seat, rival, outer, 0, "outer"))
        row = self.row(seat)
        row.remove(seat)
        if not row:
            del self.spaces[lap_index(position)]
        arrived = self.spaces.setdefault(lap_index(target), [])
        arrived.append(seat)
        self.positions[seat] = target
        self.events.append(Entered(seat, target, len(arrived) - 1, is_outer(target), whip))

    def move(self, seat: str, distance: int, cornering: bool, first_turn: bool) -> list[str]:
        """Spend ``distance`` points (spec §7); returns the rivals passed, in order."""
        finish = self.state.options.finish
        passed: list[str] = []
        points = distance
        while True:
            row = self.row(seat)
            index = row.index(seat)
            while index > 0 and points > 0:
                rival = row[index - 1]
                row[index - 1], row[index] = seat, rival
                index -= 1
                cost = 0 if first_turn else 1
                points -= cost
                passed.append(rival)
                self.events.append(Passed(seat, rival, self.positions[seat], cost, "lane"))
            if points == 0:
                return passed
            regular_only = cornering or self.positions[seat] >= finish
            self.step(seat, regular_only, passed, whip=False)
            points -= 1

    def whip(self, seat: str, whips: int, cornering: bool, passed: list[str]) -> None:
        """Up to 5 spaces per whip after the move, never passing (spec §5)."""
        if self.state.turn == 1:
            self.events.append(Whipped(seat, whips, 0, "turn 1"))
            return
        if self.leader() == seat:
            self.events.append(Whipped(seat, whips, 0, "leading"))
            return
        if passed:
            self.events.append(Whipped(seat, whips, 0, "passed"))
            return
        limit = WHIP_SPACES * (whips if self.state.options.whips_stack else 1)
        finish = self.state.options.finish
        spaces = 0
        stopped = "spent"
        while spaces < limit:
            position = self.positions[seat]
            regular_only = cornering or position >= finish
            _, skipped = next_space(position, regular_only)
            blocked = self.lane(seat) > 0 or any(
                self.spaces.get(lap_index(outer)) for outer in skipped
            )
            if blocked:
                stopped = "blocked"
                break
            self.step(seat, regular_only, passed, whip=True)
            spaces += 1
        self.events.append(Whipped(seat, whips, spaces, stopped))

    # ------------------------------------------------------------------ cards and tokens

    def draw_card(self) -> Card | None:
        if not self.deck and self.discard:
            order = self.chance.shuffle("deck", len(self.discard))
            self.deck = [self.discard[index] for index in order]
            self.discard = []
            self.events.append(DeckReshuffled(len(self.deck)))
        return self.deck.pop(0) if self.deck else None

    def draw_fan_token(self) -> Token | None:
        if not self.fan_bag and self.fan_discard:
            order = self.chance.shuffle("fan bag", len(self.fan_discard))
            self.fan_bag = [self.fan_discard[index] for index in order]
            self.fan_discard = []
            self.events.append(FanBagRefilled(len(self.fan_bag)))
        return self.fan_bag.pop(0) if self.fan_bag else None


def resolve_turn(
    state: RaceState, plays: dict[str, Play], chance: Chance
) -> tuple[RaceState, list[Event]]:
    """Resolve the turn once every seat's move is in ``plays``; returns the next state (or
    the final one) and the events in order."""
    turn = _Turn(state, chance)
    events = turn.events
    seats = state.seats
    first_turn = state.turn == 1

    for seat in seats:
        events.append(MoveRevealed(seat, plays[seat].revealed()))
    protected: set[str] = set()
    for seat in seats:
        play = plays[seat]
        if play.is_reset or play.shield:
            display = turn.displays[seat]
            events.append(
                AttackBoxesEmptied(seat, "reset" if play.is_reset else "shield", display.attack)
            )
            display.attack = 0
            protected.add(seat)
    for seat in seats:
        display = turn.displays[seat]
        played = set(plays[seat].move.cards) | set(plays[seat].move.discard_cards)
        display.hand = [card for index, card in enumerate(display.hand) if index not in played]
        spent = {plays[seat].move.token, plays[seat].move.discard_token}
        display.tokens = [token for index, token in enumerate(display.tokens) if index not in spent]

    order = state.turn_one_order() if first_turn else state.race_order()
    events.append(MoveOrder(order, first_turn))
    distances: dict[str, int | None] = {}
    for seat in order:
        distances[seat] = _resolve_move(turn, plays[seat], protected, first_turn)

    _end_turn(turn, plays)
    chariots = []
    for chariot in state.chariots:
        display = turn.displays[chariot.seat]
        chariots.append(
            dataclasses.replace(
                chariot,
                position=turn.positions[chariot.seat],
                lane=turn.lane(chariot.seat),
                damage=display.damage,
                attack=display.attack,
                skills=(display.skills[0], display.skills[1], display.skills[2], display.skills[3]),
                hand=tuple(display.hand),
                tokens=tuple(display.tokens),
                last_move=plays[chariot.seat].revealed(distances[chariot.seat]),
            )
        )
    over = any(position >= state.options.finish for position in turn.positions.values())
    next_state = dataclasses.replace(
        state,
        chariots=tuple(chariots),
        deck=tuple(turn.deck),
        discard=tuple(turn.discard),
        fan_bag=tuple(turn.fan_bag),
        fan_discard=tuple(turn.fan_discard),
        crowd=tuple(turn.crowd),
        commits=(),
        first_seat=None,
    )
    next_state = _next_turn(turn, next_state, race_over=over)
    if over:
        ranking = race_order(next_state.chariots)
        result = Result(ranking[0], ranking, state.turn)
        events.append(RaceEnded(result.winner, result.ranking, result.turns))
        next_state = dataclasses.replace(next_state, result=result)
    return dataclasses.replace(next_state, draws=chance.next_index), events


def _resolve_move(turn: _Turn, play: Play, protected: set[str], first_turn: bool) -> int | None:
    """One chariot's recovery, distance, movement, whips, attack and rewards; returns the
    distance moved (``None`` for a reset)."""
    events = turn.events
    seat = play.seat
    display = turn.displays[seat]
    if play.is_reset:
        events.append(ResetMade(seat, display.damage))
        display.damage = 0
        display.attack = 0
        return None
    symbol, colour = play.symbol, play.colour
    assert symbol is not None and colour is not None
    if play.recoveries:
        removed = recovered(display.damage, play.recoveries)
        display.damage -= removed
        events.append(Recovered(seat, play.recoveries, removed, display.damage))
    skill = display.skills[_colour_index(colour)]
    distance = max(0, play.card_distance + skill.bonus - display.damage)
    events.append(
        DistanceComputed(
            seat,
            play.matching_symbols,
            symbol.number,
            play.token_bonus,
            skill.bonus,
            display.damage,
            distance,
        )
    )
    start = turn.positions[seat]
    cornering = colour is Colour.BLACK
    passed = turn.move(seat, distance, cornering, first_turn)
    if play.whips:
        turn.whip(seat, play.whips, cornering, passed)
    end = turn.positions[seat]
    events.append(MoveFinished(seat, start, end, turn.lane(seat), end - start, tuple(passed)))
    laps = turn.state.options.laps
    for lap in range(laps_completed(start) + 1, laps_completed(end) + 1):
        events.append(LapCompleted(seat, lap, lap >= laps))

    cubes = play.attack_cubes
    if cubes:
        hits: list[tuple[str, int]] = []
        shielded: list[str] = []
        for rival in turn.state.seats:
            if rival == seat:
                continue
            if rival in protected:
                shielded.append(rival)
                continue
            rival_display = turn.displays[rival]
            added = min(cubes, ATTACK_BOXES - rival_display.attack)
            rival_display.attack += added
            hits.append((rival, added))
        size = "major" if cubes >= MAJOR_ATTACK_CUBES else "minor"
        events.append(Attacked(seat, size, cubes, tuple(hits), tuple(shielded)))

    _advance_skill(turn, play)
    if play.earns_fan_token:
        token = turn.draw_fan_token()
        events.append(FanTokenDrawn(seat, play.matching_symbols, token is not None))
        if token is not None:
            display.tokens.append(token)
            events.append(FanTokenReceived(seat, token))
    return distance


def _colour_index(colour: Colour) -> int:
    return COLOURS.index(colour)


def _advance_skill(turn: _Turn, play: Play) -> None:
    """The move's reward on the skills track (spec §5): 1 step, +1 if the emperor favours
    the colour, +1 per learning; a marker in the bonus box stays put."""
    colour = play.colour
    assert colour is not None
    display = turn.displays[play.seat]
    index = _colour_index(colour)
    skill = display.skills[index]
    if skill.in_box:
        return
    favoured = turn.state.emperor.favours(colour)
    steps = 1 + favoured + play.learning
    level = skill.level + steps
    if level < SKILL_BOX_LEVEL:
        display.skills[index] = Skill(level)
        turn.events.append(
            SkillAdvanced(play.seat, colour, steps, favoured, play.learning, skill.level, level)
        )
        return
    taken = {marker.slot for marker in display.skills}
    slot = min(slot for slot in BONUS_SLOTS if slot not in taken)
    display.skills[index] = Skill(SKILL_BOX_LEVEL, slot)
    turn.events.append(
        SkillAdvanced(
            play.seat, colour, steps, favoured, play.learning, skill.level, SKILL_BOX_LEVEL
        )
    )
    turn.events.append(BonusSlotTaken(play.seat, colour, slot))


def _end_turn(turn: _Turn, plays: dict[str, Play]) -> None:
    """Attack boxes into damage boxes; played cards and tokens discarded (spec §3.5)."""
    for seat in turn.state.seats:
        display = turn.displays[seat]
        if display.attack:
            display.damage += display.attack
            turn.events.append(DamageTaken(seat, display.attack, display.damage))
            display.attack = 0
    for seat in turn.state.seats:
        play = plays[seat]
        turn.discard.extend(play.hand_cards)
        turn.discard.extend(play.discard_cards)
        for token in (play.token, play.discard_token):
            if token is not None and token.fan:
                turn.fan_discard.append(token)


def _next_turn(turn: _Turn, state: RaceState, *, race_over: bool) -> RaceState:
    """Refill hands, advance the crowd, then — only when the race goes on — roll the emperor
    die and apply it (spec §3.5 [ruling], §3.1, §11): a finished race keeps the last face and
    gets no disrupt cubes."""
    events = turn.events
    hands: dict[str, list[Card]] = {}
    for chariot in state.chariots:
        hand = list(chariot.hand)
        drawn: list[Card] = []
        while len(hand) < HAND_SIZE:
            card = turn.draw_card()
            if card is None:
                break
            hand.append(card)
            drawn.append(card)
        hands[chariot.seat] = hand
        if drawn:
            events.append(HandRefilled(chariot.seat, len(drawn)))
            events.append(CardsDrawn(chariot.seat, tuple(drawn)))
    discarded = turn.crowd.pop(0) if turn.crowd else None
    if discarded is not None:
        turn.discard.append(discarded)
    while len(turn.crowd) < 3:
        card = turn.draw_card()
        if card is None:
            break
        turn.crowd.append(card)
    events.append(CrowdAdvanced(discarded, tuple(turn.crowd)))

    chariots = [
        dataclasses.replace(chariot, hand=tuple(hands[chariot.seat])) for chariot in state.chariots
    ]
    face = state.emperor
    if not race_over:
        face = state.next_emperor or EMPEROR_FACES[turn.chance.roll("emperor", len(EMPEROR_FACES))]
        events.append(EmperorRolled(face, state.turn + 1))
        chariots = apply_disrupt(state, chariots, face, events)
    return dataclasses.replace(
        state,
        turn=state.turn + 1,
        emperor=face,
        next_emperor=None,
        chariots=tuple(chariots),
        deck=tuple(turn.deck),
        discard=tuple(turn.discard),
        crowd=tuple(turn.crowd),
    )


def apply_disrupt(
    state: RaceState, chariots: list[Chariot], face: EmperorFace, events: list[Event]
) -> list[Chariot]:
    """The disrupt face puts cubes in every chariot's attack boxes, by player count."""
    cubes = DISRUPT_CUBES.get(len(chariots), 0)
    if face is not EmperorFace.DISRUPT or not cubes or not state.options.emperor_disrupts:
        return chariots
    hits = []
    changed = []
    for chariot in chariots:
        added = min(cubes, ATTACK_BOXES - chariot.attack)
        hits.append((chariot.seat, added))
        changed.append(dataclasses.replace(chariot, attack=chariot.attack + added))
    events.append(Disrupted(tuple(hits)))
    return changed
