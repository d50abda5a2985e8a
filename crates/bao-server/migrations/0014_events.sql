-- The event bus across instances (docs/architecture.md, "The event bus"). Every change
-- others must hear of writes its events here in its own transaction and sends NOTIFY
-- bao_events; an instance whose listener connection dropped reads what it missed from here.
-- Ids come from the one-row counter, updated in the same transaction: its row lock orders
-- the ids as the transactions commit, so a listener that sees id N+2 after N knows that it
-- missed N+1. Rows are kept about an hour. SQLite (one instance) keeps its events in
-- memory and writes nothing here. Portable SQL: BIGINT and TEXT.
CREATE TABLE events (
    id BIGINT PRIMARY KEY,
    at BIGINT NOT NULL,
    origin TEXT NOT NULL,
    payload TEXT NOT NULL
);

CREATE INDEX events_at ON events (at);

CREATE TABLE event_counter (
    one BIGINT PRIMARY KEY,
    last BIGINT NOT NULL
);

INSERT INTO event_counter (one, last) VALUES (1, 0);
