-- A rematch is an offer the other player accepts or declines (docs/api.md, "Play: rematch"):
-- who asked, until when it stands, whether it lapses when the asker leaves the game, and
-- whether it was declined. The new game exists only once accepted (`rematch`, 0003).
-- Portable SQL: BIGINT only.
ALTER TABLE games ADD COLUMN rematch_offer_by BIGINT;
ALTER TABLE games ADD COLUMN rematch_offer_until BIGINT;
ALTER TABLE games ADD COLUMN rematch_offer_watching BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rematch_offer_declined BIGINT NOT NULL DEFAULT 0;
-- The home page's player socket asks for the offers made to an account lately.
CREATE INDEX games_rematch_offer ON games (rematch_offer_until);
