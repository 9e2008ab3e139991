"""A seat's private panel, for every game: who may open it (seated, the game running, the
turn it was opened for still the current one), how it is answered (a fresh ephemeral
message, or the player's own panel edited in place) and the answer to a confirmed move.

A game's panel says only what is its own: its controls, its text and picture
(:class:`PanelMessage`), and any check of its own on the seat (:meth:`Panels.check_seat`,
such as whose turn it is). A picture is drawn only when the panel shows a new one: a choice
that leaves it as it is (a Carcassonne meeple's place, say) edits the text and controls
and keeps the picture the panel shows (:class:`PanelPicture`); one shown again lately is
sent as drawn then (:data:`DRAWN`).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

import discord

from bot.images import ImageProcess
from bot.service import ServiceError, Table, TableService
from bot.storage import SeatRow
from cogs.front.answers import reply
from cogs.front.components import Controls, MoveForm
from engine.drawing import Kept

ENDED = ("finished", "abandoned")
"""A table's statuses once its game is over."""


def on_own_panel(interaction: discord.Interaction[Any]) -> bool:
    """Whether the click came from the user's own private panel: an ephemeral message the
    bot sent in answer to that very user. Only such a message is updated in place (type 7);
    a control sent from anywhere else gets a fresh private answer."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        return False
    metadata = message.interaction_metadata
    return metadata is not None and metadata.user.id == interaction.user.id


@dataclass(frozen=True)
class PanelPicture:
    """A panel's picture, not drawn yet: ``draw(view, *args)`` in the picture workers,
    where ``view`` is the seat's view of ``table`` after its last stored action (the
    seat's view is all it shows of the position) and ``args`` are the rest of what its
    pixels depend on (the choices shown, the language, the players' names). Its file is
    named after a digest of all that, so a panel whose picture would be the same keeps
    the one it shows (:meth:`Panels.show_panel`)."""

    stem: str
    draw: Callable[..., bytes]
    view: Any
    args: tuple[Any, ...]
    """Plain values (their ``repr`` names the picture), passed after ``view``."""
    position: tuple[int, int, str | None]
    """The table, its count of stored actions and the seat: the position ``view`` shows."""

    @classmethod
    def of(
        cls, stem: str, draw: Callable[..., bytes], table: Table, view: Any, *args: Any
    ) -> PanelPicture:
        """``draw(view, *args)``, named ``{stem}-{digest}.png``."""
        return cls(stem, draw, view, args, (table.id, table.row.seq, view.seat))

    @cached_property
    def filename(self) -> str:
        drawn_by = (self.draw.__module__, self.draw.__qualname__)
        what = repr((drawn_by, self.position, self.args)).encode()
        return f"{self.stem}-{hashlib.blake2b(what, digest_size=8).hexdigest()}.png"

    async def file(self, images: ImageProcess) -> discord.File:
        """The picture drawn (or as drawn lately: :data:`DRAWN`), as a file to attach."""
        name = self.filename
        png = DRAWN.find(name)
        if png is None:
            png = await images.run(self.draw, self.view, *self.args)
            DRAWN.keep(name, png)
        return discord.File(io.BytesIO(png), filename=name)


DRAWN: Kept[bytes] = Kept(budget=4 << 20, size=len)
"""The panels' pictures this process drew lately, by file name (4 MiB: some sixty maps or
more): a picture shown again (the tile taken back into the hand, a shape turned round to
where it was, a panel opened again) is not drawn again."""


def shows(message: discord.Message | None, picture: PanelPicture) -> bool:
    """Whether ``message`` shows ``picture`` already (an attachment of its name)."""
    if message is None:
        return False
    name = picture.filename
    return any(attachment.filename == name for attachment in message.attachments)


@dataclass
class PanelMessage:
    """A panel as sent: its text, its controls, and its picture if the game draws one."""

    content: str
    view: discord.ui.View
    picture: PanelPicture | None = None


class Panels:
    """Mixin of a game's front: its seats' private panels."""

    service: TableService
    images: ImageProcess
    controls: ClassVar[Controls]

    def check_seat(
        self, interaction: discord.Interaction[Any], table: Table, seat: SeatRow, view: Any
    ) -> None:
        """Refuse (:class:`ServiceError`) a panel this seat may not use now, beyond being
        seated in a running game at the current turn (none by default)."""

    async def seat_view(
        self, interaction: discord.Interaction[Any], table_id: int, turn: int | None
    ) -> tuple[Table, Any]:
        """The table and the asker's own view of it, once it is sure they hold a seat of
        the running game and (``turn``) that the panel is of the current turn."""
        table, view = await self.service.view_for(table_id, interaction.user.id)
        if table.status != "running":
            raise ServiceError("error.race_over" if table.status in ENDED else "error.not_started")
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("error.not_seated")
        if turn is not None and turn != table.row.turn:
            raise ServiceError("error.stale_turn", turn=table.row.turn, race=table.id)
        self.check_seat(interaction, table, seat, view)
        return table, view

    async def show_panel(
        self,
        interaction: discord.Interaction[Any],
        make: PanelMessage | Callable[[], Awaitable[PanelMessage]],
        *,
        fresh: bool = False,
    ) -> None:
        """Answer with the panel (``make``, or what it works out): in place on the player's
        own panel (unless ``fresh``), else as a new private message. A picture is drawn
        and attached only if the panel edited does not show it already: the click is then
        acknowledged first, as drawing may take longer than Discord's 3 seconds, and the
        answer edited in; any other answer is one request."""
        in_place = not fresh and on_own_panel(interaction)
        panel = make if isinstance(make, PanelMessage) else await make()
        picture = panel.picture
        if picture is None or (in_place and shows(interaction.message, picture)):
            if not in_place:
                await interaction.response.send_message(
                    content=panel.content, view=panel.view, ephemeral=True
                )
            elif picture is None and interaction.message and interaction.message.attachments:
                await interaction.response.edit_message(
                    content=panel.content, view=panel.view, attachments=[]
                )
            else:
                await interaction.response.edit_message(content=panel.content, view=panel.view)
            return
        if in_place:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        drawn = await picture.file(self.images)
        await interaction.edit_original_response(
            content=panel.content, view=panel.view, attachments=[drawn]
        )

    async def answer_done(self, interaction: discord.Interaction[Any], text: str) -> None:
        """Say what a confirmed move did: on the player's own panel, which gives way to the
        text (its controls and picture gone), else privately."""
        if interaction.type == discord.InteractionType.component and on_own_panel(interaction):
            await interaction.response.edit_message(content=text, view=None, attachments=[])
        else:
            await reply(interaction, text)

    async def open_form(self, interaction: discord.Interaction[Any], form: MoveForm) -> None:
        """Show a "type your move" form; its submission comes to the bot's interaction
        listener, so the form object is not kept once shown (a dismissed one neither)."""
        await interaction.response.send_modal(form)
        form.stop()


__all__ = ["ENDED", "PanelMessage", "PanelPicture", "Panels", "on_own_panel", "shows"]
