-- A version per match, one more with every change committed. An instance that reads a game
-- again (another instance's notification, a conflict, an evicted game coming back) keeps the
-- newer of what it read and what it holds, so no viewer ever sees a game go back in time
-- (docs/architecture.md, "One write path"). Portable SQL: BIGINT only.
ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 1;
