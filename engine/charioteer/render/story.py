"""The story of one resolved turn (spec §3–§8), told from its public events: what each seat
played and what happened to it, in movement order, then the end of the turn.

Private events (cards drawn, the face of a fan token) are skipped even when passed in, and
step-by-step ``entered`` events are summed up into one movement per chariot (spaces
entered; outer spaces skipped by a cornering move do not count). The text is
plain Discord markdown (names escaped) and fits one message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.charioteer.components import SKILL_BOX_LEVEL
from engine.charioteer.events import (
    AttackBoxesEmptied,
    Attacked,
    BonusSlotTaken,
    CrowdAdvanced,
    DamageTaken,
    DeckReshuffled,
    Disrupted,
    DistanceComputed,
    EmperorRolled,
    Entered,
    FanBagRefilled,
    FanTokenDrawn,
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
from engine.charioteer.moves import RevealedMove
from engine.charioteer.render.common import (
    ELLIPSIS,
    card_text,
    display_names,
    escape_markdown,
    join_list,
    say,
    section_key,
    skill_name,
    symbol_text,
    token_text,
    utf16_length,
)
from engine.charioteer.track import section_of
from engine.charioteer.view import SeatView
from engine.core import Event

MESSAGE_LIMIT = 2000
STORY_NAME_WIDTH = 16
PODIUM_PLACES = 3


@dataclass
class _Chariot:
    """What one chariot did this turn, gathered from its events."""

    seat: str
    revealed: RevealedMove | None = None
    emptied: AttackBoxesEmptied | None = None
    events: list[Event] = field(default_factory=list)


@dataclass
class _Turn:
    chariots: dict[str, _Chariot] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    first_turn: bool = False
    end: list[Event] = field(default_factory=list)
    race_end: RaceEnded | None = None

    def chariot(self, seat: str) -> _Chariot:
        if seat not in self.chariots:
            self.chariots[seat] = _Chariot(seat)
        return self.chariots[seat]


MOVE_EVENTS = (
    ResetMade,
    Entered,
    Recovered,
    DistanceComputed,
    Passed,
    Whipped,
    MoveFinished,
    LapCompleted,
    Attacked,
    SkillAdvanced,
    BonusSlotTaken,
    FanTokenDrawn,
)
END_EVENTS = (
    DamageTaken,
    FanBagRefilled,
    DeckReshuffled,
    CrowdAdvanced,
    EmperorRolled,
    Disrupted,
)


def _gather(events: Sequence[Event]) -> _Turn:
    turn = _Turn()
    for event in events:
        if event.private:
            continue
        if isinstance(event, MoveRevealed):
            turn.chariot(event.seat).revealed = event.move
        elif isinstance(event, AttackBoxesEmptied):
            turn.chariot(event.seat).emptied = event
        elif isinstance(event, MoveOrder):
            turn.order = list(event.order)
            turn.first_turn = event.first_turn
        elif isinstance(event, MOVE_EVENTS):
            seat = event.seat
            turn.chariot(seat).events.append(event)
            if seat not in turn.order:
                turn.order.append(seat)
        elif isinstance(event, END_EVENTS):
            turn.end.append(event)
        elif isinstance(event, RaceEnded):
            turn.race_end = event
    for seat in turn.chariots:
        if seat not in turn.order:
            turn.order.append(seat)
    return turn


class _Teller:
    """Sentences about one turn, in one locale, with the seats' names."""

    def __init__(
        self,
        view: SeatView,
        names: Mapping[str, str] | None,
        locale: str,
        squares: bool = False,
    ) -> None:
        self.view = view
        self.locale = locale
        self.squares = squares
        seats = [chariot.seat for chariot in view.chariots]
        shown = display_names(seats, names, locale, STORY_NAME_WIDTH)
        self.names = {seat: escape_markdown(name) for seat, name in shown.items()}

    def say(self, key: str, **params: object) -> str:
        return say(self.locale, key, **params)

    def name(self, seat: str) -> str:
        return self.names.get(seat, escape_markdown(seat))

    def names_of(self, seats: Sequence[str]) -> str:
        return join_list((self.name(seat) for seat in seats), self.locale)

    # ------------------------------------------------------------------ a chariot's move

    def play(self, chariot: _Chariot, distance: int | None, detailed: bool) -> str:
        move = chariot.revealed
        name = self.name(chariot.seat)
        if move is None:
            return ""
        if detailed:
            items = []
            for position, card in enumerate(move.cards):
                face = escape_markdown(card_text(card, self.locale, squares=self.squares))
                key = "reveal.card_wild" if position == move.wild else "reveal.card"
                items.append(self.say(key, card=face))
            if move.crowd is not None:
                face = escape_markdown(card_text(move.crowd, self.locale, squares=self.squares))
                items.append(self.say("reveal.crowd_card", card=face))
            if move.token is not None:
                items.append(self.say("reveal.token", token=token_text(move.token, self.locale)))
            cards = join_list(items, self.locale)
        else:
            count = len(move.cards) + (move.crowd is not None)
            cards = self.say("reveal.card_count", count=count)
        if move.symbol is None:
            return self.say("reveal.reset", name=name, cards=cards)
        return self.say(
            "reveal.play",
            name=name,
            symbol=symbol_text(move.symbol, self.locale, squares=self.squares),
            cards=cards,
            distance=distance if distance is not None else move.distance,
        )

    def passes(self, passed: Sequence[Passed]) -> str:
        groups: list[tuple[str, list[str]]] = []
        for event in passed:
            where = section_key(section_of(event.position))
            if groups and groups[-1][0] == where:
                if event.rival not in groups[-1][1]:
                    groups[-1][1].append(event.rival)
            else:
                groups.append((where, [event.rival]))
        phrases = [
            self.say(
                "reveal.pass_group", rivals=self.names_of(rivals), where=self.say(f"where.{key}")
            )
            for key, rivals in groups
        ]
        text = phrases[-1]
        for phrase in reversed(phrases[:-1]):
            text = self.say("reveal.then", first=phrase, rest=text)
        return text

    def whip(self, event: Whipped, name: str) -> str:
        if event.stopped == "turn 1":
            return self.say("reveal.whip_turn1")
        if event.stopped == "leading":
            return self.say("reveal.whip_leading", name=name)
        if event.stopped == "passed":
            return self.say("reveal.whip_passed")
        if event.stopped == "blocked":
            if event.spaces == 0:
                return self.say("reveal.whip_blocked_at_once")
            return self.say("reveal.whip_blocked", count=event.spaces)
        return self.say("reveal.whip_spent", count=event.spaces)

    def attack(self, event: Attacked, name: str) -> str:
        parts = []
        by_cubes: dict[int, list[str]] = {}
        for rival, added in event.hits:
            by_cubes.setdefault(added, []).append(rival)
        for added in sorted(by_cubes, reverse=True):
            rivals = self.names_of(by_cubes[added])
            if added:
                parts.append(self.say("reveal.attack_hit", count=added, names=rivals))
            else:
                count = len(by_cubes[added])
                parts.append(self.say("reveal.attack_full", names=rivals, count=count))
        if event.shielded:
            shielded = self.names_of(event.shielded)
            count = len(event.shielded)
            parts.append(self.say("reveal.attack_shielded", names=shielded, count=count))
        key = "reveal.attack_major" if event.size == "major" else "reveal.attack_minor"
        return self.say(key, name=name, effects=self.say("reveal.attack_separator").join(parts))

    def chariot_story(self, chariot: _Chariot, detailed: bool) -> str:
        name = self.name(chariot.seat)
        distance = next(
            (event.distance for event in chariot.events if isinstance(event, DistanceComputed)),
            None,
        )
        sentences = [self.play(chariot, distance, detailed)]
        move = chariot.revealed
        emptied = chariot.emptied
        if emptied is not None and emptied.reason == "shield":
            if emptied.cubes:
                sentences.append(self.say("reveal.shield_cubes", name=name, count=emptied.cubes))
            else:
                sentences.append(self.say("reveal.shield", name=name))
        if move is not None and move.discard_token is not None:
            sentences.append(
                self.say(
                    "reveal.discard",
                    name=name,
                    count=len(move.discarded),
                    token=token_text(move.discard_token, self.locale),
                )
            )
        passed = [event for event in chariot.events if isinstance(event, Passed)]
        whips = [event for event in chariot.events if isinstance(event, Whipped)]
        whip_spaces = sum(event.spaces for event in whips)
        entered = [event for event in chariot.events if isinstance(event, Entered)]
        moved = False
        for event in chariot.events:
            if isinstance(event, ResetMade):
                cubes = event.damage_removed + (emptied.cubes if emptied is not None else 0)
                sentences.append(self.say("reveal.reset_effect", name=name, count=cubes))
            elif isinstance(event, Recovered) and event.removed:
                sentences.append(
                    self.say("reveal.recovery", name=name, count=event.removed, left=event.damage)
                )
            elif isinstance(event, MoveFinished) and not moved:
                moved = True
                # spaces entered by the move itself; skipped outer spaces do not count
                spaces = (
                    sum(not step.whip for step in entered)
                    if entered
                    else event.spaces - whip_spaces
                )
                sentences.append(self.movement(name, spaces, passed))
                sentences.extend(self.whip(whip, name) for whip in whips)
            elif isinstance(event, LapCompleted):
                key = "reveal.finish" if event.final else "reveal.lap"
                sentences.append(self.say(key, name=name, lap=event.lap))
            elif isinstance(event, Attacked):
                sentences.append(self.attack(event, name))
            elif isinstance(event, SkillAdvanced) and event.level < SKILL_BOX_LEVEL:
                sentences.append(self.skill(event, name))
            elif isinstance(event, BonusSlotTaken):
                skill = skill_name(event.colour, self.locale)
                sentences.append(
                    self.say("reveal.bonus_slot", name=name, skill=skill, slot=event.slot)
                )
            elif isinstance(event, FanTokenDrawn):
                key = "reveal.fan_token" if event.drawn else "reveal.fan_token_empty"
                sentences.append(self.say(key, name=name))
        if not moved and (passed or entered):
            spaces = sum(not step.whip for step in entered)
            sentences.append(self.movement(name, spaces, passed))
        return " ".join(sentence for sentence in sentences if sentence)

    def summary(self, chariot: _Chariot) -> str:
        """A chariot's turn in one short line: its move and distance, and a lap or the
        finish it reached."""
        distance = next(
            (event.distance for event in chariot.events if isinstance(event, DistanceComputed)),
            None,
        )
        sentences = [self.play(chariot, distance, detailed=False)]
        for event in chariot.events:
            if isinstance(event, LapCompleted):
                key = "reveal.finish" if event.final else "reveal.lap"
                sentences.append(self.say(key, name=self.name(chariot.seat), lap=event.lap))
        return " ".join(sentence for sentence in sentences if sentence)

    def movement(self, name: str, spaces: int, passed: Sequence[Passed]) -> str:
        if passed and spaces:
            return self.say(
                "reveal.moves_passing", name=name, count=spaces, passes=self.passes(passed)
            )
        if passed:
            return self.say("reveal.passes", name=name, passes=self.passes(passed))
        if spaces:
            return self.say("reveal.moves", name=name, count=spaces)
        return self.say("reveal.stays", name=name)

    def skill(self, event: SkillAdvanced, name: str) -> str:
        skill = skill_name(event.colour, self.locale)
        reasons = []
        if event.emperor:
            reasons.append(self.say("reveal.why_emperor"))
        if event.learning:
            reasons.append(self.say("reveal.why_learning", count=event.learning))
        if not reasons:
            return self.say(
                "reveal.skill", name=name, skill=skill, start=event.start, level=event.level
            )
        return self.say(
            "reveal.skill_why",
            name=name,
            skill=skill,
            start=event.start,
            level=event.level,
            why=join_list(reasons, self.locale),
        )

    # ------------------------------------------------------------------ the end of the turn

    def end_story(self, events: Sequence[Event]) -> list[str]:
        sentences = []
        damage = [event for event in events if isinstance(event, DamageTaken)]
        if damage:
            items = [
                self.say(
                    "reveal.damage_item",
                    name=self.name(event.seat),
                    count=event.cubes,
                    total=event.damage,
                )
                for event in damage
            ]
            sentences.append(self.say("reveal.damage", items=join_list(items, self.locale)))
        for event in events:
            if isinstance(event, FanBagRefilled):
                sentences.append(self.say("reveal.fan_bag"))
            elif isinstance(event, DeckReshuffled):
                sentences.append(self.say("reveal.reshuffle"))
            elif isinstance(event, CrowdAdvanced) and event.crowd:
                card = escape_markdown(
                    card_text(event.crowd[-1], self.locale, squares=self.squares)
                )
                sentences.append(self.say("reveal.crowd", card=card))
            elif isinstance(event, EmperorRolled):
                face = self.say(f"emperor.{event.face.value}")
                sentences.append(self.say("reveal.emperor", face=face, turn=event.turn))
            elif isinstance(event, Disrupted):
                cubes = {added for _, added in event.hits}
                if len(cubes) == 1:
                    sentences.append(self.say("reveal.disrupt_all", count=cubes.pop()))
                else:
                    items = [
                        self.say("reveal.disrupt_item", name=self.name(seat), count=added)
                        for seat, added in event.hits
                    ]
                    sentences.append(
                        self.say("reveal.disrupt", items=join_list(items, self.locale))
                    )
        return sentences

    def race_end(self, event: RaceEnded) -> str:
        podium = [
            self.say("reveal.podium_place", place=place, name=self.name(seat))
            for place, seat in enumerate(event.ranking[:PODIUM_PLACES], start=1)
        ]
        return " ".join(
            [
                self.say("reveal.race_end", name=self.name(event.winner), turns=event.turns),
                self.say("reveal.podium", podium=self.say("reveal.podium_separator").join(podium)),
            ]
        )


