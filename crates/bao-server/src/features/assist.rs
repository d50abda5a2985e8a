//! Help against the computer (docs/api.md, "Play"): take back your last move and
//! the computer's reply, or ask the engine for the best move. Only where no person is helped
//! against another: games against the computer (and, for hints, pass and play).

use crate::domain::model::{Match, PlayerKind};
use crate::edge::body::{json, json_text, Json};
use crate::error::{ApiError, ApiResult};
use crate::game::routes::GamePly;
use crate::game::{Change, Games, Seat};
use crate::store::Write;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;
use std::time::Duration;

/// The longest a hint searches.
pub const HINT_TIME: Duration = Duration::from_millis(700);

/// The routes: `POST /api/games/{id}/takeback`, `GET /api/games/{id}/hint`.
pub fn routes(games: Arc<Games>) -> Router {
    Router::new()
        .route("/api/games/{id}/takeback", post(takeback))
        .route("/api/games/{id}/hint", get(hint))
        .with_state(games)
}

/// `POST /api/games/{id}/takeback` with `{"game_no", "ply"}` like a resignation.
async fn takeback(
    State(games): State<Arc<Games>>,
    seat: Seat,
    Json(req): Json<GamePly>,
) -> ApiResult<Response> {
    let (game_no, ply) = req.required("a takeback")?;
    let text = take_back(&games, &seat, game_no, ply).await?;
    Ok(json_text(StatusCode::OK, text))
}

/// Takes back the player's last move and the computer's reply: game `game_no` at ply `ply`
/// as the player saw it, against the computer, which must not be thinking. Answers the new
/// GameState.
async fn take_back(games: &Games, seat: &Seat, game_no: u32, ply: u32) -> ApiResult<String> {
    let slot = &seat.slot;
    let mut m = slot.m.lock().await;
    let Some(p) = seat.player else {
        return Err(ApiError::forbidden(
            "only a player of this game may take a move back: your seat token is missing or wrong",
        ));
    };
    if m.players[1 - p].kind != PlayerKind::Computer {
        return Err(ApiError::conflict(
            "moves can be taken back only in a game against the computer",
        ));
    }
    if game_no != m.game_no {
        return Err(ApiError::conflict(format!(
            "the takeback was for game {game_no} of the match, but game {} is being played; nothing was changed",
            m.game_no
        )));
    }
    let now_ply = m.game.position().ply();
    if ply != now_ply {
        return Err(ApiError::conflict(format!(
            "the takeback was asked at ply {ply}, but the game is at ply {now_ply}; nothing was changed"
        )));
    }
    if m.read_only || m.game_over() {
        return Err(ApiError::game_over("the game is over"));
    }
    if slot.thinking() {
        return Err(ApiError::conflict(
            "the computer is thinking; take the move back once it has answered",
        ));
    }
    let mine = m.side_of(p).letter().to_string();
    let Some(last) = m.moves.iter().rposition(|e| e.by == mine) else {
        return Err(ApiError::conflict("you have no move to take back yet"));
    };
    // The position before the player's last move: replay what stays.
    let keep: Vec<(String, Option<String>)> = m.moves[..last]
        .iter()
        .map(|e| (e.mv.clone(), None))
        .collect();
    let (game, events) =
        Match::replay(m.current.start, m.rules, &keep).map_err(ApiError::internal)?;
    let to_ply = game.position().ply();
    let now = games.clock.now_ms();
    let mut after = m.clone();
    // The player's clock ran since the computer's reply: that time stays spent.
    if m.clock_running() == Some(p) {
        after.clock = m.clock.map(|c| c.spend(p, now));
    }
    after.game = game;
    after.moves = events.into();
    after.updated = now;
    after.clock_settle(now);
    let game_no = m.game_no;
    games
        .commit(
            slot,
            &mut m,
            Change {
                after,
                played: None,
                next: None,
                write: Write::Takeback {
                    game_no,
                    from_ply: now_ply,
                    to_ply,
                },
                at: now,
            },
        )
        .await?;
    Ok(games.state_text(slot, &m, Some(p)))
}

/// The answer of `GET /api/games/{id}/hint`.
#[derive(Debug, serde::Serialize)]
pub struct Hint {
    /// The best move found, canonical (NOT-1).
    #[serde(rename = "move")]
    pub mv: String,
    /// Its score for the side to move: `cp N` (centi-seeds), `win N` or `loss N` (plies),
    /// as the engine protocol writes it.
    pub score: String,
}

/// `GET /api/games/{id}/hint` -> `{"move": M, "score": S}`.
async fn hint(State(games): State<Arc<Games>>, seat: Seat) -> ApiResult<Response> {
    json(StatusCode::OK, &best_move(&games, &seat).await?)
}

/// The engine's best move for the player to move, who must be the caller: only in games
/// against the computer and pass and play, where no opponent is helped. Searches under
/// permits of the engine pool, like the computer players; a request dropped mid-search (the
/// client went away) stops its search.
async fn best_move(games: &Games, seat: &Seat) -> ApiResult<Hint> {
    let (pos, rules, history) = {
        let m = seat.slot.m.lock().await;
        let Some(p) = seat.player else {
            return Err(ApiError::forbidden(
                "only a player of this game may ask for a hint: your seat token is missing or wrong",
            ));
        };
        let vs_computer = m.players[1 - p].kind == PlayerKind::Computer;
        if !vs_computer && !m.local() {
            return Err(ApiError::conflict(
                "hints are given only in games against the computer and pass and play",
            ));
        }
        if m.to_move() != Some(p) {
            return Err(if m.to_move().is_none() {
                ApiError::game_over("the game is over")
            } else {
                ApiError::not_your_turn("a hint is for the player to move, and it is not your turn")
            });
        }
        let ps = m.game.positions();
        (
            *m.game.position(),
            m.rules,
            ps[..ps.len().saturating_sub(1)].to_vec(),
        )
    };
    let hint = games.engine.config().hint;
    let r = games
        .engine
        .search_for_request(rules, pos, history, hint, HINT_TIME)
        .await
        .map_err(ApiError::internal)?;
    let (best, score) = r
        .best
        .map(|b| (b, r.score))
        .ok_or_else(|| ApiError::game_over("the game is over"))?;
    Ok(Hint {
        mv: best.mv.to_string(),
        score: score.to_string(),
    })
}
