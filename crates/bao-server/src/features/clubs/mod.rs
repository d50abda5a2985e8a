//! Clubs (chama; docs/api.md, "Clubs"): a club's page, its members and their roles
//! (leader, admin, member), joining an open club at once or a closed one by a request that a
//! leader or admin answers, leaving, removing (with a ban), roles, announcements (on the
//! club's page, and a Web Push to the members who allow it), and the clubs a player belongs to.
//!
//! Who may do what is decided here ([`may_remove`], leaders and admins for requests and
//! announcements, leaders alone for roles);
//! each change is one transaction of the store that reads the roles it depends on under the
//! club's row lock (store `clubs.rs`), so that a club always keeps a leader and the daily
//! announcements stay counted across instances. Club-only tournaments are the tournaments
//! feature's: it asks the store whether a player is a member.

use crate::edge::account::{Account, MaybeAccount};
use crate::edge::body::{json, Json, JsonOrEmpty};
use crate::edge::limit::{limit, limit_by, Action, Limiter};
use crate::error::{ApiError, ApiResult, Category};
use crate::game::{Alert, AlertKind, Games, Recipient};
use crate::store::{Busy, ClubChange, ClubListed, Joined, MemberKey, Store, StoreError, ROLES};
use crate::util;
use axum::extract::{FromRef, Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use serde_json::{json as j, Map, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// Longest club name, in characters.
pub const MAX_NAME: usize = 60;
/// Longest place, in characters.
pub const MAX_PLACE: usize = 60;
/// Longest description, in characters.
pub const MAX_DESCRIPTION: usize = 2000;
/// Longest announcement, in characters.
pub const MAX_ANNOUNCEMENT: usize = 1000;
/// Announcements one club makes in 24 hours at most: a few a day, so that members keep
/// their notifications on.
pub const ANNOUNCEMENTS_PER_DAY: i64 = 3;
/// Clubs one account belongs to at most.
pub const MAX_CLUBS: i64 = 50;
/// Club changes (answers, removals, roles, leaving, announcing) per minute from one address.
pub const CHANGES_PER_MINUTE: u32 = 60;
/// Clubs in one page of the list: default and most.
const LIST_DEFAULT: i64 = 30;
const LIST_MAX: i64 = 100;
/// Members in one page: default and most.
const MEMBERS_DEFAULT: i64 = 50;
const MEMBERS_MAX: i64 = 200;
/// Waiting requests shown to leaders and admins (the oldest first).
const REQUESTS_SHOWN: i64 = 100;
/// Announcements on the club's page (the newest).
const ANNOUNCEMENTS_SHOWN: i64 = 10;
/// The club's tournaments on its page (the newest).
const TOURNAMENTS_SHOWN: i64 = 20;

/// The feature's state.
pub struct Clubs {
    games: Arc<Games>,
    changes: Arc<Limiter>,
}

impl Clubs {
    /// The feature on `games` (its store, clock and alerts).
    pub fn new(games: Arc<Games>) -> Arc<Clubs> {
        Arc::new(Clubs {
            games,
            changes: Arc::new(Limiter::new(
                CHANGES_PER_MINUTE,
                "club changes",
                "from your address",
            )),
        })
    }

    fn store(&self) -> &Store {
        &self.games.store
    }

    fn now(&self) -> i64 {
        self.games.clock.now_ms()
    }
}

impl FromRef<Arc<Clubs>> for Store {
    fn from_ref(c: &Arc<Clubs>) -> Store {
        c.games.store.clone()
    }
}

/// The routes (docs/api.md, "Clubs"). Making a club counts as making a game, joining one
/// as joining a game; the other changes against the feature's own limit.
pub fn routes(clubs: Arc<Clubs>) -> Router {
    let limiter = clubs.changes.clone();
    let changes = || limit_by(limiter.clone());
    Router::new()
        .route(
            "/api/clubs",
            post(create).layer(limit(Action::Create)).get(list),
        )
        .route("/api/clubs/{id}", get(detail))
        .route("/api/clubs/{id}/members", get(members))
        .route("/api/clubs/{id}/requests", get(requests))
        .route(
            "/api/clubs/{id}/join",
            post(join).layer(limit(Action::Join)),
        )
        .route(
            "/api/clubs/{id}/requests/{username}/accept",
            post(accept).layer(changes()),
        )
        .route(
            "/api/clubs/{id}/requests/{username}/decline",
            post(decline).layer(changes()),
        )
        .route("/api/clubs/{id}/leave", post(leave).layer(changes()))
        .route("/api/clubs/{id}/remove", post(remove).layer(changes()))
        .route("/api/clubs/{id}/unban", post(unban).layer(changes()))
        .route("/api/clubs/{id}/role", post(role).layer(changes()))
        .route("/api/clubs/{id}/announce", post(announce).layer(changes()))
        .route("/api/clubs/{id}/dissolve", post(dissolve).layer(changes()))
        .with_state(clubs)
}

fn no_such_club() -> ApiError {
    ApiError::of(Category::NoSuchClub, "there is no such club")
}

/// Ids are 10 characters of `[a-z0-9]`: anything else names nothing and is not looked up.
fn check_id(id: &str) -> ApiResult<()> {
    let ok = id.len() == 10
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    ok.then_some(()).ok_or_else(no_such_club)
}

pub use crate::domain::names::clean_text;

/// `text` cleaned, refused with 400 naming `field` when longer than `max` characters (or
/// empty when `required`).
fn bounded(text: &str, field: &str, max: usize, lines: bool, required: bool) -> ApiResult<String> {
    let t = clean_text(text, lines);
    let n = t.chars().count();
    if n > max || (required && n == 0) {
        let least = if required { 1 } else { 0 };
        return Err(ApiError::bad_request(format!(
            "{field} is {least} to {max} characters"
        )));
    }
    Ok(t)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateReq {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    place: Option<String>,
    open: bool,
}

fn too_many_clubs() -> ApiError {
    ApiError::of(
        Category::TooManyClubs,
        format!("a player belongs to at most {MAX_CLUBS} clubs: leave one first"),
    )
}

/// `POST /api/clubs` `{"name", "description", "place"?, "open"}` -> 201 `{"id", "url"}`.
async fn create(
    State(c): State<Arc<Clubs>>,
    me: Account,
    Json(req): Json<CreateReq>,
) -> ApiResult<Response> {
    let name = bounded(&req.name, "a club's name", MAX_NAME, false, true)?;
    let description = bounded(
        &req.description,
        "a club's description",
        MAX_DESCRIPTION,
        true,
        false,
    )?;
    let place = bounded(
        req.place.as_deref().unwrap_or(""),
        "a club's place",
        MAX_PLACE,
        false,
        false,
    )?;
    if c.store().clubs_count_of(&me.id.0).await? >= MAX_CLUBS {
        return Err(too_many_clubs());
    }
    let club = crate::store::NewClub {
        id: util::random_code(10),
        name,
        description,
        place,
        open: req.open,
        leader: me.id.0.clone(),
        now: c.now(),
    };
    match c.store().create_club(&club).await {
        Ok(()) => {}
        Err(StoreError::Conflict(_)) => {
            return Err(ApiError::of(
                Category::Conflict,
                "a club of that name exists already: choose another name",
            ))
        }
        Err(e) => return Err(e.into()),
    }
    json(
        StatusCode::CREATED,
        &j!({"id": club.id, "url": format!("/club/{}", club.id)}),
    )
}

/// A page's size from `limit` (`default` without one).
fn page_size(q: &HashMap<String, String>, default: i64, max: i64) -> ApiResult<i64> {
    match q.get("limit") {
        None => Ok(default),
        Some(s) => match s.parse::<i64>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(ApiError::bad_request(format!("limit is 1 to {max}"))),
        },
    }
}

fn bad_cursor() -> ApiError {
    ApiError::bad_request("cursor is not one this server gave (use the list's \"next\")")
}

/// A cursor: the parts of a page's last row, hex of their text joined by newlines.
fn cursor_of(parts: &[&str]) -> String {
    hex::encode(parts.join("\n"))
}

/// The parts of a cursor made by [`cursor_of`], if there are `n`.
fn cursor_parts(cursor: &str, n: usize) -> ApiResult<Vec<String>> {
    if cursor.len() > 600 {
        return Err(bad_cursor());
    }
    let text = hex::decode(cursor)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .ok_or_else(bad_cursor)?;
    let parts: Vec<String> = text.split('\n').map(str::to_string).collect();
    if parts.len() != n {
        return Err(bad_cursor());
    }
    Ok(parts)
}

/// `GET /api/clubs?q=&cursor=&limit=` -> `{"clubs": [...], "next"}`: by name.
async fn list(
    State(c): State<Arc<Clubs>>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let limit = page_size(&q, LIST_DEFAULT, LIST_MAX)?;
    let search = clean_text(q.get("q").map_or("", String::as_str), false).to_lowercase();
    if search.chars().count() > MAX_NAME {
        return Err(ApiError::bad_request(format!(
            "q is at most {MAX_NAME} characters"
        )));
    }
    let after = match q.get("cursor").filter(|s| !s.is_empty()) {
        None => None,
        Some(s) => {
            let p = cursor_parts(s, 2)?;
            Some((p[0].clone(), p[1].clone()))
        }
    };
    let rows = c
        .store()
        .list_clubs(&search, after.as_ref(), limit + 1)
        .await?;
    let more = rows.len() as i64 > limit;
    let page: Vec<&ClubListed> = rows.iter().take(limit as usize).collect();
    let next = more
        .then(|| page.last())
        .flatten()
        .map(|r| cursor_of(&[r.name_key.as_str(), r.id.as_str()]));
    let clubs: Vec<Value> = page
        .iter()
        .map(|r| {
            j!({"id": r.id, "name": r.name, "place": r.place, "open": r.open,
                "members": r.members, "leader": r.leader})
        })
        .collect();
    json(StatusCode::OK, &j!({"clubs": clubs, "next": next}))
}

/// `GET /api/clubs/{id}`.
async fn detail(
    State(c): State<Arc<Clubs>>,
    Path(id): Path<String>,
    viewer: MaybeAccount,
) -> ApiResult<Response> {
    check_id(&id)?;
    let store = c.store();
    let club = store.club(&id).await?.ok_or_else(no_such_club)?;
    let leaders = store.club_leaders(&id).await?;
    let standing = match viewer.id() {
        Some(a) => store.club_standing(&id, a).await?,
        None => Default::default(),
    };
    // Announcements are for the members.
    let announcements: Vec<Value> = if standing.role.is_some() {
        store
            .club_announcements(&id, ANNOUNCEMENTS_SHOWN)
            .await?
            .into_iter()
            .map(|a| j!({"text": a.text, "by": a.by, "at": a.at}))
            .collect()
    } else {
        Vec::new()
    };
    let tournaments: Vec<Value> = store
        .club_tournaments(&id, TOURNAMENTS_SHOWN)
        .await?
        .into_iter()
        .map(|t| {
            j!({"id": t.id, "name": t.name, "variant": t.variant, "status": t.status,
                "starts_at": t.starts_at, "players": t.players, "max_players": t.max_players,
                "url": format!("/t/{}", t.id)})
        })
        .collect();
    json(
        StatusCode::OK,
        &j!({
            "id": club.id, "name": club.name, "description": club.description,
            "place": club.place, "open": club.open, "members": club.members,
            "created": club.created, "dissolved": club.dissolved, "leaders": leaders,
            "you": {"member": standing.role.is_some(), "role": standing.role,
                    "requested": standing.requested, "banned": standing.banned},
            "announcements": announcements, "tournaments": tournaments,
        }),
    )
}

/// `GET /api/clubs/{id}/members?cursor=&limit=` -> `{"members": [...], "next"}`: leaders,
/// admins, then members, each in the order they joined.
async fn members(
    State(c): State<Arc<Clubs>>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    check_id(&id)?;
    let limit = page_size(&q, MEMBERS_DEFAULT, MEMBERS_MAX)?;
    let after = match q.get("cursor").filter(|s| !s.is_empty()) {
        None => None,
        Some(s) => {
            let p = cursor_parts(s, 3)?;
            Some(MemberKey {
                rank: p[0].parse().map_err(|_| bad_cursor())?,
                joined: p[1].parse().map_err(|_| bad_cursor())?,
                account_id: p[2].clone(),
            })
        }
    };
    let store = c.store();
    // A dissolved club is still found: it has no members.
    if store.club(&id).await?.is_none() {
        return Err(no_such_club());
    }
    let rows = store.club_members(&id, after.as_ref(), limit + 1).await?;
    let more = rows.len() as i64 > limit;
    let page = &rows[..rows.len().min(limit as usize)];
    let next = more.then(|| page.last()).flatten().map(|m| {
        let rank = ROLES.iter().position(|r| *r == m.role).unwrap_or(2);
        cursor_of(&[
            rank.to_string().as_str(),
            m.joined.to_string().as_str(),
            m.account_id.as_str(),
        ])
    });
    let now = c.now();
    let list: Vec<Value> = page
        .iter()
        .map(|m| {
            let mut ratings = Map::new();
            for (variant, stored) in &m.ratings {
                let s = stored.shown(now);
                ratings.insert(
                    variant.clone(),
                    j!({"rating": s.rating, "provisional": s.provisional}),
                );
            }
            j!({"username": m.username, "role": m.role, "ratings": ratings})
        })
        .collect();
    json(StatusCode::OK, &j!({"members": list, "next": next}))
}

/// Leaders and admins answer requests and see them.
const ANSWER: &[&str] = &["leader", "admin"];

fn not_leader(what: &str) -> ApiError {
    ApiError::of(
        Category::NotClubLeader,
        format!("only the club's {what} can do this"),
    )
}

/// `GET /api/clubs/{id}/requests` (leaders and admins) -> `{"requests": [{"username",
/// "asked"}]}`, the oldest first.
async fn requests(
    State(c): State<Arc<Clubs>>,
    Path(id): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    check_id(&id)?;
    let store = c.store();
    if !store.club_exists(&id).await? {
        return Err(no_such_club());
    }
    let role = store.club_role(&id, &me.id.0).await?;
    if !role.as_deref().is_some_and(|r| ANSWER.contains(&r)) {
        return Err(not_leader("leaders and admins"));
    }
    let list: Vec<Value> = store
        .club_requests(&id, REQUESTS_SHOWN)
        .await?
        .into_iter()
        .map(|(u, at)| j!({"username": u, "asked": at}))
        .collect();
    json(StatusCode::OK, &j!({"requests": list}))
}

/// The refusal for what a change found (`Done` is not one).
fn refusal(change: ClubChange, leaders: &str) -> ApiError {
    match change {
        ClubChange::NoClub => no_such_club(),
        ClubChange::NotAllowed(_) => not_leader(leaders),
        ClubChange::NotThere => ApiError::of(
            Category::NotClubMember,
            "that player is not a member of this club",
        ),
        ClubChange::LastLeader => ApiError::of(
            Category::LastLeader,
            "a club always keeps a leader: make another member a leader first",
        ),
        ClubChange::Banned => ApiError::of(
            Category::BannedFromClub,
            "you were removed from this club and cannot join it again",
        ),
        ClubChange::TooMany => too_many_clubs(),
        ClubChange::Busy(what) => ApiError::of(
            Category::ClubBusy,
            match what {
            Busy::TeamMatch => {
                "a team match of the club was accepted or is being played: dissolve the club after it"
            }
            Busy::Tournament => {
                "a tournament of the club, or one it plays in, is being played: dissolve the club after it"
            }
            Busy::Arena => "an arena of the club is being played: dissolve the club after it",
            Busy::Battle => {
                "the club is in a team battle that is coming or being played: dissolve the club after it"
            }
        },
        ),
        ClubChange::Done => ApiError::internal("a change that was done is no refusal"),
    }
}

/// `POST /api/clubs/{id}/join` -> 200 `{"member": true}` (an open club) or 202
/// `{"requested": true}` (a closed one).
async fn join(
    State(c): State<Arc<Clubs>>,
    Path(id): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    check_id(&id)?;
    match c
        .store()
        .join_club(&id, &me.id.0, MAX_CLUBS, c.now())
        .await?
    {
        Joined::Member => json(StatusCode::OK, &j!({"member": true})),
        Joined::Requested => json(StatusCode::ACCEPTED, &j!({"requested": true})),
        Joined::Refused(why) => Err(refusal(why, "leaders")),
    }
}

/// The account id of the player named `name` (any case), or 404 `no_such_user`.
async fn account_named(store: &Store, name: &str) -> ApiResult<String> {
    let name = name.trim();
    let unknown = || {
        ApiError::of(
            Category::NoSuchUser,
            format!(
                "there is no player named '{}'",
                name.chars().take(40).collect::<String>()
            ),
        )
    };
    let shape = (3..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !shape {
        return Err(unknown());
    }
    Ok(store
        .account_by_name(&name.to_ascii_lowercase())
        .await?
        .ok_or_else(unknown)?
        .id
        .0)
}

async fn answer(c: &Clubs, id: &str, username: &str, me: &Account, accept: bool) -> ApiResult<()> {
    check_id(id)?;
    let target = account_named(c.store(), username).await?;
    match c
        .store()
        .answer_club_request(id, &me.id.0, &target, accept, ANSWER, c.now())
        .await?
    {
        ClubChange::Done => Ok(()),
        ClubChange::NotThere => Err(ApiError::of(
            Category::NotClubMember,
            "that player has not asked to join this club",
        )),
        other => Err(refusal(other, "leaders and admins")),
    }
}

/// `POST /api/clubs/{id}/requests/{username}/accept` (leaders and admins).
async fn accept(
    State(c): State<Arc<Clubs>>,
    Path((id, username)): Path<(String, String)>,
    me: Account,
) -> ApiResult<Response> {
    answer(&c, &id, &username, &me, true).await?;
    json(StatusCode::OK, &j!({"member": true}))
}

/// `POST /api/clubs/{id}/requests/{username}/decline` (leaders and admins).
async fn decline(
    State(c): State<Arc<Clubs>>,
    Path((id, username)): Path<(String, String)>,
    me: Account,
) -> ApiResult<Response> {
    answer(&c, &id, &username, &me, false).await?;
    json(StatusCode::OK, &j!({"declined": true}))
}

/// `POST /api/clubs/{id}/leave`: a member leaves (not the last leader); a player who asked
/// to join takes the request back.
async fn leave(
    State(c): State<Arc<Clubs>>,
    Path(id): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    check_id(&id)?;
    match c.store().leave_club(&id, &me.id.0, c.now()).await? {
        ClubChange::Done => json(StatusCode::OK, &j!({"member": false})),
        ClubChange::NotThere => Err(ApiError::of(
            Category::NotClubMember,
            "you are not a member of this club",
        )),
        other => Err(refusal(other, "leaders")),
    }
}

/// Whether an actor of role `mine` may remove a player of role `theirs` (`None`: not a
/// member, only to ban them): leaders anyone, admins members and non-members.
pub fn may_remove(mine: Option<&str>, theirs: Option<&str>) -> bool {
    match mine {
        Some("leader") => true,
        Some("admin") => matches!(theirs, None | Some("member")),
        _ => false,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RemoveReq {
    username: String,
    #[serde(default)]
    ban: bool,
}

/// `POST /api/clubs/{id}/remove` `{"username", "ban"}` -> `{"removed": true, "banned"}`.
async fn remove(
    State(c): State<Arc<Clubs>>,
    Path(id): Path<String>,
    me: Account,
    Json(req): Json<RemoveReq>,
) -> ApiResult<Response> {
    check_id(&id)?;
    let target = account_named(c.store(), &req.username).await?;
    if target == me.id.0 {
        return Err(ApiError::bad_request(
            "to leave the club yourself, use leave",
        ));
    }
    let change = c
        .store()
        .remove_from_club(&id, &me.id.0, &target, req.ban, may_remove, c.now())
        .await?;
    match change {
        ClubChange::Done => json(StatusCode::OK, &j!({"removed": true, "banned": req.ban})),
        ClubChange::NotAllowed(Some(r)) if r == "admin" => Err(not_leader("leaders")),
        other => Err(refusal(other, "leaders and admins")),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnbanReq {
    username: String,
}

/// `POST /api/clubs/{id}/unban` `{"username"}` (leaders) -> `{"banned": false}`: the player
/// may ask or join again.
async fn unban(
    State(c): State<Arc<Clubs>>,
    Path(id): Path<String>,
    me: Account,
    Json(req): Json<UnbanReq>,
) -> ApiResult<Response> {
    check_id(&id)?;
    let target = account_named(c.store(), &req.username).await?;
    match c
        .store()
        .unban_from_club(&id, &me.id.0, &target, c.now())
        .await?
    {
        ClubChange::Done => json(StatusCode::OK, &j!({"banned": false})),
        ClubChange::NotThere => Err(ApiError::conflict(
            "that player is not banned from this club",
        )),
        other => Err(refusal(other, "leaders")),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RoleReq {
    username: String,
    role: String,
}

/// `POST /api/clubs/{id}/role` `{"username", "role"}` (leaders) -> `{"role"}`.
async fn role(
    State(c): State<Arc<Clubs>>,
    Path(id): Path<String>,
    me: Account,
    Json(req): Json<RoleReq>,
) -> ApiResult<Response> {
    check_id(&id)?;
    if !ROLES.contains(&req.role.as_str()) {
        return Err(ApiError::bad_request("role is leader, admin or member"));
    }
    let target = account_named(c.store(), &req.username).await?;
    match c
        .store()
        .set_club_role(&id, &me.id.0, &target, &req.role, c.now())
        .await?
    {
        ClubChange::Done => json(StatusCode::OK, &j!({"role": req.role})),
        other => Err(refusal(other, "leaders")),
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct AnnounceReq {
    #[serde(default)]
    text: String,
}

/// `POST /api/clubs/{id}/announce` `{"text"}` (leaders and admins; a few a day) -> 201
/// `{"at"}`: on the club's page, and a Web Push to the members who allow it.
async fn announce(
    State(c): State<Arc<Clubs>>,
    Path(id): Path<String>,
    me: Account,
    JsonOrEmpty(req): JsonOrEmpty<AnnounceReq>,
) -> ApiResult<Response> {
    check_id(&id)?;
    let text = bounded(&req.text, "an announcement", MAX_ANNOUNCEMENT, true, true)?;
    let now = c.now();
    let to = match c
        .store()
        .announce_in_club(
            &id,
            &me.id.0,
            &text,
            ANSWER,
            ANNOUNCEMENTS_PER_DAY,
            now,
        )
        .await?
    {
        Ok(to) => to,
        Err(ClubChange::TooMany) => {
            return Err(ApiError::of(
                Category::RateLimited,
                format!(
                    "a club makes at most {ANNOUNCEMENTS_PER_DAY} announcements in a day; try again tomorrow"
                ),
            ))
        }
        Err(other) => return Err(refusal(other, "leaders and admins")),
    };
    if !to.is_empty() {
        let name = c
            .store()
            .club(&id)
            .await?
            .map(|r| r.name)
            .unwrap_or_default();
        c.games.alerts.publish(Alert {
            to: Recipient::Accounts(to),
            kind: AlertKind::ClubAnnouncement {
                club: id.clone(),
                name,
                text,
            },
        });
    }
    json(StatusCode::CREATED, &j!({"at": now}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_cleaned() {
        assert_eq!(
            clean_text("  Chama \u{200b}cha\t\tBao \n Unguja ", false),
            "Chama cha Bao Unguja"
        );
        assert_eq!(clean_text("a\u{0}b", false), "ab");
        assert_eq!(
            clean_text("Karibu!\n\n\n\nJumamosi  saa 4\n\n", true),
            "Karibu!\n\nJumamosi saa 4"
        );
        assert_eq!(clean_text("\n\n x \n", true), "x");
    }

    #[test]
    fn who_may_remove_whom() {
        assert!(may_remove(Some("leader"), Some("leader")));
        assert!(may_remove(Some("leader"), None));
        assert!(may_remove(Some("admin"), Some("member")));
        assert!(may_remove(Some("admin"), None));
        assert!(!may_remove(Some("admin"), Some("admin")));
        assert!(!may_remove(Some("admin"), Some("leader")));
        assert!(!may_remove(Some("member"), Some("member")));
        assert!(!may_remove(None, Some("member")));
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DissolveReq {
    /// The club's name typed again: dissolving cannot be undone.
    name: String,
}

/// `POST /api/clubs/{id}/dissolve {"name"}` (a leader, the club's name typed again) ->
/// `{"dissolved": true, "matches_declined", "tournaments_cancelled", "arenas_removed"}`.
async fn dissolve(
    State(c): State<Arc<Clubs>>,
    Path(id): Path<String>,
    me: Account,
    Json(req): Json<DissolveReq>,
) -> ApiResult<Response> {
    check_id(&id)?;
    let club = c.store().club(&id).await?.ok_or_else(no_such_club)?;
    if club.dissolved.is_some() {
        return Err(no_such_club());
    }
    if req.name.trim().to_lowercase() != club.name.to_lowercase() {
        return Err(ApiError::bad_request(
            "name: type the club's name to dissolve it",
        ));
    }
    match c.store().dissolve_club(&id, &me.id.0, c.now()).await? {
        Ok(d) => json(
            StatusCode::OK,
            &j!({"dissolved": true, "matches_declined": d.matches_declined,
                 "tournaments_cancelled": d.tournaments_cancelled,
                 "arenas_removed": d.arenas_removed}),
        ),
        Err(other) => Err(refusal(other, "leaders")),
    }
}
