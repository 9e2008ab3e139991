"""Whole games in Spanish and in Italian: the real bot process against the fake Discord,
players whose Discord speaks the language in a server that speaks it. Every message,
button, select, option and form the players see is read for English words.

English words are those of the English catalogues missing from the language's
catalogues. While an engine catalogue does not speak the language yet, the words its
English texts use (board, reveal story, hand) are left out of the check, so this branch
checks every sentence the bot itself writes; once every engine catalogue speaks the
language, the check covers everything the players see, plus common English words."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.text import catalogue, t
from engine.i18n import Catalogue
from tests.e2e.conftest import Table
from tests.fakediscord.harness import BotProcess
from tests.fakediscord.model import ChannelType, Message, User
from tests.fakediscord.server import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
WORD = re.compile(r"[^\W\d_]{3,}")
LANGUAGES = {"es": ("es-ES", "es-419"), "it": ("it", "it")}
"""A language, the Discord locale of its players and that of the server."""
ALLOWED = {
    "charioteer",
    "cartographers",
    "carcassonne",
    "star",
    "wars",
    "circus",
    "meeple",
    "meeples",
}
"""Proper nouns and game terms the Spanish and Italian rules use as they are."""
COMMON_ENGLISH = {
    "the",
    "and",
    "your",
    "you",
    "with",
    "from",
    "this",
    "that",
    "turn",
    "move",
    "card",
    "cards",
    "lap",
    "laps",
    "season",
    "points",
    "space",
    "spaces",
    "token",
    "tokens",
    "damage",
}
HIDDEN = re.compile(
    r"```.*?```|`[^`]*`|<[@#][&!]?\d+>|<t:\d+(:\w)?>|https?://\S+|/[a-z]+(?: [a-z]+)?",
    re.DOTALL,
)
"""What is not prose: code (typed moves, command lines), mentions, timestamps, links and
the slash commands players type (Discord's names are the English ones)."""


def template_words(messages: Iterable[Any]) -> set[str]:
    words: set[str] = set()
    for template in messages:
        texts = [template] if isinstance(template, str) else list(template.values())
        for text in texts:
            words |= {w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text))}
    return words


def catalogue_words(messages: Catalogue, locale: str) -> set[str]:
    return template_words(messages.template(locale, key) for key in messages.ids(locale))


def engine_catalogues() -> list[Catalogue]:
    return [
        Catalogue.from_package(".".join(path.parent.parent.relative_to(ROOT).parts))
        for path in sorted((ROOT / "engine").rglob("locales/en.json"))
    ]


def engine_speaks(language: str) -> bool:
    return all(language in messages.locales for messages in engine_catalogues())


def engine_english() -> set[str]:
    """Every word the engines' English could use: their English catalogues and the
    strings of their code (Cartographers' and Carcassonne's texts live in Python)."""
    words: set[str] = set()
    for messages in engine_catalogues():
        words |= catalogue_words(messages, "en")
    for path in (ROOT / "engine").rglob("*.py"):
        words |= {w.lower() for w in WORD.findall(path.read_text(encoding="utf-8"))}
    return words


def english_words(language: str) -> set[str]:
    english = catalogue_words(catalogue(), "en")
    spoken = catalogue_words(catalogue(), language)
    if engine_speaks(language):
        for messages in engine_catalogues():
            english |= catalogue_words(messages, "en")
            spoken |= catalogue_words(messages, language)
        english |= COMMON_ENGLISH
    else:
        english -= engine_english()
    return english - spoken - ALLOWED


def seen_by(fake: FakeDiscord, players: list[User]) -> list[Message]:
    """The messages the players see: public ones in the server, answers only they see
    and their direct messages."""
    return [
        message
        for message in fake.all_messages()
        if not message.deleted
        and (
            (not message.ephemeral and message.channel.type != ChannelType.DM)
            or message.ephemeral_to in players
            or (message.channel.type == ChannelType.DM and message.channel.recipient in players)
        )
    ]


