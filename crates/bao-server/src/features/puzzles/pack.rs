//! The offline pack (docs/api.md, "Puzzles"): a fixed set of shipped puzzles per game, for the
//! service worker to keep so that a player without network can solve them. Versioned: a new
//! version when the data files or the choice change, so that a cached pack is replaced.

use super::{variant_and_theme, view, Cat, Shown};
use crate::error::ApiResult;
use axum::extract::Query;
use axum::Json;
use serde::Serialize;
use std::collections::HashMap;

/// Puzzles in a pack, per game.
pub const PACK_SIZE: usize = 100;
/// The pack's version.
pub const PACK_VERSION: u32 = 1;

/// A pack.
#[derive(Serialize)]
pub(super) struct Pack {
    version: u32,
    variant: &'static str,
    /// Evenly spread over the data file, easy ones first, each with its legal moves.
    puzzles: Vec<Shown>,
}

pub(super) async fn pack(
    axum::Extension(live): Cat,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Json<Pack>> {
    let (v, _) = variant_and_theme(&q)?;
    let cat = live.now();
    let all = cat.shipped(v);
    let n = all.len().min(PACK_SIZE);
    let puzzles = (0..n)
        .map(|i| view(&all[i * all.len() / n], true))
        .collect();
    Ok(Json(Pack {
        version: PACK_VERSION,
        variant: v.id(),
        puzzles,
    }))
}
