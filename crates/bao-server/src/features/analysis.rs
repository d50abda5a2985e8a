//! The server's engine for the analysis board (docs/api.md, "Analysis"): `POST /api/analysis`
//! searches any position, as a hint does, under the same bounds: one search of the engine
//! pool (waiting its turn with the games' searches), at most [`ANALYSIS_TIME`] long, stopped
//! when the request goes away. The page's own engine (the browser's, crates/bao-wasm) is the
//! one it uses first; this is the stronger, optional second opinion.

use crate::edge::body::{json, json_body, MAX_JSON};
use crate::engine_pool::EnginePool;
use crate::error::{ApiError, ApiResult};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use bao_rules::{Position, Rules, Variant};
use std::time::Duration;

/// The longest one analysis searches (a hint's time).
pub const ANALYSIS_TIME: Duration = Duration::from_millis(700);
/// The longest position text read: a canonical position is under 100 bytes.
const MAX_POSITION: usize = 200;
/// The longest option string read (every option changed is under 400 bytes).
const MAX_RULES: usize = 600;

/// The routes: `POST /api/analysis`.
pub fn routes(engine: EnginePool) -> Router {
    Router::new()
        .route("/api/analysis", post(analyse))
        .layer(DefaultBodyLimit::max(MAX_JSON))
        .with_state(engine)
}

/// The body of `POST /api/analysis`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// `kiswahili`, `kete` or `kimasai`.
    pub variant: String,
    /// Rule options (OPT-1); absent, empty or `-` for the defaults.
    #[serde(default)]
    pub rules: Option<String>,
    /// A position (NOT-3) of the variant, or the variant's name for its start.
    pub position: String,
}

/// The answer of `POST /api/analysis`.
#[derive(Debug, serde::Serialize)]
pub struct Analysis {
    /// The best move (canonical, NOT-1).
    pub best: String,
    /// Its score for the side to move, as the engine protocol writes it: `cp N`
    /// (centi-seeds), `win N` or `loss N` (plies).
    pub score: String,
    /// The principal variation, starting with `best`.
    pub line: Vec<String>,
    /// The depth the search completed.
    pub depth: u32,
}

/// The rules and position of a request, checked by the rules crate: 400 with its words.
fn read(req: &AnalysisRequest) -> ApiResult<(Rules, Position)> {
    if req.position.len() > MAX_POSITION {
        return Err(ApiError::too_large(format!(
            "a position is at most {MAX_POSITION} characters"
        )));
    }
    let rules_text = req.rules.as_deref().map(str::trim).unwrap_or("-");
    if rules_text.len() > MAX_RULES {
        return Err(ApiError::too_large(format!(
            "the rule options are at most {MAX_RULES} characters"
        )));
    }
    let variant = Variant::from_id(req.variant.trim()).ok_or_else(|| {
        ApiError::bad_request(format!(
            "there is no variant '{}': kiswahili, kete and kimasai are played",
            bao_rules::printable(&req.variant)
        ))
    })?;
    let rules = Rules::parse(
        variant,
        if rules_text.is_empty() {
            "-"
        } else {
            rules_text
        },
    )
    .map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_rules",
            format!("the rule options are wrong: {e}"),
        )
    })?;
    let pos = Position::parse(&req.position, &rules).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_position",
            format!("the position is wrong: {e}"),
        )
    })?;
    Ok((rules, pos))
}

/// `POST /api/analysis` `{"variant","rules","position"}` -> `{"best","score","line","depth"}`.
async fn analyse(
    State(engine): State<EnginePool>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: AnalysisRequest = json_body(body)?;
    let (rules, pos) = read(&req)?;
    if bao_rules::status(&pos, &rules).is_over() {
        return Err(ApiError::game_over(
            "the game is over in this position: there is no move to analyse",
        ));
    }
    let r = engine
        .search_for_request(rules, pos, Vec::new(), None, ANALYSIS_TIME)
        .await
        .map_err(ApiError::internal)?;
    let best = r
        .best
        .ok_or_else(|| ApiError::game_over("the game is over in this position"))?;
    json(
        StatusCode::OK,
        &Analysis {
            best: best.mv.to_string(),
            score: r.score.to_string(),
            line: r.pv.iter().map(|m| m.to_string()).collect(),
            depth: r.depth,
        },
    )
}
