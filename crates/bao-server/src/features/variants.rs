//! What the home page and the rules pages need besides games (docs/api.md, "JSON API"): the
//! variants with their rule options, and a board picture of any position.

use crate::edge::body::json_text;
use crate::edge::terms::parse_rules;
use crate::error::{ApiError, ApiResult, Category};
use axum::extract::Query;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use bao_rules::{option_values, Position, Rules, Variant};
use std::collections::HashMap;

/// The routes: `GET /api/variants`, `GET /api/render/svg`.
pub fn routes() -> Router {
    Router::new()
        .route("/api/variants", get(variants))
        .route("/api/render/svg", get(render_svg))
}

/// One sentence per option, for the home page.
fn option_help(name: &str) -> &'static str {
    match name {
        "house_lost_at" => "When a player loses his house (nyumba): once it is emptied or captured, at his first mtaji capture, or at the end of namua.",
        "house_functional_min" => "How many seeds the house needs to keep its special powers (6 in Zanzibar; 5 in some regions).",
        "lone_house_tax" => "In namua, when the house is a player's only occupied front pit: take two seeds from it while it is functional, or keep at least the minimum in it.",
        "namua_singletons" => "In namua, whether a pit with one seed may be played while the house is functional, or while it is merely owned.",
        "mtaji_house_stop" => "Whether a mtaji capture that ends in the owned house may stop there instead of playing it (safari).",
        "takasia" => "Takasia: after a non-capturing move that threatens one single pit, that pit is blocked for the opponent's next move.",
        "takasia_excludes_singletons" => "Whether a pit holding a single seed can be blocked by takasia.",
        "takasia_house_protection" => "Which house takasia cannot block: a house still owned, or only a functional one (6 or more seeds).",
        "takasia_house_first_lap_exception" => "When a blocked player plays his owned house and its first lap ends in the blocked pit, the move carries on instead of stopping there (KIS-8.7).",
        "blocker_must_capture" => "Whether the blocker must capture the pit he reserved by takasia: not at all, with his first capture, or with any capture.",
        "first_takasa_from_kuu" => "Kete: the first non-capturing mtaji move must start from the kuu (house).",
        "front_row_empty" => "An empty front row loses at the end of the move, or a move that empties one's own front row is illegal.",
        "never_ending" => "A move that would never end is illegal, a draw, or a loss for the mover.",
        "repetition" => "Whether the third occurrence of the same position draws the game.",
        "max_plies" => "A draw after this many moves (none: no limit).",
        "match" => "A match is a single game, or best of three with the sides changing after every game.",
        "intro_pits" => "Kimasai: into which pits a new cow may be brought, any non-empty pit or only front pits.",
        "no_intro" => "Kimasai: which first moves are made without bringing in a cow.",
        "capture_compulsory" => "Kimasai: whether a capturing move must be chosen when there is one.",
        _ => "",
    }
}

async fn variants() -> Response {
    let list: Vec<serde_json::Value> = Variant::ALL
        .iter()
        .map(|&v| {
            let rules = Rules::new(v);
            let options: Vec<serde_json::Value> = Rules::option_names(v)
                .map(|n| {
                    let values: Vec<String> =
                        option_values(n).split(", ").map(str::to_string).collect();
                    serde_json::json!({
                        "name": n,
                        "values": values,
                        "default": rules.get(n),
                        "help": option_help(n),
                    })
                })
                .collect();
            serde_json::json!({
                "id": v.id(),
                "title": v.title(),
                "start": Position::start(&rules).to_string(),
                "options": options,
            })
        })
        .collect();
    json_text(StatusCode::OK, serde_json::Value::from(list).to_string())
}

async fn render_svg(Query(q): Query<HashMap<String, String>>) -> ApiResult<Response> {
    let text = q
        .get("position")
        .ok_or_else(|| ApiError::bad_request("position is required"))?;
    let bad = |m: String| ApiError::of(Category::BadPosition, m);
    let variant = Position::variant_of(text).map_err(|e| bad(e.to_string()))?;
    let rules = parse_rules(variant, q.get("rules").map_or("-", String::as_str))?;
    let pos = Position::parse(text, &rules).map_err(|e| bad(e.to_string()))?;
    let mut opts = bao_render::SvgOptions {
        size: None,
        // Decided under the rules asked for (a ply cap ends a game the defaults would not).
        over: Some(bao_rules::status(&pos, &rules).is_over()),
        // The words in the picture: the page's language (docs/i18n.md), English by default.
        lang: match q.get("lang").map(String::as_str) {
            None | Some("") => bao_render::Lang::En,
            Some(code) => bao_render::Lang::from_code(code).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "lang must be en or sw, not '{}'",
                    bao_rules::printable(code)
                ))
            })?,
        },
        ..Default::default()
    };
    if let Some(last) = q.get("last").filter(|s| !s.is_empty()) {
        opts.last_move = Some(
            bao_render::LastMove::parse(last, pos.side().other()).ok_or_else(|| {
                ApiError::of(
                    Category::BadMove,
                    format!("'{}' is not a move", bao_rules::printable(last)),
                )
            })?,
        );
    }
    Ok((
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("image/svg+xml"),
        )],
        bao_render::svg(&pos, &opts),
    )
        .into_response())
}
