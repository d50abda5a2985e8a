-- A dissolved club (docs/api.md, "Clubs", dissolving): `dissolved` is when (ms), NULL for a
-- club that goes on. Its row stays so that the pages of its past matches and tournaments
-- keep its name; its members, requests, bans and announcements are gone, its name free.
ALTER TABLE clubs ADD COLUMN dissolved BIGINT;
