"""The numbered schema migrations of both databases, written once.

Each migration is SQL with the dialect's words filled in (:class:`bot.sql.Dialect`: column
types, self-numbering ids, JSON reads, generated columns), so SQLite and PostgreSQL go
through the same steps under the same numbers. A database at version N goes on from N:
a migration, once released, is never changed in what it does.

Kept over Alembic (or yoyo-migrations): Alembic needs SQLAlchemy, which the storage does not
use (aiosqlite and asyncpg, with the host's own portable SQL, :mod:`bot.sql`); numbered
scripts in one module are what it would generate, and a test migrates an empty SQLite file
and an empty PostgreSQL schema and compares their tables, columns and indexes
(tests/bot/test_migrations.py).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.sql import Dialect, remind_at_sql

Migration = Callable[[Dialect], str]
"""A migration's SQL for one dialect."""


def _races(d: Dialect) -> str:
    """1: races, their seats, action log, announcements still to post (PostgreSQL's
    pending ones indexed by id), results and drafts of moves; members' choices."""
    return f"""
    CREATE TABLE races (
        id {d.id_key},
        game TEXT NOT NULL,
        guild_id {d.integer},
        channel_id {d.integer},
        thread_id {d.integer},
        host_id {d.integer} NOT NULL,
        status TEXT NOT NULL,
        settings TEXT NOT NULL,
        seed {d.integer} NOT NULL,
        setup TEXT,
        state TEXT,
        seq {d.integer} NOT NULL DEFAULT 0,
        turn {d.integer} NOT NULL DEFAULT 0,
        waiting TEXT NOT NULL DEFAULT '',
        deadline {d.real},
        reminders {d.integer} NOT NULL DEFAULT 0,
        lobby_message_id {d.integer},
        board_message_id {d.integer},
        locale TEXT,
        created_at {d.real} NOT NULL,
        updated_at {d.real} NOT NULL
    );
    CREATE INDEX races_by_status ON races (status);
    CREATE INDEX races_by_deadline ON races (deadline) WHERE deadline IS NOT NULL;
    CREATE INDEX races_by_thread ON races (thread_id);
    CREATE INDEX races_by_channel ON races (channel_id, status);
    CREATE TABLE seats (
        race_id {d.integer} NOT NULL REFERENCES races (id),
        seat TEXT NOT NULL,
        user_id {d.integer},
        name TEXT NOT NULL,
        ai_level TEXT,
        joined_at {d.real} NOT NULL,
        PRIMARY KEY (race_id, seat)
    );
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE actions (
        race_id {d.integer} NOT NULL REFERENCES races (id),
        seq {d.integer} NOT NULL,
        seat TEXT,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        chance TEXT NOT NULL,
        by_user {d.integer},
        source TEXT NOT NULL,
        at {d.real} NOT NULL,
        PRIMARY KEY (race_id, seq)
    );
    CREATE TABLE outbox (
        id {d.id_key},
        race_id {d.integer} NOT NULL REFERENCES races (id),
        kind TEXT NOT NULL,
        seq {d.integer} NOT NULL,
        turn {d.integer} NOT NULL,
        created_at {d.real} NOT NULL,
        sent_at {d.real},
        message_id {d.integer},
        UNIQUE (race_id, kind, seq)
    );
    CREATE INDEX outbox_pending ON outbox ({d.pick(sqlite="sent_at", postgres="id")})
        WHERE sent_at IS NULL;
    CREATE TABLE results (
        race_id {d.integer} NOT NULL REFERENCES races (id),
        seat TEXT NOT NULL,
        user_id {d.integer},
        name TEXT NOT NULL,
        place {d.integer} NOT NULL,
        turns {d.integer} NOT NULL,
        finished_at {d.real} NOT NULL,
        PRIMARY KEY (race_id, seat)
    );
    CREATE INDEX results_by_user ON results (user_id);
    CREATE TABLE drafts (
        race_id {d.integer} NOT NULL,
        user_id {d.integer} NOT NULL,
        turn {d.integer} NOT NULL,
        draft TEXT NOT NULL,
        PRIMARY KEY (race_id, user_id)
    );
    CREATE TABLE users (
        user_id {d.integer} PRIMARY KEY,
        dm {d.integer} NOT NULL DEFAULT 0,
        locale TEXT
    );
    """


LAPS_INTO_OPTIONS = """
    UPDATE races
    SET settings = json_set(
        json_remove(settings, '$.laps'), '$.options.laps', json_extract(settings, '$.laps')
    )
    WHERE json_type(settings, '$.laps') IS NOT NULL;"""
"""Charioteer's laps moved into settings.options, in the races stored before migration 2
(SQLite only: no PostgreSQL database is that old)."""


