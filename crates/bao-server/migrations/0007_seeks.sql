-- Finding an opponent (docs/api.md, "Finding an opponent"): open challenges (seeks), the
-- quick-pairing pool, direct challenges and blocks. Portable SQL: BIGINT, TEXT and DOUBLE
-- PRECISION only; times in ms since the epoch; ids are random text.

-- An open challenge anyone may accept. `token_hash` is the SHA-256 of the owner's seek token
-- (it becomes a guest owner's seat token); `account_id` is NULL for a guest. `alive_until`
-- is pushed on while the owner's page has its player socket open. `status`: open, accepted
-- (then `game` is the game made, or about to be made, for it) or closed. The accept is one
-- conditional UPDATE on `status = 'open'`, so a seek is accepted once across instances.
CREATE TABLE seeks (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    account_id TEXT,
    ip TEXT NOT NULL,
    name TEXT NOT NULL,
    rating TEXT,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    match_format TEXT NOT NULL,
    clock TEXT,
    rated BIGINT NOT NULL,
    created BIGINT NOT NULL,
    alive_until BIGINT NOT NULL,
    status TEXT NOT NULL,
    game TEXT,
    acceptor TEXT,
    accepted_at BIGINT
);

CREATE INDEX seeks_status ON seeks (status, alive_until);
CREATE INDEX seeks_token ON seeks (token_hash);
CREATE INDEX seeks_account ON seeks (account_id, status);
CREATE INDEX seeks_ip ON seeks (ip, status);

-- A ticket of the quick-pairing pool: one account waiting for a rated game in one variant
-- with one clock (`pool` = variant and clock). `status`: waiting, paired (`game` set) or
-- gone. A pairing claims its two tickets with one conditional UPDATE on `status = 'waiting'`.
CREATE TABLE pool (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    pool TEXT NOT NULL,
    variant TEXT NOT NULL,
    clock TEXT,
    rating BIGINT NOT NULL,
    since BIGINT NOT NULL,
    alive_until BIGINT NOT NULL,
    status TEXT NOT NULL,
    game TEXT,
    paired_at BIGINT
);

-- One waiting ticket per account and pool.
CREATE UNIQUE INDEX pool_one_waiting ON pool (account_id, pool) WHERE status = 'waiting';
CREATE INDEX pool_status ON pool (status, alive_until);
CREATE INDEX pool_game ON pool (game);

-- A challenge from one account to another. `status`: open, accepted (`game` set), declined,
-- cancelled or expired; `changed` is when it last changed (the player sockets read it).
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    from_account TEXT NOT NULL,
    to_account TEXT NOT NULL,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    match_format TEXT NOT NULL,
    clock TEXT,
    rated BIGINT NOT NULL,
    created BIGINT NOT NULL,
    expires BIGINT NOT NULL,
    status TEXT NOT NULL,
    game TEXT,
    changed BIGINT NOT NULL
);

CREATE INDEX challenges_to ON challenges (to_account, status);
CREATE INDEX challenges_from ON challenges (from_account, status);
CREATE INDEX challenges_changed ON challenges (status, changed);

-- `account_id` blocked `blocked_id`: neither may challenge the other, accept the other's seek
-- or be paired with the other.
CREATE TABLE blocks (
    account_id TEXT NOT NULL,
    blocked_id TEXT NOT NULL,
    created BIGINT NOT NULL,
    PRIMARY KEY (account_id, blocked_id)
);

CREATE INDEX blocks_blocked ON blocks (blocked_id);
