-- Portable SQL: runs unchanged on SQLite and PostgreSQL (BIGINT and TEXT only).

-- One row per game id (a match: one game, or best of three, BRD-8). Players are numbered
-- 0 (the creator) and 1 (the invited person or the computer); player 0 plays `first_side`
-- in game 1 and the players change sides after every game (BRD-8.2).
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    start TEXT NOT NULL,
    format TEXT NOT NULL,
    read_only BIGINT NOT NULL,
    first_side TEXT NOT NULL,
    p0_kind TEXT NOT NULL,
    p0_name TEXT NOT NULL,
    p0_level BIGINT,
    p0_token TEXT,
    p1_kind TEXT NOT NULL,
    p1_name TEXT NOT NULL,
    p1_level BIGINT,
    p1_token TEXT,
    invite TEXT,
    game_no BIGINT NOT NULL,
    wins0 BIGINT NOT NULL,
    wins1 BIGINT NOT NULL,
    status TEXT NOT NULL,
    ply BIGINT NOT NULL,
    position TEXT NOT NULL,
    result TEXT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE INDEX games_status_updated ON games (status, updated);

-- One row per game of a match.
CREATE TABLE rounds (
    game_id TEXT NOT NULL,
    game_no BIGINT NOT NULL,
    start TEXT NOT NULL,
    south TEXT NOT NULL,
    north TEXT NOT NULL,
    result TEXT NOT NULL,
    result_text TEXT,
    termination TEXT,
    PRIMARY KEY (game_id, game_no)
);

-- Every accepted move. The primary key makes a second insert of the same ply fail, so two
-- servers (or a retried request) can never both apply a move.
CREATE TABLE moves (
    game_id TEXT NOT NULL,
    game_no BIGINT NOT NULL,
    ply BIGINT NOT NULL,
    mv TEXT NOT NULL,
    position TEXT NOT NULL,
    result TEXT NOT NULL,
    created BIGINT NOT NULL,
    PRIMARY KEY (game_id, game_no, ply)
);
