//! Blocking (docs/api.md, "Blocking"): an account that blocked another is never paired with
//! it, never challenged by it, and neither accepts the other's seek.

use super::challenges::named;
use super::{Seeks, MAX_BLOCKS};
use crate::edge::account::Account;
use crate::edge::body::{json, Json};
use crate::error::{ApiError, ApiResult, Category};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

#[derive(Deserialize)]
pub(super) struct BlockReq {
    username: String,
}

/// `POST /api/blocks`: also cancels the open challenges between the two.
pub(super) async fn block(
    State(s): State<Arc<Seeks>>,
    me: Account,
    Json(req): Json<BlockReq>,
) -> ApiResult<Response> {
    let other = named(&s, req.username.trim()).await?;
    if other.id == me.id {
        return Err(ApiError::bad_request("you cannot block yourself"));
    }
    let store = &s.games.store;
    if store.count_blocks(&me.id.0).await? >= MAX_BLOCKS {
        return Err(ApiError::of(
            Category::TooManyBlocks,
            format!("you have blocked {MAX_BLOCKS} players already"),
        ));
    }
    store.block(&me.id.0, &other.id.0, s.now_ms()).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `DELETE /api/blocks/{username}`.
pub(super) async fn unblock(
    State(s): State<Arc<Seeks>>,
    Path(name): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    let other = named(&s, name.trim()).await?;
    s.games.store.unblock(&me.id.0, &other.id.0).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `GET /api/blocks`.
pub(super) async fn list(State(s): State<Arc<Seeks>>, me: Account) -> ApiResult<Response> {
    let names = s.games.store.blocked_names(&me.id.0, MAX_BLOCKS).await?;
    json(StatusCode::OK, &json!({ "blocked": names }))
}
