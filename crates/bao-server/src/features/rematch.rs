//! The rematch of a finished match (docs/api.md, "Play: rematch"): same variant, rules, start
//! and clock, each player on the other side, rated only if the first was. Against a person
//! it is an offer: the other player accepts or declines it, and only an accepted offer
//! makes a game. An offer lapses when the asker leaves the game or after
//! [`crate::game::Lifecycle::rematch_offer_for`]; two offers crossing make one game. Against
//! the computer, in pass and play, or with the other seat never taken, asking makes the
//! game at once. One rematch per match on every instance (the store's condition).

use crate::domain::model::{Match, NewMatch, PlayerKind, RematchOffer};
use crate::edge::body::{json_text, JsonOrEmpty};
use crate::error::{ApiError, ApiResult, Category};
use crate::game::commit::CommitError;
use crate::game::seat::cookie;
use crate::game::{Alert, AlertKind, Change, Games, Recipient, Seat, Slot};
use crate::store::Write;
use crate::util;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use std::sync::Arc;

/// The routes: `POST /api/games/{id}/rematch`, `.../rematch/decline`, `.../rematch/cancel`.
pub fn routes(games: Arc<Games>) -> Router {
    Router::new()
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/rematch/decline", post(decline))
        .route("/api/games/{id}/rematch/cancel", post(cancel))
        .with_state(games)
}

/// The body of `POST /api/games/{id}/rematch` (optional).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Ask {
    /// Only accept the other player's standing offer; never make an offer of one's own
    /// (the home page's Accept, which must not turn into an offer once the first lapsed).
    #[serde(default)]
    accept: bool,
}

/// What asking did.
enum Asked {
    /// The new game exists (made now or before).
    Made(String),
    /// The caller's offer stands, for this long (ms).
    Offered(i64),
}

