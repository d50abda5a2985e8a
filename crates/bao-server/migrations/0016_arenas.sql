-- Arenas (docs/api.md, "Arenas"). Portable SQL: BIGINT and TEXT only.
--
-- Exactly once across instances: a player is in one arena game at a time because a pairing
-- is one conditional UPDATE of both players' rows (`game_id IS NULL AND paused = 0`) that must
-- change both, in the transaction that inserts the game's `arena_games` row; an instance
-- whose claim changed fewer rolls back. A result is recorded once (`result IS NULL`); the
-- start and the end are conditional UPDATEs of `status`. Scores are not stored: they follow
-- from the games in order (the feature's scoring).

-- `status`: upcoming, running or finished. `clock` is JSON as the API takes it.
CREATE TABLE arenas (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    clock TEXT NOT NULL,
    rated BIGINT NOT NULL,
    berserk BIGINT NOT NULL,
    status TEXT NOT NULL,
    organiser_id TEXT NOT NULL,
    organiser_name TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE INDEX arenas_status ON arenas (status, starts_at);

-- The players. `game_id`: the arena game they are in now (the claim); `last_opponent`: the
-- account of their last game's opponent (not paired again at once); `paused`: not paired
-- until they join again; `rating`: the rating read at joining.
CREATE TABLE arena_players (
    arena_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    username TEXT NOT NULL,
    rating BIGINT,
    joined BIGINT NOT NULL,
    paused BIGINT NOT NULL,
    game_id TEXT,
    last_opponent TEXT,
    PRIMARY KEY (arena_id, account_id)
);

-- One row per game, made at pairing under its chosen id. `seq` orders an arena's games as
-- they were paired (a player's next game is paired after the last one's result, so each
-- player's games are in order; times may be equal). `result` is S, N or draw once known;
-- `berserk_s` / `berserk_n` say who went berserk.
CREATE TABLE arena_games (
    game_id TEXT PRIMARY KEY,
    arena_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    south TEXT NOT NULL,
    north TEXT NOT NULL,
    started BIGINT NOT NULL,
    result TEXT,
    termination TEXT,
    berserk_s BIGINT NOT NULL,
    berserk_n BIGINT NOT NULL,
    ended BIGINT
);

CREATE INDEX arena_games_arena ON arena_games (arena_id, seq);

-- Who went berserk in a game (docs/api.md, "Arenas"): bit 0 player 0, bit 1 player 1; their
-- time was halved and they get no increment. Written only by the berserk write.
ALTER TABLE games ADD COLUMN clock_berserk BIGINT NOT NULL DEFAULT 0;
