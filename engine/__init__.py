"""Pure game rules: no discord, asyncio, database, clock or global random."""
