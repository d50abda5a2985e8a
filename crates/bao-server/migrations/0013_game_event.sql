-- The event a game was made for (docs/api.md, GameState `event`): a tournament's round game
-- names its tournament (kind `tournament`, the tournament's id and name when the game was
-- made, the round number); later an arena or a team match. All NULL for a game on its own.
-- Portable SQL: TEXT and BIGINT.
ALTER TABLE games ADD COLUMN event_kind TEXT;
ALTER TABLE games ADD COLUMN event_id TEXT;
ALTER TABLE games ADD COLUMN event_name TEXT;
ALTER TABLE games ADD COLUMN event_round BIGINT;
