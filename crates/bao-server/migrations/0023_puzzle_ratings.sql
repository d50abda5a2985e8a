-- Rated puzzles (docs/api.md, "Puzzles"): a Glicko-2 rating per puzzle and per account and
-- variant, every attempt, and each account's puzzle streak. Portable SQL (SQLite and
-- PostgreSQL).

-- A puzzle's rating, made at its first rated attempt from its difficulty. `attempts` counts
-- its rated attempts and is the row's version: an update names the count it read.
CREATE TABLE puzzle_ratings (
    puzzle_id TEXT NOT NULL PRIMARY KEY,
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL
);

CREATE INDEX puzzle_ratings_variant ON puzzle_ratings (variant, rating);

-- An account's puzzle rating in a variant (`attempts` is the version, as above;
-- `last_played` in ms since the epoch) and its streak: the puzzles solved in a row in the
-- current run, the best run, and the rating of the run's last puzzle (the next is at least
-- as hard).
CREATE TABLE puzzle_players (
    account_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL,
    last_played BIGINT NOT NULL,
    streak BIGINT NOT NULL DEFAULT 0,
    best_streak BIGINT NOT NULL DEFAULT 0,
    streak_floor DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, variant)
);

-- An account's first attempt of each puzzle, the rated one: the primary key makes it happen
-- exactly once, whatever the number of instances.
CREATE TABLE puzzle_attempts (
    account_id TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    solved BIGINT NOT NULL,
    before DOUBLE PRECISION NOT NULL,
    after DOUBLE PRECISION NOT NULL,
    puzzle_after DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);

CREATE INDEX puzzle_attempts_recent ON puzzle_attempts (account_id, variant, at);