def english_in(texts: Iterable[str], language: str, names: Iterable[str]) -> list[str]:
    english = english_words(language) - {name.lower() for name in names}
    found = []
    for text in texts:
        prose = HIDDEN.sub(" ", text)
        words = {w.lower() for w in WORD.findall(prose)} & english
        if words:
            found.append(f"{sorted(words)} in {text[:300]!r}")
    return found


def verb_of(component_id: str) -> str:
    return component_id.split(":")[2]


def turn_of(component_id: str) -> int:
    return int(component_id.split(":")[3])


def control(message: Message, verb: str) -> str:
    for component_id in message.custom_ids():
        if verb_of(component_id) == verb:
            return component_id
    raise AssertionError(f"no {verb} control on {message!r}")


def posts_with(fake: FakeDiscord, verb: str, turn: int) -> list[Message]:
    return [
        message
        for message in fake.public_messages()
        if any(verb_of(c) == verb and turn_of(c) == turn for c in message.custom_ids())
    ]


def over(fake: FakeDiscord, pattern: re.Pattern[str]) -> bool:
    return any(pattern.search(message.content) for message in fake.public_messages())


def pattern(language: str, key: str) -> re.Pattern[str]:
    """A message's sentence with any value in its placeholders."""
    template = t(language, key, **{name: "\0" for name in catalogue().placeholders("en", key)})
    return re.compile(".+?".join(re.escape(part) for part in template.split("\0")))


async def the_next(fake: FakeDiscord, verb: str, turn: int, end: re.Pattern[str]) -> Message | None:
    """The post of ``turn`` holding the ``verb`` control, or None when the game is over."""
    await fake.wait_for(
        lambda: bool(posts_with(fake, verb, turn)) or over(fake, end),
        timeout=30,
        what=f"the post of turn {turn}",
    )
    found = posts_with(fake, verb, turn)
    return None if over(fake, end) and not found else found[0]


async def turn_after(fake: FakeDiscord, turn: int, verb: str, end: re.Pattern[str]) -> int:
    """Once ``turn`` is over (a later post carries ``verb``, or the game ended): the turn
    played next (the highest posted, AI turns folded in)."""

    def posted_turns() -> list[int]:
        return [
            turn_of(c) for m in fake.public_messages() for c in m.custom_ids() if verb_of(c) == verb
        ]

    await fake.wait_for(
        lambda: over(fake, end) or any(posted > turn for posted in posted_turns()),
        timeout=30,
        what=f"the end of turn {turn}",
    )
    return max([turn + 1, *posted_turns()])


async def play_a_move(user: User, board: Message, language: str) -> None:
    """Through the panel: a symbol, the cards showing it, the crowd card if needed, else
    a reset; then Confirm."""
    panel = await (await user.click(board, control(board, "choose"))).reply()
    shows = t(language, "panel.card_matches", symbol="")
    symbols = [o["value"] for o in panel.component(control(panel, "symbol"))["options"]]
    symbols = [value for value in symbols if value != "reset"]
    if symbols:
        panel = await (await user.select(panel, control(panel, "symbol"), symbols[:1])).reply()
        matching = [
            o["value"]
            for o in panel.component(control(panel, "cards"))["options"]
            if o.get("description", "").startswith(shows)
        ]
        panel = await (await user.select(panel, control(panel, "cards"), matching[:3])).reply()
        crowd = panel.component(control(panel, "crowd"))
        if panel.component(control(panel, "confirm")).get("disabled") and not crowd.get("disabled"):
            panel = await (await user.click(panel, control(panel, "crowd"))).reply()
    if panel.component(control(panel, "confirm")).get("disabled"):
        panel = await (await user.select(panel, control(panel, "symbol"), ["reset"])).reply()
        panel = await (await user.select(panel, control(panel, "cards"), ["0"])).reply()
    if not panel.component(control(panel, "confirm")).get("disabled"):
        await (await user.click(panel, control(panel, "confirm"))).reply()


async def draw_somewhere(user: User, panel: Message) -> None:
    """Confirm the proposed drawing; when the card's first shape fits nowhere, the first
    other shape that fits."""
    shapes = [o["value"] for o in panel.component(control(panel, "shape"))["options"]]
    for shape in shapes:
        if not panel.component(control(panel, "confirm")).get("disabled"):
            break
        panel = await (await user.select(panel, control(panel, "shape"), [shape])).reply()
    if not panel.component(control(panel, "confirm")).get("disabled"):
        await (await user.click(panel, control(panel, "confirm"))).reply()


