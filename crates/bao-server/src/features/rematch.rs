//! The rematch of a finished match (docs/api.md, "Play"): same variant, rules, start and
//! clock, each player on the other side. The first seat holder to ask creates it; the other
//! (and any repeated call) gets the same game, on every instance (one rematch per match is
//! the store's condition).

use crate::domain::model::{Match, NewMatch, PlayerKind};
use crate::edge::body::json_text;
use crate::error::{ApiError, ApiResult};
use crate::game::commit::CommitError;
use crate::game::seat::cookie;
use crate::game::{Change, Games, Seat};
use crate::store::Write;
use crate::util;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use std::sync::Arc;

/// The route: `POST /api/games/{id}/rematch`.
pub fn routes(games: Arc<Games>) -> Router {
    Router::new()
        .route("/api/games/{id}/rematch", post(rematch))
        .with_state(games)
}

/// `POST /api/games/{id}/rematch` -> `{"id": NEW, "url"}`; the caller's seat cookie for the
/// new game comes with it (the seat token stays the same).
async fn rematch(State(games): State<Arc<Games>>, seat: Seat) -> ApiResult<Response> {
    let new = ask(&games, &seat).await?;
    let mut resp = json_text(
        StatusCode::OK,
        serde_json::json!({"id": new, "url": format!("/g/{new}")}).to_string(),
    );
    if let Some(t) = &seat.token {
        resp.headers_mut()
            .insert(header::SET_COOKIE, cookie(&new, t));
    }
    Ok(resp)
}

/// The rematch's id, made by this call if nobody asked before.
async fn ask(games: &Games, seat: &Seat) -> ApiResult<String> {
    let slot = &seat.slot;
    let mut m = slot.m.lock().await;
    let Some(p) = seat.player else {
        return Err(ApiError::forbidden(
            "only a player of this game may ask for a rematch: your seat token is missing or wrong",
        ));
    };
    if let Some((r, _)) = &m.rematch {
        return Ok(r.clone());
    }
    if m.read_only || !m.finished {
        return Err(ApiError::conflict(
            "a rematch can be asked for once the game is over",
        ));
    }
    let now = util::now_ms();
    let players = m.players.clone();
    let invite = (players[1].kind == PlayerKind::Human && players[1].token_hash.is_none())
        .then(|| util::random_code(16));
    let mut rules = m.rules;
    rules.match_format = m.format;
    // Player 0 keeps that number; the sides are swapped relative to the last game.
    let new = Match::new(NewMatch {
        id: util::new_game_id(),
        rules,
        start: m.start,
        first_side: m.side_of(0).other(),
        players,
        invite,
        clock: m.clock.map(|c| c.control),
        now,
        // The same players with the same accounts; a rated match's rematch is rated too.
        rated: m.rated,
        accounts: m.accounts.clone(),
    });
    let mut after = m.clone();
    after.rematch = Some((new.id.clone(), p));
    after.updated = now;
    let change = Change {
        after,
        played: None,
        next: None,
        write: Write::Rematch {
            by: p,
            new: Box::new(new.clone()),
        },
        at: now,
    };
    match games.commit(slot, &mut m, change).await {
        Ok(()) => {}
        // Another instance made it first (or, rarely, the new id clashed: then the reload
        // finds no rematch and the player asks again).
        Err(CommitError::Conflict(_)) => {
            return m
                .rematch
                .as_ref()
                .map(|r| r.0.clone())
                .ok_or_else(|| ApiError::conflict("the rematch could not be created; ask again"));
        }
        Err(e) => return Err(e.into()),
    }
    drop(m);
    let id = new.id.clone();
    games.open(new);
    Ok(id)
}
