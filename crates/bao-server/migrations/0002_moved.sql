-- The time of the last move of a match (ms since the epoch), NULL before its first move.
-- "Watch live" lists only games with a recent move, newest first (issue 9).
ALTER TABLE games ADD COLUMN moved BIGINT;

UPDATE games SET moved = updated WHERE ply > 0 OR game_no > 1;

CREATE INDEX games_status_moved ON games (status, moved);
