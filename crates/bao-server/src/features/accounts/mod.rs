//! Optional accounts (docs/api.md, "Accounts"): a name and a password, no email. Play without
//! an account is unchanged; an account keeps a player's seats across browsers ("My games")
//! and is where ratings will attach (the store's [`crate::store::AccountId`]).
//!
//! * Passwords and recovery codes are kept as Argon2id PHC strings ([`secrets`]), hashed by
//!   [`hashing::HASHING_AT_ONCE`] workers of their own that reuse their memory; at most
//!   [`hashing::QUEUE`] wait, more are refused (503 `busy`).
//! * The session cookie `bao_session` holds a random 256-bit token; the database keeps its
//!   SHA-256 (table `sessions`), so a session works on every instance and a deleted row is
//!   dead on all of them. Every signup, login and recovery starts a new session and ends the
//!   one the browser had.
//! * Signups, logins and recoveries are rate limited per address by the edge and per name
//!   here ([`crate::edge::Guard::check_account_name`]). A wrong password and an unknown name
//!   answer alike, after the same Argon2id work.
//! * Signup and login claim the browser's seats: the seat cookies and the body's `seats`.

pub mod hashing;
pub mod secrets;

use crate::edge::account::{session_hash, Account, SESSION_COOKIE};
use crate::edge::body::{json, Json};
use crate::edge::limit::{limit, Action};
use crate::edge::{Guard, RateLimited};
use crate::error::{ApiError, Category};
use crate::store::{AccountRow, NewAccount, Store, StoreError};
use crate::util;
use argon2::Block;
use axum::extract::{FromRef, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use hashing::{HashError, Hashers};
use serde::Deserialize;
use std::sync::Arc;

pub use hashing::HASHING_AT_ONCE;

/// Most seats one signup or login claims.
pub const MAX_CLAIMS: usize = 50;

/// The feature's state.
pub struct Accounts {
    store: Store,
    hashers: Hashers,
    /// The hash an unknown name's password is checked against, so that it costs the same
    /// time as a known name's.
    dummy: String,
}

impl Accounts {
    /// The feature on `store`.
    pub fn new(store: Store) -> Arc<Accounts> {
        Arc::new(Accounts {
            store,
            hashers: Hashers::new(HASHING_AT_ONCE, hashing::QUEUE),
            dummy: secrets::dummy_hash(),
        })
    }

    /// How many Argon2id memories (19 MiB each) the hashing workers hold: at most
    /// [`HASHING_AT_ONCE`], however many logins came.
    pub fn hashing_memories(&self) -> usize {
        self.hashers.memories()
    }

    /// Runs `f` (Argon2id work) on a hashing worker, in its memory; 503 `busy` when the
    /// queue is full.
    async fn hashing<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut [Block]) -> T + Send + 'static,
    ) -> Answer<T> {
        self.hashers.run(f).await.map_err(|e| match e {
            HashError::Busy => Refusal::Busy,
            HashError::Gone => ApiError::internal("the Argon2id workers are gone").into(),
        })
    }

    /// Whether `secret` matches `phc`, or (no account) the same work against the dummy hash,
    /// answering false.
    async fn check(&self, secret: &str, phc: Option<&str>) -> Answer<bool> {
        let (secret, known) = (secret.to_string(), phc.is_some());
        let phc = phc.unwrap_or(&self.dummy).to_string();
        let ok = self
            .hashing(move |m| secrets::verify(m, &secret, &phc))
            .await?;
        Ok(ok && known)
    }
}

impl FromRef<Arc<Accounts>> for Store {
    fn from_ref(a: &Arc<Accounts>) -> Store {
        a.store.clone()
    }
}

