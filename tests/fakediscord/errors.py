"""Discord's error answers, and the record of what the bot did that Discord would refuse."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class ApiError(Exception):
    """An error response in Discord's shape: HTTP status, JSON error code, message, details.

    `violation` says why this answer means the bot is wrong (an invalid body, a second
    initial response…), as opposed to a condition a correct bot must handle (closed DMs,
    missing permissions): a violation is also recorded and fails the test.
    """

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        violation: str | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.violation = violation

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            data["errors"] = self.errors
        return data


@dataclass(frozen=True)
class Violation:
    """Something the bot did that real Discord would reject or that fails a user."""

    kind: str
    message: str
    method: str = ""
    path: str = ""
    body: Any = None

    def __str__(self) -> str:
        where = f" ({self.method} {self.path})" if self.method else ""
        return f"[{self.kind}]{where} {self.message}"


@dataclass
class Upload:
    """A file part of a multipart request."""

    field_name: str
    filename: str
    content_type: str
    data: bytes


@dataclass
class RequestRecord:
    """One REST call the bot made, as the fake received and answered it."""

    method: str
    path: str
    route: str
    query: dict[str, str]
    body: Any
    uploads: list[Upload] = field(default_factory=list)
    status: int = 0
    response: Any = None
    at: float = 0.0

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} → {self.status}>"