def speaking(table: Table, language: str) -> list[User]:
    players_locale, server_locale = LANGUAGES[language]
    table.guild.preferred_locale = server_locale
    table.alice.locale = players_locale
    table.bob.locale = server_locale
    return [table.alice, table.bob]


def form_text(form: Any) -> str:
    """What a form shows: its title, its fields' labels, placeholders and descriptions."""
    if isinstance(form, list):
        return "\n".join(form_text(item) for item in form)
    if not isinstance(form, dict):
        return ""
    shown = [
        str(form[key]) for key in ("title", "label", "placeholder", "description") if form.get(key)
    ]
    shown += [form_text(value) for value in form.values() if isinstance(value, (dict, list))]
    return "\n".join(text for text in shown if text)


def check_no_english(table: Table, players: list[User], language: str, forms: list[Any]) -> None:
    texts = [message.text() for message in seen_by(table.fake, players)]
    texts += [form_text(form) for form in forms]
    names = [p.name for p in players] + [p.name.title() for p in players]
    assert len(texts) > 10
    assert english_in(texts, language, names) == []


@pytest.mark.parametrize("language", sorted(LANGUAGES))
async def test_a_whole_race_in_the_players_language(
    table: Table, started_bot: BotProcess, language: str
) -> None:
    fake = table.fake
    alice, bob = players = speaking(table, language)
    lobby = await (
        await alice.slash(table.channel, "race new", seats=3, laps=1, turn_limit="none")
    ).reply()
    assert t(language, "lobby.header", race=1, host=alice.mention) in lobby.content
    await (await bob.click(lobby, control(lobby, "join"))).reply()
    await (await alice.select(lobby, control(lobby, "addai"), ["greedy"])).reply()
    assert t(language, "lobby.ai_name", number=1) in lobby.content
    await (await alice.click(lobby, control(lobby, "start"))).wait_ack()
    end = pattern(language, "podium.header")
    forms = []
    turn = 1
    while (board := await the_next(fake, "choose", turn, end)) is not None:
        if turn == 1:
            opened = await alice.click(board, control(board, "choose"))
            panel = await opened.reply()
            typing = await alice.click(panel, control(panel, "type"))
            forms.append(await typing.wait_modal())
            await (await alice.slash(board.channel, "race status")).reply()
        for player in players:
            await play_a_move(player, board, language)
        turn += 1
        assert turn < 60, "the race does not end"
    await (await bob.slash(table.channel, "race rules")).reply()
    await (await bob.slash(table.channel, "help")).reply()
    await (await alice.slash(table.channel, "game list")).reply()
    assert forms[0]["title"] == t(language, "modal.title")
    check_no_english(table, players, language, forms)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
async def test_a_whole_cartographers_game_in_the_players_language(
    table: Table, started_bot: BotProcess, language: str
) -> None:
    fake = table.fake
    alice, bob = players = speaking(table, language)
    lobby = await (
        await alice.slash(table.channel, "cartographers new", seats=2, turn_limit="none")
    ).reply()
    assert t(language, "carto.lobby.header", table=1, host=alice.mention) in lobby.content
    await (await bob.click(lobby, control(lobby, "join"))).reply()
    await (await alice.click(lobby, control(lobby, "start"))).wait_ack()
    end = pattern(language, "carto.podium.header")
    forms = []
    turn = 1
    while (post := await the_next(fake, "draw", turn, end)) is not None:
        for player in players:
            panel = await (await player.click(post, control(post, "draw"))).reply(timeout=30)
            if turn == 1 and player is alice:
                typing = await alice.click(panel, control(panel, "type"))
                forms.append(await typing.wait_modal())
                await (await alice.slash(post.channel, "game status")).reply()
            await draw_somewhere(player, panel)
        turn = await turn_after(fake, turn, "draw", end)
        assert turn < 80, "the game does not end"
    await (await bob.slash(table.channel, "game rules", game=1)).reply()
    assert forms[0]["title"] == t(language, "carto.modal.title")
    check_no_english(table, players, language, forms)