/// The routes under `/api/account`. Signups, logins and recoveries count against the
/// address's limit of sign-in attempts (and, in the handler, against the name's).
pub fn routes(accounts: Arc<Accounts>) -> Router {
    let tries = || limit(Action::Account);
    Router::new()
        .route("/api/account", get(me).delete(delete))
        .route("/api/account/signup", post(signup).layer(tries()))
        .route("/api/account/login", post(login).layer(tries()))
        .route("/api/account/logout", post(logout))
        .route("/api/account/logout-all", post(logout_all))
        .route("/api/account/recover", post(recover).layer(tries()))
        .route("/api/account/password", post(password))
        .with_state(accounts)
}

fn bad_credentials(what: &str) -> ApiError {
    ApiError::of(
        Category::BadCredentials,
        format!("the name or the {what} is wrong"),
    )
}

/// The session cookie for `token`. The server ends an idle session after 30 days
/// ([`crate::store::SESSION_IDLE_MS`]); the cookie itself is kept a year, like the seats'.
fn session_cookie(token: &str) -> HeaderValue {
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age=31536000"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static(""))
}

fn clear_cookie() -> HeaderValue {
    HeaderValue::from_static("bao_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0")
}

fn with_cookie(mut resp: Response, cookie: HeaderValue) -> Response {
    resp.headers_mut().append(header::SET_COOKIE, cookie);
    resp
}

fn no_content(cookie: HeaderValue) -> Response {
    with_cookie(StatusCode::NO_CONTENT.into_response(), cookie)
}

/// Why a call is refused: an error, the per-name rate limit (whose answer carries
/// `Retry-After`), or a full hashing queue.
enum Refusal {
    Api(ApiError),
    Limited(RateLimited),
    Busy,
}

/// Seconds a refused login is told to wait when the hashing queue is full: the queue drains
/// in about one.
const BUSY_RETRY_S: u32 = 2;

impl From<ApiError> for Refusal {
    fn from(e: ApiError) -> Refusal {
        Refusal::Api(e)
    }
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Refusal {
        Refusal::Api(e.into())
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        match self {
            Refusal::Api(e) => e.into_response(),
            Refusal::Limited(r) => r.into_response(),
            Refusal::Busy => {
                let mut r = ApiError::of(
                    Category::Busy,
                    format!(
                        "the server is checking many passwords at once; try again in {BUSY_RETRY_S} s"
                    ),
                )
                .into_response();
                r.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(BUSY_RETRY_S));
                r
            }
        }
    }
}

/// An answer of this feature.
type Answer<T = Response> = Result<T, Refusal>;

/// Counts one attempt naming `key` (the edge counted the address).
fn count_name(guard: &Option<Extension<Guard>>, key: &str) -> Answer<()> {
    match guard {
        Some(Extension(g)) => g.check_account_name(key).map_err(Refusal::Limited),
        None => Ok(()),
    }
}

/// One seat of the browser, in a signup or login body.
#[derive(Deserialize, Debug)]
struct SeatClaim {
    id: String,
    token: String,
}

/// The seats a request carries: its seat cookies (`bao_{id}`, 32 hex digits, docs/api.md
/// "Seats") and the body's list, as `(game id, SHA-256 of the token)`.
fn seats_of(headers: &HeaderMap, body: &[SeatClaim]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let plausible_id = |id: &str| {
        !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
    };
    let plausible_token = |t: &str| t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit());
    let mut add = |id: &str, token: &str| {
        if plausible_id(id) && plausible_token(token) && out.len() < MAX_CLAIMS {
            let pair = (id.to_string(), util::hash_token(token));
            if !out.contains(&pair) {
                out.push(pair);
            }
        }
    };
    for s in body {
        add(&s.id, &s.token);
    }
    for v in headers.get_all(header::COOKIE) {
        let Ok(text) = v.to_str() else { continue };
        for part in text.split(';') {
            if let Some((k, val)) = part.trim().split_once('=') {
                if let Some(id) = k.strip_prefix("bao_") {
                    add(id, val.trim());
                }
            }
        }
    }
    out
}

