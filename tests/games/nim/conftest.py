"""The fake Discord for Nim's tests (see :mod:`tests.fakediscord`)."""

from tests.fakediscord.plugin import fake

__all__ = ["fake"]
