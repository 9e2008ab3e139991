"""Discord's published HTTP API specification: route matching and request-body validation.

`openapi.json` beside this module is Discord's own OpenAPI 3.1 description of API v10
(discord/discord-api-spec, MIT licence, `LICENSE` beside it). Every REST request the fake
receives is matched to one of its operations; the request body (for multipart uploads, the
`payload_json` part) is validated against that operation's request schema with a JSON-schema
2020-12 validator, and the query parameters against the operation's declared names.

Two validators share the work. jsonschema-rs (compiled) checks every body, in some tens of
microseconds; the reference implementation, jsonschema, took 3.5 ms a body on average (52 s
of CPU over the test suite's 14,500 bodies, most of the test process's time in the
end-to-end tests). A body the check refuses is then explained by jsonschema: its most
relevant error names the field and the broken limit, in Discord's words where Discord has
them. The two agree on every body of the test suite and on mutants of them
(`test_limits.py` checks mutants on every run).

One deliberate widening, because Discord accepts it and discord.py relies on it: a snowflake
may be sent as a JSON integer as well as a string (`SnowflakeType`). discord.py sends integer
ids in `attachments[].id`, `allowed_mentions`, `message_reference`, `recipient_id`, ….
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jsonschema_rs
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import (  # type: ignore[import-untyped]
    ValidationError,
    relevance,
)
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).with_name("openapi.json")
SPEC_URI = "urn:discord-openapi"
HTTP_METHODS = ("get", "put", "post", "patch", "delete")


@dataclass(frozen=True)
class Operation:
    """One operation of the specification: a method on a path template."""

    method: str
    template: str
    operation_id: str
    query_names: frozenset[str]
    body_required: bool
    json_pointer: str | None

    def validator(self) -> jsonschema_rs.Validator | None:
        """The check of this operation's JSON request body, or None if it takes none."""
        if self.json_pointer is None:
            return None
        return _check_for(self.json_pointer)


@dataclass(frozen=True)
class RouteMatch:
    operation: Operation
    params: dict[str, str]


@dataclass(frozen=True)
class SchemaProblem:
    """Why a body does not match the schema: a readable message and a Discord error tree."""

    message: str
    errors: dict[str, Any]


def _escape_pointer(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


@cache
def _document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    schemas = document["components"]["schemas"]
    schemas["SnowflakeType"] = {
        "anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}],
    }
    return document


@cache
def _registry() -> Registry[Any]:
    resource = Resource.from_contents(_document(), default_specification=DRAFT202012)
    registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
    return registry


@cache
def _validator_for(pointer: str) -> Draft202012Validator:
    """jsonschema's validator of the schema at `pointer`: what explains a refused body."""
    return Draft202012Validator({"$ref": f"{SPEC_URI}#{pointer}"}, registry=_registry())


@cache
def _check_registry() -> jsonschema_rs.Registry:
    return jsonschema_rs.Registry([(SPEC_URI, _document())], draft=jsonschema_rs.Draft202012)


@cache
def _check_for(pointer: str) -> jsonschema_rs.Validator:
    """jsonschema-rs's validator of the schema at `pointer` (formats are annotations only,
    as for jsonschema without a format checker): what checks every body."""
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"{SPEC_URI}#{quote(pointer, safe='/~')}"},
        registry=_check_registry(),
        validate_formats=False,
    )