def _turn_number(turn: _Turn, view: SeatView) -> int:
    if turn.race_end is not None:
        return turn.race_end.turns
    for event in turn.end:
        if isinstance(event, EmperorRolled):
            return event.turn - 1
    return view.turn


def _fit(body: list[str], tail: list[str], limit: int) -> str | None:
    text = "\n".join([*body, *tail])
    return text if utf16_length(text) <= limit else None


def _cut(text: str, limit: int) -> str:
    """``text`` cut at a sentence or line end so that it and "…" fit ``limit``."""
    room = limit - utf16_length(ELLIPSIS)
    cut = text
    while utf16_length(cut) > room:
        cut = cut[: max(0, len(cut) - (utf16_length(cut) - room))]
    for end in ("\n", ". ", "! "):
        at = cut.rfind(end)
        if at > len(cut) // 2:
            return cut[: at + len(end.rstrip())] + ELLIPSIS
    return cut + ELLIPSIS


def reveal_summary(
    events: Sequence[Event],
    view: SeatView,
    *,
    names: Mapping[str, str] | None = None,
    locale: str = "en",
    squares: bool = False,
) -> str:
    """A resolved turn in a few short lines, in movement order: each chariot's move, its
    distance and a lap it completed, then the winner when the race ended (the podium
    says the rest). The whole story is :func:`reveal_text`; ``squares`` as there."""
    turn = _gather(events)
    teller = _Teller(view, names, locale, squares)
    lines = [teller.summary(turn.chariot(seat)) for seat in turn.order]
    if turn.race_end is not None:
        end = turn.race_end
        lines.append(say(locale, "reveal.race_end", name=teller.name(end.winner), turns=end.turns))
    text = "\n".join(line for line in lines if line)
    return text if utf16_length(text) <= MESSAGE_LIMIT // 2 else _cut(text, MESSAGE_LIMIT // 2)


