"""The host: settings, the game service, storage, time limits and the console front end.

``__version__`` is the package's one version: ``pyproject.toml`` reads it from here, and
``python -m bot --version`` prints it (``CHANGELOG.md`` says what each version brought)."""

__version__ = "0.2.0"