def _tables_by_server(d: Dialect) -> str:
    """2: every game's options live in settings.options, and a server's tables are listed
    by status."""
    return (
        d.pick(sqlite=LAPS_INTO_OPTIONS, postgres="")
        + """
    CREATE INDEX races_by_guild ON races (guild_id, status);
    """
    )


def _host_facts(d: Dialect) -> str:
    """3: facts the host keeps about itself (the hash of the synced slash commands)."""
    return """
    CREATE TABLE host_facts (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """


def _closed_dms(d: Dialect) -> str:
    """4: a member whose DMs are closed is remembered until they choose DMs again."""
    return f"""
    ALTER TABLE users ADD COLUMN dm_closed {d.integer} NOT NULL DEFAULT 0;
    """


def _ratings(d: Dialect) -> str:
    """5: skill ratings, one per player (a member, or an AI level) per game per server
    (guild 0: games outside a server), and every rated game's change per seat."""
    return f"""
    CREATE TABLE ratings (
        guild_id {d.integer} NOT NULL,
        game TEXT NOT NULL,
        player TEXT NOT NULL,
        user_id {d.integer},
        name TEXT NOT NULL,
        mu {d.real} NOT NULL,
        sigma {d.real} NOT NULL,
        games {d.integer} NOT NULL,
        wins {d.integer} NOT NULL,
        podiums {d.integer} NOT NULL,
        updated_at {d.real} NOT NULL,
        PRIMARY KEY (guild_id, game, player)
    );
    CREATE INDEX ratings_by_ordinal ON ratings (guild_id, game, (mu - 3 * sigma) DESC);
    CREATE TABLE rating_changes (
        id {d.id_key},
        race_id {d.integer} NOT NULL REFERENCES races (id),
        seat TEXT NOT NULL,
        guild_id {d.integer} NOT NULL,
        game TEXT NOT NULL,
        player TEXT NOT NULL,
        place {d.integer} NOT NULL,
        seats {d.integer} NOT NULL,
        mu_before {d.real} NOT NULL,
        sigma_before {d.real} NOT NULL,
        mu_after {d.real} NOT NULL,
        sigma_after {d.real} NOT NULL,
        at {d.real} NOT NULL,
        UNIQUE (race_id, seat)
    );
    CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, game, player, at);
    CREATE INDEX rating_changes_by_game ON rating_changes (guild_id, game, at, race_id);
    """


def _tournaments(d: Dialect) -> str:
    """6: tournaments as logs of events, the host tables their rounds opened, and each
    server's settings."""
    return f"""
    CREATE TABLE tournaments (
        id {d.id_key},
        guild_id {d.integer} NOT NULL,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        host_id {d.integer} NOT NULL,
        settings TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at {d.real} NOT NULL
    );
    CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
    CREATE TABLE tournament_events (
        tournament_id {d.integer} NOT NULL REFERENCES tournaments (id),
        seq {d.integer} NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        by_user {d.integer},
        at {d.real} NOT NULL,
        PRIMARY KEY (tournament_id, seq)
    );
    CREATE TABLE tournament_tables (
        tournament_id {d.integer} NOT NULL REFERENCES tournaments (id),
        round {d.integer} NOT NULL,
        table_index {d.integer} NOT NULL,
        race_id {d.integer} UNIQUE REFERENCES races (id),
        PRIMARY KEY (tournament_id, round, table_index)
    );
    CREATE TABLE guild_settings (
        guild_id {d.integer} PRIMARY KEY,
        settings TEXT NOT NULL
    );
    """


def _tournament_posts(d: Dialect) -> str:
    """7: where a tournament is announced (its channel and sign-up post) and when sign-up
    closes on its own; each result's team in a team game."""
    return f"""
    ALTER TABLE results ADD COLUMN team TEXT;
    ALTER TABLE tournaments ADD COLUMN channel_id {d.integer};
    ALTER TABLE tournaments ADD COLUMN signup_message_id {d.integer};
    ALTER TABLE tournaments ADD COLUMN starts_at {d.real};
    CREATE INDEX tournaments_by_start ON tournaments (status, starts_at);
    """


def _claims(d: Dialect) -> str:
    """8: which bot process handles a race's time limits and posts, until when (claims are
    taken on PostgreSQL, where several processes share the database)."""
    return f"""
    ALTER TABLE races ADD COLUMN claimed_by TEXT;
    ALTER TABLE races ADD COLUMN claimed_until {d.real};
    """


