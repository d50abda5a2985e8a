//! The fair-play calls (docs/api.md, "Fair play"): reports, the moderators' queue, an
//! account's figures, actions, and what a player is told of the actions on their account.

use super::{judge_account, Judged, REPORTS_PER_DAY};
use crate::domain::names::clean_text;
use crate::edge::account::{Account, MaybeAccount};
use crate::edge::body::{json, Json};
use crate::error::{ApiError, ApiResult, Category};
use crate::game::Games;
use crate::store::{AccountRow, ReportAdded, ReportRow, Store};
use crate::util;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use bao_rules::Variant;
use serde::Deserialize;
use serde_json::{json as j, Value};
use std::sync::Arc;

/// A report's reason, at most (characters).
pub const MAX_REASON: usize = 500;
/// Reports and accounts in the queue, at most.
const QUEUE: i64 = 100;

/// The routes.
pub fn routes(games: Arc<Games>) -> Router {
    Router::new()
        .route("/api/reports", post(report))
        .route("/api/fair-play/mine", get(mine))
        .route("/api/mod/queue", get(queue))
        .route("/api/mod/users/{name}", get(user))
        .route("/api/mod/users/{name}/action", post(action))
        .with_state(games)
}

async fn account_named(store: &Store, name: &str) -> ApiResult<AccountRow> {
    let name = name.trim();
    if name.is_empty() || name.len() > 40 {
        return Err(ApiError::no_such_user(name));
    }
    store
        .account_by_name(&name.to_ascii_lowercase())
        .await?
        .ok_or_else(|| ApiError::no_such_user(name))
}

/// A moderator's account, or 401 / 403 `not_moderator`.
fn moderator(who: &MaybeAccount) -> ApiResult<&Account> {
    let a = who.required_for("moderating")?;
    if !a.moderator {
        return Err(ApiError::of(
            Category::NotModerator,
            "only moderators may see this or act",
        ));
    }
    Ok(a)
}

