//! Direct challenges between accounts (docs/api.md, "Direct challenges").

use super::{
    blocked, clock_json, new_id, random_side, stored_terms, terms, valid_id, Seeks, CHALLENGE_MS,
    MAX_OPEN_CHALLENGES,
};
use crate::domain::events::{ChallengeStatus, Event};
use crate::edge::account::Account;
use crate::edge::body::{json, Json};
use crate::error::{ApiError, ApiResult, Category};
use crate::game::{Alert, AlertKind, NewPair, PairSeat, Recipient};
use crate::store::ChallengeRow;
use crate::util;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use bao_rules::Position;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::sync::Arc;

/// Longest account name looked up (names are 3 to 20 characters).
const MAX_NAME: usize = 40;

#[derive(Deserialize)]
pub(super) struct ChallengeReq {
    to: String,
    variant: String,
    rules: Option<String>,
    clock: Option<serde_json::Value>,
    #[serde(rename = "match")]
    match_format: Option<String>,
    rated: Option<bool>,
}

/// A challenge as the API shows it (CH).
#[derive(Serialize, Clone, Debug)]
pub(super) struct Shown {
    id: String,
    from: String,
    to: String,
    variant: String,
    rules: String,
    clock: serde_json::Value,
    #[serde(rename = "match")]
    match_format: String,
    rated: bool,
    created: i64,
}

impl Shown {
    pub(super) fn of(c: &ChallengeRow) -> Shown {
        Shown {
            id: c.id.clone(),
            from: c.from.clone(),
            to: c.to.clone(),
            variant: c.variant.clone(),
            rules: c.rules.clone(),
            clock: clock_json(c.clock.as_deref()),
            match_format: c.match_format.clone(),
            rated: c.rated,
            created: c.created,
        }
    }
}

fn no_such_challenge() -> ApiError {
    ApiError::of(Category::NoSuchChallenge, "there is no such challenge")
}

fn challenge_gone() -> ApiError {
    ApiError::of(Category::ChallengeGone, "this challenge is no longer open")
}

/// The account named `name` (any case): 404 `no_such_user` when there is none.
pub(super) async fn named(s: &Seeks, name: &str) -> ApiResult<crate::store::AccountRow> {
    let none = || ApiError::of(Category::NoSuchUser, "there is no such player");
    if name.is_empty() || name.chars().count() > MAX_NAME {
        return Err(none());
    }
    s.games
        .store
        .account_by_name(&name.to_lowercase())
        .await?
        .ok_or_else(none)
}

/// `POST /api/challenges`.
pub(super) async fn create(
    State(s): State<Arc<Seeks>>,
    me: Account,
    Json(req): Json<ChallengeReq>,
) -> ApiResult<Response> {
    let terms = terms(
        &req.variant,
        req.rules.as_deref(),
        req.match_format.as_deref(),
        req.clock.as_ref(),
    )?;
    let to = named(&s, req.to.trim()).await?;
    if to.id == me.id {
        return Err(ApiError::bad_request("you cannot challenge yourself"));
    }
    let store = &s.games.store;
    if store.blocked_either(&me.id.0, &to.id.0).await? {
        return Err(blocked());
    }
    let now = s.now_ms();
    let id = new_id();
    let stored = store
        .insert_challenge(
            &crate::store::NewChallenge {
                id: id.clone(),
                from_account: me.id.0.clone(),
                to_account: to.id.0.clone(),
                variant: terms.variant().id().to_string(),
                rules: terms.rules_text(),
                match_format: terms.match_text().to_string(),
                clock: terms.clock_text(),
                rated: req.rated.unwrap_or(false),
                expires: now + CHALLENGE_MS,
            },
            MAX_OPEN_CHALLENGES,
            now,
        )
        .await?;
    if !stored {
        return Err(ApiError::of(Category::TooManyChallenges,
            format!("you have {MAX_OPEN_CHALLENGES} open challenges already; cancel one or wait for an answer"),
        ));
    }
    s.games.alerts.publish(Alert {
        to: Recipient::Account(to.id.0.clone()),
        kind: AlertKind::Challenge {
            challenge: id.clone(),
            from: me.username.clone(),
        },
    });
    json(StatusCode::CREATED, &json!({ "id": id }))
}

