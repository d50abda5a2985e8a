-- Puzzles mined from the site's own finished games (docs/api.md, "Puzzles"), served after
-- the shipped ones. Portable SQL (SQLite and PostgreSQL).

-- One row per finished game the miner claimed: the primary key makes a game mined once,
-- whichever instance came first. `puzzles`: how many new puzzles it gave, once mined.
CREATE TABLE site_puzzle_games (
    game_id TEXT NOT NULL,
    game_no BIGINT NOT NULL,
    at BIGINT NOT NULL,
    puzzles BIGINT,
    PRIMARY KEY (game_id, game_no)
);

-- One row per puzzle: `entry` is the puzzle as the data files hold it (JSON: position, goal,
-- moves, depth, themes, source). `board` is the position without its ply counter: the same
-- board is the same puzzle, stored once (the unique index).
CREATE TABLE site_puzzles (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    board TEXT NOT NULL,
    entry TEXT NOT NULL,
    game_id TEXT NOT NULL,
    game_no BIGINT NOT NULL,
    ply BIGINT NOT NULL,
    at BIGINT NOT NULL
);

CREATE UNIQUE INDEX site_puzzles_board ON site_puzzles (variant, board);
CREATE INDEX site_puzzles_at ON site_puzzles (at);
