"""A seat's private panel as text (spec §4–§5, §9): its numbered hand, tokens, damage and
skills, and the one-line preview of a move it is considering.

Cards and tokens are numbered from 1 for people: card number ``n`` is hand index ``n - 1``
and token number ``n`` is token index ``n - 1`` (the indices a :class:`Move` takes).
"""

from __future__ import annotations

from typing import Any

from engine.charioteer.components import (
    COLOURS,
    MAJOR_ATTACK_CUBES,
    WHIP_SPACES,
    Card,
    Colour,
    Symbol,
    Token,
)
from engine.charioteer.moves import Move
from engine.charioteer.render.common import (
    card_text,
    catalogue,
    colour_letter,
    colour_name,
    say,
    skill_name,
    skill_text,
    symbol_text,
    token_text,
)
from engine.charioteer.rules import Play, recovered
from engine.charioteer.state import Skill
from engine.charioteer.view import SeatView
from engine.core import EngineError


def rule_text(error: EngineError, locale: str = "en") -> str:
    """An engine refusal for players: from the catalogue when the error names its message
    (cards and tokens numbered from 1, faces and colours in the player's language), else
    the engine's own English reason."""
    if error.message is None or error.message not in catalogue().ids("en"):
        return error.reason
    params: dict[str, Any] = dict(error.params)
    try:
        if isinstance(params.get("card"), str):
            params["card"] = card_text(Card.parse(params["card"]), locale)
        if isinstance(params.get("token"), str):
            params["token"] = token_text(Token.parse(params["token"]), locale)
        if isinstance(params.get("colour"), str):
            params["colour"] = colour_name(Colour(params["colour"]), locale)
        if isinstance(params.get("symbol"), str):
            params["symbol"] = symbol_text(Symbol.parse(params["symbol"]), locale)
        return say(locale, error.message, **params)
    except (EngineError, KeyError, ValueError):
        return error.reason


def card_number(index: int) -> int:
    """The number people see for hand index ``index`` (and token index)."""
    return index + 1


def _skills_line(
    skills: tuple[Skill, Skill, Skill, Skill], locale: str, squares: bool = False
) -> str:
    items = []
    for colour, skill in zip(COLOURS, skills, strict=True):
        key = "hand.skill_bonus" if skill.bonus and not skill.in_box else "hand.skill"
        items.append(
            say(
                locale,
                key,
                letter=colour_letter(colour, locale, squares=squares),
                level=skill_text(skill, locale),
                bonus=skill.bonus,
            )
        )
    return say(locale, "hand.skills", skills=say(locale, "hand.separator").join(items))


def hand_text(view: SeatView, *, locale: str = "en", squares: bool = False) -> str:
    """The viewing seat's private panel, as plain lines (no markdown): every card of its
    hand numbered from 1 (number ``n`` is hand index ``n - 1``), every token numbered from 1
    (number ``n`` is token index ``n - 1``), its damage and attack boxes, its skills, and the
    move it has chosen this turn, if any. With ``squares``, symbols and skills are
    coloured squares ("🟥5")."""
    if view.seat is None:
        raise ValueError("a spectator has no hand")
    me = view.me
    lines = [say(locale, "hand.title", count=len(view.hand))]
    for index, card in enumerate(view.hand):
        lines.append(
            say(
                locale,
                "hand.card",
                number=card_number(index),
                card=card_text(card, locale, squares=squares),
            )
        )
    if view.tokens:
        lines.append(say(locale, "hand.tokens", count=len(view.tokens)))
        for index, token in enumerate(view.tokens):
            lines.append(
                say(
                    locale, "hand.token", number=card_number(index), token=token_text(token, locale)
                )
            )
    else:
        lines.append(say(locale, "hand.no_tokens"))
    lines.append(say(locale, "hand.damage", damage=me.damage, attack=me.attack))
    lines.append(_skills_line(me.skills, locale, squares))
    if view.my_move is not None:
        preview = preview_text(view, view.my_move, locale=locale, squares=squares)
        lines.append(say(locale, "hand.chosen", preview=preview))
    return "\n".join(lines)


def move_distance(view: SeatView, play: Play) -> int:
    """The spaces ``play`` would carry the viewing seat: its card distance (symbols, number,
    token) plus the skill bonus, less the damage left after the move's own recovery; 0 for
    a reset move."""
    if play.is_reset or play.colour is None:
        return 0
    me = view.me
    damage = me.damage - recovered(me.damage, play.recoveries)
    skill = me.skills[COLOURS.index(play.colour)]
    return max(0, play.card_distance + skill.bonus - damage)


def preview_text(view: SeatView, move: Move, *, locale: str = "en", squares: bool = False) -> str:
    """One line saying what ``move`` would do for the viewing seat, e.g.
    ``R5 ×6 → 11, +3 token, +1 skill, −2 damage = 13 · minor attack · fan token``: matching
    symbols and the symbol's number, the token and skill bonuses, the damage left after the
    move's own recovery, the distance, then the move's effects. For an illegal move, the
    engine's reason."""
    try:
        play = view.analyse(move)
    except EngineError as error:
        return rule_text(error, locale)
    me = view.me
    separator = say(locale, "preview.separator")
    if play.is_reset:
        text = say(locale, "preview.reset", damage=me.damage, attack=me.attack)
        if play.discard_token is not None:
            text += separator + say(locale, "preview.discards", count=len(play.discard_cards))
        return text
    symbol, colour = play.symbol, play.colour
    assert symbol is not None and colour is not None
    removed = recovered(me.damage, play.recoveries)
    damage = me.damage - removed
    skill = me.skills[COLOURS.index(colour)]
    base = play.matching_symbols + symbol.number
    distance = move_distance(view, play)
    terms = [
        say(
            locale,
            "preview.base",
            symbol=symbol_text(symbol, locale, squares=squares),
            symbols=play.matching_symbols,
            base=base,
        )
    ]
    if play.token_bonus:
        terms.append(say(locale, "preview.token", bonus=play.token_bonus))
    if skill.bonus:
        terms.append(say(locale, "preview.skill", bonus=skill.bonus))
    if damage:
        terms.append(say(locale, "preview.damage", damage=damage))
    formula = say(locale, "preview.terms").join(terms)
    if len(terms) > 1 or distance != base:
        formula = say(locale, "preview.total", formula=formula, distance=distance)

    effects = [formula]
    if removed:
        effects.append(say(locale, "preview.recovery", count=removed))
    if play.attack_cubes:
        key = (
            "preview.major_attack"
            if play.attack_cubes >= MAJOR_ATTACK_CUBES
            else "preview.minor_attack"
        )
        effects.append(say(locale, key, count=play.attack_cubes))
    if play.shield:
        effects.append(say(locale, "preview.shield"))
    if play.whips:
        if view.turn == 1:
            effects.append(say(locale, "preview.whip_turn1"))
        else:
            spaces = WHIP_SPACES * (play.whips if view.options.whips_stack else 1)
            effects.append(say(locale, "preview.whip", count=spaces))
    if not skill.in_box:
        steps = 1 + view.emperor.favours(colour) + play.learning
        effects.append(
            say(locale, "preview.skill_steps", count=steps, skill=skill_name(colour, locale))
        )
    if play.earns_fan_token:
        effects.append(say(locale, "preview.fan_token"))
    if play.discard_token is not None:
        effects.append(say(locale, "preview.discards", count=len(play.discard_cards)))
    return separator.join(effects)
