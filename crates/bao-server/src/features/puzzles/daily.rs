//! The daily puzzle (docs/api.md, "Puzzles"): one puzzle a game a UTC day, the same for
//! everyone on every instance, chosen from the date alone (nothing is written) among the
//! shipped puzzles of medium difficulty: the middle third of each data file, whose order
//! is easy to hard.

use super::{variant_and_theme, view, Cat, Catalogue, Puzzle, Shown};
use crate::error::{ApiError, ApiResult};
use crate::util::Clock;
use axum::extract::Query;
use axum::{Extension, Json};
use bao_rules::Variant;
use serde::Serialize;
use std::collections::HashMap;

const DAY_MS: i64 = 86_400_000;

/// The shipped puzzles of medium difficulty of a variant.
pub fn medium(cat: &Catalogue, v: Variant) -> &[Puzzle] {
    let all = cat.shipped(v);
    let third = all.len() / 3;
    &all[third..all.len() - third]
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Which of `n` puzzles is day `day`'s (days since 1970-01-01, UTC) for `v`: a step prime to
/// `n` walks through all of them before one comes again, so that `n` days in a row each
/// have their own; each variant starts at its own place.
pub fn pick(day: i64, v: Variant, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    let mut step = (n * 5 / 8).max(1);
    while gcd(step, n) != 1 {
        step += 1;
    }
    let start = v.index() * n / 3;
    (day.rem_euclid(n as i64) as usize * step + start) % n
}

/// The daily puzzle with its day.
#[derive(Serialize)]
pub(super) struct Daily {
    /// `YYYY-MM-DD`, UTC.
    date: String,
    #[serde(flatten)]
    puzzle: Shown,
}

pub(super) async fn daily(
    Extension(live): Cat,
    Extension(clock): Extension<Clock>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Json<Daily>> {
    let (v, _) = variant_and_theme(&q)?;
    let now = clock.now_ms();
    let day = now.div_euclid(DAY_MS);
    let cat = live.now();
    let list = medium(&cat, v);
    let p = list
        .get(pick(day, v, list.len()))
        .ok_or_else(|| ApiError::not_found(format!("there are no {} puzzles", v.id())))?;
    Ok(Json(Daily {
        date: crate::util::record_date(now).replace('.', "-"),
        puzzle: view(p, true),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_puzzle_comes_once_in_n_days() {
        for n in [1, 2, 7, 10, 700, 701] {
            let mut seen: Vec<usize> = (0..n as i64)
                .map(|d| pick(20_000 + d, Variant::Kete, n))
                .collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), n);
        }
    }
}
