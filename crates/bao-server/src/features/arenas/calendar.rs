//! The calendar (docs/api.md, "Calendar"): the coming and running arenas that are listed,
//! in start order, with what a player needs to decide to come (the game, the clock, the
//! length, who joined, the club) and whether they joined already.

use super::state;
use crate::edge::account::MaybeAccount;
use crate::edge::body::json;
use crate::error::ApiResult;
use crate::game::Games;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;

/// Events one calendar answers at most.
pub const CALENDAR_LIMIT: i64 = 50;

/// `GET /api/calendar` -> `{"now", "events": [...]}`.
pub async fn calendar(
    State(games): State<Arc<Games>>,
    viewer: MaybeAccount,
) -> ApiResult<Response> {
    let rows = games.store.arena_calendar(CALENDAR_LIMIT).await?;
    let mut clubs: HashMap<String, Option<String>> = HashMap::new();
    let mut events = Vec::with_capacity(rows.len());
    for a in &rows {
        let players = games.store.arena_players(&a.id).await?;
        let mut e = state::summary(a, players.len());
        e["kind"] = "arena".into();
        e["minutes"] = ((a.ends_at - a.starts_at) / 60_000).into();
        if let Some(club) = &a.club {
            if !clubs.contains_key(club) {
                let name = games.store.club(club).await?.map(|c| c.name);
                clubs.insert(club.clone(), name);
            }
            e["club"] = json!({"id": club, "name": clubs[club]});
        }
        if let Some(me) = viewer.id() {
            let p = players.iter().find(|p| p.account_id == me);
            // May this player join: everyone, or a club's members.
            let may = match &a.club {
                None => true,
                Some(club) => games.store.club_role(club, me).await?.is_some(),
            };
            e["you"] = json!({
                "joined": p.is_some_and(|p| !p.paused),
                "may_join": may,
            });
        }
        events.push(e);
    }
    json(
        StatusCode::OK,
        &json!({"now": games.clock.now_ms(), "events": events}),
    )
}