/// The session hash of the request's cookie, if any (ended when a new one starts).
fn old_session(headers: &HeaderMap) -> Option<String> {
    session_hash(headers)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    username: String,
    password: String,
    #[serde(default)]
    seats: Vec<SeatClaim>,
}

/// `POST /api/account/signup`.
async fn signup(
    State(a): State<Arc<Accounts>>,
    guard: Option<Extension<Guard>>,
    headers: HeaderMap,
    Json(req): Json<Credentials>,
) -> Answer {
    secrets::check_new_name(&req.username)?;
    secrets::check_password(&req.password)?;
    let key = secrets::name_key(&req.username);
    count_name(&guard, &key)?;
    let code = secrets::new_recovery_code();
    let (password, normal) = (req.password.clone(), secrets::normal_code(&code));
    let (password_hash, recovery_hash) = a
        .hashing(move |m| {
            Ok::<_, ApiError>((secrets::hash(m, &password)?, secrets::hash(m, &normal)?))
        })
        .await??;
    let token = secrets::new_session_token();
    let now = util::now_ms();
    let new = NewAccount {
        username: req.username.clone(),
        name_key: key,
        password_hash,
        recovery_hash,
    };
    let id = match a
        .store
        .create_account(&new, &util::hash_token(&token), now)
        .await
    {
        Ok(id) => id,
        Err(StoreError::Conflict(_)) => {
            return Err(ApiError::of(
                Category::NameTaken,
                format!("the name '{}' is taken; choose another", req.username),
            )
            .into())
        }
        Err(e) => return Err(e.into()),
    };
    if let Some(old) = old_session(&headers) {
        a.store.end_session(&old).await?;
    }
    a.store
        .claim_seats(&id, &seats_of(&headers, &req.seats), now)
        .await?;
    let body = serde_json::json!({"username": req.username, "recovery_code": code});
    Ok(with_cookie(
        json(StatusCode::CREATED, &body)?,
        session_cookie(&token),
    ))
}

/// The account named `username` and whether `secret` is its password (`recovery`: its
/// recovery code); the same work whether the name exists or not.
async fn authenticate(
    a: &Accounts,
    guard: &Option<Extension<Guard>>,
    username: &str,
    secret: &str,
    recovery: bool,
) -> Answer<AccountRow> {
    let what = if recovery {
        "recovery code"
    } else {
        "password"
    };
    let row = if secrets::name_shape(username) {
        let key = secrets::name_key(username);
        count_name(guard, &key)?;
        a.store.account_by_name(&key).await?
    } else {
        None
    };
    let phc = row.as_ref().map(|r| {
        if recovery {
            &r.recovery_hash
        } else {
            &r.password_hash
        }
    });
    let secret = if recovery {
        secrets::normal_code(secret)
    } else {
        secret.to_string()
    };
    if a.check(&secret, phc.map(String::as_str)).await? {
        row.ok_or_else(|| bad_credentials(what).into())
    } else {
        Err(bad_credentials(what).into())
    }
}

/// `POST /api/account/login`.
async fn login(
    State(a): State<Arc<Accounts>>,
    guard: Option<Extension<Guard>>,
    headers: HeaderMap,
    Json(req): Json<Credentials>,
) -> Answer {
    let row = authenticate(&a, &guard, &req.username, &req.password, false).await?;
    let token = secrets::new_session_token();
    let now = util::now_ms();
    let old = old_session(&headers);
    a.store
        .start_session(&row.id, &util::hash_token(&token), old.as_deref(), now)
        .await?;
    a.store
        .claim_seats(&row.id, &seats_of(&headers, &req.seats), now)
        .await?;
    let body = serde_json::json!({"username": row.username});
    Ok(with_cookie(
        json(StatusCode::OK, &body)?,
        session_cookie(&token),
    ))
}

