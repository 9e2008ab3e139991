"""Interactions: what a user's click or command sends the bot, and how Discord takes answers.

The test side builds INTERACTION_CREATE payloads the way the Discord client would (a slash
command's options typed and resolved from the registered command, a click on a button that
exists and is enabled, a select with allowed values, a modal filled in) and refuses what the
client would not let a person do.

The bot side follows Discord's rules for answers: one initial response
(`POST /interactions/{id}/{token}/callback`, types 4 message, 5 deferred message, 6 deferred
update, 7 update, 8 autocomplete choices, 9 modal) within the answer deadline (3 s), then
follow-ups and edits through `/webhooks/{application_id}/{token}` for the token's lifetime
(15 min). An interaction left unanswered fails: its user sees "This interaction failed" and
the fake records a violation. A deferred response left unfinished when the token expires
shows "The application did not respond".
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import ApiError
from .limits import LABEL, TEXT_INPUT, check_message, check_modal
from .model import (
    EPHEMERAL,
    LOADING,
    Channel,
    Guild,
    Message,
    MessageType,
    Notice,
    Role,
    User,
)

if TYPE_CHECKING:
    from .clock import Timer
    from .errors import Upload
    from .server import FakeDiscord

APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE, CHOICES, MODAL = 4, 5, 6, 7, 8, 9
ALLOWED_RESPONSES = {
    APPLICATION_COMMAND: {MESSAGE, DEFERRED_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE, MODAL},
    AUTOCOMPLETE: {CHOICES},
    MODAL_SUBMIT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE},
}
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


class ClientRefused(Exception):
    """The Discord client would not let a person do this (no such button, disabled, …)."""


class InteractionFailed(AssertionError):
    """The interaction failed for its user: the bot did not answer in time."""


@dataclass(eq=False)
class Interaction:
    """One interaction, as the fake tracks it; await its outcome with the `wait_*` methods."""

    fake: FakeDiscord
    id: int
    token: str
    type: int
    user: User
    channel: Channel
    data: dict[str, Any]
    created_at: float
    source_message: Message | None = None
    opened_by: Interaction | None = None
    command_name: str | None = None
    response_type: int | None = None
    failed: bool = False
    expired: bool = False
    original: Message | None = None
    original_ready: bool = False
    followups: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    modal_submitted: bool = False
    choices: list[dict[str, Any]] | None = None
    timers: list[Timer] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"<Interaction {self.id} type={self.type} by {self.user.name}>"

    @property
    def guild(self) -> Guild | None:
        return self.channel.guild

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def ephemeral(self) -> bool:
        """Whether the initial response message is ephemeral."""
        return self.original is not None and self.original.ephemeral

    # Waiting for the bot.

    async def wait_ack(self, timeout: float = 5.0) -> int:
        """Wait for the initial response; return its type. Raises InteractionFailed."""
        await self.fake.wait_for(
            lambda: self.acknowledged or self.failed, timeout, f"an answer to {self!r}"
        )
        if self.failed:
            raise InteractionFailed(f"{self!r} failed: the bot did not answer in time")
        assert self.response_type is not None
        return self.response_type

    async def reply(self, timeout: float = 5.0) -> Message:
        """The message this interaction produced, once its content has arrived: the response
        message (also after a deferral is completed), or the updated component message."""
        await self.wait_ack(timeout)
        if self.response_type in (MODAL, CHOICES):
            raise AssertionError(f"{self!r} was answered with type {self.response_type}")
        await self.fake.wait_for(
            lambda: self.original_ready or self.failed, timeout, f"the reply to {self!r}"
        )
        assert self.original is not None
        return self.original

    async def followup(self, index: int = 0, timeout: float = 5.0) -> Message:
        """The follow-up message number `index` (0 is the first)."""
        await self.fake.wait_for(
            lambda: len(self.followups) > index, timeout, f"follow-up {index} of {self!r}"
        )
        return self.followups[index]

    async def wait_modal(self, timeout: float = 5.0) -> dict[str, Any]:
        """The modal the bot opened in answer (title, custom_id, components)."""
        kind = await self.wait_ack(timeout)
        if kind != MODAL or self.modal is None:
            raise AssertionError(f"{self!r} was answered with type {kind}, not a modal")
        return self.modal

    async def wait_choices(self, timeout: float = 5.0) -> list[dict[str, Any]]:
        """The autocomplete suggestions the bot returned."""
        await self.wait_ack(timeout)
        assert self.choices is not None
        return self.choices

    async def wait_failed(self, timeout: float = 5.0) -> None:
        """Wait until the interaction has failed for its user (it was not answered in time)."""
        await self.fake.wait_for(lambda: self.failed, timeout, f"{self!r} to fail")

    def messages(self) -> list[Message]:
        """The response message and follow-ups, without duplicates, oldest first."""
        found: list[Message] = []
        for message in [self.original, *self.followups]:
            if message is not None and message not in found:
                found.append(message)
        return found

    # Payloads.

    def metadata_payload(self, message: Message | None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "user": self.user.payload(),
            "authorizing_integration_owners": self._owners(),
        }
        if self.type == APPLICATION_COMMAND:
            data["name"] = self.command_name
            data["command_type"] = 1
        if self.type == MESSAGE_COMPONENT and self.source_message is not None:
            data["interacted_message_id"] = str(self.source_message.id)
        if self.type == MODAL_SUBMIT and self.opened_by is not None:
            data["triggering_interaction_metadata"] = self.opened_by.metadata_payload(None)
        if message is not None and self.original is not None and message is not self.original:
            data["original_response_message_id"] = str(self.original.id)
        return data

    def _owners(self) -> dict[str, str]:
        guild = self.channel.guild
        return {"0": str(guild.id)} if guild is not None else {"1": str(self.user.id)}

    def payload(self) -> dict[str, Any]:
        fake, channel, guild = self.fake, self.channel, self.channel.guild
        user_permissions = channel.permissions_for(self.user)
        bot_permissions = channel.permissions_for(fake.bot_user)
        channel_data = channel.payload()
        channel_data["permissions"] = str(user_permissions)
        data: dict[str, Any] = {
            "id": str(self.id),
            "application_id": str(fake.application_id),
            "type": self.type,
            "data": self.data,
            "channel_id": str(channel.id),
            "channel": channel_data,
            "token": self.token,
            "version": 1,
            "app_permissions": str(bot_permissions),
            "locale": self.user.locale,
            "entitlements": [],
            "authorizing_integration_owners": self._owners(),
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if guild is not None:
            member = guild.member(self.user).payload()
            member["permissions"] = str(user_permissions)
            data.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                guild_locale=guild.preferred_locale,
                member=member,
                context=0,
            )
        else:
            data.update(user=self.user.payload(), context=1)
        if self.source_message is not None:
            data["message"] = self.source_message.payload()
        return data


class Interactions:
    """Creates interactions for the test API and serves the bot's answers to them."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.by_id: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}

    # The user side.

    def _create(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        source: Message | None = None,
        opened_by: Interaction | None = None,
        command_name: str | None = None,
    ) -> Interaction:
        fake = self.fake
        if channel.guild is not None and user.id not in channel.guild.members:
            raise ClientRefused(f"{user!r} is not a member of {channel.guild!r}")
        if not channel.visible_to(user):
            raise ClientRefused(f"{user!r} cannot see {channel!r}")
        now = fake.clock.now()
        interaction = Interaction(
            fake=fake,
            id=fake.snowflake(),
            token=f"fake-interaction-{secrets.token_urlsafe(32)}",
            type=kind,
            user=user,
            channel=channel,
            data=data,
            created_at=now,
            source_message=source,
            opened_by=opened_by,
            command_name=command_name,
        )
        self.by_id[interaction.id] = interaction
        self.by_token[interaction.token] = interaction
        interaction.timers.append(
            fake.clock.call_at(now + fake.interaction_deadline, lambda: self._deadline(interaction))
        )
        interaction.timers.append(
            fake.clock.call_at(now + fake.token_lifetime, lambda: self._expire(interaction))
        )
        fake.dispatch_interaction(interaction)
        return interaction

    def _deadline(self, interaction: Interaction) -> None:
        if interaction.acknowledged or interaction.failed:
            return
        interaction.failed = True
        if interaction.type == AUTOCOMPLETE:
            text = "Loading options failed"
        else:
            text = "This interaction failed"
        interaction.user.notices.append(Notice("interaction_failed", text, interaction.id))
        self.fake.record_violation(
            "interaction",
            f"{interaction!r} was not answered within {self.fake.interaction_deadline:g} s; "
            f"{interaction.user.name} saw {text!r}",
        )
        self.fake.notify()

    def _expire(self, interaction: Interaction) -> None:
        interaction.expired = True
        original = interaction.original
        if original is not None and original.loading and not original.deleted:
            interaction.user.notices.append(
                Notice("no_response", "The application did not respond", interaction.id)
            )
            self.fake.record_violation(
                "interaction", f"{interaction!r} was deferred and never completed"
            )
        self.by_token.pop(interaction.token, None)
        self.fake.notify()

    def find_command(self, channel: Channel, name: str) -> Any:
        candidates = self.fake.commands_for(channel.guild)
        for command in candidates:
            if command.name == name and command.type == 1:
                return command
        known = sorted(c.name for c in candidates)
        raise ClientRefused(f"no slash command /{name} is registered here; registered: {known}")

    def _command_data(
        self,
        user: User,
        channel: Channel,
        path: str,
        options: dict[str, Any],
        focused: tuple[str, str] | None = None,
        *,
        forged: bool = False,
    ) -> tuple[dict[str, Any], str]:
        words = path.split()
        command = self.find_command(channel, words[0])
        if not forged:
            self._check_can_use(command, user, channel)
        declared: list[dict[str, Any]] = command.data.get("options") or []
        resolved: dict[str, dict[str, Any]] = {}
        nested: list[dict[str, Any]] = []
        root = nested
        for word in words[1:]:
            option = next((o for o in declared if o.get("name") == word), None)
            if option is None or option.get("type") not in (SUB_COMMAND, SUB_COMMAND_GROUP):
                choices = [o["name"] for o in declared if o.get("type") in (1, 2)]
                raise ClientRefused(f"/{path}: no subcommand {word!r}; there are {choices}")
            inner: list[dict[str, Any]] = []
            nested.append({"name": word, "type": option["type"], "options": inner})
            nested = inner
            declared = option.get("options") or []
        if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in declared):
            choices = [o["name"] for o in declared]
            raise ClientRefused(f"/{path} needs a subcommand: one of {choices}")
        nested.extend(self._leaf_options(path, declared, options, resolved, focused, forged))
        data: dict[str, Any] = {"id": str(command.id), "name": command.name, "type": 1}
        if root:
            data["options"] = root
        if resolved:
            data["resolved"] = resolved
        if command.guild is not None:
            data["guild_id"] = str(command.guild.id)
        return data, " ".join(words)

    def _check_can_use(self, command: Any, user: User, channel: Channel) -> None:
        contexts = command.data.get("contexts")
        context = 0 if channel.guild is not None else 1
        if contexts is not None and context not in contexts:
            raise ClientRefused(f"/{command.name} is not offered in this context")
        if channel.guild is None and command.data.get("dm_permission") is False:
            raise ClientRefused(f"/{command.name} is not offered in direct messages")
        needed = command.data.get("default_member_permissions")
        if needed is not None and channel.guild is not None:
            have = channel.permissions_for(user)
            if int(needed) & have != int(needed):
                raise ClientRefused(f"{user!r} lacks the permissions /{command.name} requires")

    def _leaf_options(
        self,
        path: str,
        declared: list[dict[str, Any]],
        given: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
        focused: tuple[str, str] | None,
        forged: bool = False,
    ) -> list[dict[str, Any]]:
        names = {o["name"] for o in declared}
        unknown = set(given) - names - ({focused[0]} if focused else set())
        if unknown:
            raise ClientRefused(f"/{path} has no option(s) {sorted(unknown)}; it has {names}")
        built = []
        for option in declared:
            name = option["name"]
            if focused is not None and name == focused[0]:
                if not option.get("autocomplete"):
                    raise ClientRefused(f"/{path} option {name!r} has no autocomplete")
                built.append(
                    {"name": name, "type": option["type"], "value": focused[1], "focused": True}
                )
                continue
            if name not in given:
                if option.get("required") and focused is None:
                    raise ClientRefused(f"/{path} requires option {name!r}")
                continue
            value = self._option_value(path, option, given[name], resolved, forged)
            built.append({"name": name, "type": option["type"], "value": value})
        return built

    def _option_value(
        self,
        path: str,
        option: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        forged: bool = False,
    ) -> Any:
        """The value as sent: of the option's type; within its choices, range and length
        unless ``forged`` (a modified client sends any value of the type)."""
        kind, name = option["type"], option["name"]
        where = f"/{path} option {name!r}"
        if kind in (STRING, INTEGER, NUMBER):
            if kind == STRING and not isinstance(value, str):
                raise ClientRefused(f"{where} takes text, not {value!r}")
            if kind == INTEGER and (not isinstance(value, int) or isinstance(value, bool)):
                raise ClientRefused(f"{where} takes a whole number, not {value!r}")
            if kind == NUMBER and not isinstance(value, int | float):
                raise ClientRefused(f"{where} takes a number, not {value!r}")
            if forged:
                return value
            choices = option.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                raise ClientRefused(f"{where} must be one of {[c['value'] for c in choices]}")
            low, high = option.get("min_value"), option.get("max_value")
            if kind != STRING and (
                (low is not None and value < low) or (high is not None and value > high)
            ):
                raise ClientRefused(f"{where} must be within [{low}, {high}]")
            low, high = option.get("min_length"), option.get("max_length")
            if kind == STRING and (
                (low is not None and len(value) < low) or (high is not None and len(value) > high)
            ):
                raise ClientRefused(f"{where} must have a length within [{low}, {high}]")
            return value
        if kind == BOOLEAN:
            if not isinstance(value, bool):
                raise ClientRefused(f"{where} takes True or False, not {value!r}")
            return value
        if kind == USER:
            if not isinstance(value, User):
                raise ClientRefused(f"{where} takes a User, not {value!r}")
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            for guild in self.fake.guilds.values():
                if value.id in guild.members:
                    member = guild.members[value.id].payload(with_user=False)
                    resolved.setdefault("members", {})[str(value.id)] = member
                    break
            return str(value.id)
        if kind == CHANNEL:
            if not isinstance(value, Channel):
                raise ClientRefused(f"{where} takes a Channel, not {value!r}")
            allowed = option.get("channel_types")
            if allowed and int(value.type) not in allowed:
                raise ClientRefused(f"{where} takes channels of types {allowed}")
            partial = {
                "id": str(value.id),
                "name": value.name,
                "type": int(value.type),
                "permissions": str(value.permissions_for(self.fake.bot_user)),
            }
            if value.parent is not None:
                partial["parent_id"] = str(value.parent.id)
            resolved.setdefault("channels", {})[str(value.id)] = partial
            return str(value.id)
        if kind == ROLE:
            if not isinstance(value, Role):
                raise ClientRefused(f"{where} takes a Role, not {value!r}")
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        raise NotImplementedError(f"{where}: option type {kind} is not supported by the fake")

    async def slash(
        self,
        user: User,
        channel: Channel,
        path: str,
        options: dict[str, Any],
        *,
        forged: bool = False,
    ) -> Interaction:
        data, name = self._command_data(user, channel, path, options, forged=forged)
        return self._create(APPLICATION_COMMAND, user, channel, data, command_name=name)

    async def forge(
        self,
        user: User,
        channel: Channel,
        custom_id: str,
        *,
        values: list[str] | None = None,
        fields: dict[str, str] | None = None,
        source: Message | None = None,
    ) -> Interaction:
        """What a modified client sends: a component (a select if ``values`` is given) or,
        with ``fields``, a modal submission, with any custom_id, from any channel the user
        can see; Discord passes it on with the message it names, if any."""
        if fields is not None:
            rows = [
                {"type": 1, "components": [{"type": TEXT_INPUT, "custom_id": k, "value": v}]}
                for k, v in fields.items()
            ]
            data: dict[str, Any] = {"custom_id": custom_id, "components": rows}
            return self._create(MODAL_SUBMIT, user, channel, data, source=source)
        data = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
        if values is not None:
            data["values"] = values
        return self._create(MESSAGE_COMPONENT, user, channel, data, source=source)

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        path: str,
        focused: str,
        value: str,
        options: dict[str, Any],
    ) -> Interaction:
        data, name = self._command_data(user, channel, path, options, (focused, value))
        return self._create(AUTOCOMPLETE, user, channel, data, command_name=name)

    def _usable_message(self, user: User, message: Message) -> None:
        if message.deleted:
            raise ClientRefused(f"{message!r} was deleted")
        if not message.visible_to(user) or not message.channel.visible_to(user):
            raise ClientRefused(f"{user!r} cannot see {message!r}")
        if message.loading:
            raise ClientRefused(f"{message!r} is still loading")

    async def click(
        self, user: User, message: Message, custom_id: str | None, label: str | None
    ) -> Interaction:
        self._usable_message(user, message)
        if (custom_id is None) == (label is None):
            raise TypeError("click() takes either a custom_id or a label")
        button = message.component(custom_id) if custom_id else message.button(str(label))
        if button.get("type") != 2:
            raise ClientRefused(f"{button.get('custom_id')!r} is not a button")
        if button.get("disabled"):
            raise ClientRefused(f"button {button.get('label')!r} is disabled")
        if button.get("style") in (5, 6):
            raise ClientRefused("link and premium buttons do not send interactions")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        if "id" in button:
            data["id"] = button["id"]
        return self._create(MESSAGE_COMPONENT, user, message.channel, data, source=message)

    async def select(
        self, user: User, message: Message, custom_id: str, values: Iterable[Any]
    ) -> Interaction:
        self._usable_message(user, message)
        menu = message.component(custom_id)
        kind = menu.get("type")
        if menu.get("disabled"):
            raise ClientRefused(f"select {custom_id!r} is disabled")
        picked = list(values)
        low = 1 if menu.get("min_values") is None else menu["min_values"]
        high = 1 if menu.get("max_values") is None else menu["max_values"]
        if not low <= len(picked) <= high:
            raise ClientRefused(f"select {custom_id!r} takes {low}..{high} values, not {picked}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if kind == 3:
            allowed = [o["value"] for o in menu.get("options") or []]
            wrong = [v for v in picked if v not in allowed]
            if wrong:
                raise ClientRefused(f"select {custom_id!r} has no options {wrong}; has {allowed}")
            data["values"] = picked
        elif kind == 5:
            if not all(isinstance(v, User) for v in picked):
                raise ClientRefused(f"user select {custom_id!r} takes User objects")
            data["values"] = [str(v.id) for v in picked]
            data["resolved"] = {"users": {str(v.id): v.payload() for v in picked}}
        else:
            raise NotImplementedError(f"select type {kind} is not supported by the fake")
        if "id" in menu:
            data["id"] = menu["id"]
        return self._create(MESSAGE_COMPONENT, user, message.channel, data, source=message)

    async def submit_modal(
        self, user: User, opened_by: Interaction, values: dict[str, str | list[str]]
    ) -> Interaction:
        if opened_by.user is not user:
            raise ClientRefused(f"the modal of {opened_by!r} was shown to another user")
        modal = opened_by.modal
        if modal is None:
            raise ClientRefused(f"{opened_by!r} did not open a modal")
        if opened_by.modal_submitted:
            raise ClientRefused("this modal was already submitted and closed")
        remaining = dict(values)
        components = [self._modal_answer(c, remaining) for c in modal.get("components") or []]
        if remaining:
            raise ClientRefused(f"the modal has no fields {sorted(remaining)}")
        opened_by.modal_submitted = True
        data = {"custom_id": modal["custom_id"], "components": components}
        source = opened_by.source_message
        return self._create(
            MODAL_SUBMIT, user, opened_by.channel, data, source=source, opened_by=opened_by
        )

    def _modal_answer(
        self, component: dict[str, Any], values: dict[str, str | list[str]]
    ) -> dict[str, Any]:
        kind = component.get("type")
        answer: dict[str, Any] = {"type": kind}
        if "id" in component:
            answer["id"] = component["id"]
        if kind == 1:
            answer["components"] = [self._modal_answer(c, values) for c in component["components"]]
        elif kind == LABEL:
            answer["component"] = self._modal_answer(component["component"], values)
        elif kind == TEXT_INPUT:
            custom_id = component["custom_id"]
            value = values.pop(custom_id, component.get("value") or "")
            if not isinstance(value, str):
                raise ClientRefused(f"text input {custom_id!r} takes text")
            required = component.get("required", True)
            low = component.get("min_length") or (1 if required else 0)
            high = component.get("max_length") or 4000
            if (value or required) and not low <= len(value) <= high:
                raise ClientRefused(f"text input {custom_id!r} takes {low}..{high} characters")
            answer.update(custom_id=custom_id, value=value)
        elif kind == 3:
            custom_id = component["custom_id"]
            picked = values.pop(custom_id, [])
            allowed = [o["value"] for o in component.get("options") or []]
            if isinstance(picked, str) or any(v not in allowed for v in picked):
                raise ClientRefused(f"select {custom_id!r} takes a list of {allowed}")
            answer.update(custom_id=custom_id, values=list(picked))
        elif kind != 10:
            raise NotImplementedError(f"modal component type {kind} is not supported by the fake")
        return answer

    # The bot side.

    def callback(
        self,
        interaction_id: int,
        token: str,
        body: dict[str, Any],
        uploads: list[Upload],
        with_response: bool,
    ) -> dict[str, Any] | None:
        fake = self.fake
        interaction = self.by_id.get(interaction_id)
        if interaction is None or interaction.token != token:
            raise ApiError(404, 10062, "Unknown interaction")
        if interaction.acknowledged:
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                violation=f"second initial response to {interaction!r}",
            )
        late = fake.clock.now() > interaction.created_at + fake.interaction_deadline
        if interaction.failed or late:
            raise ApiError(
                404,
                10062,
                "Unknown interaction",
                violation=f"{interaction!r} answered after its {fake.interaction_deadline:g} s",
            )
        kind = body["type"]
        if kind not in ALLOWED_RESPONSES[interaction.type] or (
            kind in (DEFERRED_UPDATE, UPDATE) and interaction.source_message is None
        ):
            raise ApiError(
                400,
                50035,
                "Interaction response type is invalid",
                violation=f"response type {kind} is not allowed for {interaction!r}",
            )
        data = body.get("data") or {}
        if kind == MESSAGE:
            fake.raise_for_problems(check_message(data, **fake.file_facts(uploads), creating=True))
            flags = data.get("flags") or 0
            message = fake.new_message(
                interaction.channel,
                data,
                uploads,
                ephemeral_to=interaction.user if flags & EPHEMERAL else None,
                interaction=interaction,
                type=MessageType.CHAT_INPUT_COMMAND
                if interaction.type == APPLICATION_COMMAND
                else MessageType.DEFAULT,
            )
            interaction.original, interaction.original_ready = message, True
        elif kind == DEFERRED_MESSAGE:
            flags = data.get("flags") or 0
            message = fake.new_message(
                interaction.channel,
                {"flags": LOADING | (flags & EPHEMERAL)},
                [],
                ephemeral_to=interaction.user if flags & EPHEMERAL else None,
                interaction=interaction,
                type=MessageType.CHAT_INPUT_COMMAND
                if interaction.type == APPLICATION_COMMAND
                else MessageType.DEFAULT,
            )
            interaction.original = message
        elif kind == DEFERRED_UPDATE:
            interaction.original = interaction.source_message
        elif kind == UPDATE:
            fake.raise_for_problems(check_message(data, **fake.file_facts(uploads), creating=False))
            assert interaction.source_message is not None
            fake.edit_message(interaction.source_message, data, uploads)
            interaction.original, interaction.original_ready = interaction.source_message, True
        elif kind == CHOICES:
            interaction.choices = list(data.get("choices") or [])
        elif kind == MODAL:
            fake.raise_for_problems(check_modal(data))
            interaction.modal = data
        interaction.response_type = kind
        fake.notify()
        if not with_response:
            return None
        summary: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
        resource: dict[str, Any] = {"type": kind}
        if kind in (MESSAGE, DEFERRED_MESSAGE) and interaction.original is not None:
            summary.update(
                response_message_id=str(interaction.original.id),
                response_message_loading=kind == DEFERRED_MESSAGE,
                response_message_ephemeral=interaction.original.ephemeral,
            )
        if kind in (MESSAGE, UPDATE) and interaction.original is not None:
            resource["message"] = interaction.original.payload()
        return {"interaction": summary, "resource": resource}

    def by_webhook(self, application_id: int, token: str) -> Interaction:
        fake = self.fake
        interaction = self.by_token.get(token)
        if application_id != fake.application_id or interaction is None:
            known = any(i.token == token for i in self.by_id.values())
            if known:
                raise ApiError(401, 50027, "Invalid Webhook Token")
            raise ApiError(404, 10015, "Unknown Webhook")
        if fake.clock.now() >= interaction.created_at + fake.token_lifetime:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return interaction

    def followup(
        self, interaction: Interaction, body: dict[str, Any], uploads: list[Upload]
    ) -> Message:
        fake = self.fake
        if not interaction.acknowledged:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                violation=f"follow-up sent before {interaction!r} was acknowledged",
            )
        original = interaction.original
        if original is not None and original.loading and not original.deleted:
            fake.raise_for_problems(check_message(body, **fake.file_facts(uploads), creating=True))
            self.complete_deferred(interaction, body, uploads)
            interaction.followups.append(original)
            return original
        fake.raise_for_problems(check_message(body, **fake.file_facts(uploads), creating=True))
        flags = body.get("flags") or 0
        message = fake.new_message(
            interaction.channel,
            body,
            uploads,
            ephemeral_to=interaction.user if flags & EPHEMERAL else None,
            interaction=interaction,
        )
        interaction.followups.append(message)
        fake.notify()
        return message

    def complete_deferred(
        self, interaction: Interaction, body: dict[str, Any], uploads: list[Upload]
    ) -> None:
        original = interaction.original
        assert original is not None
        keep = original.flags & EPHEMERAL
        fields = {k: v for k, v in body.items() if k != "flags"}
        self.fake.fill_message(original, fields, uploads, flags=keep | (body.get("flags") or 0))
        interaction.original_ready = True

    def message_of(self, interaction: Interaction, message_id: str) -> Message:
        if message_id == "@original":
            if interaction.original is None or interaction.original.deleted:
                raise ApiError(404, 10008, "Unknown Message")
            return interaction.original
        for message in interaction.messages():
            if str(message.id) == message_id and not message.deleted:
                return message
        raise ApiError(404, 10008, "Unknown Message")

    def edit(
        self,
        interaction: Interaction,
        message: Message,
        body: dict[str, Any],
        uploads: list[Upload],
    ) -> Message:
        fake = self.fake
        fake.raise_for_problems(check_message(body, **fake.file_facts(uploads), creating=False))
        if message.loading:
            fake.raise_for_problems(check_message(body, **fake.file_facts(uploads), creating=True))
            self.complete_deferred(interaction, body, uploads)
        else:
            fake.edit_message(message, body, uploads)
            if message is interaction.original:
                interaction.original_ready = True
        fake.notify()
        return message
