"""The host: settings, the game service, storage, time limits and the console front end."""
