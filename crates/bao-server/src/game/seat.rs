//! Who a request speaks for in a game (docs/api.md, "Seats"): the [`Seat`] extractor finds the
//! game named in the path (404 before anything else is judged) and the player its seat token
//! belongs to, from `Authorization: Bearer TOKEN` or the seat cookie `bao_{id}`; without a
//! token that holds a seat, a signed-in player's session holds the seat recorded for their
//! account (a game the server made for them, or one they play from another browser).

use super::{Games, Slot};
use crate::error::ApiError;
use axum::extract::{FromRef, FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue};
use std::collections::HashMap;
use std::sync::Arc;

/// The game of the request's path and the seat its token holds (if any).
pub struct Seat {
    /// Game id.
    pub id: String,
    /// The game.
    pub slot: Arc<Slot>,
    /// The token the request carries, if any.
    pub token: Option<String>,
    /// The player the token belongs to (`None`: a spectator, or a wrong token).
    pub player: Option<usize>,
}

impl<S> FromRequestParts<S> for Seat
where
    Arc<Games>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(params) = Path::<HashMap<String, String>>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::bad_request(e.body_text()))?;
        let id = params
            .get("id")
            .cloned()
            .ok_or_else(|| ApiError::not_found("there is no such game"))?;
        let games = Arc::<Games>::from_ref(state);
        let slot = games.slot(&id).await?;
        let token = token_from(&parts.headers, &id);
        let player = games
            .auth_request(&slot, token.as_deref(), &parts.headers)
            .await?;
        Ok(Seat {
            id,
            slot,
            token,
            player,
        })
    }
}

impl Games {
    /// The player a request speaks for in `slot`'s game: the holder of `token`, else the
    /// seat recorded for the account of the request's session (`bao_session`), else none.
    pub async fn auth_request(
        &self,
        slot: &Slot,
        token: Option<&str>,
        headers: &HeaderMap,
    ) -> Result<Option<usize>, ApiError> {
        let accounts = {
            let m = slot.m.lock().await;
            if let Some(p) = Games::auth(&m, token) {
                return Ok(Some(p));
            }
            m.accounts.clone().map(|a| a.map(|a| a.id))
        };
        if accounts.iter().all(Option::is_none) {
            return Ok(None);
        }
        let Some(row) = crate::edge::account::session_account(&self.store, headers).await? else {
            return Ok(None);
        };
        Ok(accounts
            .iter()
            .position(|a| a.as_deref() == Some(row.id.0.as_str())))
    }
}

/// The seat token: `Authorization: Bearer`, else the cookie `bao_{id}`.
pub fn token_from(headers: &HeaderMap, id: &str) -> Option<String> {
    if let Some(v) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    {
        if let Some(t) = v.strip_prefix("Bearer ") {
            return Some(t.trim().to_string());
        }
    }
    let name = format!("bao_{id}");
    for v in headers.get_all(header::COOKIE) {
        let Ok(s) = v.to_str() else { continue };
        for part in s.split(';') {
            if let Some((k, val)) = part.trim().split_once('=') {
                if k == name {
                    return Some(val.trim().to_string());
                }
            }
        }
    }
    None
}

/// The seat cookie of game `id`.
pub fn cookie(id: &str, token: &str) -> HeaderValue {
    // Ids and tokens are [a-z0-9]; the header is always valid.
    HeaderValue::from_str(&format!(
        "bao_{id}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age=31536000"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static(""))
}