/// `GET /api/challenges`.
pub(super) async fn list(State(s): State<Arc<Seeks>>, me: Account) -> ApiResult<Response> {
    let (incoming, outgoing) = s
        .games
        .store
        .open_challenges(&me.id.0, s.now_ms(), 100)
        .await?;
    let shown = |v: &[ChallengeRow]| v.iter().map(Shown::of).collect::<Vec<_>>();
    json(
        StatusCode::OK,
        &json!({"incoming": shown(&incoming), "outgoing": shown(&outgoing)}),
    )
}

/// The challenge of a path, for the challenger or the challenged only.
async fn mine(s: &Seeks, id: &str, me: Account) -> ApiResult<(ChallengeRow, String)> {
    if !valid_id(id) {
        return Err(no_such_challenge());
    }
    let c = s
        .games
        .store
        .challenge(id)
        .await?
        .filter(|c| c.from_account == me.id.0 || c.to_account == me.id.0)
        .ok_or_else(no_such_challenge)?;
    Ok((c, me.id.0))
}

/// `POST /api/challenges/{id}/accept` (the challenged).
pub(super) async fn accept(
    State(s): State<Arc<Seeks>>,
    Path(id): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    let (c, me) = mine(&s, &id, me).await?;
    if c.to_account != me {
        return Err(ApiError::forbidden("only the challenged player can accept"));
    }
    let now = s.now_ms();
    if c.status != "open" || c.expires < now {
        return Err(challenge_gone());
    }
    let terms = stored_terms(&c.variant, &c.rules, &c.match_format, c.clock.as_deref())?;
    let store = &s.games.store;
    let game = util::new_game_id();
    if !store.claim_challenge(&c.id, &me, &game, now).await? {
        return Err(challenge_gone());
    }
    s.after_claim().await;
    let seat = |account: &str, name: &str| PairSeat {
        name: name.to_string(),
        account: Some(account.to_string()),
        token_hash: None,
    };
    let made = s
        .games
        .create_pair(NewPair {
            rules: terms.rules,
            start: Position::start(&terms.rules),
            players: [seat(&c.from_account, &c.from), seat(&c.to_account, &c.to)],
            first_side: random_side(),
            clock: terms.clock,
            rated: c.rated,
            id: Some(game.clone()),
            event: None,
            news: vec![Event::Challenge {
                id: c.id.clone(),
                from: c.from_account.clone(),
                to: c.to_account.clone(),
                status: ChallengeStatus::Accepted,
                game: Some(game.clone()),
            }],
        })
        .await;
    let made = match made {
        Ok(m) => m,
        Err(e) => {
            store.unclaim_challenge(&c.id, &game, s.now_ms()).await?;
            return Err(e);
        }
    };
    json(
        StatusCode::CREATED,
        &json!({"game": made.id, "url": made.url}),
    )
}

/// Ends a challenge as `status` (decline by the challenged, cancel by the challenger).
async fn end(s: &Seeks, id: &str, me: Account, status: &str) -> ApiResult<Response> {
    let (c, me) = mine(s, id, me).await?;
    let allowed = if status == "declined" {
        c.to_account == me
    } else {
        c.from_account == me
    };
    if !allowed {
        return Err(ApiError::forbidden(if status == "declined" {
            "only the challenged player can decline"
        } else {
            "only the challenger can cancel"
        }));
    }
    if !s
        .games
        .store
        .end_challenge(&c.id, &me, status, s.now_ms())
        .await?
    {
        return Err(challenge_gone());
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `POST /api/challenges/{id}/decline` (the challenged).
pub(super) async fn decline(
    State(s): State<Arc<Seeks>>,
    Path(id): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    end(&s, &id, me, "declined").await
}

/// `DELETE /api/challenges/{id}` (the challenger).
pub(super) async fn cancel(
    State(s): State<Arc<Seeks>>,
    Path(id): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    end(&s, &id, me, "cancelled").await
}
