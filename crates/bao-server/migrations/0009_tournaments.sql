-- Tournaments (docs/api.md, "Tournaments"). Portable SQL: BIGINT and TEXT only.
--
-- Exactly once across instances: a round is paired by inserting its `tournament_rounds` row
-- (primary key tournament_id, round_no) in the same transaction as its games; a second
-- instance's insert fails and it stops. Starting and finishing are conditional UPDATEs of
-- `status`. Games are made after the commit under the ids chosen in `tournament_games`, so
-- any instance can make a game a crashed one left missing.

-- `format` and `clock` are JSON as the API takes them. `players` counts the registered
-- players, so that a join is one conditional UPDATE (`players < max_players`) that orders
-- concurrent joins on the row. `code` is set for a private tournament only.
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    format TEXT NOT NULL,
    clock TEXT NOT NULL,
    rated BIGINT NOT NULL,
    status TEXT NOT NULL,
    organiser_id TEXT NOT NULL,
    organiser_name TEXT NOT NULL,
    starts_at BIGINT,
    max_players BIGINT NOT NULL,
    players BIGINT NOT NULL,
    code TEXT,
    bye_points TEXT NOT NULL,
    forfeit_after_ms BIGINT,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE INDEX tournaments_status ON tournaments (status, created);

-- The registered players. Their order (`joined`, then `account_id`) is the registration
-- order bao-tournament's player ids follow; `rating` is the rating read at joining (seeding).
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    username TEXT NOT NULL,
    rating BIGINT,
    provisional BIGINT NOT NULL,
    joined BIGINT NOT NULL,
    withdrawn BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, account_id)
);

-- One row per paired round: its primary key is the claim that pairs it exactly once.
-- `byes` is a JSON array of account ids; `started` starts the forfeit time.
CREATE TABLE tournament_rounds (
    tournament_id TEXT NOT NULL,
    round_no BIGINT NOT NULL,
    started BIGINT NOT NULL,
    byes TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round_no)
);

-- One row per game (a knockout: per match, `board` being the match number within its round,
-- 2 in the last round being the third-place match). `south` and `north` are account ids;
-- `game_id` is chosen at pairing (NULL: decided without a game, a withdrawn player's
-- forfeit). `result` is S, N or draw once known; `termination` as NOT-6.2, or `forfeit`.
CREATE TABLE tournament_games (
    tournament_id TEXT NOT NULL,
    round_no BIGINT NOT NULL,
    board BIGINT NOT NULL,
    game_id TEXT,
    south TEXT NOT NULL,
    north TEXT NOT NULL,
    result TEXT,
    termination TEXT,
    PRIMARY KEY (tournament_id, round_no, board)
);

CREATE INDEX tournament_games_game ON tournament_games (game_id);