/// A reason as stored: cleaned, 1 to [`MAX_REASON`] characters.
fn reason_of(text: &str, what: &str) -> ApiResult<String> {
    let r = clean_text(text, true);
    if r.is_empty() {
        return Err(ApiError::bad_request(format!("{what} is empty: say why")));
    }
    if r.chars().count() > MAX_REASON {
        return Err(ApiError::bad_request(format!(
            "{what} is longer than {MAX_REASON} characters"
        )));
    }
    Ok(r)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportReq {
    username: String,
    game: Option<String>,
    reason: String,
}

/// `POST /api/reports`.
async fn report(
    State(g): State<Arc<Games>>,
    who: MaybeAccount,
    Json(req): Json<ReportReq>,
) -> ApiResult<Response> {
    let me = who.required_for("reporting a player")?;
    let target = account_named(&g.store, &req.username).await?;
    if target.id == me.id {
        return Err(ApiError::bad_request("you cannot report yourself"));
    }
    let reason = reason_of(&req.reason, "the reason")?;
    if let Some(game) = &req.game {
        let played = match g.store.load(game.trim()).await? {
            Some(m) => m.accounts.iter().flatten().any(|a| a.id == target.id.0),
            None => false,
        };
        if !played {
            return Err(ApiError::bad_request(format!(
                "game '{}' is not one of {}'s games",
                game.chars().take(20).collect::<String>(),
                target.username
            )));
        }
    }
    let id = util::random_code(10);
    let added = g
        .store
        .add_report(
            (&id, &me.id.0, &target.id.0),
            req.game.as_deref().map(str::trim),
            &reason,
            g.clock.now_ms(),
            REPORTS_PER_DAY,
        )
        .await?;
    match added {
        ReportAdded::Added(id) => json(StatusCode::CREATED, &j!({"id": id, "already": false})),
        ReportAdded::Open(id) => json(StatusCode::OK, &j!({"id": id, "already": true})),
        ReportAdded::Limited => Err(ApiError::of(
            Category::TooManyReports,
            format!("you made {REPORTS_PER_DAY} reports today; please wait a day"),
        )),
    }
}

/// `GET /api/fair-play/mine`: the actions on the caller's account (the moderator's name
/// is not shown).
async fn mine(State(g): State<Arc<Games>>, who: MaybeAccount) -> ApiResult<Response> {
    let me = who.required_for("your fair-play record")?;
    let actions = g.store.mod_actions(&me.id.0, 50).await?;
    let actions: Vec<Value> = actions
        .iter()
        .filter(|a| a.action != "close")
        .map(|a| j!({"action": a.action, "reason": a.reason, "at": a.at}))
        .collect();
    json(
        StatusCode::OK,
        &j!({"marked": me.marked, "moderator": me.moderator, "actions": actions}),
    )
}

fn report_json(r: &ReportRow) -> Value {
    j!({"id": r.id, "username": r.username, "reporter": r.reporter, "game": r.game,
        "reason": r.reason, "at": r.at, "open": r.closed.is_none()})
}

fn judged_json(username: &str, jd: &Judged) -> Value {
    let verdict = jd.verdict.map(|v| {
        j!({"games": v.games, "moves": v.moves, "top_share": v.top_share,
            "average_loss": v.average_loss, "z_share": v.z_share, "z_loss": v.z_loss,
            "score": v.score, "stands_out": v.stands_out})
    });
    let norm = jd
        .norm
        .map(|n| j!({"games": n.games, "top_share": n.mean_share, "average_loss": n.mean_loss}));
    let games: Vec<Value> = jd
        .games
        .iter()
        .map(|f| {
            j!({"game": f.game_id, "game_no": f.game_no, "moves": f.moves, "top": f.top,
                "average_loss": if f.moves == 0 { 0.0 } else { f.loss_sum as f64 / f64::from(f.moves) },
                "rating": f.rating.round(), "at": f.at})
        })
        .collect();
    j!({"username": username, "variant": jd.variant, "verdict": verdict, "norm": norm,
        "games": games})
}

/// `GET /api/mod/queue`: the open reports, the oldest first, and the accounts that stand
/// out, the highest score first.
async fn queue(State(g): State<Arc<Games>>, who: MaybeAccount) -> ApiResult<Response> {
    moderator(&who)?;
    let reports = g.store.reports(None, QUEUE).await?;
    let since = g.clock.now_ms() - super::CATCH_UP_MS * 4;
    let candidates = g
        .store
        .fairplay_candidates(since, bao_engine::fairplay::MIN_GAMES as i64, QUEUE)
        .await?;
    let mut out: Vec<(f64, Value)> = Vec::new();
    for (account, username, variant) in candidates {
        let jd = judge_account(&g.store, &account, &variant).await?;
        if let Some(v) = jd.verdict.filter(|v| v.stands_out) {
            let mut view = judged_json(&username, &jd);
            view.as_object_mut().map(|o| o.remove("games"));
            out.push((v.score, view));
        }
    }
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    let standing: Vec<Value> = out.into_iter().map(|(_, v)| v).collect();
    json(
        StatusCode::OK,
        &j!({"reports": reports.iter().map(report_json).collect::<Vec<_>>(),
             "standing_out": standing}),
    )
}

/// `GET /api/mod/users/{name}`: an account's figures in every variant it played rated,
/// its reports and the actions on it.
async fn user(
    State(g): State<Arc<Games>>,
    who: MaybeAccount,
    Path(name): Path<String>,
) -> ApiResult<Response> {
    moderator(&who)?;
    let a = account_named(&g.store, &name).await?;
    let mut variants = Vec::new();
    for v in Variant::ALL {
        let jd = judge_account(&g.store, &a.id.0, v.id()).await?;
        if !jd.games.is_empty() {
            variants.push(judged_json(&a.username, &jd));
        }
    }
    let reports = g.store.reports(Some(&a.id.0), QUEUE).await?;
    let actions = g.store.mod_actions(&a.id.0, 100).await?;
    json(
        StatusCode::OK,
        &j!({"username": a.username, "marked": a.marked, "variants": variants,
             "reports": reports.iter().map(report_json).collect::<Vec<_>>(),
             "actions": actions.iter().map(|x| j!({"action": x.action, "reason": x.reason,
                 "moderator": x.moderator, "at": x.at})).collect::<Vec<_>>()}),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionReq {
    action: String,
    reason: String,
}

/// `POST /api/mod/users/{name}/action`.
async fn action(
    State(g): State<Arc<Games>>,
    who: MaybeAccount,
    Path(name): Path<String>,
    Json(req): Json<ActionReq>,
) -> ApiResult<Response> {
    let me = moderator(&who)?;
    if !matches!(req.action.as_str(), "warn" | "mark" | "unmark" | "close") {
        return Err(ApiError::bad_request(
            "action must be warn, mark, unmark or close",
        ));
    }
    let reason = reason_of(&req.reason, "the reason")?;
    let a = account_named(&g.store, &name).await?;
    let done = g
        .store
        .mod_action(
            (&util::random_code(12), &a.id.0, &me.id.0),
            &req.action,
            &reason,
            g.clock.now_ms(),
        )
        .await?;
    let points: f64 = done.refunds.iter().map(|r| r.points).sum();
    json(
        StatusCode::OK,
        &j!({"action": req.action, "changed": done.changed, "closed": done.closed,
             "refunds": done.refunds.len(), "points": points.round() as i64}),
    )
}
