//! Who a request is (docs/api.md, "Accounts"): the account of its session cookie
//! `bao_session`, read through the store, as two extractors every feature uses the same way
//! (realworld-axum-sqlx's `AuthUser` and `MaybeAuthUser`):
//!
//! * [`Account`]: the call needs an account; without a live session it is refused with the
//!   one answer for "signed out", 401 `not_signed_in`, before the handler runs;
//! * [`MaybeAccount`]: a guest is welcome; `None` without a live session.
//!
//! A handler that needs an account only for part of what it does (a rated game) takes
//! [`MaybeAccount`] and asks [`MaybeAccount::required_for`], which answers the same 401.
//! The session is read once per request: both extractors (and [`session_account`]) keep
//! what they read in the request's extensions.

use crate::error::{ApiError, ApiResult, Category};
use crate::store::{AccountId, Store, StoreError};
use crate::util;
use axum::extract::{FromRef, FromRequestParts, OptionalFromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};

/// The account session cookie: a random 256-bit token, whose SHA-256 the database keeps.
pub const SESSION_COOKIE: &str = "bao_session";

/// A cookie longer than this is no session token (tokens are 64 hex digits).
const MAX_TOKEN: usize = 200;

/// The signed-in account of a request. As an extractor: 401 `not_signed_in` without a live
/// session.
#[derive(Clone, Debug)]
pub struct Account {
    /// The account's id.
    pub id: AccountId,
    /// Its name.
    pub username: String,
    /// When it was made, ms since the epoch.
    pub created: i64,
    /// The SHA-256 of the request's session token.
    pub session_hash: String,
    /// It may moderate (docs/api.md, "Fair play").
    pub moderator: bool,
    /// Marked as playing with an engine's help: kept out of rated competition (the
    /// leaderboard, tournaments, arenas, the pairing pool).
    pub marked: bool,
}

impl Account {
    /// Refuses an account marked as playing with an engine's help (docs/api.md, "Fair
    /// play"): 403 `engine_marked`, the one answer of every rated competition (tournaments,
    /// arenas, the pairing pool).
    pub fn may_compete(&self) -> ApiResult<()> {
        if self.marked {
            return Err(ApiError::of(
                Category::EngineMarked,
                "a moderator marked this account as playing with an engine's help, so it \
                 cannot enter rated competitions",
            ));
        }
        Ok(())
    }
}

/// The signed-in account of a request, if any. As an extractor it refuses nothing (but a
/// failing database).
#[derive(Clone, Debug)]
pub struct MaybeAccount(pub Option<Account>);

impl MaybeAccount {
    /// The account, or the 401 `not_signed_in` saying that `what` ("a rated game") needs one.
    pub fn required_for(&self, what: &str) -> ApiResult<&Account> {
        self.0.as_ref().ok_or_else(|| ApiError::needs_account(what))
    }

    /// The account's id, if signed in.
    pub fn id(&self) -> Option<&str> {
        self.0.as_ref().map(|a| a.id.0.as_str())
    }
}

/// The value of the cookie `name` in a request, if it has one.
pub fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    for v in headers.get_all(header::COOKIE) {
        let Ok(s) = v.to_str() else { continue };
        for part in s.split(';') {
            if let Some((k, val)) = part.trim().split_once('=') {
                if k == name && !val.trim().is_empty() {
                    return Some(val.trim().to_string());
                }
            }
        }
    }
    None
}

/// The SHA-256 of the request's session token, if it carries one that could be a session.
pub fn session_hash(headers: &HeaderMap) -> Option<String> {
    cookie_value(headers, SESSION_COOKIE)
        .filter(|t| t.len() <= MAX_TOKEN)
        .map(|t| util::hash_token(&t))
}

/// The account of the request's live session, read through the store (so that the core and
/// every feature find a signed-in player the same way without importing the accounts
/// feature).
pub async fn session_account(
    store: &Store,
    headers: &HeaderMap,
) -> Result<Option<Account>, StoreError> {
    let Some(hash) = session_hash(headers) else {
        return Ok(None);
    };
    let row = store.session_account(&hash, util::now_ms()).await?;
    Ok(row.map(|a| Account {
        id: a.id,
        username: a.username,
        created: a.created,
        session_hash: hash,
        moderator: a.moderator,
        marked: a.marked,
    }))
}

/// What this request's session was found to be, kept in its extensions.
#[derive(Clone)]
struct Seen(Option<Account>);

impl<S> OptionalFromRequestParts<S> for Account
where
    Store: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Option<Self>, ApiError> {
        if let Some(Seen(a)) = parts.extensions.get::<Seen>() {
            return Ok(a.clone());
        }
        let a = session_account(&Store::from_ref(state), &parts.headers).await?;
        parts.extensions.insert(Seen(a.clone()));
        Ok(a)
    }
}

impl<S> FromRequestParts<S> for Account
where
    Store: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        <Account as OptionalFromRequestParts<S>>::from_request_parts(parts, state)
            .await?
            .ok_or_else(ApiError::not_signed_in)
    }
}

impl<S> FromRequestParts<S> for MaybeAccount
where
    Store: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Ok(MaybeAccount(
            <Account as OptionalFromRequestParts<S>>::from_request_parts(parts, state).await?,
        ))
    }
}
