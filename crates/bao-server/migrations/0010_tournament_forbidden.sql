-- Pairings an organiser forbids in a Swiss (docs/api.md, "Tournaments"): players of one club
-- or one family who should not meet. `a` and `b` are account ids, `a` < `b`.
CREATE TABLE tournament_forbidden (
    tournament_id TEXT NOT NULL,
    a TEXT NOT NULL,
    b TEXT NOT NULL,
    PRIMARY KEY (tournament_id, a, b)
);
