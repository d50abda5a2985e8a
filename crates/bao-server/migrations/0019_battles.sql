-- Team battles (docs/api.md, "Arenas", "Team battles"): an arena among clubs. Portable SQL:
-- BIGINT and TEXT only. The arena itself is a row of `arenas` (migration 0016) like any other;
-- these tables only add its clubs and which club each player plays for. Scores are not stored:
-- a club's follows from its players' (the feature's scoring).

-- The battle: a club scores the sum of its `leaders` best players' scores.
CREATE TABLE arena_battles (
    arena_id TEXT PRIMARY KEY,
    leaders BIGINT NOT NULL
);

-- The battle's clubs, in the order the maker named them; `name` as it was then.
CREATE TABLE arena_battle_clubs (
    arena_id TEXT NOT NULL,
    club_id TEXT NOT NULL,
    name TEXT NOT NULL,
    seq BIGINT NOT NULL,
    PRIMARY KEY (arena_id, club_id)
);

-- The club each player plays for, chosen once (the primary key: one club per player per
-- arena, so two joins racing with different clubs cannot both be written).
CREATE TABLE arena_battle_players (
    arena_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    club_id TEXT NOT NULL,
    PRIMARY KEY (arena_id, account_id)
);
