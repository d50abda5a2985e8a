//! Clubs (docs/api.md, "Clubs"; migration 0015): a club, its members and their roles, the
//! requests to join a closed club, bans and announcements.
//!
//! Every change of a club is one transaction whose first statement updates the club's row
//! ([`lock`]): its row lock orders the changes of one club across instances (SQLite has one
//! writer anyway), so what a change checks (the caller's role, the last leader, the day's
//! announcements) still holds when it writes. The rules themselves (who may do what) are
//! the feature's; each call here says what it found ([`ClubChange`]) and changes nothing unless
//! it is `Done`.
//!
//! Every change a club's page shows (members, requests, roles, announcements) commits
//! [`Event::Club`] with it, so the pages that follow the club read it again.

use super::{conflict_or, Store, StoreError, DELETED_NAME};
use crate::domain::events::Event;
use crate::domain::rating::Stored;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

/// The roles, highest first (the order of the member list).
pub const ROLES: [&str; 3] = ["leader", "admin", "member"];

/// A new club.
#[derive(Clone, Debug)]
pub struct NewClub {
    /// Id (random, `[a-z0-9]`).
    pub id: String,
    /// Its name, cleaned.
    pub name: String,
    /// What it is, cleaned.
    pub description: String,
    /// Where it meets ("" when not said).
    pub place: String,
    /// Anyone may join at once.
    pub open: bool,
    /// The account that makes it, its first leader.
    pub leader: String,
    /// Now (ms).
    pub now: i64,
}

/// A club as its page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClubRow {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Place ("" when not said).
    pub place: String,
    /// Anyone may join at once.
    pub open: bool,
    /// Members (leaders and admins included).
    pub members: i64,
    /// Created (ms).
    pub created: i64,
    /// When it was dissolved (ms), if it was.
    pub dissolved: Option<i64>,
}

/// A club in the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClubListed {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Its name in lower case (the list's order, and its cursor).
    pub name_key: String,
    /// Place.
    pub place: String,
    /// Anyone may join at once.
    pub open: bool,
    /// Members.
    pub members: i64,
    /// Its first leader's name.
    pub leader: Option<String>,
}

/// A member.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberRow {
    /// Account id.
    pub account_id: String,
    /// Account name.
    pub username: String,
    /// `leader`, `admin` or `member`.
    pub role: String,
    /// Joined (ms).
    pub joined: i64,
    /// The member's stored ratings, by variant (only the variants played rated).
    pub ratings: Vec<(String, Stored)>,
}

/// Where a page of members ends: its last member's role rank, join time and account id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberKey {
    /// 0 leader, 1 admin, 2 member.
    pub rank: i64,
    /// Joined (ms).
    pub joined: i64,
    /// Account id.
    pub account_id: String,
}

/// What one account is to one club.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Its role, if a member.
    pub role: Option<String>,
    /// It asked to join and nobody answered yet.
    pub requested: bool,
    /// It was removed with a ban.
    pub banned: bool,
}

/// An announcement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnouncementRow {
    /// The author's name.
    pub by: String,
    /// The text.
    pub text: String,
    /// When (ms).
    pub at: i64,
}

/// A tournament of a club.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClubTournament {
    /// Tournament id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Variant id.
    pub variant: String,
    /// Status.
    pub status: String,
    /// Start time, if set.
    pub starts_at: Option<i64>,
    /// Players registered.
    pub players: i64,
    /// Most players.
    pub max_players: i64,
}

/// What a change found; nothing was written unless it is `Done`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClubChange {
    /// Written.
    Done,
    /// No such club.
    NoClub,
    /// The caller's role does not allow it (the caller's role, `None` for a non-member).
    NotAllowed(Option<String>),
    /// The account named is not a member (nor, for an answer, asking).
    NotThere,
    /// It would leave the club without a leader.
    LastLeader,
    /// The account is banned from the club.
    Banned,
    /// Over a limit (clubs per account, announcements per day).
    TooMany,
    /// Something of the club is not over yet and cannot be called off: what it is.
    Busy(Busy),
}

/// What keeps a club from being dissolved: it must end first (docs/api.md, "Clubs").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Busy {
    /// A team match of the club was accepted or is being played.
    TeamMatch,
    /// A club-only tournament, or a team tournament the club plays in, is being played (or
    /// paused).
    Tournament,
    /// A club-only arena is being played.
    Arena,
    /// A team battle with the club is coming or being played.
    Battle,
}

/// What dissolving a club called off, besides the club itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dissolved {
    /// Team matches proposed to or by the club, now declined.
    pub matches_declined: u64,
    /// Club-only tournaments that had not started, now cancelled.
    pub tournaments_cancelled: u64,
    /// Club-only arenas that had not started, now gone (with their recurring series).
    pub arenas_removed: u64,
}