/// `POST /api/account/logout`: ends this browser's session (if any) on every instance.
async fn logout(State(a): State<Arc<Accounts>>, headers: HeaderMap) -> Answer {
    if let Some(old) = old_session(&headers) {
        a.store.end_session(&old).await?;
    }
    Ok(no_content(clear_cookie()))
}

/// `POST /api/account/logout-all`: ends every session of the account.
async fn logout_all(State(a): State<Arc<Accounts>>, me: Account) -> Answer {
    a.store.end_sessions(&me.id, None).await?;
    Ok(no_content(clear_cookie()))
}

/// `GET /api/account`.
async fn me(me: Account) -> Answer {
    Ok(json(
        StatusCode::OK,
        &serde_json::json!({"username": me.username, "created": me.created}),
    )?)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecoverReq {
    username: String,
    recovery_code: String,
    new_password: String,
}

/// `POST /api/account/recover`: a new password with the recovery code, which is then
/// replaced; every session ends and this browser gets a new one.
async fn recover(
    State(a): State<Arc<Accounts>>,
    guard: Option<Extension<Guard>>,
    headers: HeaderMap,
    Json(req): Json<RecoverReq>,
) -> Answer {
    secrets::check_password(&req.new_password)?;
    let row = authenticate(&a, &guard, &req.username, &req.recovery_code, true).await?;
    let code = secrets::new_recovery_code();
    let (password, normal) = (req.new_password.clone(), secrets::normal_code(&code));
    let (password_hash, recovery_hash) = a
        .hashing(move |m| {
            Ok::<_, ApiError>((secrets::hash(m, &password)?, secrets::hash(m, &normal)?))
        })
        .await??;
    let token = secrets::new_session_token();
    let session = util::hash_token(&token);
    let now = util::now_ms();
    a.store
        .recover(
            &row.id,
            &row.recovery_hash,
            &password_hash,
            &recovery_hash,
            &session,
            now,
        )
        .await
        .map_err(|e| match e {
            StoreError::Conflict(_) => Refusal::Api(bad_credentials("recovery code")),
            e => e.into(),
        })?;
    // The browser's old session belonged to someone: it ended with the others, or is
    // another account's, which this browser now leaves.
    if let Some(old) = old_session(&headers) {
        a.store.end_session(&old).await?;
    }
    let body = serde_json::json!({"username": row.username, "recovery_code": code});
    Ok(with_cookie(
        json(StatusCode::OK, &body)?,
        session_cookie(&token),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordReq {
    old: String,
    new: String,
}

/// `POST /api/account/password`: a new password; every other session ends.
async fn password(
    State(a): State<Arc<Accounts>>,
    guard: Option<Extension<Guard>>,
    me: Account,
    Json(req): Json<PasswordReq>,
) -> Answer {
    secrets::check_password(&req.new)?;
    authenticate(&a, &guard, &me.username, &req.old, false)
        .await
        .map_err(wrong_password)?;
    let new = req.new.clone();
    let hash = a.hashing(move |m| secrets::hash(m, &new)).await??;
    a.store
        .set_password(&me.id, &hash, &me.session_hash)
        .await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// A signed-in player's wrong password: the name is not in doubt.
fn wrong_password(e: Refusal) -> Refusal {
    match e {
        Refusal::Api(e) if e.category == Category::BadCredentials => Refusal::Api(ApiError::of(
            Category::BadCredentials,
            "the password is wrong",
        )),
        e => e,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeleteReq {
    password: String,
}

/// `DELETE /api/account`: credentials, sessions and claims gone; the account's name in the
/// games it claimed becomes "deleted player".
async fn delete(
    State(a): State<Arc<Accounts>>,
    guard: Option<Extension<Guard>>,
    me: Account,
    Json(req): Json<DeleteReq>,
) -> Answer {
    authenticate(&a, &guard, &me.username, &req.password, false)
        .await
        .map_err(wrong_password)?;
    a.store.delete_account(&me.id).await?;
    Ok(no_content(clear_cookie()))
}
