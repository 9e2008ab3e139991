"""Nothing secret reaches a web page or picture: games of every kind played through the
service (finished ones, and live ones with a move committed and not revealed), every page,
JSON answer and picture of the server's site checked against the seats' secrets — hands
(the private panel's numbered listing), unrevealed moves (their text and notation), the
order of Carcassonne's stack and of Cartographers' deck — and every picture is the one
drawn from the view for no seat. A live page does not change when a seat changes its
secret move."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.games import host_for
from bot.games.charioteer.drafts import Draft
from bot.replays import public_steps, step_png
from bot.service import Table, game_record
from engine.charioteer import Move
from engine.core import Rng, replay
from tests.bot.web.conftest import World
from tests.bot.web.crawl import crawl, visible_text
from tests.bot.web.games import NAMES
from tests.e2e.leaks import leaks_in_public

PICTURE = re.compile(r"/g/([0-9]+)/(board|step)/([0-9]+)\.png$")


def order_forms(items: list[str]) -> list[str]:
    """The ways a secret order could be written: as JSON, or listed."""
    head = [str(item) for item in items[:3]]
    if len(head) < 2:
        return []
    return [
        json.dumps(head)[1:-1],
        json.dumps(head, separators=(",", ":"))[1:-1],
        ", ".join(head),
        " ".join(head),
    ]


async def secrets_of(world: World, table: Table) -> list[str]:
    """What must never be shown of the table as it stands: the unrevealed moves of its
    turn, and the order of what is still to be drawn."""
    record = game_record(table, await world.service.storage.actions(table.id))
    state = replay(record)
    position = host_for(table.game).ruleset.to_position(state)
    found: list[str] = []
    if table.game == "charioteer":
        for seat in state.seats:
            move = state.commit_of(seat)
            if isinstance(move, Move):
                found += [Draft.from_move(move).text(), json.dumps(move.to_json())]
    if table.game == "cartographers":
        for seat in state.seats:
            drawing = state.commit_of(seat)
            if drawing is not None:
                found.append(json.dumps(drawing.placement.to_json()))
        found += order_forms(list(position["deck"]))
    if table.game == "carcassonne":
        found += order_forms(list(position["stack"]))
    return found


async def test_no_page_or_picture_shows_a_secret(world: World) -> None:
    pages = await crawl(world.client, world.root)
    tables = {table.id: table for table in [*world.finished.values(), *world.live.values()]}
    live_secrets = []
    for table in world.live.values():
        live_secrets += await secrets_of(world, table)
    assert any(isinstance(move, str) and " " in move for move in live_secrets), (
        "a live game has a move committed and not revealed"
    )
    texts = [page for page in pages if page.content_type in ("text/html", "application/json")]
    for page in texts:
        assert leaks_in_public([visible_text(page.text)], None) == [], page.url
        for secret in live_secrets:
            assert secret not in page.text, (page.url, secret)
    checked = 0
    for page in pages:
        match = PICTURE.search(page.url)
        if match is None:
            continue
        table = tables[int(match[1])]
        host = host_for(table.game)
        record = game_record(table, await world.service.storage.actions(table.id))
        if match[2] == "board":
            seq = int(match[3])
        else:
            seq = public_steps(table.game, record)[int(match[3])].seq
        state = replay(record, upto=seq)
        view = host.view(state, None)
        assert page.body == step_png(table.game, view, table.names, "en"), page.url
        assert_public(table.game, view)
        checked += 1
    assert checked > 100


def assert_public(game: str, view: Any) -> None:
    """The view a picture was drawn from is the view for no seat: it holds no secret."""
    assert view.seat is None
    if game == "charioteer":
        assert view.hand == () and view.tokens == ()
    if game == "carcassonne":
        assert not hasattr(view, "stack")


async def test_a_simultaneous_games_steps_are_its_resolved_turns(world: World) -> None:
    for game in ("charioteer", "cartographers"):
        table = world.finished[game]
        host = host_for(game)
        record = game_record(table, await world.service.storage.actions(table.id))
        for step in public_steps(game, record)[1:]:
            before = replay(record, upto=step.seq - 1)
            after = replay(record, upto=step.seq)
            assert host.stage(after) != host.stage(before) or host.standing(after) is not None


async def test_a_live_page_is_the_same_whichever_move_a_seat_committed(world: World) -> None:
    for game in ("charioteer", "cartographers"):
        table = world.live[game]
        chooser = next(seat for seat in table.humans if seat.seat not in table.waiting)
        assert chooser.user_id is not None
        before_html, before_png = await live_page(world, table)
        _, view = await world.service.view_for(table.id, chooser.user_id)
        committed = (await world.service.game(table.id)).state.commit_of(chooser.seat)
        first = json.dumps(
            committed.to_json() if game == "charioteer" else committed.placement.to_json()
        )
        choices = (host_for(game).ai_action("random", view, Rng(seed)) for seed in range(50))
        action = next(choice for choice in choices if json.dumps(dict(choice.data)) != first)
        update = await world.service.submit(table.id, chooser.user_id, action, view.turn)
        assert update.stored and update.changed_move and not update.resolved
        changed = await world.service.table(table.id)
        assert changed.row.seq == table.row.seq + 1
        after_html, after_png = await live_page(world, changed)
        assert after_png == before_png
        assert without_seq(after_html, changed) == without_seq(before_html, table)
        assert NAMES[chooser.user_id] in visible_text(after_html)


def without_seq(html: str, table: Table) -> str:
    """The page less the places it names the table's seq (its version, not its content)."""
    seq = table.row.seq
    return html.replace(f'data-seq="{seq}"', "").replace(f"/board/{seq}.png", "")


async def live_page(world: World, table: Table) -> tuple[str, bytes]:
    status, html = await world.get(f"{world.root}/g/{table.id}")
    assert status == 200
    async with world.client.get(f"{world.root}/g/{table.id}/board/{table.row.seq}.png") as answer:
        assert answer.status == 200
        return html, await answer.read()
