"""Community play on top of the host's stored results: skill ratings, statistics,
tournaments' pairing and standings, and server settings. Nothing here imports discord or a
game; every feature works for every hosted game."""