/// What a join did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Joined {
    /// The account is a member (now, or already).
    Member,
    /// The account asked; a leader or admin answers.
    Requested,
    /// Refused (`NoClub`, `Banned`, `TooMany`).
    Refused(ClubChange),
}

fn rank_sql(col: &str) -> String {
    format!("(CASE {col} WHEN 'leader' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END)")
}

/// Begins a change of club `id`: its row updated first, so that the changes of one club
/// are ordered across instances. `None` (rolled back) when there is no such club.
async fn lock(
    store: &Store,
    id: &str,
    now: i64,
) -> Result<Option<Transaction<'static, Any>>, StoreError> {
    let mut tx = store.write.begin().await?;
    let found = sqlx::query(
        "UPDATE clubs SET updated = $2 WHERE id = $1 AND dissolved IS NULL RETURNING id",
    )
    .bind(id)
    .bind(now)
    .fetch_optional(&mut *tx)
    .await?;
    if found.is_none() {
        tx.rollback().await?;
        return Ok(None);
    }
    Ok(Some(tx))
}

/// The role of `account` in the club, read in the change's transaction.
async fn role_in(
    tx: &mut Transaction<'static, Any>,
    club: &str,
    account: &str,
) -> Result<Option<String>, StoreError> {
    let r = sqlx::query("SELECT role FROM club_members WHERE club_id = $1 AND account_id = $2")
        .bind(club)
        .bind(account)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(r.map(|r| r.try_get("role")).transpose()?)
}

async fn leaders_in(tx: &mut Transaction<'static, Any>, club: &str) -> Result<i64, StoreError> {
    let r = sqlx::query(
        "SELECT COUNT(*) AS n FROM club_members WHERE club_id = $1 AND role = 'leader'",
    )
    .bind(club)
    .fetch_one(&mut **tx)
    .await?;
    Ok(r.try_get("n")?)
}

async fn is_banned(
    tx: &mut Transaction<'static, Any>,
    club: &str,
    account: &str,
) -> Result<bool, StoreError> {
    Ok(
        sqlx::query("SELECT 1 AS one FROM club_bans WHERE club_id = $1 AND account_id = $2")
            .bind(club)
            .bind(account)
            .fetch_optional(&mut **tx)
            .await?
            .is_some(),
    )
}

/// The club's news (docs/api.md, "The player socket": `?club=ID`).
fn news(id: &str) -> Vec<Event> {
    vec![Event::Club { id: id.to_string() }]
}

/// Commits a change of club `id` with its news.
async fn done(
    store: &Store,
    tx: Transaction<'static, Any>,
    id: &str,
) -> Result<ClubChange, StoreError> {
    store.commit_events(tx, news(id)).await?;
    Ok(ClubChange::Done)
}

async fn refuse(tx: Transaction<'static, Any>, why: ClubChange) -> Result<ClubChange, StoreError> {
    tx.rollback().await?;
    Ok(why)
}

fn stored_of(r: &AnyRow) -> Result<Stored, sqlx::Error> {
    Ok(Stored {
        rating: r.try_get("rating")?,
        rd: r.try_get("rd")?,
        volatility: r.try_get("volatility")?,
        games: r.try_get("games")?,
        last_played: Some(r.try_get("last_played")?),
    })
}

