-- Fair play (docs/api.md, "Fair play"): how closely each side of a rated game followed the
-- engine, reports, moderators and their actions, and the ratings given back to the victims
-- of an account marked as an engine user. Portable SQL (SQLite and PostgreSQL).

-- A moderator may see /mod and act; a marked account played with an engine's help: off the
-- leaderboard, out of tournaments, arenas and the pairing pool (0 or 1).
ALTER TABLE accounts ADD COLUMN moderator BIGINT NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN engine_marked BIGINT NOT NULL DEFAULT 0;

-- One row per account and rated game: the moves it chose among several, how many of them
-- were as good as the engine's first choice, and the sum of their (capped) losses in
-- centi-seeds. The primary key makes an analysis count once, whichever instance made it.
CREATE TABLE fairplay_games (
    game_id TEXT NOT NULL,
    game_no BIGINT NOT NULL,
    account_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    moves BIGINT NOT NULL,
    top BIGINT NOT NULL,
    loss_sum BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, game_no, account_id)
);

CREATE INDEX fairplay_games_account ON fairplay_games (account_id, at);
CREATE INDEX fairplay_games_band ON fairplay_games (variant, rating);

-- A player's report of another account (and perhaps a game); `closed` by a moderator's action.
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    game_id TEXT,
    reason TEXT NOT NULL,
    at BIGINT NOT NULL,
    closed BIGINT
);

CREATE INDEX reports_open ON reports (closed, at);
CREATE INDEX reports_reporter ON reports (reporter_id, at);

-- Every moderator's action, with its reason, shown to the account concerned.
CREATE TABLE mod_actions (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    moderator_id TEXT NOT NULL,
    action TEXT NOT NULL,
    reason TEXT NOT NULL,
    at BIGINT NOT NULL
);

CREATE INDEX mod_actions_account ON mod_actions (account_id, at);

-- A rating given back: the victim's loss in one rated game against a marked account. The
-- primary key makes each refund happen once across instances and marks.
CREATE TABLE rating_refunds (
    game_id TEXT NOT NULL,
    game_no BIGINT NOT NULL,
    account_id TEXT NOT NULL,
    marked_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    points DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, game_no, account_id)
);
