"""The Discord layer: thin adapters from slash commands, buttons, selects and modals to
the game service, and back to messages."""
