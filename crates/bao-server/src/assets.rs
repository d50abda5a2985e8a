//! The web app (crates/bao-server/web), embedded in the binary: no build step, no files to
//! install next to `bao`.

use crate::app::App;
use crate::error::ApiError;
use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use rust_embed::RustEmbed;
use std::sync::Arc;

#[derive(RustEmbed)]
#[folder = "web/"]
struct Web;

/// The page routes of docs/api.md.
pub fn pages() -> Router<Arc<App>> {
    Router::new()
        .route("/", get(|| async { file("index.html") }))
        .route("/g/{id}", get(|| async { file("game.html") }))
        .route("/replay", get(|| async { file("replay.html") }))
        .route(
            "/rules/{variant}",
            get(|Path(v): Path<String>| async move {
                if bao_rules::Variant::from_id(&v).is_none() {
                    return ApiError::not_found("there are rules for kiswahili, kete and kimasai")
                        .into_response();
                }
                file(&format!("rules-{v}.html"))
            }),
        )
        .route(
            "/static/{*path}",
            get(|Path(p): Path<String>| async move { file(&format!("static/{p}")) }),
        )
}

/// An embedded file, or 404.
pub fn file(path: &str) -> Response {
    if path.split('/').any(|c| c == ".." || c.is_empty()) {
        return ApiError::not_found("no such file").into_response();
    }
    match Web::get(path) {
        Some(f) => {
            let mime = f.metadata.mimetype();
            let ct = if mime.starts_with("text/") || mime.ends_with("javascript") {
                format!("{mime}; charset=utf-8")
            } else {
                mime.to_string()
            };
            (
                StatusCode::OK,
                [
                    (
                        header::CONTENT_TYPE,
                        HeaderValue::from_str(&ct).unwrap_or_else(|_| {
                            HeaderValue::from_static("application/octet-stream")
                        }),
                    ),
                    (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
                ],
                f.data.into_owned(),
            )
                .into_response()
        }
        None => ApiError::not_found(format!("no page {path}")).into_response(),
    }
}