async def play_a_tile(user: User, post: Message, *, undo: bool = False) -> None:
    """Through the panel: place the tile where it is proposed (and, with ``undo``, take
    it back and place it again), a meeple on the first place offered, Confirm."""
    panel = await (await user.click(post, control(post, "play"))).reply(timeout=30)
    panel = await (await user.click(panel, control(panel, "place"))).reply()
    if undo:
        panel = await (await user.click(panel, control(panel, "undo"))).reply()
        panel = await (await user.click(panel, control(panel, "place"))).reply()
    wheres = [o["value"] for o in panel.component(control(panel, "where"))["options"]]
    if len(wheres) > 1:
        panel = await (await user.select(panel, control(panel, "where"), wheres[1:2])).reply()
    await (await user.click(panel, control(panel, "confirm"))).reply()


@pytest.mark.parametrize("language", sorted(LANGUAGES))
async def test_a_whole_carcassonne_game_in_the_players_language(
    table: Table, started_bot: BotProcess, language: str
) -> None:
    fake = table.fake
    alice, bob = players = speaking(table, language)
    lobby = await (
        await alice.slash(table.channel, "carcassonne new", seats=3, turn_limit="none")
    ).reply()
    assert t(language, "carc.lobby.header", table=1, host=alice.mention) in lobby.content
    await (await bob.click(lobby, control(lobby, "join"))).reply()
    await (await alice.select(lobby, control(lobby, "addai"), ["greedy"])).reply()
    await (await alice.click(lobby, control(lobby, "start"))).wait_ack()
    end = pattern(language, "carc.podium.header")
    turn = 1
    while (post := await the_next(fake, "play", turn, end)) is not None:
        player = next(p for p in players if p.mention in post.content)
        if turn == 1:
            await (await player.slash(post.channel, "game status")).reply()
        await play_a_tile(player, post, undo=turn == 1)
        turn = await turn_after(fake, turn, "play", end)
        assert turn < 120, "the game does not end"
    await (await bob.slash(table.channel, "game rules", game=1)).reply()
    final = next(m for m in fake.public_messages() if end.search(m.content))
    assert t(language, "carc.tile_set") in final.content
    check_no_english(table, players, language, [])


async def test_public_posts_follow_the_servers_setting_and_answers_the_member(
    table: Table, started_bot: BotProcess
) -> None:
    """The server's own locale is Spanish and /settings says Italian: the lobby is in
    Italian; a member whose Discord is in English is answered in English. Back to the
    server's own language, the next lobby is in Spanish."""
    fake, owner, alice = table.fake, table.guild.owner, table.alice
    table.guild.preferred_locale = "es-ES"
    owner.locale = "es-ES"
    saved = await (await owner.slash(table.channel, "settings", language="it")).reply()
    assert t("es", "settings.language", language="Italiano") in saved.content
    alice.locale = "en-US"
    lobby = await (await alice.slash(table.channel, "race new", seats=2)).reply()
    assert t("it", "lobby.header", race=1, host=alice.mention) in lobby.content
    assert lobby.component(control(lobby, "join"))["label"] == t("it", "lobby.join")
    refused = await (await alice.click(lobby, control(lobby, "join"))).reply()
    assert refused.content == t("en", "error.already_joined")

    back = await (await owner.slash(table.channel, "settings", language="server")).reply()
    assert t("es", "settings.language_server") in back.content
    maps = await (await alice.slash(table.channel, "cartographers new", seats=2)).reply()
    assert t("es", "carto.lobby.header", table=2, host=alice.mention) in maps.content
    assert len(fake.public_messages()) == 2


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_check_finds_the_bots_english(language: str) -> None:
    keys = ("lobby.started", "carto.panel.proposed", "panel.confirm", "carc.placed_note")
    english = [t("en", key) for key in keys]
    assert len(english_in(english, language, [])) == 4
    spoken = [t(language, key) for key in ("lobby.started", "carto.panel.proposed", "carc.rules")]
    assert english_in(spoken, language, []) == []
