-- Team tournaments (docs/api.md, "Team tournaments"): a round robin, Swiss or knockout whose
-- entrants are clubs and whose pairings are team matches. Portable SQL: BIGINT and TEXT only.
--
-- `team_boards` on a tournament: the boards of each of its matches; NULL for a tournament of
-- players. A team tournament's entrants are rows of `tournament_players` whose `account_id`
-- is a club's id and `username` its name, so that entering, the cap and withdrawing are the
-- players' statements.
ALTER TABLE tournaments ADD COLUMN team_boards BIGINT;

-- A pairing of a team tournament: `team_match` is the team match played for it (written in
-- the round's transaction, so paired once), `game_id` NULL. Its board points, in halves
-- (a board won 2, drawn 1), are written with its result, once (`result IS NULL`).
ALTER TABLE tournament_games ADD COLUMN team_match TEXT;
ALTER TABLE tournament_games ADD COLUMN south_halves BIGINT;
ALTER TABLE tournament_games ADD COLUMN north_halves BIGINT;

CREATE INDEX tournament_games_team_match ON tournament_games (team_match);

-- The tournament and round a team match was paired for (NULL: a match the clubs arranged).
ALTER TABLE team_matches ADD COLUMN tournament TEXT;
ALTER TABLE team_matches ADD COLUMN round BIGINT;
