//! "My games" (docs/api.md, "My games"): a browser keeps the seats it holds (game id + token) and asks
//! `POST /api/games/mine` for the state of each, to list whose turn it is on the home page.
//!
//! One query reads every named game from the database (the truth, also with several
//! instances on one PostgreSQL); nothing is loaded into memory, no game is replayed. Each
//! token is checked against the stored hashes; a seat that is not (or no longer) valid is
//! listed under `refused` with the reason, so the page can forget it, while the others are
//! still answered.

use crate::domain::model::{side_json, BySide};
use crate::edge::account::session_hash;
use crate::edge::body::{json, Json};
use crate::error::{ApiError, ApiResult};
use crate::game::Games;
use crate::store::{SeatPlayer, SeatRow};
use crate::util;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use bao_rules::{Position, Rules, Side, Variant};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::Arc;

/// The route: `POST /api/games/mine`.
pub fn routes(games: Arc<Games>) -> Router {
    Router::new()
        .route("/api/games/mine", post(handle))
        .with_state(games)
}

/// `POST /api/games/mine`: the seats a browser holds, with whose turn it is.
async fn handle(
    State(games): State<Arc<Games>>,
    headers: HeaderMap,
    Json(req): Json<MineRequest>,
) -> ApiResult<Response> {
    let cookies = seat_cookies(&headers);
    // A signed-in browser also has the seats its account claimed (docs/api.md, "Accounts"),
    // read through the store: this feature knows nothing else of accounts.
    let claimed = match session_hash(&headers) {
        Some(hash) => {
            games
                .store
                .session_seats(&hash, util::now_ms(), MAX_SEATS as i64)
                .await?
        }
        None => Vec::new(),
    };
    json(StatusCode::OK, &mine(&games, req, cookies, claimed).await?)
}

/// Most seats one call may name (a browser keeps fewer: static/seats.js keeps 40).
pub const MAX_SEATS: usize = 50;

/// The request body: `{"games": [{"id", "token"}, ...]}`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MineRequest {
    /// The seats the browser holds.
    pub games: Vec<SeatRef>,
}

/// One seat held by the browser.
#[derive(Deserialize, Debug)]
pub struct SeatRef {
    /// Game id.
    pub id: String,
    /// The seat's token (as given by create or join).
    pub token: String,
}

/// A player of a summary.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct MinePlayer {
    /// `human` or `computer` (or any kind the store holds).
    pub kind: String,
    /// Display name.
    pub name: String,
    /// The computer's level.
    pub level: Option<i64>,
}

/// One game of the answer.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct MineGame {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// The side the token's player has in the current game of the match (BRD-8.2: the
    /// players change sides after every game).
    pub your_side: &'static str,
    /// The side to move, `null` once the game or match is over.
    pub to_move: Option<&'static str>,
    /// `live` or `finished` (the match).
    pub status: String,
    /// The current game's result: `-`, `S`, `N`, `draw`.
    pub result: String,
    /// The other seat is still open (the invite has not been used).
    pub waiting: bool,
    /// Players keyed by the sides of the current game.
    pub players: BySide<MinePlayer>,
    /// Ply of the current position.
    pub ply: i64,
    /// Game number in the match.
    pub game_no: i64,
    /// Last change, ms since the epoch.
    pub updated: i64,
    /// A rated match (docs/api.md, "Ratings").
    pub rated: bool,
}

/// A seat that was not answered, and why.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The id as sent (made printable).
    pub id: String,
    /// `not_found` or `forbidden`.
    pub error: &'static str,
    /// A sentence for people.
    pub message: String,
}

/// The answer: games by latest activity first, then the refused seats.
#[derive(Serialize, Debug, Default)]
pub struct MineAnswer {
    /// The games the tokens hold a seat in, newest `updated` first.
    pub games: Vec<MineGame>,
    /// Seats that are unknown or whose token is wrong.
    pub refused: Vec<Refused>,
}

