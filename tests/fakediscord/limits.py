"""Discord's documented limits that are tighter than, or absent from, its OpenAPI schema.

The schema (see `spec.py`) checks types and most per-field lengths. The developer
documentation adds rules the schema cannot express; Discord enforces them, so the fake does:

- message content: 2,000 characters for bots (the schema allows 4,000 on some routes);
- a message needs content, an embed, a component, a file, a sticker or a poll (error 50006);
- embeds: 6,000 characters in total over titles, descriptions, field names and values,
  footer texts and author names of all embeds of a message;
- classic components (no IS_COMPONENTS_V2 flag): at most 5 action rows and nothing else at
  the top level; a row holds 1–5 buttons or exactly one select; components-v2 messages: at
  most 40 components in all and no content or embeds;
- buttons: a link button has a url and no custom_id, every other button a custom_id; a
  button has a label or an emoji; custom_ids are unique within a message or modal;
- string selects: min_values ≤ max_values ≤ number of options, at most max_values defaults,
  distinct option values;
- modals: 1–5 top-level components, an action row in a modal holds exactly one text input,
  min_length ≤ max_length;
- files: at most 10 per message, each at most 10 MiB;
- slash commands: lower-case names matching `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`, a
  description of 1–100 characters, distinct option names, required options before optional
  ones, at most 100 chat-input commands per scope; choices named in 1–100 characters;
  ``name_localizations`` and ``description_localizations`` keyed by Discord's locales, each
  localized name valid and distinct within its parent in that locale, each localized
  description or choice name 1–100 characters.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

CONTENT_LIMIT = 2000
EMBED_TOTAL_LIMIT = 6000
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_V2_COMPONENTS = 40
MAX_FILES = 10
MAX_FILE_SIZE = 10 * 1024 * 1024
MAX_MODAL_COMPONENTS = 5
MAX_CHAT_INPUT_COMMANDS = 100
IS_COMPONENTS_V2 = 1 << 15

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
LABEL = 18
LINK_STYLE, PREMIUM_STYLE = 5, 6
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
"""The locales Discord accepts in ``name_localizations`` and ``description_localizations``."""


def valid_command_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, in lower case where the
    letter has a lower case."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(
        char in "-_"
        or unicodedata.category(char)[0] in "LN"
        or "\u0900" <= char <= "\u097f"
        or "\u0e00" <= char <= "\u0e7f"
        for char in name
    )


@dataclass(frozen=True)
class Problem:
    """A broken limit: where in the body, and Discord's description of it."""

    path: str
    message: str
    code: int = 50035

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def _embed_text_length(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    return total


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component of a tree, depth first: rows, containers, sections and labels opened."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


def _unique_custom_ids(components: list[dict[str, Any]], where: str) -> Iterator[Problem]:
    seen: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if custom_id in seen:
            yield Problem(where, f"Component custom id cannot be duplicated: {custom_id!r}")
        seen.add(custom_id)


def _check_button(button: dict[str, Any], where: str) -> Iterator[Problem]:
    style = button.get("style")
    if style == LINK_STYLE:
        if not button.get("url"):
            yield Problem(where, "A link button requires a url.")
        if button.get("custom_id") is not None:
            yield Problem(where, "A link button cannot have a custom_id.")
    elif style != PREMIUM_STYLE and not button.get("custom_id"):
        yield Problem(where, "A non-link button requires a custom_id.")
    if style != PREMIUM_STYLE and not button.get("label") and not button.get("emoji"):
        yield Problem(where, "A button requires a label or an emoji.")


def _check_select(select: dict[str, Any], where: str) -> Iterator[Problem]:
    min_values = select.get("min_values")
    max_values = select.get("max_values")
    low = 1 if min_values is None else min_values
    high = 1 if max_values is None else max_values
    if low > high:
        yield Problem(where, f"min_values ({low}) is greater than max_values ({high}).")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    if high > len(options):
        yield Problem(where, f"max_values ({high}) exceeds the {len(options)} options.")
    values = [option.get("value") for option in options]
    if len(set(values)) != len(values):
        yield Problem(where, "Select option values must be unique.")
    defaults = sum(1 for option in options if option.get("default"))
    if defaults > high:
        yield Problem(where, f"{defaults} default options exceed max_values ({high}).")


def _check_message_components(
    components: list[dict[str, Any]], flags: int, where: str
) -> Iterator[Problem]:
    if flags & IS_COMPONENTS_V2:
        count = sum(1 for _ in walk_components(components))
        if count > MAX_V2_COMPONENTS:
            yield Problem(where, f"Must be {MAX_V2_COMPONENTS} or fewer components (got {count}).")
    else:
        if len(components) > MAX_ACTION_ROWS:
            yield Problem(
                where, f"Must be {MAX_ACTION_ROWS} or fewer in length (got {len(components)})."
            )
        for index, row in enumerate(components):
            if row.get("type") != ACTION_ROW:
                yield Problem(
                    f"{where}.{index}",
                    "Only action rows are allowed at the top level without IS_COMPONENTS_V2.",
                )
    for index, component in enumerate(walk_components(components)):
        kind = component.get("type")
        at = f"{where}[{index}]"
        if kind == ACTION_ROW:
            children = component.get("components") or []
            kinds = [child.get("type") for child in children]
            if any(k in SELECT_TYPES for k in kinds) and len(children) != 1:
                yield Problem(at, "A select menu must be alone in its action row.")
            if kinds.count(BUTTON) > MAX_ROW_BUTTONS:
                yield Problem(at, f"An action row holds at most {MAX_ROW_BUTTONS} buttons.")
            if TEXT_INPUT in kinds:
                yield Problem(at, "Text inputs are only allowed in modals.")
        elif kind == BUTTON:
            yield from _check_button(component, at)
        elif kind in SELECT_TYPES:
            yield from _check_select(component, at)
    yield from _unique_custom_ids(components, where)


def check_message(
    body: dict[str, Any],
    *,
    files: int = 0,
    file_sizes: tuple[int, ...] = (),
    creating: bool,
    keeps_attachments: bool = False,
) -> list[Problem]:
    """Limits of a message create or edit body (channel message, webhook or callback data)."""
    problems: list[Problem] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT_LIMIT:
        problems.append(
            Problem("content", f"Must be {CONTENT_LIMIT} or fewer in length (got {len(content)}).")
        )
    embeds = body.get("embeds") or []
    total = sum(_embed_text_length(embed) for embed in embeds if isinstance(embed, dict))
    if total > EMBED_TOTAL_LIMIT:
        problems.append(
            Problem("embeds", f"Embed size exceeds maximum size of {EMBED_TOTAL_LIMIT} ({total}).")
        )
    flags = body.get("flags") or 0
    components = body.get("components") or []
    problems.extend(_check_message_components(components, flags, "components"))
    if flags & IS_COMPONENTS_V2 and (content or embeds):
        problems.append(
            Problem("content", "content and embeds cannot be used with IS_COMPONENTS_V2.")
        )
    if files > MAX_FILES:
        problems.append(Problem("files", f"Must be {MAX_FILES} or fewer files (got {files})."))
    for index, size in enumerate(file_sizes):
        if size > MAX_FILE_SIZE:
            problems.append(
                Problem(f"files[{index}]", "Request entity too large", code=40005),
            )
    if creating and not (
        content
        or embeds
        or components
        or files
        or keeps_attachments
        or body.get("sticker_ids")
        or body.get("poll")
    ):
        problems.append(Problem("(body)", "Cannot send an empty message", code=50006))
    return problems


def check_modal(data: dict[str, Any]) -> list[Problem]:
    """Limits of a modal (interaction callback type 9)."""
    problems: list[Problem] = []
    components = data.get("components") or []
    if len(components) > MAX_MODAL_COMPONENTS:
        problems.append(
            Problem(
                "data.components",
                f"Must be {MAX_MODAL_COMPONENTS} or fewer in length (got {len(components)}).",
            )
        )
    for index, component in enumerate(components):
        at = f"data.components.{index}"
        if component.get("type") == ACTION_ROW:
            children = component.get("components") or []
            if len(children) != 1 or children[0].get("type") != TEXT_INPUT:
                problems.append(Problem(at, "A modal action row holds exactly one text input."))
            elif not children[0].get("label"):
                problems.append(Problem(at, "A text input in an action row requires a label."))
    for component in walk_components(components):
        if component.get("type") == TEXT_INPUT:
            low, high = component.get("min_length"), component.get("max_length")
            if low is not None and high is not None and low > high:
                problems.append(Problem("data.components", "min_length exceeds max_length."))
    problems.extend(_unique_custom_ids(components, "data.components"))
    return problems


def _check_localizations(entry: dict[str, Any], where: str, *, named: bool) -> Iterator[Problem]:
    """An entry's ``name_localizations`` (valid names, or 1–100 characters for a choice)
    and ``description_localizations`` (1–100 characters), keyed by Discord's locales."""
    for field in ("name_localizations", "description_localizations"):
        for locale, text in (entry.get(field) or {}).items():
            at = f"{where}.{field}.{locale}"
            if locale not in LOCALES:
                yield Problem(at, f"Invalid locale {locale!r}.")
            elif field == "name_localizations" and named:
                if not valid_command_name(str(text)):
                    yield Problem(at, f"Invalid localized name {text!r}.")
            elif not 1 <= len(str(text)) <= 100:
                yield Problem(at, "Must be between 1 and 100 in length.")


def _unique_names(entries: list[dict[str, Any]], where: str, what: str) -> Iterator[Problem]:
    """Names, and the names shown in each locale, are distinct among siblings."""
    names = [entry.get("name") for entry in entries]
    if len(set(names)) != len(names):
        yield Problem(where, f"{what} names must be unique.")
    for locale in sorted({key for e in entries for key in e.get("name_localizations") or {}}):
        shown = [(e.get("name_localizations") or {}).get(locale, e.get("name")) for e in entries]
        if len(set(shown)) != len(shown):
            yield Problem(where, f"Localized {what.lower()} names must be unique ({locale}).")


def _check_options(options: list[dict[str, Any]], where: str) -> Iterator[Problem]:
    yield from _unique_names(options, where, "Option")
    seen_optional = False
    for index, option in enumerate(options):
        at = f"{where}.{index}"
        name = option.get("name") or ""
        if not valid_command_name(name):
            yield Problem(at, f"Invalid option name {name!r}.")
        if not 1 <= len(option.get("description") or "") <= 100:
            yield Problem(f"{at}.description", "Must be between 1 and 100 in length.")
        yield from _check_localizations(option, at, named=True)
        for number, choice in enumerate(option.get("choices") or []):
            if not 1 <= len(str(choice.get("name") or "")) <= 100:
                yield Problem(f"{at}.choices.{number}.name", "Must be between 1 and 100 in length.")
            yield from _check_localizations(choice, f"{at}.choices.{number}", named=False)
        if option.get("type") in (1, 2):
            yield from _check_options(option.get("options") or [], f"{at}.options")
            continue
        if option.get("required"):
            if seen_optional:
                yield Problem(at, "Required options must be placed before non-required options.")
        else:
            seen_optional = True


def check_commands(commands: list[dict[str, Any]]) -> list[Problem]:
    """Limits of a bulk overwrite of application commands."""
    problems: list[Problem] = []
    chat_inputs = [c for c in commands if c.get("type", 1) == 1]
    if len(chat_inputs) > MAX_CHAT_INPUT_COMMANDS:
        problems.append(Problem("(body)", "Maximum number of application commands reached."))
    seen: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        at = str(index)
        kind, name = command.get("type", 1), command.get("name") or ""
        if (kind, name) in seen:
            problems.append(Problem(at, f"Application command names must be unique: {name!r}"))
        seen.add((kind, name))
        if kind != 1:
            continue
        if not valid_command_name(name):
            problems.append(Problem(f"{at}.name", f"Invalid chat-input command name {name!r}."))
        if not 1 <= len(command.get("description") or "") <= 100:
            problems.append(Problem(f"{at}.description", "Must be between 1 and 100 in length."))
        problems.extend(_check_localizations(command, at, named=True))
        problems.extend(_check_options(command.get("options") or [], f"{at}.options"))
    problems.extend(
        p for p in _unique_names(chat_inputs, "(body)", "Command") if "Localized" in p.message
    )
    return problems
