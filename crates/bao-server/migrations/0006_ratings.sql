-- Ratings (docs/api.md, "Ratings"): one Glicko-2 rating per account and variant, updated once
-- per rated game. Portable SQL: BIGINT, TEXT and DOUBLE PRECISION (a Glicko-2 rating,
-- deviation and volatility are reals; both SQLite and PostgreSQL take this type name).

-- Whether a match is rated (0 or 1), and the account that holds each seat (NULL for a seat
-- without one, and once the account is deleted).
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN p0_account TEXT;
ALTER TABLE games ADD COLUMN p1_account TEXT;

-- The catch-up finds the rated matches that changed recently; the profiles their games.
CREATE INDEX games_rated_updated ON games (rated, updated);
CREATE INDEX games_p0_account ON games (p0_account, updated);
CREATE INDEX games_p1_account ON games (p1_account, updated);

-- A rated game's rating change per player (0 = the creator, 1): the rounded rating after
-- minus the rounded rating before. NULL until the game is rated (or when it is not rated).
ALTER TABLE rounds ADD COLUMN rating0 BIGINT;
ALTER TABLE rounds ADD COLUMN rating1 BIGINT;

-- One row per account and variant that played a rated game. `games` counts its rated games
-- and is the row's version: an update names the count it read, so two games ending at once
-- for one player cannot both start from the same rating. `last_played` in ms since the epoch.
CREATE TABLE ratings (
    account_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    last_played BIGINT NOT NULL,
    PRIMARY KEY (account_id, variant)
);

CREATE INDEX ratings_board ON ratings (variant, rating);

-- Every rating update: the primary key makes a game's rating happen exactly once, whatever
-- the number of instances that saw the game end.
CREATE TABLE rating_history (
    game_id TEXT NOT NULL,
    game_no BIGINT NOT NULL,
    account_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    before DOUBLE PRECISION NOT NULL,
    after DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, game_no, account_id)
);

CREATE INDEX rating_history_account ON rating_history (account_id, variant, at);
