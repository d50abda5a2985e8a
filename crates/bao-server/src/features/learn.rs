//! Jifunze / Learn (docs/api.md, "Learn"; docs/learn.md): the beginner lessons of bao-learn
//! served with their texts in the reader's language (`GET /api/learn/{variant}`), and the
//! moves a learner plays in a step checked by the rules through `bao_learn::check_step`
//! (`POST /api/learn/{variant}/check`).
//!
//! The lessons and their goals are bao-learn's; the texts are the `learn.` keys of the
//! message catalogs (`web/i18n/{en,sw}/learn.json`), looked up here so that a client needs no
//! catalog of its own (the pages' inline catalogs leave that area out, src/web/pages.rs).

use crate::edge::body::Json as JsonBody;
use crate::error::{ApiError, ApiResult, Category};
use crate::web::i18n::{self, Catalogs, Lang};
use axum::extract::{Path, Query};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use bao_learn::{check_step, course, Course, Goal, LearnError, Replies, Step};
use bao_rules::Variant;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// Most plies a check takes: the longest solution is a few moves, so 40 leaves room for a
/// learner who wanders and still bounds the rules' work per request.
pub const MAX_PLIES: usize = 40;
/// Longest text of one ply: a canonical move is at most a dozen characters (NOT-1).
pub const MAX_PLY_CHARS: usize = 32;

/// The courses and the catalogs, built once.
struct Learn {
    courses: [Course; 3],
    catalogs: Catalogs,
}

/// The learn routes. The catalogs are the embedded ones; a broken catalog is a build mistake
/// that the catalog tests catch, and the texts then fall back to their keys (logged).
pub fn routes() -> Router {
    let catalogs = Catalogs::load().unwrap_or_else(|e| {
        tracing::error!("learn: {e}");
        Catalogs::default()
    });
    let learn = Learn {
        courses: Variant::ALL.map(course),
        catalogs,
    };
    Router::new()
        .route("/api/learn/{variant}", get(lessons))
        .route("/api/learn/{variant}/check", post(check))
        .layer(Extension(Arc::new(learn)))
}

type State = Extension<Arc<Learn>>;

fn variant(name: &str) -> ApiResult<Variant> {
    Variant::from_id(name).ok_or_else(|| {
        ApiError::not_found(format!(
            "there are no lessons for {:?}: the games are kiswahili, kete and kimasai",
            bao_rules::printable(name)
        ))
    })
}

/// A step as the API shows it.
#[derive(Serialize)]
struct ShownStep<'a> {
    position: &'a str,
    text: &'a str,
    text_key: &'a str,
    goal: &'a Goal,
    solutions: &'a [String],
    rules: &'a [String],
    par: u32,
    hints: Vec<&'a str>,
    hint_keys: &'a [String],
    replies: &'a Replies,
}

#[derive(Serialize)]
struct ShownLesson<'a> {
    id: &'a str,
    title: &'a str,
    title_key: &'a str,
    steps: Vec<ShownStep<'a>>,
}

#[derive(Serialize)]
struct ShownCourse<'a> {
    variant: &'static str,
    lang: &'static str,
    lessons: Vec<ShownLesson<'a>>,
}

/// The reader's language: `?lang=`, the `bao_lang` cookie, `Accept-Language` ([`i18n::choose`]).
fn language(query: &HashMap<String, String>, headers: &HeaderMap) -> Lang {
    let cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|c| i18n::cookie_value(c, i18n::COOKIE));
    let accept = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok());
    i18n::choose(query.get("lang").map(String::as_str), cookie, accept)
}

async fn lessons(
    Extension(learn): State,
    Path(name): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let v = variant(&name)?;
    let lang = language(&query, &headers);
    let c = &learn.courses[v.index()];
    let shown = ShownCourse {
        variant: v.id(),
        lang: lang.code(),
        lessons: c
            .lessons
            .iter()
            .map(|l| ShownLesson {
                id: &l.id,
                title: lookup(&learn.catalogs, lang, &l.title_key),
                title_key: &l.title_key,
                steps: l
                    .steps
                    .iter()
                    .map(|s| shown_step(&learn.catalogs, lang, s))
                    .collect(),
            })
            .collect(),
    };
    let mut response = Json(shown).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_LANGUAGE,
        HeaderValue::from_static(lang.code()),
    );
    h.insert(
        header::VARY,
        HeaderValue::from_static("Accept-Language, Cookie"),
    );
    Ok(response)
}

