"""Every sentence Cartographers shows a player, as whole templates with named
placeholders, keyed by message id: errors, renderer labels, terminal prompts, and the
names of terrains, cards, seasons and titles.

Only English exists so far; another language is another catalogue with the same ids.
Parameters stay raw (``terrain="farm"``, ``card="great_river"``) so an error can carry
them as JSON; when a message is rendered, parameters named in :data:`NAMED_PARAMS` are
replaced by their catalogue names (``card.great_river`` → "Great River").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from engine.core import JSON, EngineError

ENGLISH: dict[str, str] = {
    # ----------------------------------------------------------------- names
    "terrain.forest": "forest",
    "terrain.village": "village",
    "terrain.farm": "farm",
    "terrain.water": "water",
    "terrain.monster": "monster",
    "terrain.mountain": "mountain",
    "terrain.wasteland": "wasteland",
    "terrain.empty": "empty",
    "terrain.ruins": "ruins",
    "card.temple_ruins": "Temple Ruins",
    "card.outpost_ruins": "Outpost Ruins",
    "card.great_river": "Great River",
    "card.farmland": "Farmland",
    "card.hamlet": "Hamlet",
    "card.forgotten_forest": "Forgotten Forest",
    "card.hinterland_stream": "Hinterland Stream",
    "card.homestead": "Homestead",
    "card.orchard": "Orchard",
    "card.treetop_village": "Treetop Village",
    "card.marshlands": "Marshlands",
    "card.fishing_village": "Fishing Village",
    "card.rift_lands": "Rift Lands",
    "card.goblin_attack": "Goblin Attack",
    "card.bugbear_assault": "Bugbear Assault",
    "card.kobold_onslaught": "Kobold Onslaught",
    "card.gnoll_raid": "Gnoll Raid",
    "card.sentinel_wood": "Sentinel Wood",
    "card.greenbough": "Greenbough",
    "card.treetower": "Treetower",
    "card.stoneside_forest": "Stoneside Forest",
    "card.canal_lake": "Canal Lake",
    "card.mages_valley": "Mages Valley",
    "card.golden_granary": "The Golden Granary",
    "card.shoreside_expanse": "Shoreside Expanse",
    "card.wildholds": "Wildholds",
    "card.great_city": "Great City",
    "card.greengold_plains": "Greengold Plains",
    "card.shieldgate": "Shieldgate",
    "card.borderlands": "Borderlands",
    "card.lost_barony": "Lost Barony",
    "card.broken_road": "The Broken Road",
    "card.cauldrons": "The Cauldrons",
    "season.spring": "Spring",
    "season.summer": "Summer",
    "season.autumn": "Autumn",
    "season.winter": "Winter",
    "title.legendary_cartographer": "Legendary Cartographer",
    "title.master_mapsmith": "Master Mapsmith",
    "title.journeyman_topographer": "Journeyman Topographer",
    "title.apprentice_surveyor": "Apprentice Surveyor",
    "title.amateur_assessor": "Amateur Assessor",
    "title.inept_assistant": "Inept Assistant",
    "title.dimwitted_doodler": "Dimwitted Doodler",
    "title.oblivious_inkdrinker": "Oblivious Inkdrinker",
    "turning.clockwise": "clockwise",
    "turning.counter-clockwise": "counter-clockwise",
    "corner.top-left": "top-left",
    "corner.top-right": "top-right",
    "corner.bottom-right": "bottom-right",
    "corner.bottom-left": "bottom-left",
    # ----------------------------------------------------------------- scoring card rules
    "rule.sentinel_wood": "1 star per forest cell on the edge of the map.",
    "rule.greenbough": "1 star per row and per column with at least one forest cell.",
    "rule.treetower": "1 star per forest cell surrounded on all four sides by filled cells "
    "or the edge.",
    "rule.stoneside_forest": "3 stars per mountain joined to another mountain by a forest cluster.",
    "rule.canal_lake": "1 star per water cell next to a farm and per farm cell next to water.",
    "rule.mages_valley": "2 stars per water cell and 1 per farm cell next to a mountain.",
    "rule.golden_granary": "1 star per water cell next to ruins, 3 per farm cell on ruins.",
    "rule.shoreside_expanse": "3 stars per farm cluster touching neither water nor the edge, "
    "and per water cluster touching neither farm nor the edge.",
    "rule.wildholds": "8 stars per village cluster of six or more cells.",
    "rule.great_city": "1 star per cell of the largest village cluster not next to a mountain.",
    "rule.greengold_plains": "3 stars per village cluster next to three or more different "
    "terrain types.",
    "rule.shieldgate": "2 stars per cell of the second-largest village cluster.",
    "rule.borderlands": "6 stars per complete row or column of filled cells.",
    "rule.lost_barony": "3 stars per cell along one side of the largest square of filled cells.",
    "rule.broken_road": "3 stars per complete diagonal of filled cells from the left edge to "
    "the bottom edge.",
    "rule.cauldrons": "1 star per empty cell surrounded on all four sides by filled cells or "
    "the edge.",
    # ----------------------------------------------------------------- errors
    "bad_number": "The field {field} must be a whole number.",
    "bad_flag": "The field {field} must be true or false.",
    "placement_not_object": "A placement must be an object with a terrain, a shape and a cell.",
    "placement_unknown_keys": "A placement does not take these fields: {keys}.",
    "unknown_terrain": "There is no terrain called “{given}”.",
    "terrain_not_offered": "You cannot draw {terrain} now; the choices are: {choices}.",
    "unknown_shape": "{card} has no shape {number}: its shapes are numbered 1 to {count}.",
    "fallback_has_shape": "The 1×1 square takes no shape, rotation or flip.",
    "cells_and_anchor": "Give either the cells or a rotation, flip and anchor cell, not both.",
    "bad_cells": "The cells must be a list of cell names such as C4.",
    "bad_cell": "“{given}” is not a cell of the map; cells run from A1 to K11.",
    "bad_rotation": "A rotation is 0, 90, 180 or 270, not {given}.",
    "cells_not_shape": "Those cells do not make the chosen shape.",
    "off_map": "Anchored at {cell}, the shape runs off the map.",
    "cells_filled": "These cells are already filled: {cells}.",
    "must_cover_ruins": "After a ruins card the shape must cover an unfilled ruins cell.",
    "fallback_shape_fits": "A shape of {card} still fits on your map, so the 1×1 square is "
    "not allowed.",
    "fallback_ruins_fit": "A shape of {card} still fits over a ruins cell, so the 1×1 square "
    "is not allowed.",
    "unknown_action": "This game takes the actions {kinds}, not “{given}”.",
    "unknown_seat": "There is no seat {given} at this table.",
    "game_over": "The game is over.",
    "not_drawing_phase": "Nobody draws an explore card now: an ambush is being drawn.",
    "not_ambush_phase": "No ambush is being drawn now.",
    "nothing_to_draw": "Your map is full: there is nothing to draw.",
    "bad_config": "{problem}",
    "config_seats": "A table has {low} to {high} players.",
    "config_side": "The side is A or B, not “{given}”.",
    "config_ambush": "Ambushes are “auto” or “neighbour”, not “{given}”.",
    "config_neighbour_solo": "A solo game has no neighbour: ambushes are drawn automatically.",
    "config_unknown": "Unknown settings: {keys}.",
    # ----------------------------------------------------------------- renderers
    "text.header": "{season} · turn {turn} · time {time}/{threshold}",
    "text.card": "Card: {card} (time {time})",
    "text.card_ruins": "Card: {card} (time {time}) — after ruins: cover a ruins cell",
    "text.card_ambush": "Ambush: {card} — draw the monster on the map of {target}",
    "text.no_card": "No card in play.",
    "text.last_turn": "The season ends after this turn.",
    "text.shape": "Shape {number}{coin}:",
    "text.coin_mark": " (coin)",
    "text.terrains": "Terrains: {terrains}",
    "text.edict": "{edict} {card}{now}",
    "text.edict_now": " ← now",
    "text.map_of": "Map of {seat} · coins {coins} · stars {stars}",
    "text.legend": "T forest · V village · F farm · W water · X monster · M mountain · "
    "# wasteland · R ruins (lower case: drawn on ruins) · . empty",
    "text.season_scores": "{season}: {first} {first_points} + {second} {second_points} "
    "+ coins {coins} − monsters {monsters} = {total}",
    "text.final": "Final score of {seat}: {total} stars (monsters cost {monsters}).",
    "text.winners": "Winner: {seats}.",
    "text.solo_result": "Score {total} − solo values {solo} = {rating}: {title}.",
    "text.waiting": "Waiting for: {seats}.",
    "text.score_line": "{card}: {points}",
    "text.score_cells": "  cells: {cells}",
    "picture.coins": "Coins {coins}",
    "picture.legend": "Legend",
    "picture.edicts": "Edicts (gold: scored this season)",
    "picture.edict": "{edict} · {card}",
    "picture.map_of": "Map of {name} · {stars} stars",
    "picture.card_ambush": "Ambush: {card} — a monster to draw",
    "picture.season_end": "End of {season}",
    "picture.maps": "Everyone's maps",
    "picture.tile_score": "Stars {stars} · season {season}",
    "picture.season_edicts": "{first} · {second}",
    "picture.col.player": "player",
    "picture.col.coins": "coins",
    "picture.col.monsters": "mon.",
    "picture.col.season": "season",
    "picture.col.total": "stars",
    # ----------------------------------------------------------------- terminal
    "play.welcome": "Cartographers, solo, side {side}. Seed {seed}.",
    "play.help": "Enter: terrain shape rotation [flip] cell, e.g. “farm 2 r90 flip C4”; "
    "“farm 1x1 C4” when nothing fits. Other commands: legal, map, rules, help, quit.",
    "play.rules": "Each turn an explore card shows terrains and shapes: draw one shape in one "
    "terrain on your map (a coin shape earns a coin; surrounding a mountain earns one too). "
    "A season ends when its time is used up; then two edicts score. After a ruins card the "
    "shape must cover a ruins cell if it can; if no shape fits, draw a 1×1 square. Each "
    "empty cell next to a monster costs a star every season. Four seasons; then your score "
    "less the solo values gives your title. The edicts in play:",
    "play.rules_edict": "{letter} {card}: {rule} Scored in {seasons}.",
    "play.season_name": "{season}",
    "play.season_edict": "  {card}: {points}",
    "play.season_coins": "  coins: {coins}",
    "play.season_monsters": "  monsters: −{monsters}",
    "play.season_total": "  {total} stars this season; {stars} in all.",
    "play.quit_question": "Abandon this game? [y/n]",
    "play.quit_cancelled": "Playing on.",
    "play.empty": "Type a placement.",
    "play.bad_terrain": "“{word}” is not a terrain; the terrains are {names}.",
    "play.bad_rotation": "“{word}” is not a rotation: r0, r90, r180 or r270.",
    "play.bad_word": "“{word}” is not a shape number, rotation, flip or cell.",
    "play.twice": "“{word}” gives the {what} a second time.",
    "play.no_cell": "Say where: the cell of the shape's top-left corner, such as C4.",
    "play.fallback_extra": "The 1×1 square takes no {what}.",
    "play.part.fallback": "1×1 square",
    "play.part.flip": "flip",
    "play.part.rotation": "rotation",
    "play.part.shape": "shape",
    "play.part.at": "cell",
    "play.prompt": "Your placement:",
    "play.refused": "Not accepted: {reason}",
    "play.unreadable": "I could not read “{line}”: {why}",
    "play.drawn": "Drawn: {placement} (cells {cells}).",
    "play.coin": "You gain a coin.",
    "play.coins": "You gain {count} coins.",
    "play.ambush": "Ambush! {card}: monsters at {cells}.",
    "play.ambush_ignored": "Ambush! {card} finds no room on your map and is ignored.",
    "play.ruins": "Ruins revealed: the next shape must cover a ruins cell if it can.",
    "play.legal_count": "{count} legal placements for {terrain} shape {number}, e.g. {examples}.",
    "play.legal_none": "No legal placement for {terrain} shape {number}.",
    "play.fallback_hint": "Nothing fits: draw a 1×1 square, e.g. “{example}”.",
    "play.season_end": "End of {season}.",
    "play.bye": "Game abandoned.",
    "play.out_of_input": "The input ended before the game did.",
}

NAMED_PARAMS: dict[str, str] = {
    "terrain": "terrain",
    "card": "card",
    "season": "season",
    "title": "title",
    "first": "card",
    "second": "card",
}
"""Parameters whose value is an id to be shown by its catalogue name."""

CATALOGUES: dict[str, dict[str, str]] = {"en": ENGLISH}


def text(message: str, params: Mapping[str, object] | None = None, lang: str = "en") -> str:
    """Render a message with its parameters (ids named by :data:`NAMED_PARAMS` become
    names)."""
    catalogue = CATALOGUES.get(lang, ENGLISH)
    template = catalogue.get(message) or ENGLISH[message]
    values: dict[str, object] = {}
    for key, value in (params or {}).items():
        prefix = NAMED_PARAMS.get(key)
        values[key] = name(prefix, str(value), lang) if prefix is not None else value
    return template.format_map(values)


def name(kind: str, ident: str, lang: str = "en") -> str:
    """The catalogue name of an id (``name("card", "great_river")``), or the id."""
    catalogue = CATALOGUES.get(lang, ENGLISH)
    key = f"{kind}.{ident}"
    return catalogue.get(key) or ENGLISH.get(key, ident)


E = TypeVar("E", bound=EngineError)


def refuse(kind: type[E], message: str, *, seat: str | None = None, **params: JSON) -> E:
    """An engine error of ``kind`` whose reason is the English rendering of ``message``."""
    return kind(text(message, params), seat=seat, message=message, params=params)