@cache
def _routes() -> list[tuple[re.Pattern[str], str, dict[str, Operation]]]:
    routes = []
    for template, item in _document()["paths"].items():
        shared_params = item.get("parameters", [])
        operations: dict[str, Operation] = {}
        for method in HTTP_METHODS:
            op = item.get(method)
            if op is None:
                continue
            params = [*shared_params, *op.get("parameters", [])]
            query_names = frozenset(p["name"] for p in params if p.get("in") == "query")
            body = op.get("requestBody")
            pointer = None
            if body is not None and "application/json" in body.get("content", {}):
                pointer = "/".join(
                    [
                        "",
                        "paths",
                        _escape_pointer(template),
                        method,
                        "requestBody",
                        "content",
                        _escape_pointer("application/json"),
                        "schema",
                    ]
                )
            operations[method.upper()] = Operation(
                method=method.upper(),
                template=template,
                operation_id=op.get("operationId", ""),
                query_names=query_names,
                body_required=bool(body and body.get("required")),
                json_pointer=pointer,
            )
        pattern = "^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$"
        routes.append((re.compile(pattern), template, operations))
    # Literal segments win over parameters: /users/@me before /users/{user_id}.
    routes.sort(key=lambda route: -sum(1 for s in route[1].split("/") if "{" not in s))
    return routes


def normalize_template(template: str) -> str:
    """A path template with its parameter names erased, for comparing templates loosely."""
    return re.sub(r"\{[^}]*\}", "{}", template)


def match_route(method: str, path: str) -> tuple[RouteMatch | None, bool]:
    """The operation serving `method path`, and whether the path exists for any method."""
    path_known = False
    for pattern, _template, operations in _routes():
        found = pattern.match(path)
        if found is None:
            continue
        path_known = True
        operation = operations.get(method.upper())
        if operation is not None:
            return RouteMatch(operation, found.groupdict()), True
    return None, path_known


def _is_branch_mismatch(errors: list[ValidationError]) -> bool:
    """Whether a union branch failed on its discriminator (`type`), not on its content."""
    for error in errors:
        path = list(error.relative_path)
        if path == ["type"] and error.validator in ("enum", "const"):
            return True
        if not path and error.validator == "type":
            return True
    return False


def _explain(error: ValidationError) -> ValidationError:
    """The most specific error: inside a union, follow the branch the body was meant to take."""
    if not error.context:
        return error
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.schema_path[0], []).append(sub)
    meant = [errors for errors in branches.values() if not _is_branch_mismatch(errors)]
    if len(meant) != 1:
        return error
    return _explain(max(meant[0], key=relevance))


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _describe(error: ValidationError) -> str:
    """Discord's wording for length and count limits; the validator's words otherwise."""
    instance, limit = error.instance, error.validator_value
    if error.validator == "maxLength" and isinstance(instance, str):
        return f"Must be {limit} or fewer in length (got {len(instance)})."
    if error.validator == "minLength" and isinstance(instance, str):
        return f"Must be {limit} or more in length (got {len(instance)})."
    if error.validator == "maxItems" and isinstance(instance, list):
        return f"Must be {limit} or fewer in length (got {len(instance)} items)."
    return _short(error.message)


def _error_tree(error: ValidationError) -> dict[str, Any]:
    message = _describe(error)
    tree: dict[str, Any] = {"_errors": [{"code": "BASE_TYPE_INVALID", "message": message}]}
    for part in reversed(list(error.absolute_path)):
        tree = {str(part): tree}
    return tree


def validate_body(operation: Operation, body: Any) -> SchemaProblem | None:
    """Check a JSON body against the operation's request schema."""
    pointer = operation.json_pointer
    if pointer is None or _check_for(pointer).is_valid(body):
        return None
    return _explain_refusal(pointer, body)


def _explain_refusal(pointer: str, body: Any) -> SchemaProblem | None:
    """jsonschema's verdict on a body the check refused, with its most relevant error."""
    errors = list(_validator_for(pointer).iter_errors(body))
    if not errors:
        return None
    error = _explain(max(errors, key=relevance))
    where = "/".join(str(p) for p in error.absolute_path) or "(body)"
    return SchemaProblem(f"{where}: {_describe(error)}", _error_tree(error))


def warm_up() -> None:
    """Load the specification and compile the common checks ahead of the first request."""
    for pattern, _template, operations in _routes():
        del pattern
        for operation in operations.values():
            if operation.json_pointer is not None and operation.template.startswith(
                ("/channels/", "/interactions/", "/webhooks/", "/applications/")
            ):
                operation.validator()