/// `POST /api/games/{id}/rematch` `{"accept"?: bool}` -> 200 `{"id": NEW, "url"}` with the
/// caller's seat cookie for the new game when the game is made, or 202 `{"offered": true,
/// "expires_in_ms"}` while the caller's offer waits for the other player.
async fn rematch(
    State(games): State<Arc<Games>>,
    seat: Seat,
    // An empty body asks as `{}` does.
    JsonOrEmpty(Ask { accept }): JsonOrEmpty<Ask>,
) -> ApiResult<Response> {
    match ask(&games, &seat, accept).await? {
        Asked::Made(new) => {
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
        Asked::Offered(ms) => Ok(json_text(
            StatusCode::ACCEPTED,
            serde_json::json!({"offered": true, "expires_in_ms": ms}).to_string(),
        )),
    }
}

/// The player of `seat`, or 403.
fn player_of(seat: &Seat, what: &str) -> ApiResult<usize> {
    seat.player.ok_or_else(|| {
        ApiError::forbidden(format!(
            "only a player of this game may {what}: your seat token is missing or wrong"
        ))
    })
}

/// Attempts at a decision that another instance changed under us (each conflict reloads
/// the match, so the next attempt decides on what won).
const ATTEMPTS: usize = 3;

/// Accepts the other player's standing offer, or makes the game where nobody has to agree,
/// or makes (or keeps) the caller's own offer.
async fn ask(games: &Games, seat: &Seat, accept_only: bool) -> ApiResult<Asked> {
    let slot = &seat.slot;
    let p = player_of(seat, "ask for a rematch")?;
    for _ in 0..ATTEMPTS {
        let mut m = slot.m.lock().await;
        if let Some((r, _)) = &m.rematch {
            return Ok(Asked::Made(r.clone()));
        }
        if m.read_only || !m.finished {
            return Err(ApiError::conflict(
                "a rematch can be asked for once the game is over",
            ));
        }
        let (now, connected, other) = (games.clock.now_ms(), slot.connected(), 1 - p);
        let offer = m.rematch_offer;
        // Who must agree: a person holding the other seat (not the computer, not the same
        // person in pass and play, not a seat nobody ever took).
        let needs_answer = !m.local()
            && m.players[other].kind == PlayerKind::Human
            && m.players[other].token_hash.is_some();
        let theirs = offer.filter(|o| o.by == other && o.stands(now, connected));
        if !needs_answer || theirs.is_some() {
            let first = theirs.map_or(p, |o| o.by);
            match make(games, slot, &mut m, first, now).await {
                Ok(id) => return Ok(Asked::Made(id)),
                Err(CommitError::Conflict(_)) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        if accept_only {
            return Err(ApiError::of(
                Category::RematchLapsed,
                "the rematch offer no longer stands: its player left the game or a minute passed",
            ));
        }
        if let Some(o) = offer.filter(|o| o.by == p) {
            if o.declined {
                return Err(ApiError::of(
                    Category::RematchDeclined,
                    format!("{} declined the rematch", m.players[other].name),
                ));
            }
            if o.stands(now, connected) {
                return Ok(Asked::Offered(o.until - now));
            }
        }
        let o = RematchOffer {
            by: p,
            until: now + games.lifecycle.rematch_offer_for.as_millis() as i64,
            watching: connected[p],
            declined: false,
        };
        match set_offer(games, slot, &mut m, Some(o), now).await {
            Ok(()) => {}
            Err(CommitError::Conflict(_)) => continue,
            Err(e) => return Err(e.into()),
        }
        // The other player is told where they are: their game page by the state just sent,
        // elsewhere by an alert (the home page's player socket reads the offer from the store).
        if !connected[other] {
            let to = match &m.accounts[other] {
                Some(a) => Recipient::Account(a.id.clone()),
                None => Recipient::Seat {
                    game: m.id.clone(),
                    player: other,
                },
            };
            games.alerts.publish(Alert {
                to,
                kind: AlertKind::RematchOffer {
                    game: m.id.clone(),
                    from: m.players[p].name.clone(),
                },
            });
        }
        return Ok(Asked::Offered(o.until - now));
    }
    Err(ApiError::conflict(
        "the rematch changed several times meanwhile; ask again",
    ))
}

/// `POST /api/games/{id}/rematch/decline` -> 200 `{"declined": true}`: the other player's
/// standing offer is refused; its player sees it and cannot ask again in this game.
async fn decline(State(games): State<Arc<Games>>, seat: Seat) -> ApiResult<Response> {
    let p = player_of(&seat, "decline a rematch")?;
    answer(&games, &seat.slot, |m, now, connected| {
        let o = m
            .rematch_offer
            .filter(|o| o.by != p && o.stands(now, connected))
            .ok_or_else(|| ApiError::conflict("there is no rematch offer to decline"))?;
        Ok(Some(RematchOffer {
            declined: true,
            ..o
        }))
    })
    .await?;
    Ok(json_text(
        StatusCode::OK,
        r#"{"declined":true}"#.to_string(),
    ))
}

/// `POST /api/games/{id}/rematch/cancel` -> 200 `{"cancelled": true}`: the caller withdraws
/// their own offer before it is answered.
async fn cancel(State(games): State<Arc<Games>>, seat: Seat) -> ApiResult<Response> {
    let p = player_of(&seat, "withdraw a rematch offer")?;
    answer(&games, &seat.slot, |m, now, connected| {
        m.rematch_offer
            .filter(|o| o.by == p && o.stands(now, connected))
            .ok_or_else(|| ApiError::conflict("you have no rematch offer waiting"))?;
        Ok(None)
    })
    .await?;
    Ok(json_text(
        StatusCode::OK,
        r#"{"cancelled":true}"#.to_string(),
    ))
}

/// Sets the offer to what `decide` makes of the match as it stands (again after a conflict).
async fn answer(
    games: &Games,
    slot: &Arc<Slot>,
    decide: impl Fn(&Match, i64, [bool; 2]) -> ApiResult<Option<RematchOffer>>,
) -> ApiResult<()> {
    for _ in 0..ATTEMPTS {
        let mut m = slot.m.lock().await;
        if m.rematch.is_some() {
            return Err(ApiError::conflict("the rematch has been made already"));
        }
        let now = games.clock.now_ms();
        let offer = decide(&m, now, slot.connected())?;
        match set_offer(games, slot, &mut m, offer, now).await {
            Ok(()) => return Ok(()),
            Err(CommitError::Conflict(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::conflict(
        "the rematch changed several times meanwhile; try again",
    ))
}

/// Commits the offer `offer` (one write path; the store's condition on the version makes
/// two crossing offers one).
async fn set_offer(
    games: &Games,
    slot: &Arc<Slot>,
    m: &mut Match,
    offer: Option<RematchOffer>,
    now: i64,
) -> Result<(), CommitError> {
    let mut after = m.clone();
    after.rematch_offer = offer;
    let change = Change {
        after,
        played: None,
        next: None,
        write: Write::RematchOffer {
            version: m.version,
            offer,
        },
        at: now,
    };
    games.commit(slot, m, change).await
}

/// Makes the rematch of `m`, asked for first by player `first`; returns its id.
async fn make(
    games: &Games,
    slot: &Arc<Slot>,
    m: &mut Match,
    first: usize,
    now: i64,
) -> Result<String, CommitError> {
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
    after.rematch = Some((new.id.clone(), first));
    after.rematch_offer = None;
    after.updated = now;
    let change = Change {
        after,
        played: None,
        next: None,
        write: Write::Rematch {
            by: first,
            new: Box::new(new.clone()),
        },
        at: now,
    };
    games.commit(slot, m, change).await?;
    let id = new.id.clone();
    games.open(new);
    Ok(id)
}