/// `$first, $first+1, ...` for `n` values.
fn placeholders(first: usize, n: usize) -> String {
    (first..first + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `text` for a LIKE pattern with `\` as its escape character.
fn like_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A deleted account leaves its clubs, in the deletion's transaction: a club it was the
/// last leader of is led by its longest-standing admin, else member; a club left without
/// any member goes. Answers the news of the clubs whose pages showed the account.
pub(super) async fn forget_account(
    tx: &mut Transaction<'_, Any>,
    account: &str,
) -> Result<Vec<Event>, StoreError> {
    let shown = sqlx::query(
        "SELECT club_id FROM club_members WHERE account_id = $1
         UNION SELECT club_id FROM club_requests WHERE account_id = $1",
    )
    .bind(account)
    .fetch_all(&mut **tx)
    .await?
    .iter()
    .map(|r| r.try_get::<String, _>("club_id"))
    .collect::<Result<Vec<_>, _>>()?;
    let led = sqlx::query(
        "SELECT club_id FROM club_members WHERE account_id = $1 AND role = 'leader' ORDER BY club_id",
    )
    .bind(account)
    .fetch_all(&mut **tx)
    .await?;
    let rank = rank_sql("role");
    for r in led {
        let club: String = r.try_get("club_id")?;
        // The club's row first, as every change of a club (see the module's comment).
        sqlx::query("UPDATE clubs SET updated = updated WHERE id = $1")
            .bind(&club)
            .execute(&mut **tx)
            .await?;
        let others: i64 = sqlx::query(
            "SELECT COUNT(*) AS n FROM club_members
             WHERE club_id = $1 AND role = 'leader' AND account_id <> $2",
        )
        .bind(&club)
        .bind(account)
        .fetch_one(&mut **tx)
        .await?
        .try_get("n")?;
        if others > 0 {
            continue;
        }
        let next = sqlx::query(&format!(
            "SELECT account_id FROM club_members WHERE club_id = $1 AND account_id <> $2
             ORDER BY {rank}, joined, account_id LIMIT 1"
        ))
        .bind(&club)
        .bind(account)
        .fetch_optional(&mut **tx)
        .await?;
        match next {
            Some(n) => {
                let n: String = n.try_get("account_id")?;
                sqlx::query(
                    "UPDATE club_members SET role = 'leader' WHERE club_id = $1 AND account_id = $2",
                )
                .bind(&club)
                .bind(n)
                .execute(&mut **tx)
                .await?;
            }
            None => {
                for sql in [
                    "DELETE FROM club_requests WHERE club_id = $1",
                    "DELETE FROM club_bans WHERE club_id = $1",
                    "DELETE FROM club_announcements WHERE club_id = $1",
                    "DELETE FROM clubs WHERE id = $1",
                ] {
                    sqlx::query(sql).bind(&club).execute(&mut **tx).await?;
                }
            }
        }
    }
    for sql in [
        "DELETE FROM club_members WHERE account_id = $1",
        "DELETE FROM club_requests WHERE account_id = $1",
        "DELETE FROM club_bans WHERE account_id = $1",
    ] {
        sqlx::query(sql).bind(account).execute(&mut **tx).await?;
    }
    Ok(shown.iter().flat_map(|c| news(c)).collect())
}

impl Store {
    /// Makes a club with its maker as its leader. `Conflict` when its name (any case) or id
    /// is taken.
    pub async fn create_club(&self, c: &NewClub) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        let key = c.name.to_lowercase();
        let search = format!("{key} {}", c.place.to_lowercase());
        sqlx::query(
            "INSERT INTO clubs (id, name, name_key, search, description, place, open, created, updated)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)",
        )
        .bind(&c.id)
        .bind(&c.name)
        .bind(&key)
        .bind(&search)
        .bind(&c.description)
        .bind(&c.place)
        .bind(c.open as i64)
        .bind(c.now)
        .execute(&mut *tx)
        .await
        .map_err(|e| conflict_or(e, "a club of that name exists"))?;
        sqlx::query(
            "INSERT INTO club_members (club_id, account_id, role, joined) VALUES ($1, $2, 'leader', $3)",
        )
        .bind(&c.id)
        .bind(&c.leader)
        .bind(c.now)
        .execute(&mut *tx)
        .await?;
        self.commit_events(tx, news(&c.id)).await?;
        Ok(())
    }

    /// The clubs `account` is a member of (leaders, admins, members alike).
    pub async fn clubs_count_of(&self, account: &str) -> Result<i64, StoreError> {
        let r = sqlx::query("SELECT COUNT(*) AS n FROM club_members WHERE account_id = $1")
            .bind(account)
            .fetch_one(&self.read)
            .await?;
        Ok(r.try_get("n")?)
    }

    /// Club `id`.
    pub async fn club(&self, id: &str) -> Result<Option<ClubRow>, StoreError> {
        let r = sqlx::query(
            "SELECT c.id, c.name, c.description, c.place, c.open, c.created, c.dissolved,
                    (SELECT COUNT(*) FROM club_members m JOIN accounts a ON a.id = m.account_id
                     WHERE m.club_id = c.id) AS members
             FROM clubs c WHERE c.id = $1",
        )
        .bind(id)
        .fetch_optional(&self.read)
        .await?;
        let Some(r) = r else { return Ok(None) };
        Ok(Some(ClubRow {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            description: r.try_get("description")?,
            place: r.try_get("place")?,
            open: r.try_get::<i64, _>("open")? != 0,
            members: r.try_get("members")?,
            created: r.try_get("created")?,
            dissolved: r.try_get("dissolved")?,
        }))
    }

    /// The names of club `id`'s leaders, the longest-standing first.
    pub async fn club_leaders(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.username FROM club_members m JOIN accounts a ON a.id = m.account_id
             WHERE m.club_id = $1 AND m.role = 'leader' ORDER BY m.joined, m.account_id",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("username"))
            .collect::<Result<_, _>>()?)
    }

    /// One page of clubs whose name or place contains `q` (lower case; "" for all), by name,
    /// after the club named `after` (its lower-case name and id).
    pub async fn list_clubs(
        &self,
        q: &str,
        after: Option<&(String, String)>,
        limit: i64,
    ) -> Result<Vec<ClubListed>, StoreError> {
        let (k, id) = after.cloned().unwrap_or_default();
        let rows = sqlx::query(
            "SELECT c.id, c.name, c.name_key, c.place, c.open,
                    (SELECT COUNT(*) FROM club_members m JOIN accounts a ON a.id = m.account_id
                     WHERE m.club_id = c.id) AS members,
                    (SELECT a.username FROM club_members m JOIN accounts a ON a.id = m.account_id
                     WHERE m.club_id = c.id AND m.role = 'leader'
                     ORDER BY m.joined, m.account_id LIMIT 1) AS leader
             FROM clubs c
             WHERE c.dissolved IS NULL AND c.search LIKE $1 ESCAPE '\\'
               AND (c.name_key > $2 OR (c.name_key = $2 AND c.id > $3))
             ORDER BY c.name_key, c.id LIMIT $4",
        )
        .bind(format!("%{}%", like_escaped(q)))
        .bind(k)
        .bind(id)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ClubListed {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                    name_key: r.try_get("name_key")?,
                    place: r.try_get("place")?,
                    open: r.try_get::<i64, _>("open")? != 0,
                    members: r.try_get("members")?,
                    leader: r.try_get("leader")?,
                })
            })
            .collect()
    }

    /// What `account` is to club `id`: its role, a request waiting, a ban.
    pub async fn club_standing(&self, id: &str, account: &str) -> Result<Standing, StoreError> {
        let role = self.club_role(id, account).await?;
        let requested = sqlx::query(
            "SELECT 1 AS one FROM club_requests WHERE club_id = $1 AND account_id = $2",
        )
        .bind(id)
        .bind(account)
        .fetch_optional(&self.read)
        .await?
        .is_some();
        let banned =
            sqlx::query("SELECT 1 AS one FROM club_bans WHERE club_id = $1 AND account_id = $2")
                .bind(id)
                .bind(account)
                .fetch_optional(&self.read)
                .await?
                .is_some();
        Ok(Standing {
            role,
            requested,
            banned,
        })
    }

    /// The role of `account` in club `id` (`leader`, `admin`, `member`), `None` for a
    /// non-member: what a club-only tournament asks before it lets a player join.
    pub async fn club_role(&self, id: &str, account: &str) -> Result<Option<String>, StoreError> {
        let r = sqlx::query("SELECT role FROM club_members WHERE club_id = $1 AND account_id = $2")
            .bind(id)
            .bind(account)
            .fetch_optional(&self.read)
            .await?;
        Ok(r.map(|r| r.try_get("role")).transpose()?)
    }

    /// Whether club `id` exists (and was not dissolved).
    pub async fn club_exists(&self, id: &str) -> Result<bool, StoreError> {
        Ok(
            sqlx::query("SELECT 1 AS one FROM clubs WHERE id = $1 AND dissolved IS NULL")
                .bind(id)
                .fetch_optional(&self.read)
                .await?
                .is_some(),
        )
    }

    /// One page of club `id`'s members: leaders, then admins, then members, each by the time
    /// they joined; after `after`. Each with their stored ratings.
    pub async fn club_members(
        &self,
        id: &str,
        after: Option<&MemberKey>,
        limit: i64,
    ) -> Result<Vec<MemberRow>, StoreError> {
        let rank = rank_sql("m.role");
        let (r, j, a) = match after {
            Some(k) => (k.rank, k.joined, k.account_id.clone()),
            None => (-1, 0, String::new()),
        };
        let rows = sqlx::query(&format!(
            "SELECT m.account_id, a.username, m.role, m.joined
             FROM club_members m JOIN accounts a ON a.id = m.account_id
             WHERE m.club_id = $1
               AND ({rank} > $2 OR ({rank} = $2 AND (m.joined > $3
                    OR (m.joined = $3 AND m.account_id > $4))))
             ORDER BY {rank}, m.joined, m.account_id LIMIT $5"
        ))
        .bind(id)
        .bind(r)
        .bind(j)
        .bind(a)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        let mut out: Vec<MemberRow> = rows
            .iter()
            .map(|r| {
                Ok(MemberRow {
                    account_id: r.try_get("account_id")?,
                    username: r.try_get("username")?,
                    role: r.try_get("role")?,
                    joined: r.try_get("joined")?,
                    ratings: Vec::new(),
                })
            })
            .collect::<Result<_, sqlx::Error>>()?;
        if out.is_empty() {
            return Ok(out);
        }
        let sql = format!(
            "SELECT account_id, variant, rating, rd, volatility, games, last_played
             FROM ratings WHERE account_id IN ({}) ORDER BY variant",
            placeholders(1, out.len())
        );
        let mut q = sqlx::query(&sql);
        for m in &out {
            q = q.bind(m.account_id.clone());
        }
        for r in q.fetch_all(&self.read).await? {
            let acct: String = r.try_get("account_id")?;
            if let Some(m) = out.iter_mut().find(|m| m.account_id == acct) {
                m.ratings.push((r.try_get("variant")?, stored_of(&r)?));
            }
        }
        Ok(out)
    }

    /// The requests waiting in club `id`, the oldest first, at most `limit`: (name, asked).
    pub async fn club_requests(
        &self,
        id: &str,
        limit: i64,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.username, r.asked FROM club_requests r JOIN accounts a ON a.id = r.account_id
             WHERE r.club_id = $1 ORDER BY r.asked, r.account_id LIMIT $2",
        )
        .bind(id)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("username")?, r.try_get("asked")?)))
            .collect()
    }

    /// The last `limit` announcements of club `id`, the newest first.
    pub async fn club_announcements(
        &self,
        id: &str,
        limit: i64,
    ) -> Result<Vec<AnnouncementRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.username, n.text, n.at FROM club_announcements n
             LEFT JOIN accounts a ON a.id = n.author_id
             WHERE n.club_id = $1 ORDER BY n.at DESC, n.id DESC LIMIT $2",
        )
        .bind(id)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(AnnouncementRow {
                    by: r
                        .try_get::<Option<String>, _>("username")?
                        .unwrap_or_else(|| DELETED_NAME.to_string()),
                    text: r.try_get("text")?,
                    at: r.try_get("at")?,
                })
            })
            .collect()
    }

    /// The public tournaments of club `id`, the newest first, at most `limit`.
    pub async fn club_tournaments(
        &self,
        id: &str,
        limit: i64,
    ) -> Result<Vec<ClubTournament>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, name, variant, status, starts_at, players, max_players FROM tournaments
             WHERE club_id = $1 AND code IS NULL ORDER BY created DESC, id DESC LIMIT $2",
        )
        .bind(id)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ClubTournament {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                    variant: r.try_get("variant")?,
                    status: r.try_get("status")?,
                    starts_at: r.try_get("starts_at")?,
                    players: r.try_get("players")?,
                    max_players: r.try_get("max_players")?,
                })
            })
            .collect()
    }

    /// The clubs `account` belongs to, by name: (id, name, role).
    pub async fn clubs_of(
        &self,
        account: &str,
    ) -> Result<Vec<(String, String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT c.id, c.name, m.role FROM club_members m JOIN clubs c ON c.id = m.club_id
             WHERE m.account_id = $1 ORDER BY c.name_key, c.id",
        )
        .bind(account)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("name")?, r.try_get("role")?)))
            .collect()
    }

    /// `account` joins club `id`: a member at once if the club is open, else a request
    /// (asking twice changes nothing). Refused for a banned account, or one already in
    /// `max_clubs` clubs.
    pub async fn join_club(
        &self,
        id: &str,
        account: &str,
        max_clubs: i64,
        now: i64,
    ) -> Result<Joined, StoreError> {
        let Some(mut tx) = lock(self, id, now).await? else {
            return Ok(Joined::Refused(ClubChange::NoClub));
        };
        if is_banned(&mut tx, id, account).await? {
            tx.rollback().await?;
            return Ok(Joined::Refused(ClubChange::Banned));
        }
        if role_in(&mut tx, id, account).await?.is_some() {
            tx.rollback().await?;
            return Ok(Joined::Member);
        }
        let n: i64 = sqlx::query("SELECT COUNT(*) AS n FROM club_members WHERE account_id = $1")
            .bind(account)
            .fetch_one(&mut *tx)
            .await?
            .try_get("n")?;
        if n >= max_clubs {
            tx.rollback().await?;
            return Ok(Joined::Refused(ClubChange::TooMany));
        }
        let open: i64 = sqlx::query("SELECT open FROM clubs WHERE id = $1")
            .bind(id)
            .fetch_one(&mut *tx)
            .await?
            .try_get("open")?;
        if open != 0 {
            sqlx::query(
                "INSERT INTO club_members (club_id, account_id, role, joined) VALUES ($1, $2, 'member', $3)",
            )
            .bind(id)
            .bind(account)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            // A request left from when the club was closed is answered by the join.
            sqlx::query("DELETE FROM club_requests WHERE club_id = $1 AND account_id = $2")
                .bind(id)
                .bind(account)
                .execute(&mut *tx)
                .await?;
            self.commit_events(tx, news(id)).await?;
            return Ok(Joined::Member);
        }
        sqlx::query(
            "INSERT INTO club_requests (club_id, account_id, asked) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(account)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        self.commit_events(tx, news(id)).await?;
        Ok(Joined::Requested)
    }

    /// `actor` (a leader or admin of club `id`: `allowed` says which roles may) accepts or
    /// declines the request of `target`. `NotThere` when `target` has not asked.
    pub async fn answer_club_request(
        &self,
        id: &str,
        actor: &str,
        target: &str,
        accept: bool,
        allowed: &[&str],
        now: i64,
    ) -> Result<ClubChange, StoreError> {
        let Some(mut tx) = lock(self, id, now).await? else {
            return Ok(ClubChange::NoClub);
        };
        let role = role_in(&mut tx, id, actor).await?;
        if !role.as_deref().is_some_and(|r| allowed.contains(&r)) {
            return refuse(tx, ClubChange::NotAllowed(role)).await;
        }
        let gone = sqlx::query("DELETE FROM club_requests WHERE club_id = $1 AND account_id = $2")
            .bind(id)
            .bind(target)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if gone == 0 {
            return refuse(tx, ClubChange::NotThere).await;
        }
        if accept {
            sqlx::query(
                "INSERT INTO club_members (club_id, account_id, role, joined) VALUES ($1, $2, 'member', $3)
                 ON CONFLICT DO NOTHING",
            )
            .bind(id)
            .bind(target)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        done(self, tx, id).await
    }

    /// `account` leaves club `id`, unless it is its last leader (`LastLeader`).
    pub async fn leave_club(
        &self,
        id: &str,
        account: &str,
        now: i64,
    ) -> Result<ClubChange, StoreError> {
        let Some(mut tx) = lock(self, id, now).await? else {
            return Ok(ClubChange::NoClub);
        };
        let role = role_in(&mut tx, id, account).await?;
        match role.as_deref() {
            None => {
                // A waiting request is withdrawn by leaving.
                let n =
                    sqlx::query("DELETE FROM club_requests WHERE club_id = $1 AND account_id = $2")
                        .bind(id)
                        .bind(account)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                if n == 0 {
                    return refuse(tx, ClubChange::NotThere).await;
                }
                return done(self, tx, id).await;
            }
            Some("leader") if leaders_in(&mut tx, id).await? <= 1 => {
                return refuse(tx, ClubChange::LastLeader).await;
            }
            Some(_) => {}
        }
        sqlx::query("DELETE FROM club_members WHERE club_id = $1 AND account_id = $2")
            .bind(id)
            .bind(account)
            .execute(&mut *tx)
            .await?;
        done(self, tx, id).await
    }

    /// `actor` removes `target` from club `id` (and bans it with `ban`: it cannot join or
    /// ask again; a ban also reaches an account that is not a member). `may` decides, from
    /// the actor's role and the target's (`None`: not a member), whether the actor may.
    pub async fn remove_from_club(
        &self,
        id: &str,
        actor: &str,
        target: &str,
        ban: bool,
        may: impl FnOnce(Option<&str>, Option<&str>) -> bool,
        now: i64,
    ) -> Result<ClubChange, StoreError> {
        let Some(mut tx) = lock(self, id, now).await? else {
            return Ok(ClubChange::NoClub);
        };
        let mine = role_in(&mut tx, id, actor).await?;
        let theirs = role_in(&mut tx, id, target).await?;
        if !may(mine.as_deref(), theirs.as_deref()) {
            return refuse(tx, ClubChange::NotAllowed(mine)).await;
        }
        if theirs.is_none() && !ban {
            return refuse(tx, ClubChange::NotThere).await;
        }
        sqlx::query("DELETE FROM club_members WHERE club_id = $1 AND account_id = $2")
            .bind(id)
            .bind(target)
            .execute(&mut *tx)
            .await?;
        if ban {
            sqlx::query("DELETE FROM club_requests WHERE club_id = $1 AND account_id = $2")
                .bind(id)
                .bind(target)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO club_bans (club_id, account_id, banned) VALUES ($1, $2, $3)
                 ON CONFLICT DO NOTHING",
            )
            .bind(id)
            .bind(target)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        done(self, tx, id).await
    }

    /// `actor` (a leader: `NotAllowed` otherwise) lifts the ban of `target` from club `id`: it
    /// may ask or join again. `NotThere` when it was not banned.
    pub async fn unban_from_club(
        &self,
        id: &str,
        actor: &str,
        target: &str,
        now: i64,
    ) -> Result<ClubChange, StoreError> {
        let Some(mut tx) = lock(self, id, now).await? else {
            return Ok(ClubChange::NoClub);
        };
        let mine = role_in(&mut tx, id, actor).await?;
        if mine.as_deref() != Some("leader") {
            return refuse(tx, ClubChange::NotAllowed(mine)).await;
        }
        let n = sqlx::query("DELETE FROM club_bans WHERE club_id = $1 AND account_id = $2")
            .bind(id)
            .bind(target)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if n == 0 {
            return refuse(tx, ClubChange::NotThere).await;
        }
        done(self, tx, id).await
    }

    /// `actor` (a leader: `NotAllowed` otherwise) gives `target` (a member: `NotThere`
    /// otherwise) the role `role`, unless that leaves the club without a leader.
    pub async fn set_club_role(
        &self,
        id: &str,
        actor: &str,
        target: &str,
        role: &str,
        now: i64,
    ) -> Result<ClubChange, StoreError> {
        let Some(mut tx) = lock(self, id, now).await? else {
            return Ok(ClubChange::NoClub);
        };
        let mine = role_in(&mut tx, id, actor).await?;
        if mine.as_deref() != Some("leader") {
            return refuse(tx, ClubChange::NotAllowed(mine)).await;
        }
        let Some(theirs) = role_in(&mut tx, id, target).await? else {
            return refuse(tx, ClubChange::NotThere).await;
        };
        if theirs == "leader" && role != "leader" && leaders_in(&mut tx, id).await? <= 1 {
            return refuse(tx, ClubChange::LastLeader).await;
        }
        sqlx::query("UPDATE club_members SET role = $3 WHERE club_id = $1 AND account_id = $2")
            .bind(id)
            .bind(target)
            .bind(role)
            .execute(&mut *tx)
            .await?;
        done(self, tx, id).await
    }

    /// `actor` (one of the `allowed` roles) announces `text` in club `id`, unless the club
    /// made `per_day` announcements in the day before `now` (`TooMany`). Done: the members
    /// (but the author) who allow Web Push on some browser, to be told.
    pub async fn announce_in_club(
        &self,
        id: &str,
        actor: &str,
        text: &str,
        allowed: &[&str],
        per_day: i64,
        now: i64,
    ) -> Result<Result<Vec<String>, ClubChange>, StoreError> {
        let Some(mut tx) = lock(self, id, now).await? else {
            return Ok(Err(ClubChange::NoClub));
        };
        let role = role_in(&mut tx, id, actor).await?;
        if !role.as_deref().is_some_and(|r| allowed.contains(&r)) {
            tx.rollback().await?;
            return Ok(Err(ClubChange::NotAllowed(role)));
        }
        let day = 24 * 3600 * 1000;
        let n: i64 = sqlx::query(
            "SELECT COUNT(*) AS n FROM club_announcements WHERE club_id = $1 AND at > $2",
        )
        .bind(id)
        .bind(now - day)
        .fetch_one(&mut *tx)
        .await?
        .try_get("n")?;
        if n >= per_day {
            tx.rollback().await?;
            return Ok(Err(ClubChange::TooMany));
        }
        sqlx::query(
            "INSERT INTO club_announcements (id, club_id, author_id, text, at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(crate::util::random_code(12))
        .bind(id)
        .bind(actor)
        .bind(text)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let to = sqlx::query(
            "SELECT DISTINCT m.account_id FROM club_members m
             JOIN push_subscriptions p ON p.account_id = m.account_id
             WHERE m.club_id = $1 AND m.account_id <> $2 ORDER BY m.account_id",
        )
        .bind(id)
        .bind(actor)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| r.try_get("account_id"))
        .collect::<Result<Vec<String>, _>>()?;
        self.commit_events(tx, news(id)).await?;
        Ok(Ok(to))
    }

    /// `actor` (a leader: `NotAllowed` otherwise) dissolves club `id`, unless something of
    /// it is under way (`Busy`). In one transaction: what had not started is called off
    /// (matches proposed declined, club tournaments not started cancelled, club arenas not
    /// started removed and their series stopped), the members, requests, bans and
    /// announcements go, the name is freed, and the row is marked dissolved: the pages of
    /// its past matches and tournaments keep its name.
    pub async fn dissolve_club(
        &self,
        id: &str,
        actor: &str,
        now: i64,
    ) -> Result<Result<Dissolved, ClubChange>, StoreError> {
        let Some(mut tx) = lock(self, id, now).await? else {
            return Ok(Err(ClubChange::NoClub));
        };
        let role = role_in(&mut tx, id, actor).await?;
        if role.as_deref() != Some("leader") {
            tx.rollback().await?;
            return Ok(Err(ClubChange::NotAllowed(role)));
        }
        let mut events = news(id);
        let ids = |rows: Vec<AnyRow>| -> Result<Vec<String>, sqlx::Error> {
            rows.iter().map(|r| r.try_get::<String, _>("id")).collect()
        };
        let declined = ids(sqlx::query(
            "UPDATE team_matches SET status = 'declined', updated = $2
             WHERE (home = $1 OR away = $1) AND status = 'proposed' RETURNING id",
        )
        .bind(id)
        .bind(now)
        .fetch_all(&mut *tx)
        .await?)?;
        events.extend(declined.iter().map(|m| Event::TeamMatch { id: m.clone() }));
        let cancelled = ids(sqlx::query(
            "UPDATE tournaments SET status = 'cancelled'
             WHERE club_id = $1 AND status = 'open' RETURNING id",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?)?;
        events.extend(
            cancelled
                .iter()
                .map(|t| Event::Tournament { id: t.clone() }),
        );
        // Its entries in team tournaments that have not started are taken back.
        let left = ids(sqlx::query(
            "DELETE FROM tournament_players WHERE account_id = $1 AND tournament_id IN
               (SELECT id FROM tournaments WHERE team_boards IS NOT NULL AND status = 'open')
             RETURNING tournament_id AS id",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?)?;
        events.extend(left.iter().map(|t| Event::Tournament { id: t.clone() }));
        sqlx::query(
            "UPDATE arena_series SET stopped = 1
             WHERE stopped = 0 AND id IN (SELECT series_id FROM arenas WHERE club_id = $1)",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        let removed = ids(sqlx::query(
            "SELECT id FROM arenas WHERE club_id = $1 AND status = 'upcoming' ORDER BY id",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?)?;
        for a in &removed {
            // Not started: no games yet, only the players who joined ahead.
            for sql in [
                "DELETE FROM arena_players WHERE arena_id = $1",
                "DELETE FROM arenas WHERE id = $1",
            ] {
                sqlx::query(sql).bind(a).execute(&mut *tx).await?;
            }
            events.push(Event::Arena { id: a.clone() });
        }
        // Checked after what is called off, so that a start or an accept racing this change either
        // committed first (and is seen here) or waits for it and finds nothing to start.
        let busy = [
            (
                Busy::TeamMatch,
                "SELECT 1 AS one FROM team_matches
                 WHERE (home = $1 OR away = $1) AND status IN ('accepted', 'running')",
            ),
            (
                Busy::Tournament,
                "SELECT 1 AS one FROM tournaments
                 WHERE club_id = $1 AND status IN ('running', 'paused')",
            ),
            (
                Busy::Tournament,
                "SELECT 1 AS one FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id
                 WHERE p.account_id = $1 AND p.withdrawn = 0 AND t.team_boards IS NOT NULL
                   AND t.status IN ('running', 'paused')",
            ),
            (
                Busy::Arena,
                "SELECT 1 AS one FROM arenas WHERE club_id = $1 AND status = 'running'",
            ),
            (
                Busy::Battle,
                "SELECT 1 AS one FROM arena_battle_clubs b JOIN arenas a ON a.id = b.arena_id
                 WHERE b.club_id = $1 AND a.status <> 'finished'",
            ),
        ];
        for (what, sql) in busy {
            let found = sqlx::query(&format!("{sql} LIMIT 1"))
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
            if found.is_some() {
                tx.rollback().await?;
                return Ok(Err(ClubChange::Busy(what)));
            }
        }
        for sql in [
            "DELETE FROM club_members WHERE club_id = $1",
            "DELETE FROM club_requests WHERE club_id = $1",
            "DELETE FROM club_bans WHERE club_id = $1",
            "DELETE FROM club_announcements WHERE club_id = $1",
        ] {
            sqlx::query(sql).bind(id).execute(&mut *tx).await?;
        }
        // The name is free again: its key becomes one no name can have (ids are [a-z0-9]).
        sqlx::query("UPDATE clubs SET dissolved = $2, name_key = $3, search = '' WHERE id = $1")
            .bind(id)
            .bind(now)
            .bind(format!("#{id}"))
            .execute(&mut *tx)
            .await?;
        self.commit_events(tx, events).await?;
        Ok(Ok(Dissolved {
            matches_declined: declined.len() as u64,
            tournaments_cancelled: cancelled.len() as u64,
            arenas_removed: removed.len() as u64,
        }))
    }
}
