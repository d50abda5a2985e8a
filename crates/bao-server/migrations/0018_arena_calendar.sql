-- Club, private and recurring arenas, and the reminder before the start (docs/api.md,
-- "Arenas" and "Calendar"). Portable SQL: BIGINT and TEXT only.
--
-- Exactly once across instances: a series' next arena is made in the transaction whose
-- conditional UPDATE moves `arena_series.last_start` from the newest arena's start to the
-- next one's (an instance that comes second changes no row and writes nothing); the reminder
-- five minutes before an arena's start is sent by the instance whose conditional UPDATE
-- moved `reminded` from 0 to 1.

-- `club_id`: only that club's members join; `private`: not listed (joined by its link);
-- `series_id` and `repeats`: the series it belongs to and how often it comes (daily, weekly);
-- `reminded`: its players were told of the coming start.
ALTER TABLE arenas ADD COLUMN club_id TEXT;
ALTER TABLE arenas ADD COLUMN private BIGINT NOT NULL DEFAULT 0;
ALTER TABLE arenas ADD COLUMN series_id TEXT;
ALTER TABLE arenas ADD COLUMN repeats TEXT;
ALTER TABLE arenas ADD COLUMN reminded BIGINT NOT NULL DEFAULT 0;

CREATE INDEX arenas_series ON arenas (series_id, starts_at);

-- A recurring arena. Each arena of the series is a copy of the newest one, `repeats` later;
-- `last_start` is the newest one's start (the next is made once it has started);
-- `stopped`: no more are made.
CREATE TABLE arena_series (
    id TEXT PRIMARY KEY,
    repeats TEXT NOT NULL,
    last_start BIGINT NOT NULL,
    stopped BIGINT NOT NULL,
    created BIGINT NOT NULL
);
