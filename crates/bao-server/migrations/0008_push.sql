-- Web Push (docs/api.md, "Web Push"). Portable SQL: BIGINT and TEXT only.

-- The server's VAPID key pair (RFC 8292): one for every instance. The first instance to
-- start inserts it (a conditional insert on the fixed id), every other reads that one.
-- `private_key` is the base64url P-256 scalar; the public key is derived from it.
CREATE TABLE push_keys (
    id TEXT PRIMARY KEY,
    private_key TEXT NOT NULL,
    created BIGINT NOT NULL
);

-- One row per browser that allowed notifications: the push service's endpoint (unique:
-- the same browser subscribing again replaces its row), its keys (RFC 8291: the p256dh
-- public key and the auth secret, base64url), the language of its texts, and the account
-- it belongs to (NULL for a guest, who is reached through push_seats).
CREATE TABLE push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    lang TEXT NOT NULL,
    account_id TEXT,
    created BIGINT NOT NULL
);

CREATE INDEX push_subscriptions_account ON push_subscriptions (account_id);

-- The seats a subscription proved with their tokens: a guest's "your move" reaches it.
CREATE TABLE push_seats (
    endpoint TEXT NOT NULL,
    game_id TEXT NOT NULL,
    player BIGINT NOT NULL,
    created BIGINT NOT NULL,
    PRIMARY KEY (endpoint, game_id, player)
);

CREATE INDEX push_seats_game ON push_seats (game_id, player);
