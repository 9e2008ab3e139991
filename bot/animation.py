"""The animated replay of a whole game, for its podium post: an animated WebP of its public
steps (:mod:`bot.replays`), one frame per step — Charioteer's chariots around the track
turn by turn, Cartographers' maps filling turn by turn and season by season,
Carcassonne's map growing tile by tile — each drawn by the game's own
:class:`~bot.games.base.Broadcast`.

A long game keeps at most :data:`MOST_FRAMES` frames, spread evenly (the first and the
last always), each at most :data:`WIDTH` pixels wide, so the file stays far under
Discord's 10 MiB attachment limit. :func:`replay_animation` is a module-level function
of picklable data: the bot's picture workers (:class:`bot.images.ImageProcess`) draw it
off the event loop.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.replays import frames_png, public_steps
from engine.core import GameRecord

MOST_FRAMES = 60
WIDTH = 480
"""Pixels: a phone's width shows a frame whole."""
FRAME_MS = 600
LAST_FRAME_MS = 4000
"""The final position stays a while before the animation starts again."""
QUALITY = 70
DISCORD_LIMIT = 10 * 1024 * 1024
"""Discord's attachment limit (without Nitro boosts), in bytes."""


def spread(count: int, most: int) -> list[int]:
    """Up to ``most`` indices of ``count`` items, evenly spread, the first and last kept."""
    if count <= most:
        return list(range(count))
    return sorted({round(index * (count - 1) / (most - 1)) for index in range(most)})


def _frames(pictures: Sequence[bytes]) -> list[Image.Image]:
    """The pictures at :data:`WIDTH`, on canvases of one size (the tallest; a growing map
    sits at the top of the others)."""
    scaled = []
    for png in pictures:
        picture = Image.open(io.BytesIO(png)).convert("RGB")
        height = max(1, round(picture.height * WIDTH / picture.width))
        scaled.append(picture.resize((WIDTH, height), Image.Resampling.LANCZOS))
    tallest = max(picture.height for picture in scaled)
    frames = []
    for picture in scaled:
        background = picture.getpixel((0, picture.height - 1))
        frame = Image.new("RGB", (WIDTH, tallest), background)
        frame.paste(picture, (0, 0))
        frames.append(frame)
    return frames


def replay_animation(
    game: str, record: GameRecord, names: Mapping[str, str], lang: str = "en"
) -> bytes:
    """The whole game as an animated WebP (loops; the last frame holds longest)."""
    steps = public_steps(game, record)
    views: list[Any] = [steps[index].view for index in spread(len(steps), MOST_FRAMES)]
    frames = _frames(frames_png(game, views, names, lang))
    out = io.BytesIO()
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    frames[0].save(
        out,
        format="WEBP",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        quality=QUALITY,
        method=4,
    )
    return out.getvalue()


__all__ = ["DISCORD_LIMIT", "MOST_FRAMES", "replay_animation", "spread"]
