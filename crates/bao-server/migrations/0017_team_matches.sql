-- Team matches: club against club on N boards (docs/api.md, "Team matches"). Portable SQL:
-- BIGINT and TEXT only.
--
-- Exactly once across instances: the start is a conditional UPDATE of `status` (accepted ->
-- running) in the transaction that writes the boards; a board's result is written while it
-- is NULL; the finish is a conditional UPDATE (running -> finished).

-- `status`: proposed, accepted, running, finished or declined. `rules` is the canonical
-- option text without the match format (`-` for the variant's usual rules), `match_format`
-- single_game or best_of_three, `clock` the CLOCK's JSON.
CREATE TABLE team_matches (
    id TEXT PRIMARY KEY,
    home TEXT NOT NULL,
    away TEXT NOT NULL,
    boards BIGINT NOT NULL,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    match_format TEXT NOT NULL,
    clock TEXT NOT NULL,
    rated BIGINT NOT NULL,
    starts_at BIGINT NOT NULL,
    status TEXT NOT NULL,
    proposer TEXT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE INDEX team_matches_status ON team_matches (status, starts_at);

-- The lineups: `side` is home or away, `board` 1..boards. The primary key on the account
-- keeps a player on one side only, even one who belongs to both clubs.
CREATE TABLE team_lineups (
    match_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    side TEXT NOT NULL,
    board BIGINT NOT NULL,
    PRIMARY KEY (match_id, account_id)
);

-- The boards, written at the start: the players (NULL: nobody named), the game (NULL: a
-- forfeit), the result (home, away, draw; `none` when neither side named a player; NULL
-- while the game is played).
CREATE TABLE team_boards (
    match_id TEXT NOT NULL,
    board BIGINT NOT NULL,
    home_id TEXT,
    away_id TEXT,
    game_id TEXT,
    result TEXT,
    PRIMARY KEY (match_id, board)
);

CREATE INDEX team_boards_game ON team_boards (game_id);
