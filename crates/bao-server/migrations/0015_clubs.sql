-- Clubs (chama; docs/api.md, "Clubs"). Portable SQL: BIGINT and TEXT only.
--
-- Every change of a club's membership (a join, an answer to a request, a leave, a removal,
-- a role, an announcement) is one transaction whose first statement updates the club's row:
-- its row lock orders the changes of one club across instances, so that "a club always
-- keeps a leader" and "a few announcements a day" are read and kept in one step.

-- `name_key` is the name in lower case (unique: two clubs cannot share a name, whatever the
-- case); `search` is the name and place in lower case, what `GET /api/clubs?q=` matches.
-- `open` is 1 when anyone may join at once, 0 when a leader or admin accepts each request.
CREATE TABLE clubs (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    search TEXT NOT NULL,
    description TEXT NOT NULL,
    place TEXT NOT NULL,
    open BIGINT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

-- One row per member: `role` is leader, admin or member. An account may be in many clubs.
CREATE TABLE club_members (
    club_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    role TEXT NOT NULL,
    joined BIGINT NOT NULL,
    PRIMARY KEY (club_id, account_id)
);

CREATE INDEX club_members_account ON club_members (account_id);

-- Requests to join a closed club, until a leader or admin answers.
CREATE TABLE club_requests (
    club_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    asked BIGINT NOT NULL,
    PRIMARY KEY (club_id, account_id)
);

CREATE INDEX club_requests_account ON club_requests (account_id);

-- Accounts removed with a ban: they cannot join or ask again.
CREATE TABLE club_bans (
    club_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    banned BIGINT NOT NULL,
    PRIMARY KEY (club_id, account_id)
);

-- What leaders and admins told the members; `at` in ms (the daily limit counts these).
CREATE TABLE club_announcements (
    id TEXT PRIMARY KEY,
    club_id TEXT NOT NULL,
    author_id TEXT NOT NULL,
    text TEXT NOT NULL,
    at BIGINT NOT NULL
);

CREATE INDEX club_announcements_club ON club_announcements (club_id, at);

-- A club-only tournament names its club: only the club's members may join it.
ALTER TABLE tournaments ADD COLUMN club_id TEXT;
CREATE INDEX tournaments_club ON tournaments (club_id, created);
