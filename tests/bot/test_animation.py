"""The animated replay at the podium: a whole game drawn by the picture workers as an
animated WebP, one frame per public step (a long game's spread to at most 60), under
Discord's 10 MiB attachment limit; here a race of six chariots over three laps and a
five-player Carcassonne game, played through the service. It is drawn from what anyone
may see: the view for no seat after each public step (no hand, no unrevealed move, no
stack order)."""

from __future__ import annotations

import io
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from PIL import Image

import bot.animation
from bot.animation import DISCORD_LIMIT, MOST_FRAMES, replay_animation, spread
from bot.games import host_for
from bot.images import ImageProcess
from bot.replays import public_steps
from bot.service import TableService, game_record
from engine.core import replay
from tests.bot.web.games import Setting, open_game, play
from tests.bot.web.test_secrets import assert_public


def test_a_long_game_keeps_its_first_and_last_steps_spread_evenly() -> None:
    assert spread(5, 60) == [0, 1, 2, 3, 4]
    kept = spread(521, 60)
    assert len(kept) == 60 and kept[0] == 0 and kept[-1] == 520
    gaps = {later - earlier for earlier, later in itertools.pairwise(kept)}
    assert max(gaps) - min(gaps) <= 1


async def test_the_whole_game_animates_under_discords_limit(service: TableService) -> None:
    images = ImageProcess(service.in_worker, workers=1)
    try:
        for game, seats, options in (("charioteer", 6, {"laps": 3}), ("carcassonne", 5, {})):
            table = await open_game(
                service, game, Setting(1, 2), people=1, ai=seats - 1, options=options
            )
            table = await play(service, table.id, seed=3)
            record = game_record(table, await service.storage.actions(table.id))
            webp = await images.run(replay_animation, game, record, table.names, "en")
            assert len(webp) < DISCORD_LIMIT
            animation = Image.open(io.BytesIO(webp))
            assert animation.format == "WEBP" and animation.is_animated
            steps = len(public_steps(game, record))
            assert animation.n_frames == min(steps, MOST_FRAMES)
    finally:
        images.close()


async def test_every_frame_is_drawn_from_what_anyone_may_see(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[Any] = []

    def frames(game: str, views: Sequence[Any], names: Mapping[str, str], lang: str) -> list[bytes]:
        drawn.extend(views)
        blank = io.BytesIO()
        Image.new("RGB", (8, 8)).save(blank, format="PNG")
        return [blank.getvalue()] * len(views)

    monkeypatch.setattr(bot.animation, "frames_png", frames)
    for game, seats, options in (
        ("charioteer", 3, {"laps": 1}),
        ("cartographers", 3, {}),
        ("carcassonne", 2, {}),
    ):
        table = await open_game(
            service, game, Setting(1, 2), people=2, ai=seats - 2, options=options
        )
        table = await play(service, table.id, seed=5)
        record = game_record(table, await service.storage.actions(table.id))
        drawn.clear()
        replay_animation(game, record, table.names, "en")
        host = host_for(game)
        steps = public_steps(game, record)
        kept = [steps[index] for index in spread(len(steps), MOST_FRAMES)]
        assert len(drawn) == len(kept) > 2
        for view, step in zip(drawn, kept, strict=True):
            assert_public(game, view)
            assert view == host.view(replay(record, upto=step.seq), None), (game, step.number)
