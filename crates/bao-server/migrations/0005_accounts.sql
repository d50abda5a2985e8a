-- Optional accounts (docs/api.md, "Accounts"). Portable SQL: BIGINT and TEXT only.
-- The database never holds a password, a recovery code or a session token: only Argon2id
-- PHC strings of the first two and the SHA-256 of the third.

-- `id` is random text (no autoincrement: SQLite and PostgreSQL spell it differently); later
-- tables about an account (ratings) refer to it. `name_key` is the name in lower case, so
-- names are unique without regard to case.
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    recovery_hash TEXT NOT NULL,
    created BIGINT NOT NULL
);

-- One row per signed-in browser; deleting the row signs it out on every instance.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    created BIGINT NOT NULL,
    last_seen BIGINT NOT NULL
);

CREATE INDEX sessions_account ON sessions (account_id);
CREATE INDEX sessions_last_seen ON sessions (last_seen);

-- The seats an account claimed at signup or login: the seat token's SHA-256, as `games`
-- keeps it, so "My games" can answer them on any browser the account signs in on.
CREATE TABLE account_seats (
    account_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    created BIGINT NOT NULL,
    PRIMARY KEY (account_id, game_id, token_hash)
);
