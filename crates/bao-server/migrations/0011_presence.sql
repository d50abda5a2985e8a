-- Which players have a game open, across instances (docs/api.md, "Web Push"): each instance
-- replaces its own rows when its players' sockets come and go, and again every minute; a
-- row counts until `until_ms`, so the rows of an instance that stopped expire by themselves.
-- "Your move" is pushed only to a player with no row here. Portable SQL: BIGINT and TEXT.
CREATE TABLE seat_presence (
    game_id TEXT NOT NULL,
    player BIGINT NOT NULL,
    instance TEXT NOT NULL,
    until_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, player, instance)
);

CREATE INDEX seat_presence_instance ON seat_presence (instance);
