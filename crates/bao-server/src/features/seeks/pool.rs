//! Quick pairing (docs/api.md, "Quick pairing"): accounts wait in a pool per variant and
//! clock. Every instance runs a pairing pass when a ticket joins (the event
//! [`Event::Waiting`]) and at the next step of a waiting ticket's widening range (a
//! deadline, [`Pass::next`]), never on a fixed period; the pairs come from the pure
//! [`crate::domain::pairing::pair`], and each pair is claimed in the store with one
//! conditional UPDATE of both tickets before its game is made, so a pair is made once
//! whichever instances run the pass.

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
    account.may_compete()?;
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
                .keep_tickets_alive(&account.id.0, Some(&t), now, until)
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
                .keep_tickets_alive(&account, Some(&t.id), now, now + s.liveness_ms())
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

/// What a pairing pass did, and when the next one is due.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pass {
    /// The games this instance made.
    pub made: usize,
    /// When (ms since the epoch) the next pass is due: a waiting ticket's range widens then
    /// while another waits in its pool, or a claim lost to a conflict is tried again
    /// ([`super::SeeksConfig::pair_every`]). `None`: nothing to wait for; a ticket joining
    /// brings the next pass.
    pub next: Option<i64>,
}

/// One pairing pass: reads the waiting tickets, pairs them, claims and makes each game.
pub async fn pairing_pass(s: &Seeks) -> Pass {
    match pass(s).await {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!("pairing pass: {e}");
            Pass {
                made: 0,
                next: Some(s.now_ms() + s.cfg.pair_every.as_millis() as i64),
            }
        }
    }
}

async fn pass(s: &Seeks) -> Result<Pass, StoreError> {
    let store = &s.games.store;
    let now = s.now_ms();
    let (tickets, blocks) = store.waiting_tickets(now).await?;
    if tickets.len() < 2 {
        return Ok(Pass::default());
    }
    let pairs = pairing::pair(&tickets, &blocks, now);
    let mut made = 0;
    let mut paired = vec![false; tickets.len()];
    let mut again = false;
    for (i, j) in pairs {
        let (a, b) = (&tickets[i], &tickets[j]);
        let game = util::new_game_id();
        if !store
            .claim_pair(&a.ticket, &b.ticket, &game, s.now_ms())
            .await?
        {
            // Taken by another instance's pass, or lost to a deadlock: the next pass sees.
            again = true;
            continue;
        }
        s.after_claim().await;
        match make_game(s, a, b, &game).await {
            Ok(()) => {
                made += 1;
                paired[i] = true;
                paired[j] = true;
            }
            Err(e) => {
                tracing::warn!("pairing: the game could not be made: {}", e.message);
                store.unclaim_pair(&game).await?;
                again = true;
            }
        }
    }
    let left: Vec<&pairing::Waiting> = tickets
        .iter()
        .zip(&paired)
        .filter(|(_, p)| !**p)
        .map(|(t, _)| t)
        .collect();
    let retry = again.then(|| s.now_ms() + s.cfg.pair_every.as_millis() as i64);
    let next = [retry, next_widening(&left, now)]
        .into_iter()
        .flatten()
        .min();
    Ok(Pass { made, next })
}

/// The next moment (ms) a ticket of `left` gets a wider range ([`pairing::range`]) while
/// another ticket waits in its pool: a pair may be allowed then that is not now.
fn next_widening(left: &[&pairing::Waiting], now: i64) -> Option<i64> {
    left.iter()
        .filter(|t| left.iter().filter(|o| o.pool == t.pool).count() >= 2)
        .filter(|t| pairing::range(now - t.since) < pairing::RANGE_MAX)
        .map(|t| {
            let steps = (now - t.since).max(0) / pairing::RANGE_STEP_MS + 1;
            t.since + steps * pairing::RANGE_STEP_MS
        })
        .min()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn w(id: &str, pool: &str, since: i64) -> pairing::Waiting {
        pairing::Waiting {
            ticket: id.into(),
            account: id.into(),
            pool: pool.into(),
            rating: 1500,
            since,
        }
    }

    #[test]
    fn the_next_pass_is_the_next_widening_step_of_a_pool_with_two() {
        let now = 100_000;
        // Alone in its pool: nothing to wait for.
        let a = w("a", "kete none", now - 1_000);
        assert_eq!(next_widening(&[&a], now), None);
        // Two in a pool: the sooner of their next steps (5 s each).
        let b = w("b", "kete none", now - 7_000);
        assert_eq!(next_widening(&[&a, &b], now), Some(now + 3_000));
        // A ticket in another pool does not count; one at the widest range has no step left.
        let c = w("c", "kiswahili none", now - 1);
        let old = w("d", "kete none", now - 1_000_000);
        assert_eq!(next_widening(&[&c, &old], now), None);
        assert_eq!(next_widening(&[&a, &old], now), Some(now + 4_000));
    }
}