def _reminders(d: Dialect) -> str:
    """9: when a race's next reminder is due, kept by the database itself and indexed: the
    dispatcher reads the reminders due instead of every running race; running races by
    deadline (the status index alone made the dispatcher read every running race)."""
    return f"""
    ALTER TABLE races ADD COLUMN remind_at {d.real} GENERATED ALWAYS AS
        ({remind_at_sql(d.json_number("settings", "turn_seconds"))}) {d.added_generated};
    CREATE INDEX races_by_reminder ON races (remind_at) WHERE remind_at IS NOT NULL;
    DROP INDEX races_by_deadline;
    CREATE INDEX running_races_by_deadline ON races (status, deadline);
    """


def _seat_holders(d: Dialect) -> str:
    """10: every member who holds or has held a seat of a started race, and which seat (a
    member never takes another seat of a race they played in); the players known so far
    are the seated ones and those who acted. A tournament's tables are hosted by its
    organiser, no entrant."""
    return f"""
    CREATE TABLE seat_holders (
        race_id {d.integer} NOT NULL REFERENCES races (id),
        user_id {d.integer} NOT NULL,
        seat TEXT NOT NULL,
        since {d.real} NOT NULL,
        PRIMARY KEY (race_id, user_id)
    );
    INSERT INTO seat_holders (race_id, user_id, seat, since)
        SELECT seats.race_id, seats.user_id, seats.seat, seats.joined_at
        FROM seats JOIN races ON races.id = seats.race_id
        WHERE seats.user_id IS NOT NULL AND races.status <> 'lobby';
    INSERT INTO seat_holders (race_id, user_id, seat, since)
        SELECT race_id, by_user, MIN(seat), MIN(at) FROM actions
        WHERE by_user IS NOT NULL AND seat IS NOT NULL GROUP BY race_id, by_user
        ON CONFLICT (race_id, user_id) DO NOTHING;
    UPDATE races SET host_id = (
        SELECT tournaments.host_id FROM tournament_tables
        JOIN tournaments ON tournaments.id = tournament_tables.tournament_id
        WHERE tournament_tables.race_id = races.id
    ) WHERE id IN (SELECT race_id FROM tournament_tables WHERE race_id IS NOT NULL);
    """


POSTGRES_NAMES_FOR_TABLES = """
    ALTER SEQUENCE races_id_seq RENAME TO game_tables_id_seq;
    ALTER INDEX races_pkey RENAME TO game_tables_pkey;
    ALTER INDEX outbox_race_id_kind_seq_key RENAME TO outbox_table_id_kind_seq_key;
    ALTER INDEX rating_changes_race_id_seat_key RENAME TO rating_changes_table_id_seat_key;
    ALTER INDEX tournament_tables_race_id_key RENAME TO tournament_tables_table_id_key;
    ALTER TABLE seats RENAME CONSTRAINT seats_race_id_fkey TO seats_table_id_fkey;
    ALTER TABLE actions RENAME CONSTRAINT actions_race_id_fkey TO actions_table_id_fkey;
    ALTER TABLE outbox RENAME CONSTRAINT outbox_race_id_fkey TO outbox_table_id_fkey;
    ALTER TABLE results RENAME CONSTRAINT results_race_id_fkey TO results_table_id_fkey;
    ALTER TABLE rating_changes
        RENAME CONSTRAINT rating_changes_race_id_fkey TO rating_changes_table_id_fkey;
    ALTER TABLE tournament_tables
        RENAME CONSTRAINT tournament_tables_race_id_fkey TO tournament_tables_table_id_fkey;
    ALTER TABLE seat_holders
        RENAME CONSTRAINT seat_holders_race_id_fkey TO seat_holders_table_id_fkey;
"""
"""What PostgreSQL itself named after races and their ids: the id sequence, the keys and
their indexes (SQLite leaves them unnamed). Renaming a key's index renames the key."""


def _table_words(d: Dialect) -> str:
    """11: every game is played at a table: ``races`` becomes ``game_tables``, every
    ``race_id`` a ``table_id``, and the indexes are named after game tables; every row
    stays as it was. (Not plain ``tables``: a query ``FROM tables`` reads like the
    catalogue's own ``information_schema.tables``, and beside ``tournament_tables`` it
    would not say which tables.)"""
    return f"""
    ALTER TABLE races RENAME TO game_tables;
    ALTER TABLE seats RENAME COLUMN race_id TO table_id;
    ALTER TABLE actions RENAME COLUMN race_id TO table_id;
    ALTER TABLE outbox RENAME COLUMN race_id TO table_id;
    ALTER TABLE results RENAME COLUMN race_id TO table_id;
    ALTER TABLE drafts RENAME COLUMN race_id TO table_id;
    ALTER TABLE rating_changes RENAME COLUMN race_id TO table_id;
    ALTER TABLE tournament_tables RENAME COLUMN race_id TO table_id;
    ALTER TABLE seat_holders RENAME COLUMN race_id TO table_id;
    DROP INDEX races_by_status;
    DROP INDEX races_by_thread;
    DROP INDEX races_by_channel;
    DROP INDEX races_by_guild;
    DROP INDEX races_by_reminder;
    DROP INDEX running_races_by_deadline;
    CREATE INDEX game_tables_by_status ON game_tables (status);
    CREATE INDEX game_tables_by_thread ON game_tables (thread_id);
    CREATE INDEX game_tables_by_channel ON game_tables (channel_id, status);
    CREATE INDEX game_tables_by_guild ON game_tables (guild_id, status);
    CREATE INDEX game_tables_by_reminder ON game_tables (remind_at) WHERE remind_at IS NOT NULL;
    CREATE INDEX running_game_tables_by_deadline ON game_tables (status, deadline);
    {d.pick(sqlite="", postgres=POSTGRES_NAMES_FOR_TABLES)}"""


