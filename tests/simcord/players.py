"""Players for the SimCord suite: they read their own hand (as a player would, through the
service's seat view) and play it through the bot's real controls: the private panel's
selects and buttons, or the "Type move" modal."""

from __future__ import annotations

from typing import Any

import discord
from simcord import Env, InteractionResult, MemberActor

from bot.games.charioteer.drafts import Draft
from bot.games.charioteer.panel import RESET_VALUE
from bot.service import TableService
from engine.charioteer.ai import policy_for
from engine.core import Rng


def service_of(env: Env) -> TableService:
    service: TableService = env.bot.service  # type: ignore[attr-defined]
    return service


async def chosen_move(env: Env, race: int, player: MemberActor) -> Draft:
    """The move the greedy policy would play from this player's seat: a legal one."""
    _, view = await service_of(env).view_for(race, player.id)
    return Draft.from_move(policy_for("greedy").choose(view, Rng(view.turn, player.id)))


async def open_panel(player: MemberActor, board: Any) -> InteractionResult:
    shown = await player.click(board, label="Choose move")
    assert shown.ephemeral, "the panel shows a hand: only its player sees it"
    return shown


async def play_by_panel(env: Env, race: int, player: MemberActor, board: Any) -> InteractionResult:
    """Pick the cards, the symbol, the crowd card, a token and discards, then Confirm."""
    draft = await chosen_move(env, race, player)
    panel = (await open_panel(player, board)).response
    assert panel is not None
    turn = _turn_of(panel)

    async def pick(verb: str, values: list[str]) -> None:
        picked = await player.select(panel, values, custom_id=f"s:{race}:{verb}:{turn}")
        assert picked.acknowledged

    await pick("cards", [str(card) for card in draft.cards])
    await pick("symbol", [RESET_VALUE if draft.reset else str(draft.symbol)])
    if draft.crowd:
        await player.click(panel, custom_id=f"g:{race}:crowd:{turn}")
    if draft.token is not None and not draft.discard:
        value = str(draft.token) if draft.wild is None else f"{draft.token}:{draft.wild}"
        await pick("token", [value])
    if draft.discard:
        await pick("discard", [str(card) for card in draft.discard])
    return await player.click(panel, label="Confirm")


async def play_by_modal(
    env: Env, race: int, player: MemberActor, board: Any, text: str | None = None
) -> InteractionResult:
    """Open the panel, press "Type move" and submit the move in the text form."""
    if text is None:
        text = (await chosen_move(env, race, player)).text()
    panel = (await open_panel(player, board)).response
    assert panel is not None
    form = await player.click(panel, label="Type move")
    assert form.modal is not None
    return await player.submit_modal(form, {"move": text})


def _turn_of(panel: Any) -> int:
    for row in panel.components:
        for component in row.get("components", []):
            custom_id = str(component.get("custom_id", ""))
            if custom_id.startswith("g:") and custom_id.endswith(tuple("0123456789")):
                return int(custom_id.rsplit(":", 1)[1])
    raise AssertionError("the panel has no race button")


def text_of(message: discord.Message) -> str:
    return message.content or ""
