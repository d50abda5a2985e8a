//! The server's engine for the analysis board (docs/api.md, "Analysis"): `POST /api/analysis`
//! searches any position, as a hint does, under the same bounds: one search of the engine
//! pool (waiting its turn with the games' searches), at most [`ANALYSIS_TIME`] long, stopped
//! when the request goes away. The page's own engine (the browser's, crates/bao-wasm) is the
//! one it uses first; this is the stronger, optional second opinion.

use crate::edge::body::{json, Json};
use crate::edge::terms::{parse_rules, parse_variant};
use crate::engine_pool::EnginePool;
use crate::error::{ApiError, ApiResult, Category};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use bao_rules::{Position, Rules};
use std::time::Duration;

/// The longest one analysis searches (a hint's time).
pub const ANALYSIS_TIME: Duration = Duration::from_millis(700);
/// The longest position text read: a canonical position is under 100 bytes.
const MAX_POSITION: usize = 200;

/// The routes: `POST /api/analysis`.
pub fn routes(engine: EnginePool) -> Router {
    Router::new()
        .route("/api/analysis", post(analyse))
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
    // The variant and its options pass the same gate as every game's terms.
    let variant = parse_variant(req.variant.trim())?;
    let rules_text = req.rules.as_deref().map(str::trim).unwrap_or("-");
    let rules = parse_rules(variant, rules_text)?;
    let pos = Position::parse(&req.position, &rules)
        .map_err(|e| ApiError::of(Category::BadPosition, format!("the position is wrong: {e}")))?;
    Ok((rules, pos))
}

/// `POST /api/analysis` `{"variant","rules","position"}` -> `{"best","score","line","depth"}`.
async fn analyse(
    State(engine): State<EnginePool>,
    Json(req): Json<AnalysisRequest>,
) -> ApiResult<Response> {
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
