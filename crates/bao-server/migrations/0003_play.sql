-- Clocks, rematches (issue 11, points 2 and 3). Portable SQL: BIGINT and TEXT only.

-- The time control: a real-time clock (initial and increment, ms) or a correspondence
-- clock (days per move); all NULL for a game without a clock.
ALTER TABLE games ADD COLUMN clock_initial BIGINT;
ALTER TABLE games ADD COLUMN clock_increment BIGINT;
ALTER TABLE games ADD COLUMN clock_days BIGINT;
-- Time left per player (0 = the creator, 1), in ms, as of `clock_since`.
ALTER TABLE games ADD COLUMN clock_left0 BIGINT;
ALTER TABLE games ADD COLUMN clock_left1 BIGINT;
-- When the running clock (the player to move's) last started, ms since the epoch; NULL
-- while no clock runs (a seat still open, the game over).
ALTER TABLE games ADD COLUMN clock_since BIGINT;
-- When the player to move runs out of time (clock_since + that player's time left): the
-- server's sweep finds the games whose clock has run out by this column, after a restart too.
ALTER TABLE games ADD COLUMN clock_deadline BIGINT;
-- The match a finished one continues in (its rematch), and the player who asked first.
ALTER TABLE games ADD COLUMN rematch TEXT;
ALTER TABLE games ADD COLUMN rematch_by BIGINT;

CREATE INDEX games_clock_deadline ON games (clock_deadline);