/// Answers `POST /api/games/mine`. `cookies` are the seat cookies the request carried
/// ([`seat_cookies`]): their games are added when they are live and not named in the body
/// (games whose token the page never saw: made before it kept seats, or by another page),
/// never refused (a stale cookie of a deleted game says nothing), and only up to
/// [`MAX_SEATS`] games in all. `claimed` are the seats of the signed-in account, `(game id,
/// SHA-256 of the seat token)`: added like the cookies' but finished games too (the account's
/// games on a browser that never held them).
pub async fn mine(
    games: &Games,
    req: MineRequest,
    cookies: Vec<SeatRef>,
    claimed: Vec<(String, String)>,
) -> ApiResult<MineAnswer> {
    if req.games.len() > MAX_SEATS {
        return Err(ApiError::bad_request(format!(
            "at most {MAX_SEATS} games may be asked for at once ({} were sent)",
            req.games.len()
        )));
    }
    let mut out = MineAnswer::default();
    // Ids are short [a-z0-9]; anything else cannot be a game and is not sent to the database.
    let plausible = |id: &str| {
        !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
    };
    let mut seen = HashSet::new();
    let ids: Vec<&str> = req
        .games
        .iter()
        .map(|s| s.id.as_str())
        .filter(|id| plausible(id) && seen.insert(*id))
        .collect();
    let room = MAX_SEATS.saturating_sub(ids.len());
    // (id, token hash, live games only).
    let cookie_seats = cookies
        .iter()
        .map(|c| (c.id.clone(), util::hash_token(&c.token), true));
    let claimed_seats = claimed.into_iter().map(|(id, hash)| (id, hash, false));
    let mut more = HashSet::new();
    let extra: Vec<(String, String, bool)> = cookie_seats
        .chain(claimed_seats)
        .filter(|c| plausible(&c.0) && !seen.contains(c.0.as_str()) && more.insert(c.0.clone()))
        .take(room)
        .collect();
    let ids: Vec<&str> = ids
        .into_iter()
        .chain(extra.iter().map(|c| c.0.as_str()))
        .collect();
    let rows = games.store.seat_rows(&ids).await?;
    // In the order of the request, each id once.
    let mut done = HashSet::new();
    for s in &req.games {
        let id = s.id.as_str();
        if !done.insert(id) {
            continue;
        }
        let Some(row) = rows.iter().find(|r| r.id == id).filter(|_| plausible(id)) else {
            out.refused.push(not_found(id));
            continue;
        };
        // The same id may come twice (an old and a new token): any valid one answers.
        let found = req
            .games
            .iter()
            .filter(|x| x.id == id)
            .find_map(|x| summary(row, &util::hash_token(&x.token)));
        match found {
            Some(g) => out.games.push(g),
            None => out.refused.push(Refused {
                id: id.to_string(),
                error: "forbidden",
                message: format!("this browser's token holds no seat of game '{id}'"),
            }),
        }
    }
    for (id, hash, live_only) in &extra {
        let row = rows.iter().find(|r| &r.id == id);
        if let Some(g) = row.and_then(|r| summary(r, hash)) {
            if g.status == "live" || !live_only {
                out.games.push(g);
            }
        }
    }
    out.games
        .sort_by(|a, b| b.updated.cmp(&a.updated).then_with(|| a.id.cmp(&b.id)));
    Ok(out)
}

/// The seat cookies of a request (`bao_{id}={token}`, docs/api.md Seats), in header order.
/// Other cookies of ours (`bao_lang`) have no 32-hex-digit token and are left out.
pub fn seat_cookies(headers: &axum::http::HeaderMap) -> Vec<SeatRef> {
    let mut out = Vec::new();
    for v in headers.get_all(axum::http::header::COOKIE) {
        let Ok(text) = v.to_str() else { continue };
        for part in text.split(';') {
            let Some((k, val)) = part.trim().split_once('=') else {
                continue;
            };
            let (Some(id), token) = (k.strip_prefix("bao_"), val.trim()) else {
                continue;
            };
            if token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit()) {
                out.push(SeatRef {
                    id: id.to_string(),
                    token: token.to_string(),
                });
            }
        }
    }
    out
}

fn not_found(id: &str) -> Refused {
    Refused {
        id: bao_rules::printable(id).chars().take(64).collect(),
        error: "not_found",
        message: format!(
            "there is no game '{}'",
            bao_rules::printable(id)
                .chars()
                .take(64)
                .collect::<String>()
        ),
    }
}

/// A player as "My games" shows it.
fn shown(p: &SeatPlayer) -> MinePlayer {
    MinePlayer {
        kind: p.kind.clone(),
        name: p.name.clone(),
        level: p.level,
    }
}

/// The summary of `row` for the holder of the token whose SHA-256 is `h`, `None` when it
/// holds no seat there.
fn summary(row: &SeatRow, h: &str) -> Option<MineGame> {
    let holds = |p: usize| {
        row.players[p]
            .token_hash
            .as_deref()
            .is_some_and(|t| util::same_secret(t, h))
    };
    let (h0, h1) = (holds(0), holds(1));
    if !h0 && !h1 {
        return None;
    }
    let first = Side::from_letter(&row.first_side).unwrap_or(Side::South);
    // Player 0 plays `first_side` in odd games (BRD-8.2).
    let p0_side = if row.game_no % 2 == 1 {
        first
    } else {
        first.other()
    };
    let over = row.status != "live" || row.result != "-";
    let to_move = if over { None } else { side_to_move(row) };
    let your_side = match (h0, h1) {
        (true, false) => p0_side,
        (false, true) => p0_side.other(),
        // One token holding both seats (one device plays both sides): its side is the side
        // to move.
        _ => to_move.unwrap_or(p0_side),
    };
    let (south, north) = if p0_side == Side::South {
        (0, 1)
    } else {
        (1, 0)
    };
    Some(MineGame {
        id: row.id.clone(),
        variant: row.variant.clone(),
        your_side: side_json(your_side),
        to_move: to_move.map(side_json),
        status: row.status.clone(),
        result: row.result.clone(),
        waiting: row.invite.is_some(),
        players: BySide {
            south: shown(&row.players[south]),
            north: shown(&row.players[north]),
        },
        ply: row.ply,
        game_no: row.game_no,
        updated: row.updated,
        rated: row.rated,
    })
}

fn side_to_move(row: &SeatRow) -> Option<Side> {
    let variant = Variant::from_id(&row.variant)?;
    let rules = Rules::parse(variant, &row.rules).ok()?;
    Some(Position::parse(&row.position, &rules).ok()?.side())
}
