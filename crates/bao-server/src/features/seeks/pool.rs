//! Quick pairing (docs/api.md, "Quick pairing"): accounts wait in a pool per variant and
//! clock; every instance runs a pairing pass every [`super::SeeksConfig::pair_every`]; the
//! pairs come from the pure [`crate::domain::pairing::pair`], and each pair is claimed in the
//! store with one conditional UPDATE of both tickets before its game is made.

use super::{new_id, random_side, terms, valid_id, Seeks};
use crate::domain::events::Event;
use crate::domain::pairing;
use crate::edge::account::Account;
use crate::edge::body::{json, Json};
use crate::error::{ApiError, ApiResult, Category};
use crate::game::{NewPair, PairSeat};
use crate::store::StoreError;
use crate::util;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use bao_rules::{Position, Rules};
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

#[derive(Deserialize)]
pub(super) struct JoinReq {
    variant: String,
    clock: Option<serde_json::Value>,
}

fn no_such_ticket() -> ApiError {
    ApiError::of(
        Category::NoSuchTicket,
        "this place in the pool is gone; ask for a game again",
    )
}

/// `POST /api/pool`.
pub(super) async fn join(
    State(s): State<Arc<Seeks>>,
    account: Account,
    Json(req): Json<JoinReq>,
) -> ApiResult<Response> {
    // A pool is a game and a clock; its games have the variant's default rules.
    let pool_terms = terms(&req.variant, None, None, req.clock.as_ref())?;
    let variant = pool_terms.variant();
    let clock_text = pool_terms.clock_text();
    let pool = format!(
        "{} {}",
        variant.id(),
        clock_text.as_deref().unwrap_or("none")
    );
    let store = &s.games.store;
    let now = s.now_ms();
    let until = now + s.liveness_ms();
    // One waiting ticket per account and pool: asking again answers the same one.
    for _ in 0..3 {
        if let Some(t) = store.waiting_ticket(&account.id.0, &pool).await? {
            store
                .keep_tickets_alive(&account.id.0, Some(&t), until)
                .await?;
            return json(StatusCode::ACCEPTED, &json!({ "ticket": t }));
        }
        let rating = store
            .seat_account(&account.id.0, variant.id(), now)
            .await?
            .map_or(1500, |a| i64::from(a.rating.rating));
        let id = new_id();
        match store
            .insert_ticket(
                &id,
                &account.id.0,
                &pool,
                variant.id(),
                clock_text.as_deref(),
                rating,
                now,
                until,
            )
            .await
        {
            Ok(()) => return json(StatusCode::ACCEPTED, &json!({ "ticket": id })),
            // The same account asked twice at once: the other request's ticket.
            Err(StoreError::Conflict(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::internal("the pool ticket could not be made"))
}

/// The ticket of a path, for its account only.
async fn owned(
    s: &Seeks,
    id: &str,
    account: Account,
) -> ApiResult<(crate::store::TicketRow, String)> {
    if !valid_id(id) {
        return Err(no_such_ticket());
    }
    let t = s
        .games
        .store
        .ticket(id)
        .await?
        .filter(|t| t.account == account.id.0)
        .ok_or_else(no_such_ticket)?;
    Ok((t, account.id.0))
}

/// `GET /api/pool/{ticket}`: also keeps the ticket in the pool.
pub(super) async fn status(
    State(s): State<Arc<Seeks>>,
    Path(id): Path<String>,
    account: Account,
) -> ApiResult<Response> {
    let (t, account) = owned(&s, &id, account).await?;
    let now = s.now_ms();
    let waiting = || {
        json(
            StatusCode::OK,
            &json!({"status": "waiting", "since": t.since,
                    "range": pairing::range(now - t.since)}),
        )
    };
    match (t.status.as_str(), &t.game) {
        ("paired", Some(game)) if s.games.store.game_exists(game).await? => json(
            StatusCode::OK,
            &json!({"status": "paired", "game": game, "url": format!("/g/{game}")}),
        ),
        // Claimed a moment ago, its game being made.
        ("paired", _) => waiting(),
        ("waiting", _) if t.alive_until >= now => {
            s.games
                .store
                .keep_tickets_alive(&account, Some(&t.id), now + s.liveness_ms())
                .await?;
            waiting()
        }
        _ => Err(no_such_ticket()),
    }
}

/// `DELETE /api/pool/{ticket}`.
pub(super) async fn leave(
    State(s): State<Arc<Seeks>>,
    Path(id): Path<String>,
    account: Account,
) -> ApiResult<Response> {
    let (t, account) = owned(&s, &id, account).await?;
    s.games.store.leave_pool(&t.id, &account).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// One pairing pass: reads the waiting tickets, pairs them, claims and makes each game.
/// Answers the games this instance made.
pub async fn pairing_pass(s: &Seeks) -> usize {
    match pass(s).await {
        Ok(n) => n,
        Err(e) => {
            tracing::warn!("pairing pass: {e}");
            0
        }
    }
}

async fn pass(s: &Seeks) -> Result<usize, StoreError> {
    let store = &s.games.store;
    let now = s.now_ms();
    let (tickets, blocks) = store.waiting_tickets(now).await?;
    if tickets.len() < 2 {
        return Ok(0);
    }
    let pairs = pairing::pair(&tickets, &blocks, now);
    let mut made = 0;
    for (i, j) in pairs {
        let (a, b) = (&tickets[i], &tickets[j]);
        let game = util::new_game_id();
        if !store
            .claim_pair(&a.ticket, &b.ticket, &game, s.now_ms())
            .await?
        {
            continue;
        }
        s.after_claim().await;
        match make_game(s, a, b, &game).await {
            Ok(()) => made += 1,
            Err(e) => {
                tracing::warn!("pairing: the game could not be made: {}", e.message);
                store.unclaim_pair(&game).await?;
            }
        }
    }
    Ok(made)
}

/// The rated single game of two paired tickets, with the variant's default rules.
async fn make_game(
    s: &Seeks,
    a: &pairing::Waiting,
    b: &pairing::Waiting,
    game: &str,
) -> ApiResult<()> {
    let (variant, clock) = a.pool.split_once(' ').unwrap_or((&a.pool, "none"));
    let clock = match clock {
        "none" => None,
        c => Some(serde_json::from_str::<serde_json::Value>(c).map_err(ApiError::internal)?),
    };
    // The pool's terms, read back through the parser they were checked by.
    let t = terms(variant, None, None, clock.as_ref())?;
    let (rules, clock): (Rules, _) = (t.rules, t.clock);
    let seat = |w: &pairing::Waiting| PairSeat {
        name: String::new(),
        account: Some(w.account.clone()),
        token_hash: None,
    };
    s.games
        .create_pair(NewPair {
            rules,
            start: Position::start(&rules),
            players: [seat(a), seat(b)],
            first_side: random_side(),
            clock,
            rated: true,
            id: Some(game.to_string()),
            event: None,
            // Each waiting page hears of it on its player socket, on whichever instance.
            news: [a, b]
                .iter()
                .map(|w| Event::Paired {
                    ticket: w.ticket.clone(),
                    account: w.account.clone(),
                    game: game.to_string(),
                })
                .collect(),
        })
        .await?;
    Ok(())
}
