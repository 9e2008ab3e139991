"""Cartographers' public texts: each turn's post (season, turn and time, the last turn of
a season said as such, the card, the season's edicts — each with its scoring rule on the
season's first turn — and who still owes a drawing), where the automatic ambushes landed,
a season's scores, the final ranking with the solo title, and the status."""

from __future__ import annotations

from typing import Any

from bot.service import Table
from bot.text import t
from cogs.front.announce import mention, waiting_line
from cogs.front.answers import MESSAGE_LIMIT
from engine.cartographers import Phase, SeatView
from engine.cartographers.components import EXPLORE_BY_ID
from engine.cartographers.events import AmbushIgnored, MonsterPlaced, SeasonScored
from engine.cartographers.messages import name, text
from engine.i18n import base_locale


def lang(locale: str | None) -> str:
    """The engine catalogue's language for a Discord locale (``es-419`` → ``es``)."""
    return base_locale(locale)


def season_edicts(view: SeatView, locale: str | None) -> str:
    named = [
        f"{letter.value} {name('card', edict, lang(locale))}"
        for letter, edict in view.season_edicts
    ]
    return ", ".join(named)


def edict_lines(view: SeatView, locale: str | None) -> list[str]:
    """The season's edicts: on its first turn each with its scoring rule, one a line;
    after that, named on one line."""
    if not view.opens_season:
        return [t(locale, "carto.board.edicts", edicts=season_edicts(view, locale))]
    lines = [t(locale, "carto.board.edicts_heading")]
    for letter, edict in view.season_edicts:
        lines.append(
            t(
                locale,
                "carto.board.edict_rule",
                letter=letter.value,
                edict=name("card", edict, lang(locale)),
                rule=text(f"rule.{edict}", lang=lang(locale)),
            )
        )
    return lines


def card_line(view: SeatView, locale: str | None) -> str:
    if view.card is None:
        return ""
    if view.phase is Phase.AMBUSH:
        return t(locale, "carto.card_ambush", card=name("card", view.card, lang(locale)))
    key = "carto.card_ruins" if view.ruins else "carto.card"
    return t(
        locale, key, card=name("card", view.card, lang(locale)), time=EXPLORE_BY_ID[view.card].time
    )


def board_header(table: Table, view: SeatView, locale: str | None) -> str:
    return t(
        locale,
        "carto.board.header",
        table=table.id,
        season=name("season", view.season.id, lang(locale)),
        turn=view.turn,
        time=view.season_time,
        threshold=view.season.threshold,
    )


def board_text(table: Table, view: SeatView) -> str:
    """A turn's post: season, turn and time (and whether it is the season's last turn),
    the card, the season's edicts (:func:`edict_lines`), and who still owes a drawing
    (mentioned, with the time limit) on its last line."""
    locale = table.row.locale
    lines = [board_header(table, view, locale)]
    if view.last_turn_of_season:
        lines.append(t(locale, "carto.board.last_turn"))
    lines.append(card_line(view, locale))
    lines += edict_lines(view, locale)
    lines.append(waiting_line(table, locale))
    return "\n".join(line for line in lines if line)[:MESSAGE_LIMIT]


def status_text(table: Table, view: SeatView, locale: str | None) -> str:
    """The turn's header, then every map's stars and coins."""
    lines = [board_header(table, view, locale)]
    for player in view.players:
        seat = table.seat(player.seat)
        lines.append(
            t(
                locale,
                "carto.status.line",
                seat=player.seat,
                name=mention(seat.user_id, seat.name),
                stars=player.stars,
                coins=player.coins,
            )
        )
    return "\n".join(lines)[:MESSAGE_LIMIT]


def ambush_lines(events: Any, table: Table, locale: str | None) -> list[str]:
    """Where the automatic ambushes landed (auto mode and solo)."""
    lines = []
    names = table.names
    for event in events:
        if isinstance(event, MonsterPlaced):
            lines.append(
                t(
                    locale,
                    "carto.ambush.placed",
                    card=name("card", event.card, lang(locale)),
                    name=names.get(event.map, event.map),
                    cells=", ".join(event.cells),
                )
            )
        elif isinstance(event, AmbushIgnored):
            lines.append(
                t(
                    locale,
                    "carto.ambush.ignored",
                    card=name("card", event.card, lang(locale)),
                    name=names.get(event.map, event.map),
                )
            )
    return lines


def score_line(table: Table, event: SeasonScored, view: SeatView, locale: str | None) -> str:
    seat = table.seat(event.seat)
    first, second = event.edicts
    return t(
        locale,
        "carto.season.line",
        name=mention(seat.user_id, seat.name),
        first=name("card", first, lang(locale)),
        first_points=event.score.edicts[0],
        second=name("card", second, lang(locale)),
        second_points=event.score.edicts[1],
        coins=event.score.coins,
        monsters=event.score.monsters,
        total=event.score.total,
        stars=event.stars,
    )


def season_text(table: Table, events: Any, view: SeatView, locale: str | None) -> str:
    scored = [event for event in events if isinstance(event, SeasonScored)]
    season = scored[0].score.season if scored else view.season.id
    lines = [
        t(
            locale,
            "carto.season.header",
            table=table.id,
            season=name("season", season, lang(locale)),
        )
    ]
    lines += [score_line(table, event, view, locale) for event in scored]
    return "\n".join(lines)


def podium_text(table: Table, view: SeatView, locale: str | None) -> str:
    result = view.result
    if result is None:
        return t(locale, "podium.abandoned", name=t(locale, "carto.thread", table=table.id))
    lines = [t(locale, "carto.podium.header", table=table.id)]
    for index, seat_name in enumerate(result.ranking, start=1):
        seat = table.seat(seat_name)
        player = view.player(seat_name)
        lines.append(
            t(
                locale,
                "carto.podium.line",
                place=1 if seat_name in result.winners else index,
                name=mention(seat.user_id, seat.name),
                stars=player.stars,
                monsters=player_monsters(player),
            )
        )
    if result.solo is not None:
        solo = result.solo
        lines.append(
            t(
                locale,
                "carto.podium.solo",
                score=solo.score,
                solo=solo.solo_values,
                rating=solo.rating,
                title=name("title", solo.title, lang(locale)),
            )
        )
    return "\n".join(lines)


def player_monsters(player: Any) -> int:
    return sum(season.monsters for season in player.seasons)


__all__ = [
    "ambush_lines",
    "board_header",
    "board_text",
    "card_line",
    "edict_lines",
    "lang",
    "podium_text",
    "score_line",
    "season_edicts",
    "season_text",
    "status_text",
]
