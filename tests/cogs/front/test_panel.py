"""The shared panel's decisions that need no Discord: where a panel may be updated in place."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.front import panel as panels
from cogs.front.panel import PanelPicture, on_own_panel, shows
from engine.drawing import Kept

ALICE, BOB = 1, 2


def click(by: int, *, ephemeral: bool, answered: int | None) -> Any:
    metadata = None if answered is None else SimpleNamespace(user=SimpleNamespace(id=answered))
    flags = discord.MessageFlags(ephemeral=ephemeral)
    message = SimpleNamespace(flags=flags, interaction_metadata=metadata)
    return SimpleNamespace(user=SimpleNamespace(id=by), message=message)


def test_a_users_own_ephemeral_panel_is_updated_in_place() -> None:
    assert on_own_panel(click(ALICE, ephemeral=True, answered=ALICE))


def test_a_public_message_is_never_turned_into_a_panel() -> None:
    assert not on_own_panel(click(ALICE, ephemeral=False, answered=ALICE))
    assert not on_own_panel(click(ALICE, ephemeral=False, answered=None))


def test_someone_elses_or_an_unknown_ephemeral_message_is_not_ones_panel() -> None:
    assert not on_own_panel(click(ALICE, ephemeral=True, answered=BOB))
    assert not on_own_panel(click(ALICE, ephemeral=True, answered=None))


def test_a_form_without_a_message_is_not_on_a_panel() -> None:
    assert not on_own_panel(SimpleNamespace(user=SimpleNamespace(id=ALICE), message=None))


def _draw_map(view: Any, *args: Any) -> bytes:
    return b""


def _draw_other(view: Any, *args: Any) -> bytes:
    return b""


def picture_of(*args: Any, seq: int = 4, seat: str = "red", draw: Any = _draw_map) -> Any:
    table = SimpleNamespace(id=7, row=SimpleNamespace(seq=seq))
    return PanelPicture.of("map-7-2", draw, table, SimpleNamespace(seat=seat), *args)  # type: ignore[arg-type]


def test_a_panels_picture_is_named_after_all_it_is_drawn_from() -> None:
    """Two pictures share a name only if drawn by the same function, from the same seat's
    view of the same position, with the same choices: the name decides whether a panel
    keeps the picture it shows."""
    names = {"red": "Ana", "green": "Bo"}
    name = picture_of((1, 2), "it", names).filename
    assert name.startswith("map-7-2-") and name.endswith(".png")
    assert picture_of((1, 2), "it", dict(names)).filename == name
    others = [
        picture_of((1, 3), "it", names),
        picture_of((1, 2), "es", names),
        picture_of((1, 2), "it", names | {"green": "Bea"}),
        picture_of((1, 2), "it", names, seq=5),
        picture_of((1, 2), "it", names, seat="green"),
        picture_of((1, 2), "it", names, draw=_draw_other),
    ]
    assert len({name, *(other.filename for other in others)}) == 1 + len(others)


def test_a_panel_shows_a_picture_only_if_it_carries_the_file_of_its_name() -> None:
    picture = picture_of((1, 2))
    other = picture_of((2, 2))

    def message(*names: str) -> Any:
        return SimpleNamespace(attachments=[SimpleNamespace(filename=n) for n in names])

    assert shows(message(picture.filename), picture)
    assert not shows(message(other.filename), picture)
    assert not shows(message(), picture) and not shows(None, picture)


class CountedImages:
    """Draws in this process and counts the pictures drawn."""

    def __init__(self) -> None:
        self.drawn = 0

    async def run(self, draw: Any, *args: Any) -> bytes:
        self.drawn += 1
        return repr(args).encode()


async def test_a_picture_shown_again_lately_is_not_drawn_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(panels, "DRAWN", Kept(budget=1 << 20, size=len))
    images = CountedImages()
    first, other = picture_of((1, 2), "it"), picture_of((1, 3), "it")
    sent = await first.file(images)  # type: ignore[arg-type]
    again = await picture_of((1, 2), "it").file(images)  # type: ignore[arg-type]
    assert images.drawn == 1 and again.filename == sent.filename
    assert (
        again.fp.read()
        == sent.fp.read()
        == repr((SimpleNamespace(seat="red"), (1, 2), "it")).encode()
    )
    await other.file(images)  # type: ignore[arg-type]
    assert images.drawn == 2