/// The text of `key` in `lang`. A key missing from the catalog shows as itself: the lesson
/// tests keep every key in both catalogs, so this only softens a broken build.
fn lookup<'a>(catalogs: &'a Catalogs, lang: Lang, key: &'a str) -> &'a str {
    catalogs.get(lang, key).unwrap_or(key)
}

fn shown_step<'a>(catalogs: &'a Catalogs, lang: Lang, s: &'a Step) -> ShownStep<'a> {
    ShownStep {
        position: &s.position,
        text: lookup(catalogs, lang, &s.text_key),
        text_key: &s.text_key,
        goal: &s.goal,
        solutions: &s.solutions,
        rules: &s.rules,
        par: s.par,
        hints: s.hints.iter().map(|k| lookup(catalogs, lang, k)).collect(),
        hint_keys: &s.hints,
        replies: &s.replies,
    }
}

/// The plies played in one step.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckReq {
    /// The lesson's id.
    lesson: String,
    /// The step's index in the lesson, from 0.
    step: usize,
    /// The plies from the step's position, the learner's first, the replies between.
    moves: Vec<String>,
}

#[derive(Serialize)]
struct CheckResp {
    done: bool,
    stars: u8,
    moves: u32,
}

async fn check(
    Extension(learn): State,
    Path(name): Path<String>,
    JsonBody(req): JsonBody<CheckReq>,
) -> ApiResult<Json<CheckResp>> {
    let v = variant(&name)?;
    let c = &learn.courses[v.index()];
    let lesson = c
        .lessons
        .iter()
        .find(|l| l.id == req.lesson)
        .ok_or_else(|| {
            let ids: Vec<&str> = c.lessons.iter().map(|l| l.id.as_str()).collect();
            ApiError::bad_request(format!(
                "{} has no lesson {:?}; its lessons are {}",
                v.id(),
                bao_rules::printable(&req.lesson),
                ids.join(", ")
            ))
        })?;
    let step = lesson.steps.get(req.step).ok_or_else(|| {
        ApiError::bad_request(format!(
            "lesson {} has steps 0 to {}, not {}",
            lesson.id,
            lesson.steps.len().saturating_sub(1),
            req.step
        ))
    })?;
    if req.moves.len() > MAX_PLIES {
        return Err(ApiError::bad_request(format!(
            "at most {MAX_PLIES} moves are checked at once, not {}",
            req.moves.len()
        )));
    }
    if let Some((i, _)) = req
        .moves
        .iter()
        .enumerate()
        .find(|(_, m)| m.chars().count() > MAX_PLY_CHARS)
    {
        return Err(ApiError::bad_request(format!(
            "move {} is longer than {MAX_PLY_CHARS} characters: no move is that long",
            i + 1
        )));
    }
    let plies: Vec<&str> = req.moves.iter().map(String::as_str).collect();
    let r = check_step(step, &plies).map_err(refusal)?;
    Ok(Json(CheckResp {
        done: r.done,
        stars: r.stars,
        moves: r.moves,
    }))
}

/// A refused check in the contract's categories: a move the rules refuse as for a game
/// (`bad_move`, `illegal_move`, `ambiguous_move`), a reply off the script, a move after the end.
fn refusal(e: LearnError) -> ApiError {
    match e {
        LearnError::Move { ply, text, error } => {
            let mut a = ApiError::from(error);
            a.message = format!(
                "move {} ({:?}): {}",
                ply + 1,
                bao_rules::printable(&text),
                a.message
            );
            a
        }
        LearnError::OffScript { .. } => ApiError::bad_request(format!(
            "{e}; the lesson plays that reply, so start the step again"
        )),
        LearnError::GameOver { ply } => ApiError::of(
            Category::GameOver,
            format!("move {}: the game is already over", ply + 1),
        ),
        LearnError::Position { .. } => ApiError::internal(e),
    }
}