def reveal_text(
    events: Sequence[Event],
    view: SeatView,
    *,
    names: Mapping[str, str] | None = None,
    locale: str = "en",
    titled: bool = True,
    squares: bool = False,
) -> str:
    """The story of one resolved turn from its public events, in movement order: each
    chariot's revealed move, passes (with the section of the track), whips and why they
    stopped, attacks and who was shielded, recoveries, skills and bonus slots, fan tokens
    (never their face), laps; then damage, the new crowd card, the emperor's roll, and the
    race's end with its podium. ``view`` is any view of the race after the turn. Private
    events are skipped. At most 2,000 characters: card faces give way to card counts, then
    the story is cut with "…", keeping the race's end. Without ``titled``, the story has
    no "Turn 3" line (its post has its own header). With ``squares``, symbols are coloured
    squares ("🟥5")."""
    turn = _gather(events)
    teller = _Teller(view, names, locale, squares)
    title = say(locale, "reveal.title", turn=_turn_number(turn, view))
    tail = [teller.race_end(turn.race_end)] if turn.race_end is not None else []

    def body(detailed: bool) -> list[str]:
        lines = [title] if titled else []
        if turn.first_turn and turn.order:
            lines.append(say(locale, "reveal.first_turn", name=teller.name(turn.order[0])))
        for seat in turn.order:
            story = teller.chariot_story(turn.chariot(seat), detailed)
            if story:
                lines.append(story)
        end_events = turn.end
        if turn.race_end is not None:
            # no next turn: its crowd card and emperor roll do not matter
            end_events = [event for event in turn.end if isinstance(event, DamageTaken)]
        end = teller.end_story(end_events)
        if end:
            lines.append(" ".join(end))
        return lines

    for detailed in (True, False):
        text = _fit(body(detailed), tail, MESSAGE_LIMIT)
        if text is not None:
            return text
    tail_text = "\n".join(tail)
    room = MESSAGE_LIMIT - (utf16_length(tail_text) + 1 if tail else 0)
    cut = _cut("\n".join(body(False)), room)
    return "\n".join([cut, *tail]) if tail else cut
