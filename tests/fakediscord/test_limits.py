"""The schema check and the documented limits, on request bodies alone."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from . import spec
from .limits import check_commands, check_message, check_modal


def button(custom_id: str, label: str = "Go", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label, **extra}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(options: int, **extra: Any) -> dict[str, Any]:
    choices = [{"label": f"o{i}", "value": f"v{i}"} for i in range(options)]
    return {"type": 3, "custom_id": "menu", "options": choices, **extra}


def schema_problem(method: str, path: str, body: Any) -> str | None:
    matched, _ = spec.match_route(method, path)
    assert matched is not None
    problem = spec.validate_body(matched.operation, body)
    return None if problem is None else problem.message


def test_literal_path_segments_win_over_parameters() -> None:
    matched, _ = spec.match_route("GET", "/users/@me")
    assert matched is not None and matched.operation.template == "/users/@me"
    matched, _ = spec.match_route("PATCH", "/webhooks/1/t/messages/@original")
    assert matched is not None and matched.params == {"webhook_id": "1", "webhook_token": "t"}
    assert spec.match_route("GET", "/nowhere") == (None, False)
    assert spec.match_route("PUT", "/users/@me")[1] is True


def test_the_schema_catches_per_field_limits() -> None:
    messages = "/channels/1/messages"
    assert schema_problem("POST", messages, {"content": "hi"}) is None
    long_id = schema_problem("POST", messages, {"components": [row(button("x" * 101))]})
    assert (
        long_id == "components/0/components/0/custom_id: Must be 100 or fewer in length (got 101)."
    )
    many = schema_problem("POST", messages, {"components": [row(select(26))]})
    assert many is not None and "options" in many and "26" in many
    six_buttons = schema_problem(
        "POST", messages, {"components": [row(*[button(str(i)) for i in range(6)])]}
    )
    assert six_buttons is not None and "5 or fewer" in six_buttons
    long_label = schema_problem("POST", messages, {"components": [row(button("a", "L" * 81))]})
    assert long_label is not None and "label" in long_label
    title = schema_problem("POST", messages, {"embeds": [{"title": "t" * 257}]})
    assert title == "embeds/0/title: Must be 256 or fewer in length (got 257)."


def test_interaction_callbacks_are_checked_per_response_type() -> None:
    path = "/interactions/1/token/callback"
    assert schema_problem("POST", path, {"type": 4, "data": {"content": "ok"}}) is None
    assert schema_problem("POST", path, {"type": 6}) is None
    content = schema_problem("POST", path, {"type": 4, "data": {"content": "x" * 2001}})
    assert content == "data/content: Must be 2000 or fewer in length (got 2001)."
    modal = {"custom_id": "m", "title": "T" * 46, "components": []}
    assert schema_problem("POST", path, {"type": 9, "data": modal}) is not None


def test_bot_message_content_is_limited_to_2000_characters() -> None:
    assert check_message({"content": "x" * 2000}, creating=True) == []
    [problem] = check_message({"content": "x" * 2001}, creating=True)
    assert problem.path == "content"


def test_classic_components_allow_five_rows_and_a_lone_select() -> None:
    rows = [row(button(f"b{i}")) for i in range(6)]
    assert any(
        "5 or fewer" in p.message for p in check_message({"components": rows}, creating=True)
    )
    mixed = [row(select(3), button("b"))]
    assert any("alone" in p.message for p in check_message({"components": mixed}, creating=True))
    assert check_message({"components": [row(select(3))]}, creating=True) == []


def test_select_values_and_buttons_must_be_coherent() -> None:
    problems = check_message({"components": [row(select(2, max_values=3))]}, creating=True)
    assert [p.message for p in problems] == ["max_values (3) exceeds the 2 options."]
    link_with_id = {
        "type": 2,
        "style": 5,
        "url": "https://example.com",
        "custom_id": "x",
        "label": "L",
    }
    no_label = {"type": 2, "style": 1, "custom_id": "y"}
    problems = check_message({"components": [row(link_with_id, no_label)]}, creating=True)
    assert {p.message for p in problems} == {
        "A link button cannot have a custom_id.",
        "A button requires a label or an emoji.",
    }


def test_embeds_share_a_total_of_6000_characters() -> None:
    embeds = [{"title": "t" * 256, "description": "d" * 4096}, {"description": "d" * 1648}]
    assert check_message({"embeds": embeds}, creating=True) == []
    embeds[1]["description"] += "d"
    [problem] = check_message({"embeds": embeds}, creating=True)
    assert "6000" in problem.message


def test_empty_messages_and_oversized_files_are_refused() -> None:
    [empty] = check_message({}, creating=True)
    assert empty.code == 50006
    assert check_message({}, creating=False) == []
    assert check_message({}, files=1, file_sizes=(10,), creating=True) == []
    [big] = check_message({}, files=1, file_sizes=(10 * 1024 * 1024 + 1,), creating=True)
    assert big.code == 40005


def test_modals_hold_one_text_input_per_row() -> None:
    text = {"type": 4, "custom_id": "t", "style": 1, "label": "Name"}
    assert check_modal({"components": [row(text)]}) == []
    assert check_modal({"components": [row(text, dict(text, custom_id="u"))]}) != []
    assert check_modal({"components": [row(dict(text, custom_id=str(i))) for i in range(6)]}) != []
    labelled = {"type": 18, "label": "Name", "component": dict(text, label=None)}
    assert check_modal({"components": [labelled]}) == []


@pytest.mark.parametrize(
    ("commands", "expected"),
    [
        ([{"name": "Race", "description": "d"}], "Invalid chat-input command name"),
        ([{"name": "race", "description": ""}], "between 1 and 100"),
        ([{"name": "race", "description": "d"}] * 2, "unique"),
        (
            [
                {
                    "name": "race",
                    "description": "d",
                    "options": [
                        {"type": 3, "name": "a", "description": "d"},
                        {"type": 3, "name": "b", "description": "d", "required": True},
                    ],
                }
            ],
            "Required options",
        ),
    ],
)
def test_command_definitions_follow_discords_rules(
    commands: list[dict[str, Any]], expected: str
) -> None:
    problems = check_commands(commands)
    assert any(expected in p.message for p in problems), problems


def localized(**fields: Any) -> list[dict[str, Any]]:
    option = {"type": 4, "name": "seats", "description": "How many", **fields}
    return [{"name": "race", "description": "Races", "options": [option]}]


@pytest.mark.parametrize(
    ("commands", "expected"),
    [
        (localized(name_localizations={"es-ES": "Plazas"}), "Invalid localized name"),
        (localized(name_localizations={"it": "posti liberi"}), "Invalid localized name"),
        (localized(name_localizations={"es-419": "p" * 33}), "Invalid localized name"),
        (localized(name_localizations={"es": "plazas"}), "Invalid locale"),
        (localized(description_localizations={"it": "x" * 101}), "between 1 and 100"),
        (localized(description_localizations={"it": ""}), "between 1 and 100"),
        (
            localized(choices=[{"name": "a", "value": 1, "name_localizations": {"it": "x" * 101}}]),
            "between 1 and 100",
        ),
        (
            [
                {
                    "name": "race",
                    "description": "d",
                    "options": [
                        {
                            "type": 4,
                            "name": "a",
                            "description": "d",
                            "name_localizations": {"it": "x"},
                        },
                        {
                            "type": 4,
                            "name": "b",
                            "description": "d",
                            "name_localizations": {"it": "x"},
                        },
                    ],
                }
            ],
            "Localized option names must be unique (it)",
        ),
        (
            [
                {"name": "race", "description": "d", "name_localizations": {"it": "corsa"}},
                {"name": "corsa", "description": "d"},
            ],
            "Localized command names must be unique (it)",
        ),
    ],
)
def test_localized_names_and_descriptions_follow_discords_rules(
    commands: list[dict[str, Any]], expected: str
) -> None:
    problems = check_commands(commands)
    assert any(expected in p.message for p in problems), problems


def test_valid_localizations_pass() -> None:
    commands = localized(
        name_localizations={"es-ES": "plazas", "es-419": "plazas", "it": "posti", "hi": "सीटें"},
        description_localizations={"es-ES": "Cuántas", "it": "Quanti"},
    )
    assert check_commands(commands) == []


ALL_KINDS_OF_MESSAGE = {
    "content": "**Race #1**: turn 2",
    "embeds": [
        {
            "title": "Standings",
            "description": "1. alice",
            "color": 0x2B7A78,
            "fields": [{"name": "alice", "value": "1500", "inline": True}],
            "image": {"url": "attachment://board.png"},
            "footer": {"text": "Race #1"},
        }
    ],
    "components": [
        row(button("race:1:panel", "Choose move", emoji={"name": "🎠"}), button("race:1:leave")),
        row(select(3, placeholder="Pick", min_values=1, max_values=2)),
        row({"type": 2, "style": 5, "url": "https://example.com/rules", "label": "Rules"}),
    ],
    "allowed_mentions": {"parse": [], "users": [123456789012345678]},
    "attachments": [{"id": 0, "filename": "board.png"}],
    "message_reference": {"message_id": 123456789012345678, "fail_if_not_exists": False},
    "flags": 4096,
}
BODIES = [
    ("POST", "/channels/1/messages", ALL_KINDS_OF_MESSAGE),
    ("PATCH", "/channels/1/messages/2", {"content": "edited", "components": []}),
    (
        "POST",
        "/interactions/1/t/callback",
        {"type": 4, "data": ALL_KINDS_OF_MESSAGE | {"flags": 64}},
    ),
    ("POST", "/interactions/1/t/callback", {"type": 7, "data": {"content": "turn 3"}}),
    (
        "POST",
        "/interactions/1/t/callback",
        {"type": 8, "data": {"choices": [{"name": "Race #1", "value": "1"}]}},
    ),
    (
        "POST",
        "/interactions/1/t/callback",
        {
            "type": 9,
            "data": {
                "custom_id": "form",
                "title": "Your move",
                "components": [
                    row(
                        {
                            "type": 4,
                            "custom_id": "move",
                            "style": 1,
                            "label": "Move",
                            "max_length": 40,
                        }
                    )
                ],
            },
        },
    ),
    ("PATCH", "/webhooks/1/t/messages/@original", ALL_KINDS_OF_MESSAGE),
    (
        "PUT",
        "/applications/1/commands",
        [
            {
                "name": "race",
                "description": "Races",
                "name_localizations": {"es-ES": "carrera"},
                "contexts": [0],
                "options": [
                    {
                        "type": 1,
                        "name": "new",
                        "description": "Open a race",
                        "options": [
                            {
                                "type": 4,
                                "name": "seats",
                                "description": "Seats",
                                "min_value": 2,
                                "max_value": 6,
                                "required": False,
                            },
                            {
                                "type": 3,
                                "name": "turn_limit",
                                "description": "Time per turn",
                                "choices": [{"name": "none", "value": "none"}],
                            },
                        ],
                    }
                ],
            }
        ],
    ),
]
ODD_VALUES = st.sampled_from(
    [None, True, 0, -1, 1.5, 2**31, 2**64, "", "x" * 101, "x" * 2001, "123", [], {}, ["x"] * 26]
).map(copy.deepcopy)
"""Each draw a fresh copy: a drawn ``{}`` that a later change adds keys to must not be the
list's own ``{}`` (the next example would start from it changed, or from a dict holding
itself)."""


@st.composite
def mutants(draw: st.DrawFn) -> tuple[str, str, Any]:
    """A realistic body with a few things changed: a value replaced by an odd one, a key
    dropped or added, a string or a list made longer."""
    method, path, original = draw(st.sampled_from(BODIES))
    body = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        places = list(_places(body))
        if not places:
            break
        parent, key = draw(st.sampled_from(places))
        value = parent[key]
        change = draw(st.sampled_from(["replace", "drop", "add", "grow"]))
        if change == "replace":
            parent[key] = draw(ODD_VALUES)
        elif change == "drop":
            del parent[key]
        elif change == "add" and isinstance(value, dict):
            value[draw(st.sampled_from(["extra", "type", "style", "id"]))] = draw(ODD_VALUES)
        elif change == "grow" and isinstance(value, str | list):
            parent[key] = value * draw(st.integers(2, 60))
    return method, path, body


def _places(value: Any) -> Iterator[tuple[Any, Any]]:
    """Every (container, key or index) inside a JSON value."""
    keys = value.keys() if isinstance(value, dict) else range(len(value))
    for key in keys:
        yield value, key
        if isinstance(value[key], dict | list):
            yield from _places(value[key])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutants())
def test_the_check_refuses_exactly_what_jsonschema_refuses(
    mutant: tuple[str, str, Any],
) -> None:
    """Every body is checked by jsonschema-rs, and jsonschema explains the refused ones: the
    two must agree on which bodies Discord's schema refuses."""
    method, path, body = mutant
    matched, _ = spec.match_route(method, path)
    assert matched is not None and matched.operation.json_pointer is not None
    pointer = matched.operation.json_pointer
    assert spec._check_for(pointer).is_valid(body) == spec._validator_for(pointer).is_valid(body)


def test_the_bodies_the_agreement_is_checked_on_are_valid() -> None:
    for method, path, body in BODIES:
        assert schema_problem(method, path, body) is None, (method, path)