def _web_pages(d: Dialect) -> str:
    """12: the servers whose web page is on (its unguessable slug, the secret its players'
    page addresses are made with, its name and language as the bot last saw them), and the
    channels of those servers that the server's default role can view (only their tables
    and tournaments are shown on the page), as the bot keeps them from its guild cache."""
    return f"""
    CREATE TABLE web_pages (
        guild_id {d.integer} PRIMARY KEY,
        slug TEXT NOT NULL UNIQUE,
        secret TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        locale TEXT,
        since {d.real} NOT NULL
    );
    CREATE TABLE public_channels (
        guild_id {d.integer} NOT NULL,
        channel_id {d.integer} NOT NULL,
        PRIMARY KEY (guild_id, channel_id)
    );
    """


def _announcement_snapshots(d: Dialect) -> str:
    """13: an announcement keeps the snapshot of its table taken in the transaction that
    made it (the seats, the waiting players and deadline, the position before the action
    and the action itself), so what it says is rendered from that moment only."""
    return """
    ALTER TABLE outbox ADD COLUMN snapshot TEXT;
    """


def _table_versions(d: Dialect) -> str:
    """14: a table's version, moved by every write to its row or seats (claims aside): a
    process of a cluster keeps a table in memory while the stored version is the one it
    read."""
    return f"""
    ALTER TABLE game_tables ADD COLUMN version {d.integer} NOT NULL DEFAULT 0;
    """


def _notice_choices(d: Dialect) -> str:
    """15: each member's own choice of how and when they hear that their move is due (by
    DM, by a ping in the thread, or not at all; quiet hours in their time zone; how often
    to be reminded; NULL everywhere: as before), and the notices owed to a member at a
    table: one held by their quiet hours, or their next reminder, due at ``due_at`` for
    that turn only."""
    return f"""
    ALTER TABLE users ADD COLUMN notices TEXT;
    ALTER TABLE users ADD COLUMN time_zone TEXT;
    ALTER TABLE users ADD COLUMN quiet_from {d.integer};
    ALTER TABLE users ADD COLUMN quiet_until {d.integer};
    ALTER TABLE users ADD COLUMN remind_hours {d.integer};
    CREATE TABLE member_notices (
        table_id {d.integer} NOT NULL REFERENCES game_tables (id),
        user_id {d.integer} NOT NULL,
        turn {d.integer} NOT NULL,
        due_at {d.real} NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    CREATE INDEX member_notices_by_due ON member_notices (due_at);
    """


def _time_controls(d: Dialect) -> str:
    """16: each seat's clock at a running table (since when it owes a move, its time bank,
    its member's absence), as JSON; members away from a server's games, and until when;
    the votes on handing a seat that has long owed its move to the AI."""
    return f"""
    ALTER TABLE game_tables ADD COLUMN clocks TEXT;
    CREATE TABLE away (
        guild_id {d.integer} NOT NULL,
        user_id {d.integer} NOT NULL,
        since {d.real} NOT NULL,
        until {d.real} NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE TABLE seat_votes (
        table_id {d.integer} NOT NULL REFERENCES game_tables (id),
        seat TEXT NOT NULL,
        since {d.real} NOT NULL,
        voter_id {d.integer} NOT NULL,
        choice TEXT NOT NULL,
        PRIMARY KEY (table_id, seat, since, voter_id)
    );
    """


MIGRATIONS: tuple[Migration, ...] = (
    _races,
    _tables_by_server,
    _host_facts,
    _closed_dms,
    _ratings,
    _tournaments,
    _tournament_posts,
    _claims,
    _reminders,
    _seat_holders,
    _table_words,
    _web_pages,
    _announcement_snapshots,
    _table_versions,
    _notice_choices,
    _time_controls,
)
"""Migration 1 first: a database at version N has had the first N."""


def migrations(dialect: Dialect) -> tuple[str, ...]:
    """Every migration in the dialect's SQL, migration 1 first."""
    return tuple(migration(dialect) for migration in MIGRATIONS)
